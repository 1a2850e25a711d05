internal import JSONCore
internal import MCPCore

/// Finds the `id` of a JSON-RPC message in the first bytes of a frame that could not be
/// read whole (too long, not valid JSON, nested too deeply), so that the call it answers
/// can fail at once instead of waiting for its timeout.
///
/// The scan is bounded: it looks at no more than ``prefixLength`` bytes, keeps no state
/// beyond a position and a nesting count, and never recurses. It reads the text as a JSON
/// object and returns the value of its first top-level `"id"` member when that is an
/// integer or a string. Everything after that member is ignored, so text that is cut off
/// or nested too deeply later on does not matter. Members before it are skipped whatever
/// they hold (a large `"result"`, nested objects with `"id"` keys of their own); keys are
/// compared after decoding their escapes (`"\u0069d"` is `"id"`). When the prefix ends
/// before the `id` member is complete, or the text is not an object, there is no id.
enum FrameIDScanner {
    /// The most bytes of a frame the scanner looks at.
    static let prefixLength = 4096

    /// The id in the first ``prefixLength`` bytes of `bytes`, if one can be found.
    static func id(in bytes: some Collection<UInt8>) -> RequestID? {
        if let found = bytes.withContiguousStorageIfAvailable({ id(in: UnsafeRawBufferPointer($0)) }) {
            return found
        }
        return Array(bytes.prefix(prefixLength)).withUnsafeBytes { id(in: $0) }
    }

    /// The id in the first ``prefixLength`` bytes of `bytes`, if one can be found.
    static func id(in bytes: UnsafeRawBufferPointer) -> RequestID? {
        var cursor = Cursor(bytes: UnsafeRawBufferPointer(rebasing: bytes.prefix(prefixLength)))
        cursor.skipWhitespace()
        guard cursor.consume(UInt8(ascii: "{")) else { return nil }
        while true {
            cursor.skipWhitespace()
            guard let key = cursor.readString() else { return nil }
            cursor.skipWhitespace()
            guard cursor.consume(UInt8(ascii: ":")) else { return nil }
            cursor.skipWhitespace()
            if key == Array("id".utf8) { return cursor.readID() }
            guard cursor.skipValue() else { return nil }
            cursor.skipWhitespace()
            guard cursor.consume(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// The id of the request that the first ``prefixLength`` bytes of an over-long frame
    /// begin, or `nil` unless those bytes are well-formed.
    ///
    /// Stricter than ``id(in:)``: the object's complete top-level members (those followed by
    /// `,` or `}` within the prefix) are read again by the strict `reader`, closed with `}`,
    /// and the id counts only when they make a JSON-RPC 2.0 *request*: `"jsonrpc": "2.0"`, a
    /// string `method` and a string or integer `id`, all within the prefix. This is the one
    /// case where an answer to text that was not read whole may name an id, because the
    /// sender certainly sent a request with it.
    static func requestID(inPrefix bytes: some Collection<UInt8>, reader: JSONReader) -> RequestID? {
        let prefix = Array(bytes.prefix(prefixLength))
        let end = prefix.withUnsafeBytes { endOfCompleteMembers(in: $0) }
        guard let end else { return nil }
        var object = prefix[..<end]
        object.append(UInt8(ascii: "}"))
        guard let json = try? reader.read(object), case .request(let request)? = try? JSONRPCMessage(json) else {
            return nil
        }
        return request.id
    }

    /// Where the last complete top-level member of an object ends (the offset of the `,`
    /// or `}` after it), or `nil` when the bytes do not begin an object with one.
    private static func endOfCompleteMembers(in bytes: UnsafeRawBufferPointer) -> Int? {
        var cursor = Cursor(bytes: bytes)
        var end: Int?
        cursor.skipWhitespace()
        guard cursor.consume(UInt8(ascii: "{")) else { return nil }
        while true {
            cursor.skipWhitespace()
            guard cursor.readString() != nil else { return end }
            cursor.skipWhitespace()
            guard cursor.consume(UInt8(ascii: ":")) else { return end }
            cursor.skipWhitespace()
            guard cursor.skipValue() else { return end }
            cursor.skipWhitespace()
            guard let next = cursor.current, next == UInt8(ascii: ",") || next == UInt8(ascii: "}") else { return end }
            end = cursor.position
            guard cursor.consume(UInt8(ascii: ",")) else { return end }
        }
    }

    /// A position in the scanned bytes.
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                position += 1
            }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            position += 1
            return true
        }

        /// The value of the `id` member: an integer or a string, complete within the bytes.
        mutating func readID() -> RequestID? {
            guard let first = current else { return nil }
            if first == UInt8(ascii: "\"") {
                return readString().map { .string(String(decoding: $0, as: UTF8.self)) }
            }
            guard first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else { return nil }
            let negative = consume(UInt8(ascii: "-"))
            var value = 0
            var digits = 0
            while let byte = current, (0x30...0x39).contains(byte) {
                let digit = Int(byte - 0x30)
                let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) =
                    negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
                guard !overflowTimes, !overflowSum else { return nil }
                value = sum
                digits += 1
                position += 1
            }
            // An integer ends with its member; a fraction or an exponent is not an id, and
            // digits at the very end of the bytes may go on beyond them.
            guard digits > 0, let next = current else { return nil }
            switch next {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "}"): return .int(value)
            default: return nil
            }
        }

        /// A string's bytes with its escapes decoded, or `nil` when it is cut off or malformed.
        mutating func readString() -> [UInt8]? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            var decoded: [UInt8] = []
            while let byte = current {
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return decoded
                case UInt8(ascii: "\\"):
                    guard let scalar = readEscape() else { return nil }
                    decoded.append(contentsOf: String(Character(scalar)).utf8)
                case 0x00..<0x20:
                    return nil
                default:
                    decoded.append(byte)
                }
            }
            return nil
        }

        /// The character of an escape whose backslash has been read.
        private mutating func readEscape() -> Unicode.Scalar? {
            guard let byte = current else { return nil }
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let unit = readHex4() else { return nil }
                if (0xD800..<0xDC00).contains(unit) {
                    guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = readHex4(),
                        (0xDC00..<0xE000).contains(low)
                    else { return nil }
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                }
                return Unicode.Scalar(unit)
            default:
                return nil
            }
        }

        private mutating func readHex4() -> UInt32? {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current else { return nil }
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        /// Skips one value of any kind, nested or not, without checking it closely;
        /// `false` when the bytes end first.
        mutating func skipValue() -> Bool {
            var depth = 0
            repeat {
                guard let byte = current else { return false }
                switch byte {
                case UInt8(ascii: "\""):
                    guard readString() != nil else { return false }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return false }
                    depth -= 1
                    position += 1
                case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"):
                    // Separators end a scalar at the top level, and are skipped inside.
                    guard depth > 0 else { return true }
                    position += 1
                default:
                    position += 1
                }
            } while depth > 0 || !(current.map(Self.endsScalar) ?? false)
            return true
        }

        private static func endsScalar(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: true
            default: false
            }
        }
    }
}
