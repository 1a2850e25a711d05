import JSONCore
import Testing

/// A text the reader must refuse, with the reason and the byte offset it must report.
struct MalformedCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let reason: JSONReadError.Reason
    let offset: Int

    init(_ name: String, _ text: String, _ reason: JSONReadError.Reason, at offset: Int) {
        self.init(name, bytes: Array(text.utf8), reason, at: offset)
    }

    init(_ name: String, bytes: [UInt8], _ reason: JSONReadError.Reason, at offset: Int) {
        self.name = name
        self.bytes = bytes
        self.reason = reason
        self.offset = offset
    }

    var testDescription: String { name }

    static let all: [MalformedCase] = [
        .init("empty input", "", .unexpectedEndOfInput, at: 0),
        .init("only whitespace", "  \n", .unexpectedEndOfInput, at: 3),
        .init("trailing comma in array", "[1,2,]", .trailingComma, at: 4),
        .init("trailing comma in object", #"{"a":1,}"#, .trailingComma, at: 7),
        .init("line comment", "[1]// note", .trailingContent, at: 3),
        .init("block comment", "/* x */ 1", .unexpectedCharacter, at: 0),
        .init("comment inside array", "[1,/*x*/2]", .unexpectedCharacter, at: 3),
        .init("leading zero", "[01]", .invalidNumber, at: 1),
        .init("negative leading zero", "-012", .invalidNumber, at: 0),
        .init("bare minus", "-", .invalidNumber, at: 0),
        .init("leading plus", "+1", .unexpectedCharacter, at: 0),
        .init("leading dot", ".5", .unexpectedCharacter, at: 0),
        .init("trailing dot", "1.", .invalidNumber, at: 0),
        .init("empty exponent", "1e", .invalidNumber, at: 0),
        .init("exponent sign only", "1e+", .invalidNumber, at: 0),
        .init("hexadecimal", "0x1F", .trailingContent, at: 1),
        .init("NaN literal", "NaN", .unexpectedCharacter, at: 0),
        .init("Infinity literal", "[Infinity]", .unexpectedCharacter, at: 1),
        .init("number too large", #"{"n":1e400}"#, .numberOutOfRange, at: 5),
        .init("negative number too large", "-1e400", .numberOutOfRange, at: 0),
        .init("lone high surrogate", #""\ud83d""#, .loneSurrogate, at: 1),
        .init("high surrogate then text", #""\ud83dx""#, .loneSurrogate, at: 1),
        .init("high surrogate then non-low escape", #""\ud83d\u0041""#, .loneSurrogate, at: 1),
        .init("lone low surrogate", #"["a\ude00"]"#, .loneSurrogate, at: 3),
        .init("raw newline in string", "\"a\nb\"", .controlCharacterInString, at: 2),
        .init("raw tab in string", "\"a\tb\"", .controlCharacterInString, at: 2),
        .init("raw NUL in escaped string", "\"\\n\u{0}\"", .controlCharacterInString, at: 3),
        .init("unknown escape", #""\x41""#, .invalidEscape, at: 1),
        .init("short unicode escape", #""\u12""#, .invalidEscape, at: 1),
        .init("non-hex unicode escape", #""\u12G4""#, .invalidEscape, at: 1),
        .init("unterminated string", #"["abc"#, .unexpectedEndOfInput, at: 5),
        .init("unterminated array", "[1,2", .unexpectedEndOfInput, at: 4),
        .init("unterminated object", #"{"a":1"#, .unexpectedEndOfInput, at: 6),
        .init("missing colon", #"{"a" 1}"#, .unexpectedCharacter, at: 5),
        .init("missing comma", "[1 2]", .unexpectedCharacter, at: 3),
        .init("single quotes", "['a']", .unexpectedCharacter, at: 1),
        .init("unquoted key", "{a:1}", .unexpectedCharacter, at: 1),
        .init("non-string key", "{1:1}", .unexpectedCharacter, at: 1),
        .init("duplicate key", #"{"a":1,"a":2}"#, .duplicateKey, at: 7),
        .init("misspelled literal", "nul", .unexpectedEndOfInput, at: 3),
        .init("wrong literal", "tru3", .unexpectedCharacter, at: 0),
        .init("capitalised literal", "True", .unexpectedCharacter, at: 0),
        .init("two values", "1 2", .trailingContent, at: 2),
        .init("two objects on one line", "{}{}", .trailingContent, at: 2),
        .init("byte order mark", bytes: [0xEF, 0xBB, 0xBF, 0x31], .unexpectedCharacter, at: 0),
        .init("invalid UTF-8 lead byte", bytes: [0x22, 0xFF, 0x22], .invalidUTF8, at: 1),
        .init("truncated UTF-8", bytes: [0x22, 0xE6, 0x97, 0x22], .invalidUTF8, at: 1),
        .init("overlong UTF-8", bytes: [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, at: 1),
        .init("UTF-8 encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 1),
        .init("UTF-8 beyond U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
        .init("invalid UTF-8 after an escape", bytes: [0x22, 0x5C, 0x6E, 0x80, 0x22], .invalidUTF8, at: 3),
        .init("nesting past the limit", String(repeating: "[", count: 513) + String(repeating: "]", count: 513), .nestingTooDeep, at: 512),
    ]
}

@Suite("Malformed JSON")
struct JSONMalformedInputTests {
    @Test(arguments: MalformedCase.all)
    func isRefusedWithOffset(_ testCase: MalformedCase) throws {
        let error = try #require(throws: JSONReadError.self) { try JSONValue(parsing: testCase.bytes) }
        #expect(error.reason == testCase.reason, "\(error)")
        #expect(error.offset == testCase.offset, "\(error)")
        #expect(error.description.hasPrefix("invalid JSON at byte \(testCase.offset): "))
    }

    @Test("reasons match in catch clauses")
    func reasonPatternMatching() {
        do {
            _ = try JSONValue(parsing: "[1,]")
            Issue.record("expected an error")
        } catch JSONReadError.Reason.trailingComma {
            // Expected.
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("the reader keeps working after an error")
    func readerRecovers() throws {
        let reader = JSONReader()
        #expect(throws: JSONReadError.self) { try reader.read("{") }
        #expect(try reader.read(#"{"ok":true}"#) == ["ok": true])
    }
}
