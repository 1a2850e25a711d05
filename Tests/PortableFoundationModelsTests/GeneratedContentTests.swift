#if !canImport(FoundationModels)
// PortableFoundationModels is empty where Apple's FoundationModels exists, and its API carries
// no availability of its own, so these tests build wherever the portable module has content.
import Foundation
import PortableFoundationModels
import Testing

@Suite("GeneratedContent")
struct GeneratedContentTests {
    @Test func parsesJSONAndKeepsKeyOrder() throws {
        let content = try GeneratedContent(json: #"{"z":1,"a":[true,null,"x\"y\u00e9\n"],"m":{"k":-2.5e2}}"#)
        guard case .structure(let properties, let keys) = content.kind else {
            Issue.record("expected a structure")
            return
        }
        #expect(keys == ["z", "a", "m"])
        #expect(properties["z"]?.kind == .number(1))
        #expect(
            properties["a"]?.kind
                == .array([
                    GeneratedContent(kind: .bool(true)), GeneratedContent(kind: .null), GeneratedContent(kind: .string("x\"yé\n")),
                ]))
        #expect(content.jsonString == #"{"z":1,"a":[true,null,"x\"yé\n"],"m":{"k":-250}}"#)
        #expect(try GeneratedContent(json: content.jsonString) == content)
        #expect(content.isComplete)
    }

    @Test func roundTripsThroughJSONString() throws {
        for json in [
            #"{"city":"Paris","days":3,"tags":["a","b"],"ratio":0.25}"#, "[]", "{}", "\"text\"", "42", "-0.5", "true", "null",
            #"[[1,[2]],{"a":{}}]"#,
        ] {
            let content = try GeneratedContent(json: json)
            #expect(content.jsonString == json)
        }
    }

    @Test func acceptsIncompleteJSON() throws {
        let partial = try GeneratedContent(json: #"{"city":"Par"#)
        #expect(!partial.isComplete)
        #expect(partial.jsonString == #"{"city":"Par"}"#)
        #expect(try GeneratedContent(json: #"{"tags":["a","#).jsonString == #"{"tags":["a"]}"#)
        #expect(try GeneratedContent(json: "[1, 2").jsonString == "[1,2]")
    }

    @Test func rejectsMalformedJSON() {
        for json in ["", "{\"a\" 1}", "[1,]x", "tru e", "{1:2}", "nul]"] {
            #expect(throws: LanguageModelSession.GenerationError.self) { try GeneratedContent(json: json) }
        }
    }

    @Test func readsProperties() throws {
        let content = try GeneratedContent(json: #"{"city":"Paris","days":3,"tags":["a","b"],"nothing":null,"ratio":0.5}"#)
        #expect(try content.value(String.self, forProperty: "city") == "Paris")
        #expect(try content.value(Int.self, forProperty: "days") == 3)
        #expect(try content.value(Double.self, forProperty: "ratio") == 0.5)
        #expect(try content.value([String].self, forProperty: "tags") == ["a", "b"])
        #expect(try content.value(Int?.self, forProperty: "missing") == nil)
        #expect(try content.value(String?.self, forProperty: "nothing") == nil)
        #expect(try content.value(String?.self, forProperty: "city") == "Paris")
        #expect(throws: LanguageModelSession.GenerationError.self) { try content.value(Int.self, forProperty: "missing") }
        #expect(throws: LanguageModelSession.GenerationError.self) { try content.value(Int.self, forProperty: "ratio") }
        #expect(throws: LanguageModelSession.GenerationError.self) { try content.value(Int.self, forProperty: "city") }
        #expect(try GeneratedContent(kind: .string("x")).value(String.self) == "x")
    }

    @Test func buildsFromProperties() throws {
        let built = GeneratedContent(properties: ["city": "Paris", "days": 3, "hourly": true, "tags": ["a"], "none": String?.none])
        #expect(built.jsonString == #"{"city":"Paris","days":3,"hourly":true,"tags":["a"],"none":null}"#)
        let fromKind = GeneratedContent(
            kind: .structure(
                properties: ["city": GeneratedContent(kind: .string("Paris")), "days": GeneratedContent(kind: .number(3))],
                orderedKeys: ["city", "days"]))
        #expect(GeneratedContent(properties: ["city": "Paris", "days": 3]) == fromKind)
        let merged = GeneratedContent(
            properties: [("a", 1 as any ConvertibleToGeneratedContent), ("a", 2 as any ConvertibleToGeneratedContent)],
            uniquingKeysWith: { _, new in new })
        #expect(merged.jsonString == #"{"a":2}"#)
        #expect(GeneratedContent(elements: [1, "two"] as [any ConvertibleToGeneratedContent]).jsonString == #"[1,"two"]"#)
    }

    @Test func builtInConversions() throws {
        #expect(try Bool(GeneratedContent(true)) == true)
        #expect(try Float(GeneratedContent(kind: .number(1.5))) == 1.5)
        #expect(try Decimal(GeneratedContent(kind: .number(2.25))) == Decimal(string: "2.25"))
        #expect(Decimal(string: "2.5")!.generatedContent.kind == .number(2.5))
        #expect(throws: LanguageModelSession.GenerationError.self) { try Never(GeneratedContent("x")) }
        #expect(try [Int](GeneratedContent(json: "[1,2]")) == [1, 2])
        let id = GenerationID()
        #expect(GeneratedContent("x", id: id).id == id)
    }
}
#endif
