// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// MARK: - Internal schema model

struct StringConstraints: Sendable, Equatable {
    var constant: String?
    var choices: [String]?
    var pattern: String?
}

struct NumberConstraints: Sendable, Equatable {
    var minimum: Double?
    var maximum: Double?
}

struct SchemaProperty: Sendable, Equatable {
    var name: String
    var description: String?
    var node: SchemaNode
    var isOptional: Bool
}

/// One node of a schema. Named nodes (objects, string enums, anyOf) become `$defs` entries.
indirect enum SchemaNode: Sendable, Equatable {
    case any
    case null
    case boolean
    case string(StringConstraints)
    case integer(NumberConstraints)
    case number(NumberConstraints)
    case array(item: SchemaNode, minimum: Int?, maximum: Int?)
    case object(name: String, description: String?, properties: [SchemaProperty])
    case stringEnum(name: String, description: String?, choices: [String])
    case anyOf(name: String, description: String?, choices: [SchemaNode])
    case reference(String)

    var typeName: String? {
        switch self {
        case .object(let name, _, _), .stringEnum(let name, _, _), .anyOf(let name, _, _): name
        default: nil
        }
    }
}

struct SchemaDefinition: Sendable, Equatable {
    var name: String
    var node: SchemaNode
}

// MARK: - GenerationGuide

indirect enum GuideKind: Sendable, Equatable {
    case constant(String)
    case anyOf([String])
    case pattern(String?)
    case minimum(Double)
    case maximum(Double)
    case range(Double, Double)
    case minimumCount(Int)
    case maximumCount(Int)
    case count(Int, Int)
    case element(GuideKind)
}

/// Guides that constrain the values the model generates.
public struct GenerationGuide<Value> {
    let kind: GuideKind
    init(_ kind: GuideKind) { self.kind = kind }
}

extension GenerationGuide where Value == String {
    public static func constant(_ value: String) -> GenerationGuide<String> { .init(.constant(value)) }
    public static func anyOf(_ values: [String]) -> GenerationGuide<String> { .init(.anyOf(values)) }
    public static func pattern<Output>(_ regex: Regex<Output>) -> GenerationGuide<String> {
        .init(.pattern(regex._literalPattern))
    }
}

extension GenerationGuide where Value == Int {
    public static func minimum(_ value: Int) -> GenerationGuide<Int> { .init(.minimum(Double(value))) }
    public static func maximum(_ value: Int) -> GenerationGuide<Int> { .init(.maximum(Double(value))) }
    public static func range(_ range: ClosedRange<Int>) -> GenerationGuide<Int> {
        .init(.range(Double(range.lowerBound), Double(range.upperBound)))
    }
}

extension GenerationGuide where Value == Float {
    public static func minimum(_ value: Float) -> GenerationGuide<Float> { .init(.minimum(Double(value))) }
    public static func maximum(_ value: Float) -> GenerationGuide<Float> { .init(.maximum(Double(value))) }
    public static func range(_ range: ClosedRange<Float>) -> GenerationGuide<Float> {
        .init(.range(Double(range.lowerBound), Double(range.upperBound)))
    }
}

extension GenerationGuide where Value == Double {
    public static func minimum(_ value: Double) -> GenerationGuide<Double> { .init(.minimum(value)) }
    public static func maximum(_ value: Double) -> GenerationGuide<Double> { .init(.maximum(value)) }
    public static func range(_ range: ClosedRange<Double>) -> GenerationGuide<Double> {
        .init(.range(range.lowerBound, range.upperBound))
    }
}

func doubleValue(_ decimal: Decimal) -> Double { Double(decimal.description) ?? 0 }

extension GenerationGuide where Value == Decimal {
    public static func minimum(_ value: Decimal) -> GenerationGuide<Decimal> { .init(.minimum(doubleValue(value))) }
    public static func maximum(_ value: Decimal) -> GenerationGuide<Decimal> { .init(.maximum(doubleValue(value))) }
    public static func range(_ range: ClosedRange<Decimal>) -> GenerationGuide<Decimal> {
        .init(.range(doubleValue(range.lowerBound), doubleValue(range.upperBound)))
    }
}

extension GenerationGuide {
    public static func minimumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        .init(.minimumCount(count))
    }
    public static func maximumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        .init(.maximumCount(count))
    }
    public static func count<Element>(_ range: ClosedRange<Int>) -> GenerationGuide<[Element]> where Value == [Element] {
        .init(.count(range.lowerBound, range.upperBound))
    }
    public static func count<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        .init(.count(count, count))
    }
    public static func element<Element>(_ guide: GenerationGuide<Element>) -> GenerationGuide<[Element]> where Value == [Element] {
        .init(.element(guide.kind))
    }
}

extension SchemaNode {
    func applying(_ guides: [GuideKind]) -> SchemaNode {
        guides.reduce(self) { $0.applying($1) }
    }

    func applying(_ guide: GuideKind) -> SchemaNode {
        switch (self, guide) {
        case (.string(var c), .constant(let value)):
            c.constant = value
            return .string(c)
        case (.string(var c), .anyOf(let values)):
            c.choices = values
            return .string(c)
        case (.string(var c), .pattern(let pattern)):
            c.pattern = pattern ?? c.pattern
            return .string(c)
        case (.integer(let c), _): return .integer(c.applying(guide))
        case (.number(let c), _): return .number(c.applying(guide))
        case (.array(let item, _, let high), .minimumCount(let n)): return .array(item: item, minimum: n, maximum: high)
        case (.array(let item, let low, _), .maximumCount(let n)): return .array(item: item, minimum: low, maximum: n)
        case (.array(let item, _, _), .count(let low, let high)): return .array(item: item, minimum: low, maximum: high)
        case (.array(let item, let low, let high), .element(let inner)):
            return .array(item: item.applying(inner), minimum: low, maximum: high)
        default: return self
        }
    }
}

extension NumberConstraints {
    func applying(_ guide: GuideKind) -> NumberConstraints {
        var copy = self
        switch guide {
        case .minimum(let value): copy.minimum = value
        case .maximum(let value): copy.maximum = value
        case .range(let low, let high):
            copy.minimum = low
            copy.maximum = high
        default: break
        }
        return copy
    }
}

// MARK: - DynamicGenerationSchema

/// The dynamic counterpart to `GenerationSchema`, built at run time. Opaque, as in Apple's API.
public struct DynamicGenerationSchema: Sendable {
    let node: SchemaNode
    /// Definitions carried by a `Generable` type's schema (`init(type:guides:)`).
    let embedded: [SchemaDefinition]

    init(node: SchemaNode, embedded: [SchemaDefinition] = []) {
        self.node = node
        self.embedded = embedded
    }

    public struct Property: Sendable {
        let name: String
        let description: String?
        let schema: DynamicGenerationSchema
        let isOptional: Bool

        public init(name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false) {
            self.name = name
            self.description = description
            self.schema = schema
            self.isOptional = isOptional
        }
    }

    public init(name: String, description: String? = nil, properties: [DynamicGenerationSchema.Property]) {
        self.init(
            node: .object(
                name: name, description: description,
                properties: properties.map {
                    SchemaProperty(name: $0.name, description: $0.description, node: $0.schema.node, isOptional: $0.isOptional)
                }),
            embedded: properties.flatMap { $0.schema.embedded }
        )
    }

    public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
        self.init(
            node: .anyOf(name: name, description: description, choices: choices.map(\.node)),
            embedded: choices.flatMap(\.embedded)
        )
    }

    public init(name: String, description: String? = nil, anyOf choices: [String]) {
        self.init(node: .stringEnum(name: name, description: description, choices: choices))
    }

    public init(arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil) {
        self.init(node: .array(item: itemSchema.node, minimum: minimumElements, maximum: maximumElements), embedded: itemSchema.embedded)
    }

    public init<Value>(type: Value.Type, guides: [GenerationGuide<Value>] = []) where Value: Generable {
        let schema = Value.generationSchema
        self.init(node: schema.node.applying(guides.map(\.kind)), embedded: schema.defs)
    }

    public init(referenceTo name: String) {
        self.init(node: .reference(name))
    }

    /// A schema whose only value is null (26.4): as a choice of an `anyOf`, it lets the model
    /// answer with null. Encodes as `{"type":"null"}`.
    public static var null: DynamicGenerationSchema {
        DynamicGenerationSchema(node: .null)
    }
}

// MARK: - GenerationSchema

/// A schema that guides generation: the JSON-Schema-like description of a type the model can produce.
public struct GenerationSchema: Sendable, Codable, CustomDebugStringConvertible {
    /// The root; named types nested in it are replaced by references into `defs`.
    let node: SchemaNode
    let defs: [SchemaDefinition]

    init(node: SchemaNode, defs: [SchemaDefinition]) {
        self.node = node
        self.defs = defs
    }

    public struct Property: Sendable {
        let property: SchemaProperty
        let embedded: [SchemaDefinition]

        public init<Value: Generable>(
            name: String, description: String? = nil, type: Value.Type, guides: [GenerationGuide<Value>] = []
        ) {
            let schema = Value.generationSchema
            property = SchemaProperty(
                name: name, description: description, node: schema.node.applying(guides.map(\.kind)), isOptional: false)
            embedded = schema.defs
        }

        public init<Value: Generable>(
            name: String, description: String? = nil, type: Value?.Type, guides: [GenerationGuide<Value>] = []
        ) {
            let schema = Value.generationSchema
            property = SchemaProperty(
                name: name, description: description, node: schema.node.applying(guides.map(\.kind)), isOptional: true)
            embedded = schema.defs
        }

        public init<RegexOutput>(
            name: String, description: String? = nil, type: String.Type, guides: [Regex<RegexOutput>] = []
        ) {
            let pattern = guides.last.flatMap { $0._literalPattern }
            property = SchemaProperty(
                name: name, description: description, node: .string(StringConstraints(pattern: pattern)), isOptional: false)
            embedded = []
        }

        public init<RegexOutput>(
            name: String, description: String? = nil, type: String?.Type, guides: [Regex<RegexOutput>] = []
        ) {
            let pattern = guides.last.flatMap { $0._literalPattern }
            property = SchemaProperty(
                name: name, description: description, node: .string(StringConstraints(pattern: pattern)), isOptional: true)
            embedded = []
        }
    }

    public init(type: any Generable.Type, description: String? = nil, properties: [GenerationSchema.Property]) {
        let root = SchemaNode.object(name: Self.typeName(type), description: description, properties: properties.map(\.property))
        self = Self.resolvingLeniently(root: root, embedded: properties.flatMap(\.embedded))
    }

    public init(type: any Generable.Type, description: String? = nil, anyOf choices: [String]) {
        self.init(node: .stringEnum(name: Self.typeName(type), description: description, choices: choices), defs: [])
    }

    public init(type: any Generable.Type, description: String? = nil, anyOf types: [any Generable.Type]) {
        let schemas = types.map { $0.generationSchema }
        let root = SchemaNode.anyOf(name: Self.typeName(type), description: description, choices: schemas.map(\.node))
        self = Self.resolvingLeniently(root: root, embedded: schemas.flatMap(\.defs))
    }

    /// Builds a schema from dynamic schemas. Named types nested in `root` are collected into
    /// `$defs`; `dependencies` supply the types that `DynamicGenerationSchema(referenceTo:)` names.
    ///
    /// Throws `SchemaError.duplicateType` when two different types share a name,
    /// `.duplicateProperty` when an object names a property twice, `.emptyTypeChoices` for an
    /// `anyOf` without choices, and `.undefinedReferences` for references to no known type.
    public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
        var resolver = SchemaResolver(rootName: root.node.typeName)
        for definition in root.embedded + dependencies.flatMap(\.embedded) {
            try resolver.define(definition.name, definition.node, declared: false)
        }
        let rootNode = try resolver.hoist(root.node, isTop: true)
        for dependency in dependencies {
            guard let name = dependency.node.typeName else { continue }
            try resolver.define(name, dependency.node, declared: true)
        }
        try resolver.checkReferences(rootNode)
        self.init(node: rootNode, defs: resolver.definitions)
    }

    static func typeName(_ type: any Generable.Type) -> String {
        String(describing: type)
    }

    static func resolvingLeniently(root: SchemaNode, embedded: [SchemaDefinition]) -> GenerationSchema {
        var resolver = SchemaResolver(rootName: root.typeName)
        do {
            for definition in embedded { try resolver.define(definition.name, definition.node, declared: false) }
            let node = try resolver.hoist(root, isTop: true)
            return GenerationSchema(node: node, defs: resolver.definitions)
        } catch {
            return GenerationSchema(node: root, defs: embedded)
        }
    }

    public enum SchemaError: Error, LocalizedError {
        public struct Context: Sendable {
            public let debugDescription: String
            public init(debugDescription: String) { self.debugDescription = debugDescription }
        }

        case duplicateType(schema: String?, type: String, context: GenerationSchema.SchemaError.Context)
        case duplicateProperty(schema: String, property: String, context: GenerationSchema.SchemaError.Context)
        case emptyTypeChoices(schema: String, context: GenerationSchema.SchemaError.Context)
        case undefinedReferences(schema: String?, references: [String], context: GenerationSchema.SchemaError.Context)

        public var errorDescription: String? {
            switch self {
            case .duplicateType(let schema, let type, _):
                "Multiple types named '\(type)'\(schema.map { " in schema '\($0)'" } ?? "")."
            case .duplicateProperty(let schema, let property, _):
                "Schema '\(schema)' has more than one property named '\(property)'."
            case .emptyTypeChoices(let schema, _):
                "Schema '\(schema)' has an empty list of type choices."
            case .undefinedReferences(let schema, let references, _):
                "Undefined references \(references.map { "'\($0)'" }.joined(separator: ", "))\(schema.map { " in schema '\($0)'" } ?? "")."
            }
        }

        public var recoverySuggestion: String? {
            switch self {
            case .duplicateType: "Give every distinct type a unique name."
            case .duplicateProperty: "Give every property of an object a unique name."
            case .emptyTypeChoices: "Provide at least one choice."
            case .undefinedReferences: "Pass every referenced schema in 'dependencies'."
            }
        }
    }

    public var debugDescription: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "GenerationSchema" }
        return "GenerationSchema(\(String(decoding: data, as: UTF8.self)))"
    }
}

/// Collects named types into definitions and enforces Apple's naming rules.
struct SchemaResolver {
    let rootName: String?
    var definitions: [SchemaDefinition] = []
    var indexByName: [String: Int] = [:]

    init(rootName: String?) { self.rootName = rootName }

    mutating func define(_ name: String, _ node: SchemaNode, declared: Bool) throws {
        let hoisted = try hoist(node, isTop: true)
        if name == rootName {
            throw GenerationSchema.SchemaError.duplicateType(
                schema: rootName, type: name,
                context: .init(debugDescription: "The root schema and another schema are both named '\(name)'."))
        }
        try add(name, hoisted)
    }

    mutating func add(_ name: String, _ node: SchemaNode) throws {
        if let index = indexByName[name] {
            guard definitions[index].node == node else {
                throw GenerationSchema.SchemaError.duplicateType(
                    schema: rootName, type: name,
                    context: .init(debugDescription: "Two different schemas are named '\(name)'."))
            }
            return
        }
        indexByName[name] = definitions.count
        definitions.append(SchemaDefinition(name: name, node: node))
    }

    /// Returns `node` with nested named types replaced by references (added to `definitions`).
    mutating func hoist(_ node: SchemaNode, isTop: Bool) throws -> SchemaNode {
        let result: SchemaNode
        switch node {
        case .object(let name, let description, let properties):
            var seen = Set<String>()
            var hoisted: [SchemaProperty] = []
            for property in properties {
                guard seen.insert(property.name).inserted else {
                    throw GenerationSchema.SchemaError.duplicateProperty(
                        schema: name, property: property.name,
                        context: .init(debugDescription: "Object '\(name)' declares property '\(property.name)' more than once."))
                }
                var copy = property
                copy.node = try hoist(property.node, isTop: false)
                hoisted.append(copy)
            }
            result = .object(name: name, description: description, properties: hoisted)
        case .stringEnum(let name, _, let choices):
            guard !choices.isEmpty else {
                throw GenerationSchema.SchemaError.emptyTypeChoices(
                    schema: name, context: .init(debugDescription: "'\(name)' has no choices."))
            }
            result = node
        case .anyOf(let name, let description, let choices):
            guard !choices.isEmpty else {
                throw GenerationSchema.SchemaError.emptyTypeChoices(
                    schema: name, context: .init(debugDescription: "'\(name)' has no choices."))
            }
            result = .anyOf(name: name, description: description, choices: try choices.map { try hoist($0, isTop: false) })
        case .array(let item, let low, let high):
            return .array(item: try hoist(item, isTop: false), minimum: low, maximum: high)
        default:
            return node
        }
        guard !isTop, let name = result.typeName else { return result }
        if name == rootName {
            throw GenerationSchema.SchemaError.duplicateType(
                schema: rootName, type: name,
                context: .init(debugDescription: "A nested schema has the root schema's name '\(name)'."))
        }
        try add(name, result)
        return .reference(name)
    }

    func checkReferences(_ root: SchemaNode) throws {
        var missing: [String] = []
        func visit(_ node: SchemaNode) {
            switch node {
            case .reference(let name):
                if indexByName[name] == nil, name != rootName, !missing.contains(name) { missing.append(name) }
            case .object(_, _, let properties): properties.forEach { visit($0.node) }
            case .anyOf(_, _, let choices): choices.forEach(visit)
            case .array(let item, _, _): visit(item)
            default: break
            }
        }
        visit(root)
        definitions.forEach { visit($0.node) }
        if !missing.isEmpty {
            throw GenerationSchema.SchemaError.undefinedReferences(
                schema: rootName, references: missing,
                context: .init(debugDescription: "No schema named \(missing.joined(separator: ", ")) was given in dependencies."))
        }
    }
}
#endif
