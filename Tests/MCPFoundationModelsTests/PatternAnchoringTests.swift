import Foundation
import JSONSchema
import MCP
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
@_spi(Portable) import PortableFoundationModels
#endif

/// A JSON Schema `pattern` with strings it must accept and strings it must not.
struct PatternCase: CustomTestStringConvertible, Sendable {
    let pattern: String
    let accepted: [String]
    let rejected: [String]

    var testDescription: String { "pattern \"\(pattern)\"" }

    /// The input schema with one string property `p` constrained by the pattern.
    var inputSchema: JSONValue {
        ["type": "object", "properties": ["p": ["type": "string", "pattern": .string(pattern)]], "required": ["p"]]
    }
}

/// JSON Schema's `pattern` matches anywhere in a string; a generation guide's pattern
/// constrains the whole string. The lowering rewrites one into the other.
@Suite("Pattern anchoring")
struct PatternAnchoringTests {
    static let cases: [PatternCase] = [
        PatternCase(pattern: "@", accepted: ["me@example.com", "@", "a@"], rejected: ["", "example.com"]),
        PatternCase(pattern: "abc", accepted: ["abc", "xabcx", "abcabc"], rejected: ["", "ab", "acb"]),
        PatternCase(pattern: "^abc", accepted: ["abc", "abcdef", "abc\n"], rejected: ["xabc", "ab", "\nabc"]),
        PatternCase(pattern: "abc$", accepted: ["abc", "xxabc", "\nabc"], rejected: ["abcx", "abc\n"]),
        PatternCase(pattern: "^abc$", accepted: ["abc"], rejected: ["abcabc", "xabc", "abc\n", "\nabc", ""]),
        PatternCase(pattern: "^a|b$", accepted: ["a", "axx", "xxb", "b", "ab"], rejected: ["xa", "bx", "c", ""]),
        PatternCase(pattern: "^(foo|bar)$", accepted: ["foo", "bar"], rejected: ["foobar", "fo", "xfoo", "bar\n"]),
        PatternCase(pattern: #"\^x\$"#, accepted: ["^x$", "a^x$b"], rejected: ["x", "^x"]),
        PatternCase(pattern: #"\\$"#, accepted: [#"a\"#, #"\"#], rejected: [#"\a"#, "a"]),
        PatternCase(pattern: "[^x]", accepted: ["a", "xa", "xxa"], rejected: ["x", "xx", ""]),
        PatternCase(pattern: "[$^]", accepted: ["$", "a^", "^$"], rejected: ["a", ""]),
        PatternCase(
            pattern: #"^\d{3}-\d{4}$"#, accepted: ["555-1234"], rejected: ["555-12345", "\u{665}\u{665}\u{665}-1234", "a555-1234"]),
        PatternCase(pattern: #"^\w+$"#, accepted: ["snake_case1"], rejected: ["café", "a b", ""]),
        PatternCase(pattern: #"^[\w.-]+$"#, accepted: ["a.b-c_d"], rejected: ["a/b", "é"]),
        PatternCase(pattern: "^.$", accepted: ["a", "\u{0B}", "\u{85}", "é"], rejected: ["\n", "\r", "\u{2028}", "ab", "e\u{301}", ""]),
        PatternCase(pattern: "a.c", accepted: ["abc", "xa-cx", "a\u{0C}c"], rejected: ["a\nc", "ac"]),
        PatternCase(pattern: #"\n"#, accepted: ["a\nb", "a\r\nb"], rejected: ["ab", "a\rb"]),
        PatternCase(pattern: "", accepted: ["", "anything", "\n"], rejected: []),
        PatternCase(pattern: "^$", accepted: [""], rejected: ["a", "\n"]),
        PatternCase(pattern: "^[a-z]+(?:-[a-z]+)*$", accepted: ["a-b-c", "abc"], rejected: ["a--b", "-a", "a-"]),
        PatternCase(pattern: "[^]", accepted: ["a", "\n"], rejected: [""]),
        PatternCase(pattern: "x[]", accepted: [], rejected: ["x", "x[]", ""]),
        PatternCase(pattern: #"(a)\1"#, accepted: ["xaa", "aa"], rejected: ["ab", "a"]),
        PatternCase(pattern: #"^(?:\+|00)\d+$"#, accepted: ["+33123", "0033123"], rejected: ["33123", "+"]),
        PatternCase(pattern: #"[a\-z]"#, accepted: ["-", "xa"], rejected: ["b", "y"]),
        PatternCase(pattern: #"^[\D]+$"#, accepted: ["abc", "a b"], rejected: ["a1", ""]),
        PatternCase(pattern: #"^[[]$"#, accepted: ["["], rejected: ["]", "[["]),
        PatternCase(
            pattern: #"^(?=.*\d)[A-Za-z\d]{8,}$"#, accepted: ["abcdefg1", "1abcdefgh"], rejected: ["abcdefgh", "abc1", "abcdefg1!"]),
        PatternCase(pattern: "colou?r", accepted: ["color", "my colour"], rejected: ["colr", "colouur"]),
    ]

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("The lowered guide accepts exactly the strings the JSON Schema pattern accepts", arguments: cases)
    func guideAgreesWithJSONSchema(_ testCase: PatternCase) throws {
        let oracle = try JSONSchema(["type": "string", "pattern": .string(testCase.pattern)])
        let conversion = try SchemaConversion(inputSchema: testCase.inputSchema)
        #expect(conversion.diagnostics(atLeast: .warning).isEmpty, "\(conversion.diagnostics)")
        let schema = try encoded(conversion.schema)
        let guide = try #require(schema["properties"]?["p"]?["pattern"]?.stringValue)
        for (text, expected) in testCase.accepted.map({ ($0, true) }) + testCase.rejected.map({ ($0, false) }) {
            // The table agrees with the JSON Schema validator, the oracle.
            #expect(oracle.isValid(.string(text)) == expected, "JSON Schema on \(text.debugDescription)")
            // The guide, matched against the whole string on Unicode scalars, agrees with it.
            let regex = try Regex(guide).matchingSemantics(.unicodeScalar)
            #expect(
                (try regex.wholeMatch(in: text) != nil) == expected,
                "guide \(guide.debugDescription) on \(text.debugDescription)")
            #if !canImport(FoundationModels)
            // Generated arguments are checked against the whole-string guide.
            let violations = conversion.schema.violations(in: GeneratedContent(properties: ["p": text]))
            #expect(violations.isEmpty == expected, "\(text.debugDescription): \(violations)")
            #endif
            // The arguments sent to the server are validated with JSON Schema's own semantics.
            #expect(conversion.validationErrors(for: ["p": .string(text)])?.isEmpty == expected)
        }
    }

    @Test(
        "Anchors at the ends of each top-level alternative are dropped; the rest is padded to match anywhere",
        arguments: [
            ("abc", #"[\s\S]*(?:abc)[\s\S]*"#),
            ("^abc", #"(?:abc)[\s\S]*"#),
            ("abc$", #"[\s\S]*(?:abc)"#),
            ("^abc$", "abc"),
            ("^a|b$", #"(?:a)[\s\S]*|[\s\S]*(?:b)"#),
            ("^(a|b)$", "(a|b)"),
            ("", #"[\s\S]*"#),
            ("^", #"[\s\S]*"#),
            ("^$", ""),
            (#"\^a\$"#, #"[\s\S]*(?:\^a\$)[\s\S]*"#),
            ("[^$]", #"[\s\S]*(?:[^$])[\s\S]*"#),
            (#"^\d\w$"#, "[0-9][A-Za-z0-9_]"),
        ])
    func rewrite(_ pattern: String, _ expected: String) throws {
        #expect(try WholeStringPattern.rewrite(pattern) == expected)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "A pattern that cannot be rewritten safely is left out of the guide and reported; validation still applies it",
        arguments: [
            ("a^b", "anchor ^"),
            ("(^a|b)", "anchor ^"),
            ("(abc$)", "anchor $"),
            ("(?<=^|,)x", "anchor ^"),
            ("^[+--]$", "'--'"),
            ("^[&&a]$", "'&&'"),
            ("(?<=a)b", "Swift's Regex does not accept"),
        ])
    func notRewritten(_ pattern: String, _ reason: String) throws {
        let input: JSONValue = ["type": "object", "properties": ["p": ["type": "string", "pattern": .string(pattern)]]]
        let conversion = try SchemaConversion(inputSchema: input)
        let schema = try encoded(conversion.schema)
        #expect(schema["properties"]?["p"]?["type"] == "string")
        #expect(schema["properties"]?["p"]?["pattern"] == nil)
        let diagnostic = try #require(conversion.diagnostics.first { $0.location.description == "/properties/p/pattern" })
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.message.contains(reason), "\(diagnostic.message)")
        #expect(conversion.validator != nil)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Without a guide, the arguments are still validated against the pattern as JSON Schema reads it")
    func validationKeepsUnanchoredSemantics() throws {
        let conversion = try SchemaConversion(inputSchema: [
            "type": "object", "properties": ["p": ["type": "string", "pattern": "(^a|b)"]],
        ])
        #expect(conversion.validationErrors(for: ["p": "xb"])?.isEmpty == true)
        #expect(conversion.validationErrors(for: ["p": "ab"])?.isEmpty == true)
        #expect(conversion.validationErrors(for: ["p": "xa"])?.isEmpty == false)
    }
}
