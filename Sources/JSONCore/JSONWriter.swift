/// Writes ``JSONValue``s as JSON text.
///
/// The default output is compact: no whitespace, and never a newline (line breaks in
/// strings are escaped), so one value is one line, which is what stdio framing needs.
/// Object keys are written in the object's order, or sorted with ``sortsKeys``.
///
/// Doubles are written in the shortest form that reads back to the same `Double`,
/// always with a fraction or an exponent (`1.0`, `-0.0`, `1e+16`), so a double never
/// reads back as an integer. A non-finite double (infinity, NaN) has no JSON form and
/// is an error.
///
/// ```swift
/// let line = try JSONWriter().string(from: message)
/// let bytes = try value.jsonBytes()
/// ```
public struct JSONWriter: Sendable {
    /// Whether object keys are written in ascending order instead of the object's own.
    public var sortsKeys: Bool
    /// Whether output is indented over several lines, for people to read.
    public var prettyPrints: Bool

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - sortsKeys: Write object keys in ascending order instead of the object's own.
    ///   - prettyPrints: Indent output over several lines (two spaces a level).
    public init(sortsKeys: Bool = false, prettyPrints: Bool = false) {
        self.sortsKeys = sortsKeys
        self.prettyPrints = prettyPrints
    }

    /// Appends `value`'s JSON text, as UTF-8, to `buffer`.
    ///
    /// - Throws: ``JSONWriteError`` when the value holds a non-finite double; `buffer`
    ///   then holds part of the text.
    public func write(_ value: JSONValue, into buffer: inout [UInt8]) throws(JSONWriteError) {
        var emitter = Emitter(sortsKeys: sortsKeys, prettyPrints: prettyPrints, nonFiniteAsText: false)
        do {
            try emitter.write(value, into: &buffer)
        } catch {
            // Rare path: find where the non-finite number is, rather than tracking a path on every write.
            let location = value.firstNonFiniteNumber() ?? JSONPointer()
            throw JSONWriteError(location: location, detail: "\(error.number) has no JSON representation")
        }
    }

    /// `value`'s JSON text as UTF-8 bytes.
    ///
    /// - Throws: ``JSONWriteError`` when the value holds a non-finite double.
    public func bytes(from value: JSONValue) throws(JSONWriteError) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(128)
        try write(value, into: &buffer)
        return buffer
    }

    /// `value`'s JSON text.
    ///
    /// - Throws: ``JSONWriteError`` when the value holds a non-finite double.
    public func string(from value: JSONValue) throws(JSONWriteError) -> String {
        String(decoding: try bytes(from: value), as: UTF8.self)
    }
}

/// Why a value could not be written as JSON.
public struct JSONWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the value that could not be written is.
    public let location: JSONPointer
    /// A sentence that says what is wrong.
    public let detail: String

    public var description: String {
        "cannot write JSON at \(location.description.isEmpty ? "the root" : location.description): \(detail)"
    }
}

extension JSONValue {
    /// This value as compact JSON text, with keys in each object's own order.
    ///
    /// - Throws: ``JSONWriteError`` when the value holds a non-finite double.
    public func jsonString(sortingKeys: Bool = false) throws(JSONWriteError) -> String {
        try JSONWriter(sortsKeys: sortingKeys).string(from: self)
    }

    /// This value as compact JSON text in UTF-8, with keys in each object's own order.
    ///
    /// - Throws: ``JSONWriteError`` when the value holds a non-finite double.
    public func jsonBytes(sortingKeys: Bool = false) throws(JSONWriteError) -> [UInt8] {
        try JSONWriter(sortsKeys: sortingKeys).bytes(from: self)
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text; a non-finite double appears as `NaN`, `Infinity` or `-Infinity`.
    public var description: String {
        var emitter = Emitter(sortsKeys: false, prettyPrints: false, nonFiniteAsText: true)
        var buffer: [UInt8] = []
        do {
            try emitter.write(self, into: &buffer)
        } catch {
            return "<\(error.number)>"  // Unreachable: non-finite numbers are written as text here.
        }
        return String(decoding: buffer, as: UTF8.self)
    }
}

// MARK: - The emitter

/// The character after the backslash that escapes `byte` in a JSON string (0: none needed;
/// 'u': a \u00XX escape).
///
/// A switch, not a table: a global table is a lazy global, read through its once-token and
/// retained on every string written.
@inline(__always)
private func escapeCharacter(for byte: UInt8) -> UInt8 {
    switch byte {
    case 0x22, 0x5C: byte
    case 0x08: UInt8(ascii: "b")
    case 0x09: UInt8(ascii: "t")
    case 0x0A: UInt8(ascii: "n")
    case 0x0C: UInt8(ascii: "f")
    case 0x0D: UInt8(ascii: "r")
    case 0..<0x20: UInt8(ascii: "u")
    default: 0
    }
}

/// The lowercase hexadecimal digit of `nibble` (0...15).
@inline(__always)
private func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble
}

private struct Emitter {
    let sortsKeys: Bool
    let prettyPrints: Bool
    let nonFiniteAsText: Bool
    var indent = 0

    init(sortsKeys: Bool, prettyPrints: Bool, nonFiniteAsText: Bool) {
        self.sortsKeys = sortsKeys
        self.prettyPrints = prettyPrints
        self.nonFiniteAsText = nonFiniteAsText
    }

    mutating func write(_ value: JSONValue, into buffer: inout [UInt8]) throws(NonFiniteNumber) {
        switch value {
        case .null:
            buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
        case .bool(true):
            buffer.append(contentsOf: [0x74, 0x72, 0x75, 0x65])  // true
        case .bool(false):
            buffer.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])  // false
        case .int(let number):
            writeInteger(number, into: &buffer)
        case .double(let number):
            try writeDouble(number, into: &buffer)
        case .string(let text):
            writeString(text, into: &buffer)
        case .array(let elements):
            buffer.append(0x5B)
            if elements.isEmpty {
                buffer.append(0x5D)
                return
            }
            indent += 1
            for (offset, element) in elements.enumerated() {
                if offset > 0 { buffer.append(0x2C) }
                newline(&buffer)
                try write(element, into: &buffer)
            }
            indent -= 1
            newline(&buffer)
            buffer.append(0x5D)
        case .object(let object):
            buffer.append(0x7B)
            if object.isEmpty {
                buffer.append(0x7D)
                return
            }
            indent += 1
            var first = true
            if sortsKeys {
                for entry in object.entries.sorted(by: { $0.key < $1.key }) {
                    try writeMember(entry.key, entry.value, first: &first, into: &buffer)
                }
            } else {
                for entry in object.entries {
                    try writeMember(entry.key, entry.value, first: &first, into: &buffer)
                }
            }
            indent -= 1
            newline(&buffer)
            buffer.append(0x7D)
        }
    }

    mutating func writeMember(
        _ key: String, _ value: JSONValue, first: inout Bool, into buffer: inout [UInt8]
    ) throws(NonFiniteNumber) {
        if !first { buffer.append(0x2C) }
        first = false
        newline(&buffer)
        writeString(key, into: &buffer)
        buffer.append(0x3A)
        if prettyPrints { buffer.append(0x20) }
        try write(value, into: &buffer)
    }

    func newline(_ buffer: inout [UInt8]) {
        guard prettyPrints else { return }
        buffer.append(0x0A)
        buffer.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    func writeInteger(_ number: Int, into buffer: inout [UInt8]) {
        if number >= 0 && number < 10 {
            buffer.append(0x30 + UInt8(number))
            return
        }
        var magnitude = number.magnitude
        if number < 0 { buffer.append(0x2D) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            while magnitude > 0 {
                let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
                digits[19 - count] = 0x30 + UInt8(remainder)
                count += 1
                magnitude = quotient
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    func writeDouble(_ number: Double, into buffer: inout [UInt8]) throws(NonFiniteNumber) {
        guard number.isFinite else {
            if nonFiniteAsText {
                buffer.append(contentsOf: (number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity").utf8)
                return
            }
            throw NonFiniteNumber(number: number)
        }
        // Swift's description is the shortest text that reads back to the same Double, and
        // always has a '.' or an exponent ("1.0", "1e-07", "5e-324"): valid JSON as it is.
        buffer.append(contentsOf: number.description.utf8)
    }

    func writeString(_ text: String, into buffer: inout [UInt8]) {
        // A native string is contiguous: read in place. `withUTF8` (for the others) is
        // mutating, and on a copy checked the storage's uniqueness on every string.
        if text.utf8.withContiguousStorageIfAvailable({ writeString(utf8: $0, into: &buffer) }) != nil { return }
        var text = text
        text.withUTF8 { writeString(utf8: $0, into: &buffer) }
    }

    private func writeString(utf8: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8]) {
        buffer.append(0x22)
        defer { buffer.append(0x22) }
        guard let base = utf8.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let count = utf8.count
        var runStart = 0
        var index = 0
        while index < count {
            // Eight bytes at a time while none needs escaping; then the next eight (or
            // fewer, at the end) one by one.
            while index &+ 8 <= count, !StringWords.needsEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index &+= 8
            }
            let end = min(index &+ 8, count)
            while index < end {
                let byte = utf8[index]
                index &+= 1
                let escape = escapeCharacter(for: byte)
                guard escape != 0 else { continue }
                if runStart < index &- 1 {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<(index &- 1)]))
                }
                buffer.append(0x5C)
                buffer.append(escape)
                if escape == UInt8(ascii: "u") {
                    buffer.append(contentsOf: [0x30, 0x30, hexDigit(byte >> 4), hexDigit(byte & 0xF)])
                }
                runStart = index
            }
        }
        if runStart < count {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }
}

private struct NonFiniteNumber: Error {
    let number: Double
}

extension JSONValue {
    /// The location of the first infinite or NaN double in this value, if any.
    fileprivate func firstNonFiniteNumber() -> JSONPointer? {
        switch self {
        case .double(let number) where !number.isFinite:
            return JSONPointer()
        case .array(let elements):
            for (offset, element) in elements.enumerated() {
                if let inner = element.firstNonFiniteNumber() {
                    return JSONPointer(tokens: [String(offset)] + inner.tokens)
                }
            }
            return nil
        case .object(let object):
            for (key, value) in object {
                if let inner = value.firstNonFiniteNumber() {
                    return JSONPointer(tokens: [key] + inner.tokens)
                }
            }
            return nil
        default:
            return nil
        }
    }
}
