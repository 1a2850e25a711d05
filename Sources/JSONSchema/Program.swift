import JSONCore

/// A number bound from a schema keyword, kept exact when it is an integer.
enum Bound: Sendable, Hashable {
    case int(Int)
    case double(Double)

    init?(_ value: JSONValue) {
        switch value {
        case .int(let v): self = .int(v)
        case .double(let v): self = .double(v)
        default: return nil
        }
    }

    var doubleValue: Double {
        switch self {
        case .int(let v): Double(v)
        case .double(let v): v
        }
    }

    var text: String {
        switch self {
        case .int(let v): String(v)
        case .double(let v): formatDouble(v)
        }
    }
}

func formatDouble(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 {
        return String(Int(value))
    }
    return String(value)
}

/// The JSON types named by `type`, as a bit set.
struct TypeSet: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let null = TypeSet(rawValue: 1)
    static let boolean = TypeSet(rawValue: 2)
    static let integer = TypeSet(rawValue: 4)
    static let number = TypeSet(rawValue: 8)
    static let string = TypeSet(rawValue: 16)
    static let array = TypeSet(rawValue: 32)
    static let object = TypeSet(rawValue: 64)

    static let names: [(String, TypeSet)] = [
        ("null", .null), ("boolean", .boolean), ("integer", .integer), ("number", .number),
        ("string", .string), ("array", .array), ("object", .object),
    ]

    var text: String {
        let names = Self.names.filter { contains($0.1) }.map(\.0)
        switch names.count {
        case 0: return "nothing"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        }
    }
}

/// Everything one compiled subschema checks. Subschemas are indices into ``Program/nodes``.
struct NodeSpec: Sendable {
    /// `true`/`false` for a Boolean schema; `nil` for an object schema.
    var boolean: Bool?
    /// Where this subschema is in the document (for messages about reference loops).
    var location = ""
    var resource = 0
    var isDraft07 = false

    var types: TypeSet?
    var enumValues: [JSONValue]?
    var constValue: JSONValue?

    var minimum: Bound?
    var maximum: Bound?
    var exclusiveMinimum: Bound?
    var exclusiveMaximum: Bound?
    var multipleOf: Bound?

    var minLength: Int?
    var maxLength: Int?
    var pattern: ECMARegex?

    var prefixItems: [Int] = []
    var prefixKeyword = "prefixItems"
    var items: Int?
    var itemsKeyword = "items"
    var contains: Int?
    var minContains: Int?
    var maxContains: Int?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false
    var unevaluatedItems: Int?

    var propertyNames: [String] = []
    var propertySchemas: [Int] = []
    var patternRegexes: [ECMARegex] = []
    var patternSchemas: [Int] = []
    var additionalProperties: Int?
    var propertyNamesSchema: Int?
    var required: [String] = []
    var minProperties: Int?
    var maxProperties: Int?
    var dependentRequiredKeys: [String] = []
    var dependentRequiredValues: [[String]] = []
    var dependentRequiredKeyword = "dependentRequired"
    var dependentSchemaKeys: [String] = []
    var dependentSchemaNodes: [Int] = []
    var dependentSchemasKeyword = "dependentSchemas"
    var unevaluatedProperties: Int?

    var allOf: [Int] = []
    var anyOf: [Int] = []
    var oneOf: [Int] = []
    var not: Int?
    var ifSchema: Int?
    var thenSchema: Int?
    var elseSchema: Int?

    /// An index into ``Program/referenceTargets``.
    var ref: Int?
    /// An index into ``Program/referenceTargets``, and the anchor name when the reference
    /// ends in a plain-name fragment.
    var dynamicRef: Int?
    var dynamicRefAnchor: String?
    /// The `$dynamicAnchor` this subschema declares.
    var dynamicAnchor: String?

    // Summaries computed once, so validation skips whole groups of keywords.
    var hasNumberKeywords = false
    var hasStringKeywords = false
    var hasArrayKeywords = false
    var hasObjectKeywords = false
    var hasApplicators = false
    var hasUnevaluated = false
    var needsPropertyLookup = false

    mutating func summarize() {
        hasNumberKeywords =
            minimum != nil || maximum != nil || exclusiveMinimum != nil || exclusiveMaximum != nil
            || multipleOf != nil
        hasStringKeywords = minLength != nil || maxLength != nil || pattern != nil
        hasArrayKeywords =
            !prefixItems.isEmpty || items != nil || contains != nil || minItems != nil
            || maxItems != nil || uniqueItems
        hasObjectKeywords =
            !propertyNames.isEmpty || !patternSchemas.isEmpty || additionalProperties != nil
            || propertyNamesSchema != nil || !required.isEmpty || minProperties != nil || maxProperties != nil
            || !dependentRequiredKeys.isEmpty || !dependentSchemaKeys.isEmpty
        hasApplicators = !allOf.isEmpty || !anyOf.isEmpty || !oneOf.isEmpty || not != nil || ifSchema != nil
        hasUnevaluated = unevaluatedItems != nil || unevaluatedProperties != nil
        needsPropertyLookup = additionalProperties != nil || unevaluatedProperties != nil
    }
}

/// One compiled subschema; immutable, shared by reference.
final class Node: Sendable {
    let spec: NodeSpec
    init(_ spec: NodeSpec) { self.spec = spec }
}

/// A compiled schema document: its subschemas as a flat table, the root at index 0.
final class Program: Sendable {
    let nodes: [Node]
    let referenceTargets: [Int]
    let dialect: JSONSchema.Dialect
    /// For each schema resource (`$id`), its `$dynamicAnchor`s and the nodes they mark.
    let dynamicAnchors: [[String: Int]]
    /// Whether any `$dynamicRef` needs the dynamic scope tracked during evaluation.
    let usesDynamicScope: Bool

    init(
        nodes: [Node], referenceTargets: [Int], dialect: JSONSchema.Dialect, dynamicAnchors: [[String: Int]],
        usesDynamicScope: Bool
    ) {
        self.nodes = nodes
        self.referenceTargets = referenceTargets
        self.dialect = dialect
        self.dynamicAnchors = dynamicAnchors
        self.usesDynamicScope = usesDynamicScope
    }
}
