public import JSONSchema
public import MCPCore

#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// An MCP tool's `inputSchema` converted to a FoundationModels `GenerationSchema`, with
/// what the conversion could not carry over.
///
/// ```swift
/// let conversion = try SchemaConversion(inputSchema: tool.inputSchema, name: "get_weather")
/// conversion.schema        // the tool's `parameters`
/// conversion.diagnostics   // e.g. warning at /properties/date/format: format "date" cannot be a generation guide…
/// ```
///
/// ## Mapping
///
/// | JSON Schema | Generation schema |
/// |---|---|
/// | `type: object`, `properties`, `required` | an object; properties not in `required` are optional |
/// | `string` / `integer` / `number` / `boolean` | `String` / `Int` / `Double` / `Bool` |
/// | string `enum` | `anyOf` string choices |
/// | string `const` | `.constant` guide |
/// | integer / number `enum` and `const` | `anyOf` of `Int` / `Double` pinned by `minimum == maximum` |
/// | `items`, `minItems`, `maxItems` | an array with element counts |
/// | `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` | `.minimum` / `.maximum` guides (exclusive bounds moved to the next integer or `Double`) |
/// | `pattern` | a `.pattern` guide for the whole string (`abc` → `[\s\S]*(?:abc)[\s\S]*`, `^abc$` → `abc`, as JSON Schema's pattern matches anywhere and a guide's the whole string) when Swift's `Regex` accepts it |
/// | `anyOf`, `oneOf`, a `type` list | `anyOf` of schemas |
/// | `["T","null"]`, `anyOf [T, {"type":"null"}]`, `null` in `enum` | `T`, optional |
/// | local `$ref` into `$defs`/`definitions` (or any local pointer) | a named dependency, recursion allowed; plain scalar targets inline |
/// | `description` (else `title`) | the property's or node's description |
///
/// Everything else is reported as a ``SchemaDiagnostic``: annotations (`title`, `default`,
/// `examples`, …) as notes; constraints generation cannot enforce (`format`, lengths,
/// `multipleOf`, `additionalProperties` maps, `patternProperties`, `not`, `if`/`then`/`else`,
/// `allOf`, …) as warnings; remote or dangling `$ref` and malformed keywords as errors, with
/// a permissive string in their place. The model's arguments are validated against the
/// original schema before the tool is called, so what generation cannot enforce is still
/// checked.
///
/// ## Names
///
/// Every object, string choice list and `anyOf` is a named type in a generation schema.
/// Names come from the root name (`<name>_arguments`), property keys, `<key>_item` for array
/// elements, `<key>_<n>` for choices and definition keys, made unique within the schema with
/// `_2`, `_3`, …, so `GenerationSchema(root:dependencies:)` never sees a duplicate type.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
public struct SchemaConversion: Sendable {
    /// The generation schema, for a tool's `parameters`.
    public let schema: GenerationSchema
    /// The root of the schema as it was built.
    public let root: DynamicGenerationSchema
    /// The named schemas the root refers to (from `$ref`).
    public let dependencies: [DynamicGenerationSchema]
    /// What could not be carried over exactly, in schema order.
    public let diagnostics: [SchemaDiagnostic]
    /// The input schema converted (an empty object schema when there was none).
    public let inputSchema: JSONValue

    /// The input schema compiled for validation; `nil` when it does not compile (for
    /// example, a remote `$ref`), reported as a diagnostic.
    public let validator: JSONSchema?

    /// The lowered shape, for turning generated content back into JSON.
    let shape: ObjectShape
    let definitions: [String: ArgumentShape]

    /// The schema used for a tool that declares none: an object with no properties.
    public static let emptyInputSchema: JSONValue = ["type": "object", "properties": [:]]

    /// Converts a tool's input schema.
    ///
    /// - Parameters:
    ///   - inputSchema: The tool's `inputSchema`; `nil` or `null` (no schema) gives an empty object schema.
    ///   - name: The tool's name; the root type is named `<name>_arguments`.
    /// - Throws: `GenerationSchema.SchemaError` if FoundationModels rejects the result,
    ///   which the unique naming rules out for any input.
    public init(inputSchema: JSONValue?, name: String = "tool") throws {
        let input: JSONValue
        switch inputSchema {
        case nil, .null?: input = Self.emptyInputSchema
        case let schema?: input = schema
        }
        var lowering = SchemaLowering(document: input)
        let shape = lowering.lowerRoot(name: "\(name)_arguments")
        let root = Self.dynamicSchema(.object(shape))
        let dependencies = lowering.definitions.map { Self.dynamicSchema($0.shape) }
        self.schema = try GenerationSchema(root: root, dependencies: dependencies)
        self.root = root
        self.dependencies = dependencies
        do {
            self.validator = try JSONSchema(input)
        } catch {
            self.validator = nil
            lowering.report(.warning, at: error.location, "arguments cannot be validated before the call: \(error.message)")
        }
        self.diagnostics = lowering.diagnostics
        self.inputSchema = input
        self.shape = shape
        self.definitions = Dictionary(lowering.definitions.map { ($0.name, $0.shape) }, uniquingKeysWith: { first, _ in first })
    }

    /// Diagnostics at `severity` or above.
    public func diagnostics(atLeast severity: SchemaDiagnostic.Severity) -> [SchemaDiagnostic] {
        diagnostics.filter { $0.severity >= severity }
    }

    /// The model's arguments as the JSON object to send in `tools/call`: integers where the
    /// schema says `integer`, keys in the order the model produced them, a nullable
    /// property that the schema requires sent as `null` when the model left it out.
    ///
    /// - Throws: ``ArgumentConversionError`` when the content is not an object.
    public func arguments(from content: GeneratedContent) throws(ArgumentConversionError) -> JSONObject {
        try ArgumentDecoder(definitions: definitions).object(from: content, shape: shape)
    }

    /// What is wrong with `arguments` by the original input schema: empty when they are
    /// valid, `nil` when the schema cannot be compiled.
    public func validationErrors(for arguments: JSONObject) -> [ValidationError]? {
        validator?.validate(.object(arguments)).errors
    }

    /// The generation schema in Apple's JSON form (`title`, `x-order`,
    /// `additionalProperties: false`, `$defs`), keys sorted: what the model is shown.
    public func schemaJSON(prettyPrinted: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            prettyPrinted ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(schema), as: UTF8.self)
    }

    // MARK: Emitting

    static func dynamicSchema(_ shape: ArgumentShape) -> DynamicGenerationSchema {
        switch shape {
        case .object(let object):
            return DynamicGenerationSchema(
                name: object.name, description: object.description,
                properties: object.properties.map { property in
                    DynamicGenerationSchema.Property(
                        name: property.name, description: property.description,
                        schema: dynamicSchema(property.shape), isOptional: property.isOptional)
                })
        case .string(let constant, let pattern):
            var guides: [GenerationGuide<String>] = []
            if let constant {
                guides.append(.constant(constant))
            } else if let pattern, let regex = try? Regex(pattern) {
                guides.append(.pattern(regex))
            }
            return DynamicGenerationSchema(type: String.self, guides: guides)
        case .stringChoices(let name, let description, let choices):
            return DynamicGenerationSchema(name: name, description: description, anyOf: choices)
        case .integer(let minimum, let maximum):
            var guides: [GenerationGuide<Int>] = []
            if let minimum { guides.append(.minimum(minimum)) }
            if let maximum { guides.append(.maximum(maximum)) }
            return DynamicGenerationSchema(type: Int.self, guides: guides)
        case .number(let minimum, let maximum):
            var guides: [GenerationGuide<Double>] = []
            if let minimum { guides.append(.minimum(minimum)) }
            if let maximum { guides.append(.maximum(maximum)) }
            return DynamicGenerationSchema(type: Double.self, guides: guides)
        case .boolean:
            return DynamicGenerationSchema(type: Bool.self)
        case .array(let item, let minimum, let maximum):
            return DynamicGenerationSchema(arrayOf: dynamicSchema(item), minimumElements: minimum, maximumElements: maximum)
        case .choice(let name, let description, let choices):
            return DynamicGenerationSchema(name: name, description: description, anyOf: choices.map(dynamicSchema))
        case .reference(let name):
            return DynamicGenerationSchema(referenceTo: name)
        }
    }
}

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension SchemaConversion {
    /// Converts a tool's input schema to a `GenerationSchema`: the shorthand for
    /// `SchemaConversion(inputSchema:name:).schema`, as the seed sketch writes it.
    ///
    /// ```swift
    /// MCPBridgedTool(name: item.name, description: item.description ?? "", client: client,
    ///                parameters: try SchemaConversion.schema(from: item.inputSchema))
    /// ```
    ///
    /// - Parameters:
    ///   - inputSchema: The tool's `inputSchema`; `nil` gives an empty object schema, so the
    ///     model can still call a tool that takes no arguments.
    ///   - name: The tool's name, for naming the generated types.
    public static func schema(from inputSchema: JSONValue?, name: String = "tool") throws -> GenerationSchema {
        try SchemaConversion(inputSchema: inputSchema, name: name).schema
    }
}
