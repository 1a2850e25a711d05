/// A strict RFC 8259 JSON reader that produces ``JSONValue``s.
///
/// It accepts exactly the JSON grammar: no comments, no trailing commas, no leading
/// zeros, no single quotes, no unescaped control characters in strings, no lone
/// UTF-16 surrogates in `\u` escapes, and only well-formed UTF-8. Whitespace around the
/// top-level value is allowed; anything else after it is an error.
///
/// Numbers without a fraction or exponent that fit in `Int` become ``JSONValue/int(_:)``
/// (`-0` becomes `0`); other numbers become ``JSONValue/double(_:)``, parsed to the
/// nearest `Double` (integers beyond `Int`'s range become doubles too). A number whose
/// magnitude is too large for a `Double` (`1e400`) is an error rather than infinity.
///
/// Nesting is bounded by ``maximumDepth``, so hostile input such as `[[[[…` fails with
/// an error instead of exhausting the stack. Every error carries the byte offset where
/// the problem was found.
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
/// let tolerant = try JSONReader(duplicateKeys: .keepLast).read(text)
/// ```
public struct JSONReader: Sendable {
    /// What to do with an object that has the same key twice.
    ///
    /// RFC 8259 leaves this to the implementation. The default, ``reject``, refuses the
    /// document, so that two readers can never disagree about what it means.
    public struct DuplicateKeyPolicy: Hashable, Sendable {
        private let keepsLast: Bool

        /// Refuse the document with ``JSONReadError/Reason/duplicateKey``.
        public static let reject = DuplicateKeyPolicy(keepsLast: false)
        /// Keep the key at its first position with the last value given for it, as
        /// JavaScript's `JSON.parse` does.
        public static let keepLast = DuplicateKeyPolicy(keepsLast: true)

        internal var rejects: Bool { !keepsLast }
    }

    /// The default limit on nesting of arrays and objects.
    public static let defaultMaximumDepth = 512

    /// How deeply arrays and objects may nest; the top-level array or object is depth 1.
    public var maximumDepth: Int
    /// What to do with repeated keys in an object.
    public var duplicateKeys: DuplicateKeyPolicy

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - maximumDepth: How deeply arrays and objects may nest (at least 1).
    ///   - duplicateKeys: What to do with repeated keys in an object.
    public init(
        maximumDepth: Int = JSONReader.defaultMaximumDepth,
        duplicateKeys: DuplicateKeyPolicy = .reject
    ) {
        self.maximumDepth = max(1, maximumDepth)
        self.duplicateKeys = duplicateKeys
    }

    /// Reads one JSON value from UTF-8 bytes.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset.
    public func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> JSONValue {
        var parser = Parser(bytes: bytes, maximumDepth: maximumDepth, rejectsDuplicates: duplicateKeys.rejects)
        return try parser.parseDocument()
    }

    /// Reads one JSON value from UTF-8 bytes.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset.
    public func read<Bytes: Collection>(_ bytes: Bytes) throws(JSONReadError) -> JSONValue
    where Bytes.Element == UInt8 {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONReadError) in try read(buffer) }
        }
        if let result {
            return try result.get()
        }
        return try Array(bytes).withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) in try read(buffer) }
        }.get()
    }

    /// Reads one JSON value from a string.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset in the
    ///   string's UTF-8 form.
    public func read(_ text: String) throws(JSONReadError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONReadError) in try read(buffer) }
        }.get()
    }
}

extension JSONValue {
    /// Reads a JSON value from text with the default ``JSONReader``.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset.
    public init(parsing text: String) throws(JSONReadError) {
        self = try JSONReader().read(text)
    }

    /// Reads a JSON value from UTF-8 bytes with the default ``JSONReader``.
    ///
    /// - Throws: ``JSONReadError`` naming the problem and its byte offset.
    public init<Bytes: Collection>(parsing bytes: Bytes) throws(JSONReadError) where Bytes.Element == UInt8 {
        self = try JSONReader().read(bytes)
    }
}

// MARK: - The parser

private enum ASCII {
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C
    static let slash: UInt8 = 0x2F
    static let comma: UInt8 = 0x2C
    static let colon: UInt8 = 0x3A
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let lowerE: UInt8 = 0x65
    static let upperE: UInt8 = 0x45

    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
    }
}

/// Powers of ten that a `Double` holds exactly, for the fast number path.
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let rejectsDuplicates: Bool
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, rejectsDuplicates: Bool) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.rejectsDuplicates = rejectsDuplicates
    }

    mutating func parseDocument() throws(JSONReadError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else {
            throw JSONReadError(.unexpectedEndOfInput, at: position, "expected a JSON value, found no input")
        }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < bytes.count {
            throw JSONReadError(
                .trailingContent, at: position,
                "expected the end of input after the value, found \(ASCII.describe(bytes[position]))")
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case ASCII.space, ASCII.newline, ASCII.carriageReturn, ASCII.tab:
                position += 1
            default:
                return
            }
        }
    }

    func endOfInput(_ expectation: String) -> JSONReadError {
        JSONReadError(.unexpectedEndOfInput, at: position, "unexpected end of input: expected \(expectation)")
    }

    mutating func parseValue(depth: Int) throws(JSONReadError) -> JSONValue {
        guard position < bytes.count else { throw endOfInput("a value") }
        switch bytes[position] {
        case ASCII.quote:
            return .string(try parseString())
        case ASCII.openBrace:
            return try parseObject(depth: depth + 1)
        case ASCII.openBracket:
            return try parseArray(depth: depth + 1)
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return try parseNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case let byte:
            throw JSONReadError(.unexpectedCharacter, at: position, "expected a value, found \(ASCII.describe(byte))")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count {
            guard start + offset < bytes.count else {
                throw JSONReadError(.unexpectedEndOfInput, at: start + offset, "unexpected end of input inside '\(literal)'")
            }
            guard bytes[start + offset] == text[offset] else {
                throw JSONReadError(.unexpectedCharacter, at: start, "expected a value; did you mean '\(literal)'?")
            }
        }
        position = start + count
    }

    mutating func enter(depth: Int) throws(JSONReadError) {
        if depth > maximumDepth {
            throw JSONReadError(
                .nestingTooDeep, at: position,
                "arrays and objects are nested more than \(maximumDepth) levels deep")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONReadError) -> JSONValue {
        try enter(depth: depth)
        position += 1  // [
        skipWhitespace()
        guard position < bytes.count else { throw endOfInput("a value or ']'") }
        if bytes[position] == ASCII.closeBracket {
            position += 1
            return .array([])
        }
        var elements: [JSONValue] = []
        elements.reserveCapacity(4)
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput("',' or ']'") }
            switch bytes[position] {
            case ASCII.comma:
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == ASCII.closeBracket {
                    throw JSONReadError(.trailingComma, at: position - 1, "trailing comma before ']'")
                }
            case ASCII.closeBracket:
                position += 1
                return .array(elements)
            case let byte:
                throw JSONReadError(
                    .unexpectedCharacter, at: position,
                    "expected ',' or ']' after an array element, found \(ASCII.describe(byte))")
            }
        }
    }

    mutating func parseObject(depth: Int) throws(JSONReadError) -> JSONValue {
        try enter(depth: depth)
        position += 1  // {
        skipWhitespace()
        guard position < bytes.count else { throw endOfInput("a key or '}'") }
        if bytes[position] == ASCII.closeBrace {
            position += 1
            return .object(JSONObject())
        }
        // Most objects in MCP messages have a handful of keys: one allocation covers them.
        var entries: [JSONObject.Entry] = []
        entries.reserveCapacity(6)
        // Positions of keys, once the object is too large to search linearly for duplicates.
        var keyPositions: [String: Int]?
        while true {
            guard position < bytes.count else { throw endOfInput("a key") }
            guard bytes[position] == ASCII.quote else {
                if bytes[position] == ASCII.closeBrace {
                    throw JSONReadError(.trailingComma, at: position, "trailing comma before '}'")
                }
                throw JSONReadError(
                    .unexpectedCharacter, at: position,
                    "expected a string key, found \(ASCII.describe(bytes[position]))")
            }
            let keyStart = position
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput("':'") }
            guard bytes[position] == ASCII.colon else {
                throw JSONReadError(
                    .unexpectedCharacter, at: position,
                    "expected ':' after an object key, found \(ASCII.describe(bytes[position]))")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            let existing: Int?
            if let keyPositions {
                existing = keyPositions[key]
            } else {
                // Comparing lengths first skips most of String's Unicode-aware comparison.
                let length = key.utf8.count
                existing = entries.firstIndex { $0.key.utf8.count == length && JSONObject.sameKey($0.key, key) }
            }
            if let existing {
                if rejectsDuplicates {
                    throw JSONReadError(.duplicateKey, at: keyStart, "the key \"\(key)\" appears twice in one object")
                }
                entries[existing].value = value
            } else {
                entries.append(JSONObject.Entry(key: key, value: value))
                if keyPositions != nil {
                    keyPositions?[key] = entries.count - 1
                } else if entries.count > JSONObject.linearSearchLimit {
                    var positions: [String: Int] = [:]
                    for (position, entry) in entries.enumerated() {
                        positions[entry.key] = position
                    }
                    keyPositions = positions
                }
            }
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput("',' or '}'") }
            switch bytes[position] {
            case ASCII.comma:
                position += 1
                skipWhitespace()
            case ASCII.closeBrace:
                position += 1
                return .object(JSONObject(uniqueEntries: entries))
            case let byte:
                throw JSONReadError(
                    .unexpectedCharacter, at: position,
                    "expected ',' or '}' after an object value, found \(ASCII.describe(byte))")
            }
        }
    }

    // MARK: Strings

    mutating func parseString() throws(JSONReadError) -> String {
        let openQuote = position
        position += 1
        let start = position
        var highBits: UInt8 = 0
        // Fast path: no escapes.
        skipPlainASCII()
        while position < bytes.count {
            let byte = bytes[position]
            if byte == ASCII.quote {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<position])
                if highBits & 0x80 != 0 {
                    try validateUTF8(run, offset: start)
                }
                position += 1
                return String(decoding: run, as: UTF8.self)
            }
            if byte == ASCII.backslash {
                return try parseEscapedString(from: start)
            }
            if byte < 0x20 {
                throw controlCharacter(byte)
            }
            highBits |= byte
            position += 1
        }
        throw JSONReadError(.unexpectedEndOfInput, at: position, "unterminated string starting at byte \(openQuote)")
    }

    /// Moves past plain ASCII string bytes eight at a time, while eight are left.
    @inline(__always)
    mutating func skipPlainASCII() {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while position &+ 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            if Self.needsAttention(word) { return }
            position &+= 8
        }
    }

    /// Whether any of eight bytes is a quote, a backslash, a control character or not ASCII.
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes & highs
        let hasBackslash = (backslashes &- ones) & ~backslashes & highs
        let hasControl = (word &- ones &* 0x20) & ~word & highs
        return (hasQuote | hasBackslash | hasControl | (word & highs)) != 0
    }

    func controlCharacter(_ byte: UInt8) -> JSONReadError {
        JSONReadError(
            .controlCharacterInString, at: position,
            "control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) must be escaped in a string")
    }

    /// Continues a string that has escapes; `start` is the first byte after the quote.
    mutating func parseEscapedString(from start: Int) throws(JSONReadError) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(position - start + 16)
        var runStart = start
        while position < bytes.count {
            skipPlainASCII()
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == ASCII.quote {
                try appendRun(from: runStart, into: &utf8)
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte < 0x20 {
                throw controlCharacter(byte)
            }
            guard byte == ASCII.backslash else {
                position += 1
                continue
            }
            try appendRun(from: runStart, into: &utf8)
            let escapeStart = position
            position += 1
            guard position < bytes.count else { break }
            switch bytes[position] {
            case ASCII.quote: utf8.append(ASCII.quote)
            case ASCII.backslash: utf8.append(ASCII.backslash)
            case ASCII.slash: utf8.append(ASCII.slash)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                position += 1
                let scalar = try parseUnicodeEscape(escapeStart: escapeStart)
                appendUTF8(scalar, to: &utf8)
                runStart = position
                continue
            case let other:
                throw JSONReadError(
                    .invalidEscape, at: escapeStart,
                    "'\\\(Character(Unicode.Scalar(other)))' is not a JSON escape; use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX")
            }
            position += 1
            runStart = position
        }
        throw JSONReadError(.unexpectedEndOfInput, at: position, "unterminated string starting at byte \(start - 1)")
    }

    /// Appends the unescaped bytes from `runStart` up to `position`, validating UTF-8.
    func appendRun(from runStart: Int, into utf8: inout [UInt8]) throws(JSONReadError) {
        guard runStart < position else { return }
        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
        try validateUTF8(run, offset: runStart)
        utf8.append(contentsOf: run)
    }

    /// Parses the four hex digits after `\u` (and a following low surrogate escape).
    mutating func parseUnicodeEscape(escapeStart: Int) throws(JSONReadError) -> Unicode.Scalar {
        let first = try parseHex4(escapeStart: escapeStart)
        switch first {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed by `\u` and a low surrogate.
            guard position + 1 < bytes.count, bytes[position] == ASCII.backslash,
                bytes[position + 1] == UInt8(ascii: "u")
            else {
                throw JSONReadError(
                    .loneSurrogate, at: escapeStart,
                    "\\u\(hex4(first)) is a high surrogate without a following low surrogate escape")
            }
            let secondStart = position
            position += 2
            let second = try parseHex4(escapeStart: secondStart)
            guard (0xDC00...0xDFFF).contains(second) else {
                throw JSONReadError(
                    .loneSurrogate, at: escapeStart,
                    "\\u\(hex4(first)) is a high surrogate followed by \\u\(hex4(second)), which is not a low surrogate")
            }
            let value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        case 0xDC00...0xDFFF:
            throw JSONReadError(
                .loneSurrogate, at: escapeStart, "\\u\(hex4(first)) is a low surrogate without a high surrogate before it")
        default:
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        }
    }

    func hex4(_ value: UInt16) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    mutating func parseHex4(escapeStart: Int) throws(JSONReadError) -> UInt16 {
        guard position + 4 <= bytes.count else {
            throw JSONReadError(.invalidEscape, at: escapeStart, "\\u must be followed by four hexadecimal digits")
        }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: digit = byte - ASCII.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONReadError(.invalidEscape, at: escapeStart, "\\u must be followed by four hexadecimal digits")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    func appendUTF8(_ scalar: Unicode.Scalar, to utf8: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            utf8.append(UInt8(value))
        case 0x80..<0x800:
            utf8.append(UInt8(0xC0 | (value >> 6)))
            utf8.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            utf8.append(UInt8(0xE0 | (value >> 12)))
            utf8.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            utf8.append(UInt8(0x80 | (value & 0x3F)))
        default:
            utf8.append(UInt8(0xF0 | (value >> 18)))
            utf8.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            utf8.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            utf8.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// Checks well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
    func validateUTF8(_ run: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONReadError) {
        var index = 0
        let count = run.count
        guard let base = run.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index < count {
            // Skip ASCII eight bytes at a time.
            while index &+ 8 <= count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index &+= 8
            }
            guard index < count else { return }
            let lead = run[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lowerBound: UInt8 = 0x80
            var upperBound: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lowerBound = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upperBound = 0x9F
            case 0xF0: length = 4; lowerBound = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upperBound = 0x8F
            default:
                throw JSONReadError(.invalidUTF8, at: offset + index, "byte 0x\(String(lead, radix: 16, uppercase: true)) is not valid UTF-8")
            }
            guard index + length <= count else {
                throw JSONReadError(.invalidUTF8, at: offset + index, "truncated UTF-8 sequence")
            }
            let second = run[index + 1]
            guard second >= lowerBound && second <= upperBound else {
                throw JSONReadError(.invalidUTF8, at: offset + index, "invalid UTF-8 sequence")
            }
            for continuation in 2..<max(2, length) where run[index + continuation] & 0xC0 != 0x80 {
                throw JSONReadError(.invalidUTF8, at: offset + index, "invalid UTF-8 sequence")
            }
            index += length
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONReadError) -> JSONValue {
        let start = position
        var negative = false
        if bytes[position] == ASCII.minus {
            negative = true
            position += 1
        }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw JSONReadError(.invalidNumber, at: start, "'-' must be followed by a digit")
        }
        // Integer part.
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var mantissaOverflowed = false
        if bytes[position] == ASCII.zero {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw JSONReadError(.invalidNumber, at: start, "numbers must not have leading zeros")
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) {
                accumulate(bytes[position], into: &mantissa, digits: &significantDigits, overflowed: &mantissaOverflowed)
                position += 1
            }
        }
        var isInteger = true
        var fractionDigits = 0
        if position < bytes.count, bytes[position] == ASCII.dot {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw JSONReadError(.invalidNumber, at: start, "a decimal point must be followed by a digit")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                accumulate(bytes[position], into: &mantissa, digits: &significantDigits, overflowed: &mantissaOverflowed)
                fractionDigits += 1
                position += 1
            }
        }
        var exponent = 0
        if position < bytes.count, bytes[position] == ASCII.lowerE || bytes[position] == ASCII.upperE {
            isInteger = false
            position += 1
            var exponentNegative = false
            if position < bytes.count, bytes[position] == ASCII.plus || bytes[position] == ASCII.minus {
                exponentNegative = bytes[position] == ASCII.minus
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw JSONReadError(.invalidNumber, at: start, "an exponent must have at least one digit")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                if exponent < 100_000 {
                    exponent = exponent * 10 + Int(bytes[position] - ASCII.zero)
                }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        if isInteger && !mantissaOverflowed {
            if negative {
                if mantissa <= UInt64(Int.max) {
                    return .int(-Int(mantissa))
                }
                if mantissa == UInt64(Int.max) + 1 {
                    return .int(Int.min)
                }
            } else if mantissa <= UInt64(Int.max) {
                return .int(Int(mantissa))
            }
        }

        // Clinger's fast path: exact when the digits and the power of ten are both exact doubles.
        let decimalExponent = exponent - fractionDigits
        if !mantissaOverflowed, mantissa <= (1 << 53), abs(decimalExponent) <= 22 {
            var value = Double(mantissa)
            if decimalExponent < 0 {
                value /= exactPowersOfTen[-decimalExponent]
            } else {
                value *= exactPowersOfTen[decimalExponent]
            }
            return .double(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text) else {
            throw JSONReadError(.invalidNumber, at: start, "\(text) is not a number")
        }
        guard value.isFinite else {
            throw JSONReadError(.numberOutOfRange, at: start, "\(text) is too large to represent as a 64-bit floating-point number")
        }
        return .double(value)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool {
        byte &- ASCII.zero < 10
    }

    @inline(__always)
    func accumulate(_ digit: UInt8, into mantissa: inout UInt64, digits: inout Int, overflowed: inout Bool) {
        if mantissa == 0 && digit == ASCII.zero { return }  // leading zeros of a fraction are not significant
        digits += 1
        let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - ASCII.zero))
        if overflow1 || overflow2 {
            overflowed = true
        } else {
            mantissa = sum
        }
    }
}
