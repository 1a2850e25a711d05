/// How to close a JSON document cut before its end: which bytes of it to keep, and what to
/// append so that the strict reader reads what was complete.
///
/// A state machine fed one byte at a time (``consume(_:)``) that knows, at every point, what is
/// open: the arrays and objects, a string (a key or a value), an escape sequence, or a bare
/// number or literal. ``closing(of:)`` then says how to finish the text:
///
/// - an open value string is closed, after dropping a cut escape sequence (a lone `\`, a `\u`
///   with fewer than four hex digits, a high surrogate whose low half never came) and a cut
///   UTF-8 sequence;
/// - a key that is cut, or whose value never came (`"k`, `"k"`, `"k":`), is dropped, and so is
///   a cut literal (`tru`) or a number that cannot end where it was cut (`1.`, `-`, `2e`),
///   with its key;
/// - a dangling `,` is dropped;
/// - open arrays and objects are closed, innermost first.
///
/// It does not check the grammar: the strict reader does that on the closed text.
struct JSONPrefixCloser {
    /// What to do with a cut document.
    struct Closing: Equatable {
        /// How many bytes of the cut text to keep.
        var keep: Int
        /// The bytes to append after them.
        var suffix: [UInt8]
    }

    /// An open array or object, and in an object where its latest key starts.
    private struct Container {
        var isObject: Bool
        var keyStart: Int?
    }

    private enum Token {
        /// Between tokens.
        case none
        /// Inside a string that started at `start`.
        case string(start: Int, isKey: Bool)
        /// Inside a number or a literal that started at `start`.
        case bare(start: Int)
    }

    private var containers: [Container] = []
    private var token = Token.none
    /// The byte after a backslash inside a string is next.
    private var escaped = false
    /// Hex digits of a `\u` escape still to come (0 outside one), and where it started.
    private var hexDigitsLeft = 0
    private var escapeStart = 0
    /// Where a `\u` escape for a high surrogate started while its low half has not been read.
    private var pendingHighSurrogate: Int?
    private var hexValue: UInt32 = 0
    /// The last byte outside strings that is not whitespace, and whether the last string read
    /// was a key (so an object now waits for a `:`).
    private var lastSignificant: UInt8?
    private var lastStringWasKey = false
    /// The top-level value ended (a closed container or string): more text cannot be closed.
    private var topLevelEnded = false
    /// The text cannot be the start of a document this closer understands.
    private var invalid = false
    private var position = 0

    init() {}

    /// Reads the next byte of the cut text.
    mutating func consume(_ byte: UInt8) {
        defer { position += 1 }
        guard !invalid else { return }
        if case .string(let start, let isKey) = token {
            consumeInString(byte, start: start, isKey: isKey)
            return
        }
        if case .bare = token {
            if Self.isBareByte(byte) { return }
            token = .none
        }
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09:
            return
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard !topLevelEnded else { return fail() }
            containers.append(Container(isObject: byte == UInt8(ascii: "{")))
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            guard let open = containers.popLast(), open.isObject == (byte == UInt8(ascii: "}")) else { return fail() }
            if containers.isEmpty { topLevelEnded = true }
        case UInt8(ascii: ":"), UInt8(ascii: ","):
            guard !containers.isEmpty else { return fail() }
        case UInt8(ascii: "\""):
            guard !topLevelEnded else { return fail() }
            let isKey =
                containers.last?.isObject == true
                && (lastSignificant == UInt8(ascii: "{") || lastSignificant == UInt8(ascii: ","))
            if isKey { containers[containers.count - 1].keyStart = position }
            token = .string(start: position, isKey: isKey)
        default:
            guard !topLevelEnded, Self.isBareByte(byte) else { return fail() }
            token = .bare(start: position)
        }
        lastSignificant = byte
        lastStringWasKey = false
    }

    private mutating func consumeInString(_ byte: UInt8, start: Int, isKey: Bool) {
        if hexDigitsLeft > 0 {
            hexValue = hexValue << 4 | UInt32(Self.hexDigit(byte) ?? 0)
            hexDigitsLeft -= 1
            if hexDigitsLeft == 0 { finishUnicodeEscape() }
            return
        }
        if escaped {
            escaped = false
            if byte == UInt8(ascii: "u") {
                hexDigitsLeft = 4
                hexValue = 0
            } else {
                pendingHighSurrogate = nil
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\\"):
            escaped = true
            escapeStart = position
        case UInt8(ascii: "\""):
            pendingHighSurrogate = nil
            token = .none
            lastSignificant = byte
            lastStringWasKey = isKey
            if containers.isEmpty { topLevelEnded = true }
        default:
            pendingHighSurrogate = nil
        }
    }

    private mutating func finishUnicodeEscape() {
        if pendingHighSurrogate != nil {
            // The low half came (or something else did: the strict reader says which).
            pendingHighSurrogate = nil
        } else if (0xD800...0xDBFF).contains(hexValue) {
            pendingHighSurrogate = escapeStart
        }
    }

    private mutating func fail() {
        invalid = true
    }

    /// How to close `text`, the bytes this closer consumed; `nil` when there is nothing to close
    /// (the document ended, or never started) or the text is not the start of a document.
    func closing(of text: UnsafeBufferPointer<UInt8>) -> Closing? {
        guard !invalid, !topLevelEnded, text.count == position else { return nil }
        var keep = position
        var suffix: [UInt8] = []
        switch token {
        case .string(let start, let isKey):
            if isKey {
                keep = Self.trimmingComma(text, before: start)
            } else {
                if let pendingHighSurrogate {
                    keep = pendingHighSurrogate
                } else if escaped || hexDigitsLeft > 0 {
                    keep = escapeStart
                } else {
                    keep = Self.trimmingCutUTF8(text, before: keep, after: start)
                }
                suffix.append(UInt8(ascii: "\""))
            }
        case .bare(let start):
            guard !containers.isEmpty, Self.isCutBareValue(text[start..<position]) else { return nil }
            // A number cut after a digit reads as the digits so far; a whole literal as itself.
            let token = text[start..<position]
            let endsInDigit = token.last.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
            let isLiteral = ["true", "false", "null"].contains { $0.utf8.elementsEqual(token) }
            if !endsInDigit && !isLiteral { keep = droppingValue(text, start: start) }
        case .none:
            guard let lastSignificant, !containers.isEmpty else { return nil }
            if lastSignificant == UInt8(ascii: ":") || (lastSignificant == UInt8(ascii: "\"") && lastStringWasKey) {
                keep = droppingValue(text, start: position)
            } else if lastSignificant == UInt8(ascii: ",") {
                keep = Self.trimmingComma(text, before: position)
            }
        }
        for container in containers.reversed() {
            suffix.append(container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        return Closing(keep: keep, suffix: suffix)
    }

    /// Where the text is cut to drop a value that starts at `start` (or never came), with its key
    /// in an object.
    private func droppingValue(_ text: UnsafeBufferPointer<UInt8>, start: Int) -> Int {
        guard let innermost = containers.last else { return start }
        let from = innermost.isObject ? (innermost.keyStart ?? start) : start
        return Self.trimmingComma(text, before: from)
    }

    /// `end` moved back over whitespace and one `,` (whitespace before it too).
    private static func trimmingComma(_ text: UnsafeBufferPointer<UInt8>, before end: Int) -> Int {
        var end = trimmingSpace(text, before: end)
        if end > 0, text[end - 1] == UInt8(ascii: ",") { end = trimmingSpace(text, before: end - 1) }
        return end
    }

    private static func trimmingSpace(_ text: UnsafeBufferPointer<UInt8>, before end: Int) -> Int {
        var end = end
        while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(text[end - 1]) { end -= 1 }
        return end
    }

    /// `end` moved back before a UTF-8 sequence that the cut left incomplete (not before `start`).
    private static func trimmingCutUTF8(_ text: UnsafeBufferPointer<UInt8>, before end: Int, after start: Int) -> Int {
        var index = end - 1
        while index > start, index > end - 4, text[index] & 0xC0 == 0x80 { index -= 1 }
        guard index > start else { return end }
        let byte = text[index]
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        return end - index < length ? index : end
    }

    /// Whether `token` can begin a number or a literal (`tru`, `-1.`), the only bare values.
    private static func isCutBareValue(_ token: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = token.first else { return false }
        if first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
            return token.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
            }
        }
        return ["true", "false", "null"].contains { literal in literal.utf8.starts(with: token) }
    }

    private static func isBareByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
