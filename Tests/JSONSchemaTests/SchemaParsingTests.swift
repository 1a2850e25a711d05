import Foundation
import JSONCore
import JSONSchema
import Testing

@Suite("Parsing and dialects")
struct SchemaParsingTests {
    @Test("2020-12 is the default dialect")
    func defaultDialect() throws {
        #expect(try JSONSchema(parsing: "{}").dialect == .draft2020_12)
        #expect(try JSONSchema(parsing: "true").dialect == .draft2020_12)
    }

    @Test("$schema selects draft-07, where $ref overrides its siblings")
    func draft07() throws {
        let text = ##"""
            {"$schema": "http://json-schema.org/draft-07/schema#",
             "definitions": {"s": {"type": "string"}},
             "properties": {"x": {"$ref": "#/definitions/s", "maxLength": 1}}}
            """##
        let schema = try JSONSchema(parsing: text)
        #expect(schema.dialect == .draft07)
        #expect(schema.isValid(["x": "long string"]))  // maxLength is ignored beside $ref.
        #expect(!schema.isValid(["x": 1]))

        let modern = try JSONSchema(parsing: text.replacingOccurrences(of: "draft-07/schema#", with: "draft/2020-12/schema"))
        #expect(modern.dialect == .draft2020_12)
        #expect(!modern.isValid(["x": "long string"]))  // In 2020-12 siblings apply.
    }

    @Test("draft-07 items array and additionalItems")
    func draft07Items() throws {
        let schema = try JSONSchema(
            parsing: #"{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}],"additionalItems":false}"#)
        #expect(schema.isValid(["a"]))
        let result = schema.validate(["a", 1])
        #expect(result.errors.map(\.keywordLocation.description) == ["/additionalItems"])
    }

    @Test("a remote $ref is reported as unresolved at parse time")
    func remoteReference() throws {
        let error = try #require(throws: SchemaError.self) {
            try JSONSchema(parsing: #"{"properties":{"a":{"$ref":"https://example.com/other.json"}}}"#)
        }
        #expect(error.reason == .unresolvedReference)
        #expect(error.location == (try JSONPointer(parsing: "/properties/a/$ref")))
        #expect(error.message.contains("remote documents are never fetched"))
    }

    @Test("a local $ref to a missing location is reported")
    func missingLocal() throws {
        let error = try #require(throws: SchemaError.self) {
            try JSONSchema(parsing: ##"{"$ref":"#/$defs/nothing"}"##)
        }
        #expect(error.reason == .unresolvedReference)
    }

    @Test(
        "malformed keywords are refused with their location",
        arguments: [
            (#"{"minLength":-1}"#, "/minLength"), (#"{"type":"text"}"#, "/type"),
            (#"{"required":"a"}"#, "/required"), (#"{"properties":{"a":3}}"#, "/properties/a"),
            (#"{"pattern":"(a"}"#, "/pattern"), (#"{"multipleOf":0}"#, "/multipleOf"),
            (#"{"anyOf":[]}"#, "/anyOf"), (#"{"pattern":"\\p{Nope}"}"#, "/pattern"),
        ])
    func malformed(schema: String, location: String) throws {
        let error = try #require(throws: SchemaError.self) { try JSONSchema(parsing: schema) }
        #expect(error.location == (try JSONPointer(parsing: location)))
    }

    @Test("$id, $anchor and URN base URIs resolve within the document")
    func identifiers() throws {
        let schema = try JSONSchema(
            parsing: ##"""
                {"$id": "urn:example:root",
                 "properties": {"a": {"$ref": "#pos"}, "b": {"$ref": "urn:example:item"}},
                 "$defs": {"p": {"$anchor": "pos", "minimum": 0},
                           "i": {"$id": "urn:example:item", "type": "string"}}}
                """##)
        #expect(schema.isValid(["a": 1, "b": "x"]))
        #expect(!schema.isValid(["a": -1]))
        #expect(!schema.isValid(["b": 2]))
    }

    @Test("$dynamicRef resolves through the dynamic scope")
    func dynamicReference() throws {
        let schema = try JSONSchema(
            parsing: ##"""
                {"$id": "https://example.com/strict",
                 "$ref": "list",
                 "$defs": {
                   "item": {"$dynamicAnchor": "item", "type": "integer"},
                   "list": {"$id": "list", "type": "array", "items": {"$dynamicRef": "#item"},
                            "$defs": {"item": {"$dynamicAnchor": "item"}}}}}
                """##)
        #expect(schema.isValid([1, 2]))
        #expect(!schema.isValid([1, "x"]))
    }

    @Test("schemas are values: equal when their sources are equal")
    func equality() throws {
        let a = try JSONSchema(parsing: #"{"type":"string"}"#)
        let b = try JSONSchema(["type": "string"])
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
    }
}

@Suite("Bounded cost")
struct BoundedCostTests {
    @Test("a schema nested deeper than the limit is refused")
    func deepSchema() throws {
        var schema: JSONValue = ["type": "string"]
        for _ in 0..<200 { schema = ["items": schema] }
        let error = try #require(throws: SchemaError.self) { try JSONSchema(schema) }
        #expect(error.reason == .tooComplex)
    }

    @Test("a schema within the depth limit validates")
    func nestedWithinLimit() throws {
        var schema: JSONValue = ["type": "string"]
        var instance: JSONValue = "x"
        for _ in 0..<50 {
            schema = ["items": schema]
            instance = [instance]
        }
        let compiled = try JSONSchema(schema)
        #expect(compiled.isValid(instance))
    }

    @Test("too many subschemas are refused")
    func hugeSchema() throws {
        var properties = JSONObject()
        for index in 0..<200 { properties["p\(index)"] = ["type": "string"] }
        let options = JSONSchema.Options(maximumSubschemas: 100)
        let error = try #require(throws: SchemaError.self) {
            try JSONSchema(["properties": .object(properties)], options: options)
        }
        #expect(error.reason == .tooComplex)
        #expect(try JSONSchema(["properties": .object(properties)]).isValid(["p1": "x"]))
    }

    @Test(
        "reference cycles that never move into the instance stop with an error",
        arguments: [
            ##"{"$ref":"#"}"##,
            ##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##,
            ##"{"anyOf":[{"type":"string"},{"$ref":"#"}]}"##,
            ##"{"not":{"$ref":"#"}}"##,
        ])
    func referenceCycle(schema text: String) throws {
        let schema = try JSONSchema(parsing: text)
        let result = schema.validate(42)
        #expect(!result.isValid)
        #expect(result.errors.contains { $0.message.contains("loops back to itself") })
        #expect(!schema.isValid(42))
    }

    @Test("recursion through the instance is fine and bounded by depth")
    func recursiveThroughInstance() throws {
        let schema = try JSONSchema(parsing: ##"{"type":"array","items":{"$ref":"#"}}"##)
        var instance: JSONValue = []
        for _ in 0..<20 { instance = [instance] }
        #expect(schema.isValid(instance))
        for _ in 0..<300 { instance = [instance] }
        let result = schema.validate(instance)
        #expect(!result.isValid)
        #expect(result.errors.contains { $0.message.contains("levels deep") })
    }

    @Test("catastrophic backtracking stops at the pattern step budget")
    func hostileRegex() throws {
        let schema = try JSONSchema(parsing: #"{"pattern":"(a+)+$"}"#)
        let input = JSONValue.string(String(repeating: "a", count: 5_000) + "!")
        let result = schema.validate(input)
        #expect(!result.isValid)
        #expect(result.errors.contains { $0.message.contains("took more than") })
        #expect(!schema.isValid(input))
        #expect(schema.isValid("aaa"))  // Short inputs still match.
    }

    @Test("the evaluation step budget bounds work on large instances")
    func stepBudget() throws {
        let schema = try JSONSchema(
            parsing: #"{"items":{"anyOf":[{"type":"string"},{"type":"integer"}]}}"#,
            options: JSONSchema.Options(maximumEvaluationSteps: 1_000))
        let big = JSONValue.array(Array(repeating: .int(1), count: 2_000))
        let result = schema.validate(big)
        #expect(!result.isValid)
        #expect(result.errors.contains { $0.message.contains("steps") })
        #expect(schema.isValid(.array(Array(repeating: .int(1), count: 100))))
    }

    @Test("uniqueItems on a large array is linear, not quadratic")
    func largeUnique() throws {
        let schema = try JSONSchema(parsing: #"{"uniqueItems":true}"#)
        let distinct = JSONValue.array((0..<50_000).map { .int($0) })
        #expect(schema.isValid(distinct))
        let repeated = JSONValue.array((0..<50_000).map { .int($0) } + [.double(7.0)])
        #expect(!schema.isValid(repeated))
    }
}
