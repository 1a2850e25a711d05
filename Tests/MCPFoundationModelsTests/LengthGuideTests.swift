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

/// A string property's `minLength`/`maxLength`, the guide it lowers to, and strings to try.
struct LengthCase: CustomTestStringConvertible, Sendable {
    let property: JSONValue
    let guide: String?
    let texts: [String]

    var testDescription: String { "\(property.description) → \(guide ?? "no guide")" }
}

/// Apple's guides have no length; a length on its own becomes a whole-string pattern guide, so
/// a constrained decoder cannot write a string the server would refuse for its length.
@Suite("Length guides")
struct LengthGuideTests {
    static let cases: [LengthCase] = [
        LengthCase(
            property: ["type": "string", "minLength": 1, "maxLength": 5], guide: #"[\s\S]{1,5}"#,
            texts: ["", "a", "abcde", "abcdef", "a\nb", "ééééé", "e\u{301}e\u{301}e"]),
        LengthCase(property: ["type": "string", "maxLength": 3], guide: #"[\s\S]{0,3}"#, texts: ["", "abc", "abcd", "🙂🙂🙂", "🙂🙂🙂🙂"]),
        LengthCase(property: ["type": "string", "minLength": 2], guide: #"[\s\S]{2,}"#, texts: ["a", "ab", "\n\n"]),
        LengthCase(property: ["type": "string", "minLength": 0], guide: nil, texts: ["", "a"]),
        LengthCase(property: ["type": "string", "minLength": 1, "maxLength": 100_000], guide: #"[\s\S]{1,}"#, texts: ["", "a"]),
        LengthCase(property: ["type": "string", "minLength": 3, "maxLength": 2], guide: nil, texts: ["ab", "abc"]),
    ]

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A length lowers to a pattern guide that accepts exactly the lengths JSON Schema accepts", arguments: cases)
    func lengthGuide(_ testCase: LengthCase) throws {
        let input: JSONValue = ["type": "object", "properties": ["p": testCase.property], "required": ["p"]]
        let conversion = try SchemaConversion(inputSchema: input)
        let schema = try encoded(conversion.schema)
        #expect(schema["properties"]?["p"]?["pattern"]?.stringValue == testCase.guide)
        let oracle = try JSONSchema(testCase.property)
        for text in testCase.texts {
            let valid = oracle.isValid(.string(text))
            if let guide = testCase.guide {
                // The guide, matched on Unicode scalars as the session does, counts what JSON Schema counts.
                let regex = try Regex(guide).matchingSemantics(.unicodeScalar)
                #expect((try regex.wholeMatch(in: text) != nil) == valid, "guide \(guide) on \(text.debugDescription)")
            }
            #if !canImport(FoundationModels)
            // The session refuses generated arguments the guide refuses, before any call.
            if testCase.guide != nil {
                let violations = conversion.schema.violations(in: GeneratedContent(properties: ["p": text]))
                #expect(violations.isEmpty == valid, "\(text.debugDescription): \(violations)")
            }
            #endif
            #expect(conversion.validationErrors(for: ["p": .string(text)])?.isEmpty == valid)
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("What cannot be a length guide is said: lengths that cross, a length beside a pattern, one too long to guide")
    func reported() throws {
        let crossing = try SchemaConversion(inputSchema: [
            "type": "object", "properties": ["p": ["type": "string", "minLength": 3, "maxLength": 2]],
        ])
        #expect(crossing.diagnostics.contains { $0.severity == .warning && $0.message.contains("no string is at least 3 and at most 2") })
        let beside = try SchemaConversion(inputSchema: [
            "type": "object", "properties": ["p": ["type": "string", "pattern": "^a", "maxLength": 4]],
        ])
        #expect(beside.diagnostics.contains { $0.location.description == "/properties/p/maxLength" && $0.severity == .warning })
        let long = try SchemaConversion(inputSchema: ["type": "object", "properties": ["p": ["type": "string", "maxLength": 100_000]]])
        #expect(long.diagnostics.contains { $0.location.description == "/properties/p/maxLength" && $0.severity == .note })
        #expect(long.diagnostics(atLeast: .warning).isEmpty)
    }
}
