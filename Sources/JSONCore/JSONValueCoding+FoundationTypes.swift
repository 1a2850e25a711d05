// JSONValueDecoder and JSONValueEncoder: the Foundation types they write as JSONEncoder does.

/// Foundation types whose `JSONEncoder` and `JSONDecoder` form differs from their own
/// `Codable` form, recognized by name because JSONCore does not import Foundation.
internal enum _FoundationCodable {
    /// `URL`: a string (its `absoluteString`) instead of `{"relative": …, "base": …}`.
    case url
    /// `Data`: a Base64 string instead of an array of bytes.
    case data

    init?(_ type: Any.Type) {
        switch _typeName(type, qualified: true) {
        case "Foundation.URL", "FoundationEssentials.URL":
            self = .url
        case "Foundation.Data", "FoundationEssentials.Data":
            self = .data
        default:
            return nil
        }
    }
}

/// Base64 (RFC 4648, with padding) for Foundation's `Data`.
internal enum _Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            let second = remaining == 2 ? UInt32(bytes[index + 1]) : 0
            let chunk = UInt32(bytes[index]) << 16 | second << 8
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(remaining == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of padded Base64 text, or `nil` when it is not valid Base64.
    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var position = 0
        while position < input.count {
            let isLast = position + 4 == input.count
            var chunk: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let byte = input[position + offset]
                let sextet: UInt32
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = UInt32(byte - UInt8(ascii: "A"))
                case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = UInt32(byte - UInt8(ascii: "a")) + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = UInt32(byte - UInt8(ascii: "0")) + 52
                case UInt8(ascii: "+"): sextet = 62
                case UInt8(ascii: "/"): sextet = 63
                case UInt8(ascii: "=") where isLast && offset >= 2:
                    sextet = 0
                    padding += 1
                default:
                    return nil
                }
                // Padding may only be followed by padding.
                if padding > 0 && byte != UInt8(ascii: "=") { return nil }
                chunk = chunk << 6 | sextet
            }
            output.append(UInt8(truncatingIfNeeded: chunk >> 16))
            if padding < 2 { output.append(UInt8(truncatingIfNeeded: chunk >> 8)) }
            if padding < 1 { output.append(UInt8(truncatingIfNeeded: chunk)) }
            position += 4
        }
        return output
    }
}
