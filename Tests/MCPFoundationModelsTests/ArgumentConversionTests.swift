import MCP
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

@Suite("GeneratedContent → JSON arguments")
struct ArgumentConversionTests {
    static let schema: JSONValue = [
        "type": "object",
        "properties": [
            "count": ["type": "integer"],
            "ratio": ["type": "number"],
            "name": ["type": "string"],
            "filter": [
                "type": "object",
                "properties": ["limit": ["type": "integer"], "tags": ["type": "array", "items": ["type": "integer"]]],
            ],
            "note": ["type": ["string", "null"]],
            "cursor": ["anyOf": [["type": "string"], ["type": "null"]]],
            "page": ["type": "integer"],
            "id": ["anyOf": [["type": "integer"], ["type": "string"]]],
            "ref": ["$ref": "#/$defs/Ref"],
        ],
        "required": ["count", "cursor"],
        "$defs": ["Ref": ["type": "object", "properties": ["n": ["type": "integer"]]]],
    ]

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func convert(_ json: String) throws -> JSONObject {
        try SchemaConversion(inputSchema: Self.schema, name: "t").arguments(from: try GeneratedContent(json: json))
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Integers stay integers; numbers stay numbers")
    func integerTyping() throws {
        let arguments = try convert(#"{"count": 3, "ratio": 2, "page": 4.0}"#)
        #expect(arguments["count"] == .int(3))
        #expect(arguments["ratio"] == .double(2))
        #expect(arguments["page"] == .int(4))
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Key order is the model's")
    func keyOrder() throws {
        let content = GeneratedContent(
            kind: .structure(
                properties: [
                    "name": GeneratedContent(kind: .string("x")), "count": GeneratedContent(kind: .number(1)),
                    "ratio": GeneratedContent(kind: .number(0.5)),
                ],
                orderedKeys: ["ratio", "name", "count"]))
        let arguments = try SchemaConversion(inputSchema: Self.schema).arguments(from: content)
        #expect(arguments.keys == ["ratio", "name", "count", "cursor"])
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Nested objects and arrays follow the schema")
    func nested() throws {
        let arguments = try convert(#"{"count": 1, "filter": {"limit": 10, "tags": [1, 2]}, "ref": {"n": 7}}"#)
        #expect(arguments["filter"] == ["limit": .int(10), "tags": [.int(1), .int(2)]])
        #expect(arguments["ref"] == ["n": .int(7)])
        #expect(
            try JSONValue.object(arguments).jsonString() == #"{"count":1,"filter":{"limit":10,"tags":[1,2]},"ref":{"n":7},"cursor":null}"#)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A choice of integer and string keeps an integer an integer")
    func choice() throws {
        #expect(try convert(#"{"count": 1, "id": 42}"#)["id"] == .int(42))
        #expect(try convert(#"{"count": 1, "id": "42"}"#)["id"] == "42")
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Optional properties: absent stays absent, null stays null where allowed")
    func absentVersusNull() throws {
        let absent = try convert(#"{"count": 1}"#)
        #expect(absent["note"] == nil)
        // `cursor` is required and nullable: left out by the model, sent as null.
        #expect(absent["cursor"] == .null)
        let explicit = try convert(#"{"count": 1, "note": null, "name": null}"#)
        #expect(explicit["note"] == .null)
        // `name` does not allow null: a null from the model means "left out".
        #expect(explicit["name"] == nil)
        #expect(explicit.contains(key: "name") == false)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("The result validates against the original input schema")
    func validates() throws {
        let arguments = try convert(#"{"count": 2, "ratio": 1.5, "filter": {"limit": 3}, "id": 9, "cursor": "c"}"#)
        let conversion = try SchemaConversion(inputSchema: Self.schema)
        #expect(conversion.validationErrors(for: arguments)?.isEmpty == true)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Content that is not an object is rejected")
    func notAnObject() throws {
        #expect(throws: ArgumentConversionError.self) {
            try SchemaConversion(inputSchema: Self.schema).arguments(from: GeneratedContent(kind: .string("x")))
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Without a schema, integral numbers become integers")
    func schemaless() throws {
        let content = try GeneratedContent(json: #"{"b": 2, "a": 2.5, "c": [1, {"d": true}]}"#)
        #expect(content.jsonValue == ["b": .int(2), "a": .double(2.5), "c": [.int(1), ["d": true]]])
        #expect(content.jsonValue.objectValue?.keys == ["b", "a", "c"])
    }
}
