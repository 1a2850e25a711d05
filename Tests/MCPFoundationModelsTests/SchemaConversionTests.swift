import Foundation
import MCP
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

@Suite("JSON Schema → GenerationSchema")
struct SchemaConversionTests {
    // MARK: Real tools

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Every captured tool converts", arguments: ListedTool.all)
    func realToolConverts(_ listed: ListedTool) throws {
        let conversion = try SchemaConversion(inputSchema: listed.tool.inputSchema, name: ToolNameMap.sanitized(listed.tool.name))
        // Apple's JSON form round-trips, so GenerationSchema accepted the whole result.
        let json = try JSONEncoder().encode(conversion.schema)
        _ = try JSONDecoder().decode(GenerationSchema.self, from: json)
        // Every keyword the schema uses is mapped or reported.
        for pointer in unmappedKeywordLocations(in: listed.tool.inputSchema) {
            #expect(
                conversion.diagnostics.contains { $0.location == pointer },
                "\(pointer) is neither mapped nor reported; diagnostics: \(conversion.diagnostics)")
        }
    }

    @Test("The captured tools cover 159 tools in 17 files")
    func captureIsComplete() {
        #expect(
            ListedTool.all.count == 159, "the captured tool lists are vendored at \(Paths.schemas.path); a checkout without them is broken")
        #expect(Set(ListedTool.all.map(\.file)).count == 17)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Unsupported keywords in captured tools are reported")
    func realUnsupportedKeywordsReported() throws {
        var reported: [String: Int] = [:]
        for listed in ListedTool.all {
            let conversion = try SchemaConversion(inputSchema: listed.tool.inputSchema, name: listed.tool.name)
            for diagnostic in conversion.diagnostics where diagnostic.severity >= .warning {
                reported[diagnostic.location.tokens.last ?? "", default: 0] += 1
            }
        }
        for keyword in ["format", "additionalProperties", "allOf", "if", "then", "else"] {
            #expect(reported[keyword, default: 0] > 0, "no warning for \(keyword): \(reported)")
        }
    }

    // MARK: Golden files

    static let goldenCases: [String] = {
        let inputs = Paths.fixtures.appendingPathComponent("inputs")
        let files = (try? FileManager.default.contentsOfDirectory(at: inputs, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "json" }.map { $0.deletingPathExtension().lastPathComponent }.sorted()
    }()

    /// Compares the encoded schema and the diagnostics with `Fixtures/golden/<case>.json`.
    /// Set `UPDATE_GOLDEN=1` to rewrite the golden files after a deliberate change.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Golden generation schema", arguments: goldenCases)
    func golden(_ name: String) throws {
        let input = try readJSON(Paths.fixtures.appendingPathComponent("inputs/\(name).json"))
        // `no_schema.json` holds `null`: a tool without an input schema.
        let inputSchema: JSONValue? = input.isNull ? Optional.none : input
        let conversion = try SchemaConversion(inputSchema: inputSchema, name: name)
        let actual: JSONValue = [
            "schema": try encoded(conversion.schema),
            "diagnostics": .array(conversion.diagnostics.map { .string($0.description) }),
        ]
        let url = Paths.fixtures.appendingPathComponent("golden/\(name).json")
        let text = try JSONWriter(sortsKeys: true, prettyPrints: true).string(from: actual) + "\n"
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try readJSON(url)
        #expect(actual == expected, "\(name): got\n\(text)")
    }

    @Test("There is a golden file for every input and no other")
    func goldenFilesMatchInputs() throws {
        let golden = try FileManager.default.contentsOfDirectory(atPath: Paths.fixtures.appendingPathComponent("golden").path)
        #expect(golden.map { String($0.dropLast(".json".count)) }.sorted() == Self.goldenCases)
        #expect(Self.goldenCases.count >= 12)
    }

    // MARK: Mapping rules

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("No schema gives an empty object schema")
    func noSchema() throws {
        let conversion = try SchemaConversion(inputSchema: nil, name: "ping")
        let schema = try encoded(conversion.schema)
        #expect(try conversion.schemaJSON(prettyPrinted: false).contains(#""title":"ping_arguments""#))
        #expect(conversion.diagnostics.isEmpty)
        #expect(schema["type"] == "object")
        #expect(schema["properties"] == [:])
        #expect(schema["title"] == "ping_arguments")
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Required properties are required; the rest are optional")
    func requiredAndOptional() throws {
        let schema = try encoded(
            try SchemaConversion(
                inputSchema: [
                    "type": "object", "properties": ["a": ["type": "string"], "b": ["type": "integer"]], "required": ["b"],
                ]
            ).schema)
        #expect(schema["required"] == ["b"])
        #expect(schema["x-order"] == ["a", "b"])
        #expect(schema["properties"]?["b"]?["type"] == "integer")
    }

    struct KeywordCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let property: JSONValue
        let reported: String?
    }

    static let unsupportedCases: [KeywordCase] = [
        KeywordCase(testDescription: "format", property: ["type": "string", "format": "uri"], reported: "/properties/p/format"),
        KeywordCase(
            testDescription: "minLength beside a pattern", property: ["type": "string", "pattern": "^a", "minLength": 2],
            reported: "/properties/p/minLength"),
        KeywordCase(
            testDescription: "a maxLength too long to guide", property: ["type": "string", "maxLength": 5000],
            reported: "/properties/p/maxLength"),
        KeywordCase(testDescription: "multipleOf", property: ["type": "integer", "multipleOf": 5], reported: "/properties/p/multipleOf"),
        KeywordCase(
            testDescription: "additionalProperties map", property: ["type": "object", "additionalProperties": ["type": "integer"]],
            reported: "/properties/p/additionalProperties"),
        KeywordCase(
            testDescription: "patternProperties", property: ["type": "object", "patternProperties": ["^a": ["type": "string"]]],
            reported: "/properties/p/patternProperties"),
        KeywordCase(testDescription: "not", property: ["type": "string", "not": ["const": "x"]], reported: "/properties/p/not"),
        KeywordCase(testDescription: "if", property: ["type": "object", "if": ["required": ["a"]]], reported: "/properties/p/if"),
        KeywordCase(testDescription: "allOf", property: ["allOf": [["type": "string"]]], reported: "/properties/p/allOf"),
        KeywordCase(testDescription: "remote $ref", property: ["$ref": "https://example.com/a.json"], reported: "/properties/p/$ref"),
        KeywordCase(testDescription: "dangling $ref", property: ["$ref": "#/$defs/Nope"], reported: "/properties/p/$ref"),
        KeywordCase(testDescription: "invalid pattern", property: ["type": "string", "pattern": "(a"], reported: "/properties/p/pattern"),
        KeywordCase(
            testDescription: "uniqueItems", property: ["type": "array", "items": ["type": "string"], "uniqueItems": true],
            reported: "/properties/p/uniqueItems"),
        KeywordCase(testDescription: "default", property: ["type": "string", "default": "x"], reported: "/properties/p/default"),
        KeywordCase(
            testDescription: "an unknown keyword", property: ["type": "string", "frobnicate": 1], reported: "/properties/p/frobnicate"),
        KeywordCase(
            testDescription: "mapped keywords are not reported",
            property: ["type": "integer", "minimum": 1, "maximum": 3, "description": "n"], reported: nil),
    ]

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Keywords that cannot be mapped are reported at their location", arguments: unsupportedCases)
    func unsupportedKeyword(_ keywordCase: KeywordCase) throws {
        let conversion = try SchemaConversion(inputSchema: ["type": "object", "properties": ["p": keywordCase.property]])
        if let reported = keywordCase.reported {
            #expect(conversion.diagnostics.map(\.location.description).contains(reported), "\(conversion.diagnostics)")
        } else {
            #expect(conversion.diagnostics.isEmpty)
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Integer bounds become Int guides; exclusive bounds move to the next integer")
    func integerBounds() throws {
        let schema = try encoded(
            try SchemaConversion(inputSchema: [
                "type": "object",
                "properties": ["n": ["type": "integer", "exclusiveMinimum": 0, "maximum": 10.5]],
            ]).schema)
        #expect(schema["properties"]?["n"]?["minimum"] == 1)
        #expect(schema["properties"]?["n"]?["maximum"] == 10)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A valid pattern becomes a pattern guide for the whole string")
    func patternGuide() throws {
        let schema = try encoded(
            try SchemaConversion(inputSchema: ["type": "object", "properties": ["code": ["type": "string", "pattern": "^[A-Z]{3}$"]]])
                .schema)
        #expect(schema["properties"]?["code"]?["pattern"] == "[A-Z]{3}")
    }

    @Test(
        "Nullable forms become optional properties",
        arguments: [
            ["type": ["string", "null"]],
            ["anyOf": [["type": "string"], ["type": "null"]]],
            ["enum": ["a", "b", nil]],
        ] as [JSONValue])
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func nullableIsOptional(_ property: JSONValue) throws {
        let conversion = try SchemaConversion(inputSchema: ["type": "object", "properties": ["p": property], "required": ["p"]])
        let schema = try encoded(conversion.schema)
        #expect(schema["required"] == [])
        #expect(conversion.shape.properties.first?.isNullable == true)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A recursive $ref is a reference to one definition")
    func recursiveReference() throws {
        let conversion = try SchemaConversion(inputSchema: [
            "type": "object",
            "properties": ["tree": ["$ref": "#/$defs/Node"]],
            "$defs": ["Node": ["type": "object", "properties": ["children": ["type": "array", "items": ["$ref": "#/$defs/Node"]]]]],
        ])
        let schema = try encoded(conversion.schema)
        #expect(schema["properties"]?["tree"]?["$ref"] == "#/$defs/Node")
        #expect(schema["$defs"]?["Node"]?["properties"]?["children"]?["items"]?["$ref"] == "#/$defs/Node")
        #expect(conversion.dependencies.count == 1)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Nested types with the same name get unique names")
    func uniqueNames() throws {
        let input = try readJSON(Paths.fixtures.appendingPathComponent("inputs/name_collisions.json"))
        let schema = try encoded(try SchemaConversion(inputSchema: input, name: "t").schema)
        let names = schema["$defs"]?.objectValue?.keys ?? []
        #expect(Set(names).count == names.count)
        #expect(names.contains("address") && names.contains("address_2") && names.contains("address_3"))
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("schema(from:) is the seed's adapter")
    func seedAdapter() throws {
        let parameters = try SchemaConversion.schema(from: [
            "type": "object", "properties": ["query": ["type": "string"]], "required": ["query"],
        ])
        #expect(try encoded(parameters)["required"] == ["query"])
        #expect(try encoded(try SchemaConversion.schema(from: nil))["properties"] == [:])
    }
}

/// The locations of keywords in `schema` that the conversion does not map, which must
/// therefore each have a diagnostic.
private func unmappedKeywordLocations(in schema: JSONValue) -> [JSONPointer] {
    let mapped: Set<String> = [
        "type", "properties", "required", "items", "minItems", "maxItems", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "enum", "const", "anyOf", "oneOf", "$ref", "$defs", "definitions", "description", "pattern",
    ]
    var found: [JSONPointer] = []
    func walk(_ value: JSONValue, _ pointer: JSONPointer) {
        guard case .object(let object) = value else { return }
        for (key, child) in object {
            let location = pointer.appending(key)
            switch key {
            case "properties", "$defs", "definitions":
                for (name, member) in child.objectValue ?? [:] { walk(member, location.appending(name)) }
            case "items":
                walk(child, location)
            case "anyOf", "oneOf":
                for (index, member) in (child.arrayValue ?? []).enumerated() { walk(member, location.appending(index)) }
            case "additionalProperties" where child == false:
                break
            case "title" where object["description"] == nil:
                break  // Used as the description.
            case "minLength" where object["pattern"] == nil, "maxLength" where object["pattern"] == nil:
                break  // A length guide (or, too long to guide, a note).
            default:
                if !mapped.contains(key) { found.append(location) }
            }
        }
    }
    walk(schema, JSONPointer())
    return found
}
