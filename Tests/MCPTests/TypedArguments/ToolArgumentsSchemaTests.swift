import Foundation
import JSONSchema
import MCP
import Testing

/// The schema derived from each kind of arguments type, and the types that are refused.
@Suite("Derived input schemas")
struct ToolArgumentsSchemaTests {
    struct SchemaCase: Sendable, CustomTestStringConvertible {
        let name: String
        let derive: @Sendable () throws -> ToolArgumentsSchema
        let properties: JSONObject
        let required: [String]
        var testDescription: String { name }

        init<Arguments: Decodable & Sendable>(_ name: String, _ type: Arguments.Type, properties: JSONObject, required: [String]) {
            self.name = name
            self.derive = { try ToolArgumentsSchema(for: Arguments.self) }
            self.properties = properties
            self.required = required
        }

        var expected: JSONValue {
            var object: JSONObject = ["type": "object", "properties": .object(properties)]
            if !required.isEmpty {
                object["required"] = .array(required.map { .string($0) })
            }
            return .object(object)
        }
    }

    static let place: JSONValue = [
        "type": "object", "properties": ["name": ["type": "string"], "latitude": ["type": "number"]], "required": ["name", "latitude"],
    ]
    static let sortOrder: JSONValue = ["type": "string", "enum": ["newest", "oldest", "relevance"]]

    static let cases: [SchemaCase] = [
        SchemaCase(
            "flat: String, Int, Double, Bool", FlatArguments.self,
            properties: [
                "name": ["type": "string"], "count": ["type": "integer"], "ratio": ["type": "number"], "enabled": ["type": "boolean"],
            ], required: ["name", "count", "ratio", "enabled"]),
        SchemaCase(
            "optionals: not required, null accepted", OptionalArguments.self,
            properties: [
                "query": ["type": "string"], "limit": ["type": ["integer", "null"]],
                "tags": ["type": ["array", "null"], "items": ["type": "string"]],
            ], required: ["query"]),
        SchemaCase(
            "integers: bounds where they are narrower than JSON's", IntegerArguments.self,
            properties: [
                "small": ["type": "integer", "minimum": -128, "maximum": 127],
                "byte": ["type": "integer", "minimum": 0, "maximum": 255],
                "wide": ["type": "integer"],
                "count": ["type": "integer", "minimum": 0],
                "medium": ["type": "integer", "minimum": .int(Int(Int32.min)), "maximum": .int(Int(Int32.max))],
                "port": ["type": "integer", "minimum": 0, "maximum": 65535],
            ], required: ["small", "byte", "wide", "count", "medium", "port"]),
        SchemaCase(
            "nested types, arrays of them, arrays of arrays, sets", NestedArguments.self,
            properties: [
                "place": place, "stops": ["type": "array", "items": place],
                "grid": ["type": "array", "items": ["type": "array", "items": ["type": "integer"]]],
                "labels": ["type": "array", "items": ["type": "string"]],
            ], required: ["place", "stops", "grid", "labels"]),
        SchemaCase(
            "dictionaries keyed by String, Int and a CodingKeyRepresentable enum", MapArguments.self,
            properties: [
                "counts": ["type": "object", "additionalProperties": ["type": "integer"]],
                "names": ["type": "object", "additionalProperties": ["type": "string"], "propertyNames": ["pattern": "^[+-]?[0-9]+$"]],
                "shown": ["type": "object", "additionalProperties": ["type": "boolean"], "propertyNames": ["enum": ["red", "green"]]],
            ], required: ["counts", "names", "shown"]),
        SchemaCase(
            "CaseIterable enums: their raw values", EnumArguments.self,
            properties: [
                "sort": sortOrder, "priority": ["type": ["integer", "null"], "enum": [1, 5, nil]],
                "also": ["type": "array", "items": sortOrder],
            ], required: ["sort", "also"]),
        SchemaCase(
            "Date, URL, UUID and Data as JSONValueDecoder reads them", FoundationArguments.self,
            properties: [
                "when": ["type": "number", "description": "a date, as seconds since 2001-01-01T00:00:00Z"],
                "link": ["type": "string", "format": "uri"],
                "id": ["type": "string", "format": "uuid"],
                "blob": ["type": "string", "contentEncoding": "base64"],
            ], required: ["when", "link", "id", "blob"]),
        SchemaCase(
            "JSONValue, JSONObject and [JSONValue]", AnyValueArguments.self,
            properties: ["options": [:], "extra": ["type": ["object", "null"]], "list": ["type": "array"]],
            required: ["options", "list"]),
        SchemaCase(
            "decodeIfPresent with a default", DefaultingArguments.self,
            properties: ["query": ["type": "string"], "limit": ["type": ["integer", "null"]]], required: ["query"]),
        SchemaCase(
            "a member read after contains: optional, not nullable", ContainsArguments.self,
            properties: ["verbose": ["type": "boolean"]], required: []),
        SchemaCase(
            "nestedContainer", FlattenedArguments.self,
            properties: [
                "address": [
                    "type": "object", "properties": ["city": ["type": "string"], "zip": ["type": ["string", "null"]]], "required": ["city"],
                ]
            ], required: ["address"]),
        SchemaCase(
            "superDecoder(): the superclass under \"super\"", SuperKeyArguments.self,
            properties: [
                "label": ["type": "string"],
                "super": ["type": "object", "properties": ["id": ["type": "integer"]], "required": ["id"]],
            ], required: ["label", "super"]),
        SchemaCase(
            "a superclass decoding from the same object", SharedObjectArguments.self,
            properties: ["label": ["type": "string"], "id": ["type": "integer"]], required: ["label", "id"]),
        SchemaCase(
            "an unkeyed tuple and a single-value wrapper", ShapedArguments.self,
            properties: [
                "at": ["type": "array", "prefixItems": [["type": "number"], ["type": "number"]], "minItems": 2],
                "to": ["type": "string"],
            ], required: ["at", "to"]),
        SchemaCase(
            "an array of objects read with nestedContainer until isAtEnd", HandReadArguments.self,
            properties: [
                "values": [
                    "type": "array",
                    "items": [
                        "type": "object", "properties": ["label": ["type": "string"], "weight": ["type": ["number", "null"]]],
                        "required": ["label"],
                    ],
                ]
            ], required: ["values"]),
        SchemaCase(
            "optionals inside arrays and dictionaries: required, but null accepted", OptionalElementArguments.self,
            properties: [
                "maybe": ["type": "array", "items": ["type": ["integer", "null"]]],
                "series": ["type": "object", "additionalProperties": ["type": ["array", "null"], "items": ["type": "number"]]],
            ], required: ["maybe", "series"]),
        SchemaCase(
            "descriptions, a nested type's own, and a date's unit after them", SearchArguments.self,
            properties: [
                "query": ["type": "string", "description": "Words to look for"],
                "changedAfter": [
                    "type": ["number", "null"],
                    "description": "Only notes changed after this (a date, as seconds since 2001-01-01T00:00:00Z)",
                ],
                "filter": [
                    "type": "object", "properties": ["folder": ["type": "string", "description": "Only notes in this folder"]],
                    "required": ["folder"],
                ],
                "limit": ["type": ["integer", "null"], "description": "At most this many notes; 10 when left out"],
            ], required: ["query", "filter"]),
    ]

    @Test("the schema of each kind of type", arguments: cases)
    func schema(_ test: SchemaCase) throws {
        let schema = try test.derive()
        #expect(schema.json == test.expected, "\(schema.json)")
        #expect(schema.notes.isEmpty)
        // The derived schema is one the server can compile.
        _ = try JSONSchema(schema.json)
    }

    @Test("members are listed in declaration order")
    func declarationOrder() throws {
        let schema = try ToolArgumentsSchema(for: FlatArguments.self)
        #expect(schema.json["properties"]?.objectValue?.keys == ["name", "count", "ratio", "enabled"])
    }

    @Test("a dictionary at the root is an object")
    func dictionaryRoot() throws {
        let schema = try ToolArgumentsSchema(for: [String: Double].self)
        #expect(schema.json == ["type": "object", "additionalProperties": ["type": "number"]])
    }

    /// The schema of `Tree` from `level` down.
    static func treeSchema(level: Int) -> JSONValue {
        let items: JSONValue =
            level == ToolArgumentsSchema.recursionLevels
            ? ["description": "Tree, nested too deeply to be described here: checked when the tool decodes it"]
            : treeSchema(level: level + 1)
        return [
            "type": "object", "properties": ["name": ["type": "string"], "children": ["type": "array", "items": items]],
            "required": ["name", "children"],
        ]
    }

    @Test("a recursive type through an array is described to its levels, then any value, with a note")
    func recursionThroughArray() throws {
        let schema = try ToolArgumentsSchema(for: Tree.self)
        #expect(schema.json == Self.treeSchema(level: 1))
        let note = try #require(schema.notes.first)
        #expect(schema.notes.count == 1)
        #expect(note.hasPrefix("Tree is recursive: the schema describes 3 levels"))
    }

    @Test("a recursive type through a dictionary stops the same way")
    func recursionThroughDictionary() throws {
        let schema = try ToolArgumentsSchema(for: Folder.self)
        var level = schema.json
        for _ in 1..<ToolArgumentsSchema.recursionLevels {
            #expect(level["required"] == ["name", "subfolders"])
            level = try #require(level["properties"]?["subfolders"]?["additionalProperties"])
        }
        let deepest = try #require(level["properties"]?["subfolders"]?["additionalProperties"])
        #expect(deepest == ["description": "Folder, nested too deeply to be described here: checked when the tool decodes it"])
        #expect(schema.notes.count == 1)
    }

    @Test("a recursive type through an optional stops the same way")
    func recursionThroughOptional() throws {
        let schema = try ToolArgumentsSchema(for: Chain.self)
        var level = schema.json
        for _ in 1..<ToolArgumentsSchema.recursionLevels {
            #expect(level["required"] == ["value"])
            #expect(level["type"] == "object" || level["type"] == ["object", "null"])
            level = try #require(level["properties"]?["next"])
        }
        #expect(level["type"] == ["object", "null"])
        let deepest = try #require(level["properties"]?["next"])
        #expect(deepest == ["description": "Chain, nested too deeply to be described here: checked when the tool decodes it"])
        #expect(schema.notes.count == 1)
    }

    // MARK: Refused

    struct RefusalCase: Sendable, CustomTestStringConvertible {
        let name: String
        let derive: @Sendable () throws -> ToolArgumentsSchema
        let kind: ToolArgumentsSchemaError
        /// The start of the error's location.
        let location: String
        let detail: String
        var testDescription: String { name }

        init<Arguments: Decodable & Sendable>(
            _ name: String, _ type: Arguments.Type, _ kind: ToolArgumentsSchemaError, at location: String, saying detail: String
        ) {
            self.name = name
            self.derive = { try ToolArgumentsSchema(for: Arguments.self) }
            self.kind = kind
            self.location = location
            self.detail = detail
        }
    }

    static let refusals: [RefusalCase] = [
        RefusalCase(
            "a raw-value enum that is not CaseIterable", ModeArguments.self, .dependsOnValues, at: "/mode",
            saying: "Mode is RawRepresentable but not CaseIterable"),
        RefusalCase(
            "an enum with associated values (allKeys)", DrawingArguments.self, .dependsOnValues, at: "/shape", saying: "(allKeys)"),
        RefusalCase(
            "init(from:) that checks a value", ValidatingArguments.self, .dependsOnValues, at: "/query",
            saying: "ValidatingArguments.init(from:) threw on a placeholder value (a query has at least 3 characters)"),
        RefusalCase(
            "init(from:) that branches on a Bool", FlagBranchArguments.self, .dependsOnValues, at: "",
            saying: "it reads the member \"level\" for some placeholder values and not for others"),
        RefusalCase(
            "a tagged union whose last case reads another member", TaggedArguments.self, .dependsOnValues, at: "",
            saying: "it reads the members \"size\", \"side\" for some placeholder values"),
        RefusalCase(
            "an old name taken when the new one is missing", RenamedArguments.self, .dependsOnValues, at: "",
            saying: "it reads the member \"name\" for some placeholder values"),
        RefusalCase(
            "one member decoded as two types", TwoTypesArguments.self, .dependsOnValues, at: "/value",
            saying: "decoded both as String and as Int"),
        RefusalCase(
            "a CaseIterable enum that does not decode from its raw values", SpelledArguments.self, .dependsOnValues, at: "/count",
            saying: "does not decode from its raw value \"one\""),
        RefusalCase(
            "a refusal the type catches and goes on from", SwallowingArguments.self, .dependsOnValues, at: "/mode",
            saying: "not CaseIterable"),
        RefusalCase("Decimal", DecimalArguments.self, .unsupportedType, at: "/amount", saying: "Use Double"),
        RefusalCase(
            "a dictionary keyed by Double", DoubleKeyedArguments.self, .unsupportedType, at: "/weights",
            saying: "decodes from an array of keys and values in turn"),
        RefusalCase(
            "recursion through a required member", LoopArguments.self, .unsupportedType, at: "/next/next/next",
            saying: "contains itself through a member that is not optional"),
        RefusalCase("a String at the root", String.self, .notAnObject, at: "", saying: "it decodes as string"),
        RefusalCase("an array at the root", [Int].self, .notAnObject, at: "", saying: "it decodes as an array"),
        RefusalCase(
            "a description for a member that does not exist", MisdescribedArguments.self, .unknownMember, at: "/qurey",
            saying: "describes \"qurey\", which is not a member it decodes (\"query\")"),
        RefusalCase(
            "a decoding that reads elements until one fails", GreedyArguments.self, .tooComplex, at: "/numbers/",
            saying: "more than 20000 questions"),
        RefusalCase(
            "a new generic type at every level", Nesting<Int>.self, .tooComplex,
            at: "/" + Array(repeating: "inner", count: 32).joined(separator: "/"),
            saying: "nest more than 32 deep"),
    ]

    @Test("types the recorder cannot describe are refused, with where and why", arguments: refusals)
    func refused(_ test: RefusalCase) throws {
        let error = try #require(throws: ToolArgumentsSchemaError.self) { try test.derive() }
        #expect(error == test.kind)
        #expect(error.location.description.hasPrefix(test.location), "\(error.location)")
        #expect(test.location.hasSuffix("/") || error.location.description == test.location, "\(error.location)")
        #expect(error.detail.contains(test.detail), "\(error.detail)")
        #expect(error.description.hasPrefix("Cannot derive an input schema from "))
        // Every refusal says what to do instead: an explicit schema, or (for a description) the right key.
        #expect(error.detail.contains(test.kind == .unknownMember ? "coding key" : "explicit inputSchema"), "\(error.detail)")
    }

    @Test("errors name the arguments type and match their kind in catch clauses")
    func errorDescription() throws {
        do {
            _ = try ToolArgumentsSchema(for: ModeArguments.self)
            Issue.record("derived a schema for a type whose values cannot be listed")
        } catch ToolArgumentsSchemaError.dependsOnValues {
            // Matched by kind.
        } catch {
            Issue.record("unexpected error \(error)")
        }
        let error = try #require(throws: ToolArgumentsSchemaError.self) { try ToolArgumentsSchema(for: ModeArguments.self) }
        #expect(error.typeName == "ModeArguments")
        #expect(error.description.hasPrefix("Cannot derive an input schema from ModeArguments at /mode: Mode is RawRepresentable"))
    }
}
