import JSONCore
import Testing

/// The writer and the reader look at strings eight bytes at a time; these cases put every kind
/// of byte at every position of strings around that width, and compare with one byte at a time.
@Suite("JSON string escaping")
struct JSONStringEscapingTests {
    /// Bytes that need escaping, and bytes that look close to them but do not.
    static let specials: [String] = [
        "\"", "\\", "\u{0}", "\u{8}", "\t", "\n", "\u{C}", "\r", "\u{1F}", "\u{7F}", " ", "!", "#", "[", "]", "é", "€", "😀",
    ]

    /// The escaped form JSON needs, written one character at a time.
    static func reference(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{8}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{C}": out += "\\f"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test("every special byte at every position of strings up to 24 bytes", arguments: specials)
    func everyPosition(_ special: String) throws {
        for length in 0...24 {
            for position in 0...length {
                let text = String(repeating: "a", count: position) + special + String(repeating: "b", count: length - position)
                let written = try JSONWriter().string(from: .string(text))
                #expect(written == Self.reference(text), "\(special.debugDescription) at \(position) of \(length)")
                #expect(try JSONValue(parsing: written) == .string(text))
            }
        }
    }

    @Test("two specials in one word, and a word of nothing but specials")
    func crowded() throws {
        for text in ["ab\"cd\\ef", "\"\"\"\"\"\"\"\"", "\n\u{1}\t\u{1F}\r\u{8}\u{C}\\", "abcdefg\"", "\"bcdefgh", "é\"é\\é\né"] {
            let written = try JSONWriter().string(from: .string(text))
            #expect(written == Self.reference(text))
            #expect(try JSONValue(parsing: written) == .string(text))
        }
    }
}
