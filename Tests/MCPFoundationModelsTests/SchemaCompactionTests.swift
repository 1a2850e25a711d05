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

/// A tool's input schema lowered as ``SchemaConversion`` lowers it, with description
/// compaction on or off (off is what the bridge did before compaction).
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct LoweredSchema {
    let schema: GenerationSchema
    let shape: ObjectShape
    let definitions: [(name: String, shape: ArgumentShape)]
    let diagnostics: [SchemaDiagnostic]

    init(_ inputSchema: JSONValue, name: String, compacts: Bool) throws {
        let input = inputSchema.isNull ? SchemaConversion.emptyInputSchema : inputSchema
        var lowering = SchemaLowering(document: input, compactsDescriptions: compacts)
        shape = lowering.lowerRoot(name: "\(name)_arguments")
        definitions = lowering.definitions
        diagnostics = lowering.diagnostics
        schema = try GenerationSchema(
            root: SchemaConversion.dynamicSchema(.object(shape)), dependencies: definitions.map { SchemaConversion.dynamicSchema($0.shape) }
        )
    }

    /// The shape and the definitions without descriptions, for comparing what else was lowered.
    var undescribed: [ArgumentShape] {
        [ArgumentShape.object(shape).undescribed] + definitions.map(\.shape.undescribed)
    }
}

extension ArgumentShape {
    /// The same shape with every description removed.
    var undescribed: ArgumentShape {
        switch self {
        case .object(var object):
            object.description = nil
            object.properties = object.properties.map { property in
                var property = property
                property.description = nil
                property.shape = property.shape.undescribed
                return property
            }
            return .object(object)
        case .stringChoices(let name, _, let choices):
            return .stringChoices(name: name, description: nil, choices: choices)
        case .choice(let name, _, let choices):
            return .choice(name: name, description: nil, choices: choices.map(\.undescribed))
        case .array(let item, let minimum, let maximum):
            return .array(item: item.undescribed, minimum: minimum, maximum: maximum)
        case .string, .integer, .number, .boolean, .reference:
            return self
        }
    }
}

/// `value` without the `description` strings of its schemas.
func withoutDescriptions(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let object):
        var result = JSONObject()
        for (key, member) in object where !(key == "description" && member.stringValue != nil) {
            result[key] = withoutDescriptions(member)
        }
        return .object(result)
    case .array(let elements):
        return .array(elements.map(withoutDescriptions))
    default:
        return value
    }
}

/// Every `description` string of the schemas in `value`, with where it is.
func describedNodes(_ value: JSONValue, at path: [String] = []) -> [(path: [String], text: String)] {
    switch value {
    case .object(let object):
        var found: [(path: [String], text: String)] = []
        for (key, member) in object {
            if key == "description", let text = member.stringValue {
                found.append((path, text))
            } else {
                found += describedNodes(member, at: path + [key])
            }
        }
        return found
    case .array(let elements):
        return elements.enumerated().flatMap { describedNodes($1, at: path + ["\($0)"]) }
    default:
        return []
    }
}

@Suite("Compacted generation schemas")
struct SchemaCompactionTests {
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Compaction changes only descriptions: guides, names, order and diagnostics are the same", arguments: ListedTool.all)
    func onlyDescriptionsChange(_ listed: ListedTool) throws {
        let name = ToolNameMap.sanitized(listed.tool.name)
        let input = UntrustedText.cleanedDescriptions(in: listed.tool.inputSchema)
        let before = try LoweredSchema(input, name: name, compacts: false)
        let after = try LoweredSchema(input, name: name, compacts: true)
        #expect(withoutDescriptions(try encoded(after.schema)) == withoutDescriptions(try encoded(before.schema)))
        #expect(after.undescribed == before.undescribed)
        #expect(after.definitions.map(\.name) == before.definitions.map(\.name))
        #expect(after.diagnostics == before.diagnostics)
        // The helper lowers as the bridge does.
        #expect(try encoded(after.schema) == encoded(try SchemaConversion(inputSchema: input, name: name).schema))

        for (path, text) in describedNodes(try encoded(after.schema)) {
            #expect(text.count <= DescriptionCompactor.parameterCharacters, "\(path): \(text)")
            #expect(!text.contains("\n") && !text.contains("`") && !text.contains("**"), "\(path): \(text)")
            if let key = path.last, path.dropLast().last == "properties" {
                #expect(!DescriptionCompactor.repeatsName(text, key), "\(path): \(text)")
            }
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Descriptions and titles that repeat a name are dropped; the rest is compacted; guides stay")
    func redundantText() throws {
        let input: JSONValue = [
            "type": "object", "title": "find_filesArguments",
            "properties": [
                "path": ["type": "string", "description": "The path"],
                "extra_names": ["type": "array", "title": "Extra Names", "items": ["type": "string"], "minItems": 1, "maxItems": 3],
                "mode": [
                    "type": "string", "enum": ["fast", "full"],
                    "description": "How to search: `fast` or `full`.\n\n    Example: mode=\"fast\"",
                ],
                "depth": [
                    "type": "integer", "minimum": 0, "maximum": 9, "title": "Depth", "description": "How **deep** to go. Default 2.",
                ],
                "glob": ["type": "string", "pattern": "^[a-z*]+$", "title": "Glob"],
                "owner": ["$ref": "#/$defs/Person", "description": "Who owns the files"],
                "kind": ["const": "file", "description": "Kind"],
            ],
            "required": ["path"],
            "$defs": ["Person": ["type": "object", "title": "Person", "properties": ["name": ["type": "string", "title": "Name"]]]],
        ]
        let conversion = try SchemaConversion(inputSchema: input, name: "find_files")
        let schema = try encoded(conversion.schema)
        let properties = try #require(schema["properties"])
        #expect(schema["description"] == nil, "the root title repeats the tool's name")
        #expect(properties["path"]?["description"] == nil)
        #expect(properties["extra_names"]?["description"] == nil)
        #expect(properties["glob"]?["description"] == nil)
        #expect(properties["kind"]?["description"] == nil)
        #expect(properties["mode"]?["description"] == "How to search: fast or full.")
        #expect(properties["depth"]?["description"] == "How deep to go.")
        #expect(properties["owner"]?["description"] == "Who owns the files")
        #expect(schema["$defs"]?["Person"]?["description"] == nil)
        #expect(schema["$defs"]?["Person"]?["properties"]?["name"]?["description"] == nil)
        // Guides are untouched.
        #expect(schema["$defs"]?["mode"]?["enum"] == ["fast", "full"])
        #expect(properties["depth"]?["minimum"] == 0 && properties["depth"]?["maximum"] == 9)
        #expect(properties["glob"]?["pattern"] != nil)
        #expect(properties["extra_names"]?["minItems"] == 1 && properties["extra_names"]?["maxItems"] == 3)
        #expect(properties["kind"]?["const"] == "file")
        #expect(schema["required"] == ["path"])
        // The same diagnostics as without compaction: the title beside a description is still an unseen annotation.
        let uncompacted = try LoweredSchema(input, name: "find_files", compacts: false)
        #expect(conversion.diagnostics == uncompacted.diagnostics)
        #expect(conversion.diagnostics.contains { $0.location.description == "/properties/depth/title" })
        #expect(try encoded(uncompacted.schema)["properties"]?["path"]?["description"] == "The path")
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "A root title is dropped when it is a type name, kept when it is prose or beside a description",
        arguments: [
            ("statusArguments", nil, nil), ("git_status_arguments", nil, nil), ("Weather query", nil, "Weather query"),
            ("statusArguments", "What to show.", "What to show."),
        ] as [(String, String?, String?)])
    func rootTitle(_ title: String, _ description: String?, _ expected: String?) throws {
        var input: JSONObject = ["type": "object", "title": .string(title), "properties": ["a": ["type": "string"]]]
        if let description { input["description"] = .string(description) }
        let schema = try encoded(try SchemaConversion(inputSchema: .object(input), name: "git_status").schema)
        #expect(schema["description"]?.stringValue == expected)
        #expect(schema["title"] == "git_status_arguments")
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Argument validation is the same for compacted tools: the server's schema decides, for every captured tool")
    func validationUnchanged() async throws {
        let (_, client) = try await connectedServer([])
        for listed in ListedTool.all {
            let bridged = try MCPBridgedTool(tool: listed.tool, client: client)
            let server = try SchemaConversion(inputSchema: listed.tool.inputSchema, name: bridged.name)
            let keys = listed.tool.inputSchema["properties"]?.objectValue?.keys ?? []
            let samples: [JSONObject] = [
                [:],
                JSONObject(keys.map { ($0, JSONValue.string("x")) }, uniquingKeysWith: { first, _ in first }),
                JSONObject(keys.map { ($0, JSONValue.int(12_345)) }, uniquingKeysWith: { first, _ in first }),
                ["not_a_parameter": true],
            ]
            for sample in samples {
                let compacted = bridged.conversion?.validationErrors(for: sample).map { $0.map { String(describing: $0) } }
                let original = server.validationErrors(for: sample).map { $0.map { String(describing: $0) } }
                #expect(compacted == original, "\(listed): \(sample)")
                #expect((bridged.validationProblems(sample) == nil) == (original?.isEmpty ?? true), "\(listed): \(sample)")
            }
        }
        await client.close()
    }
}
