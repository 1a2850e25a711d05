import JSONCore

/// The base URI given to a root schema without an `$id`.
let defaultBaseURI = "urn:ondevicemcp:schema"

/// Turns a schema document into a ``Program``: finds every schema resource and anchor, compiles
/// each reachable subschema once, then resolves references to node indices.
struct SchemaCompiler {
    struct Scope {
        var base: URIReference
        var dialect: JSONSchema.Dialect
        var resource: Int
    }

    /// Where a URI points: a location in the document and the scope around it.
    struct Target {
        var pointer: [String]
        var scope: Scope
    }

    struct PendingReference {
        var slot: Int
        var uri: URIReference
        var from: [String]
        var keyword: String
    }

    let root: JSONValue
    let options: JSONSchema.Options
    var registry: [String: Target] = [:]
    var resourceURIs: [String] = []
    var dynamicAnchorPointers: [[String: [String]]] = []
    var specs: [NodeSpec?] = []
    var memo: [[String]: Int] = [:]
    var pending: [PendingReference] = []
    var referenceTargets: [Int] = []
    var usesDynamicScope = false

    init(root: JSONValue, options: JSONSchema.Options) {
        self.root = root
        self.options = options
    }

    // MARK: Driver

    mutating func compile() throws(SchemaError) -> Program {
        var dialect = options.defaultDialect
        if case .string(let uri) = root["$schema"] ?? .null, let named = JSONSchema.Dialect.named(uri) {
            dialect = named
        }
        let rootScope = Scope(base: URIReference(defaultBaseURI), dialect: dialect, resource: 0)
        resourceURIs.append(defaultBaseURI)
        dynamicAnchorPointers.append([:])
        registry[defaultBaseURI + "#"] = Target(pointer: [], scope: rootScope)
        try scan(root, pointer: [], scope: rootScope, depth: 0, enclosing: [(defaultBaseURI, 0)])
        _ = try compileNode(at: [], scope: rootScope, depth: 0)

        var dynamicAnchors: [[String: Int]] = []
        for (resource, anchors) in dynamicAnchorPointers.enumerated() {
            var table: [String: Int] = [:]
            for (name, pointer) in anchors {
                let key = resourceURIs[resource] + "#" + name
                let scope = registry[key]?.scope ?? rootScope
                table[name] = try compileNode(at: pointer, scope: scope, depth: 0)
            }
            dynamicAnchors.append(table)
        }

        var next = 0
        while next < pending.count {
            let reference = pending[next]
            next += 1
            referenceTargets[reference.slot] = try resolve(reference)
        }

        var nodes: [Node] = []
        nodes.reserveCapacity(specs.count)
        for spec in specs {
            guard let spec else {
                throw SchemaError(location: JSONPointer(), reason: .invalidKeyword, message: "internal: unfinished node")
            }
            nodes.append(Node(spec))
        }
        return Program(
            nodes: nodes, referenceTargets: referenceTargets, dialect: dialect, dynamicAnchors: dynamicAnchors,
            usesDynamicScope: usesDynamicScope)
    }

    func error(_ pointer: [String], _ reason: SchemaError.Reason, _ message: String) -> SchemaError {
        SchemaError(location: JSONPointer(tokens: pointer), reason: reason, message: message)
    }

    // MARK: Compiling nodes

    mutating func compileNode(at pointer: [String], scope outer: Scope, depth: Int) throws(SchemaError) -> Int {
        if let existing = memo[pointer] { return existing }
        if depth > options.maximumDepth {
            throw error(pointer, .tooComplex, "subschemas nest deeper than \(options.maximumDepth) levels")
        }
        if specs.count >= options.maximumSubschemas {
            throw error(pointer, .tooComplex, "the schema has more than \(options.maximumSubschemas) subschemas")
        }
        guard let value = root[pointer: JSONPointer(tokens: pointer)] else {
            throw error(pointer, .unresolvedReference, "no value at this location")
        }
        let index = specs.count
        specs.append(nil)
        memo[pointer] = index
        var spec = NodeSpec()
        spec.location = JSONPointer(tokens: pointer).description
        switch value {
        case .bool(let flag):
            spec.boolean = flag
            spec.resource = outer.resource
        case .object(let object):
            let scope = try enter(object, pointer: pointer, scope: outer, registering: false)
            spec.resource = scope.resource
            spec.isDraft07 = scope.dialect.isDraft07
            var keywords = KeywordReader(object: object, pointer: pointer)
            try compileKeywords(&spec, &keywords, scope: scope, depth: depth)
        default:
            throw error(pointer, .notASchema, "a schema must be an object or a Boolean, found \(value.typeName)")
        }
        spec.summarize()
        specs[index] = spec
        return index
    }

    mutating func child(_ pointer: [String], _ scope: Scope, _ depth: Int) throws(SchemaError) -> Int {
        try compileNode(at: pointer, scope: scope, depth: depth + 1)
    }

    mutating func compileKeywords(
        _ spec: inout NodeSpec, _ k: inout KeywordReader, scope: Scope, depth: Int
    ) throws(SchemaError) {
        let pointer = k.pointer
        let draft07 = scope.dialect.isDraft07

        if case .string(let reference) = k.object["$ref"] ?? .null {
            spec.ref = addReference(reference, scope: scope, from: pointer + ["$ref"], keyword: "$ref")
            if draft07 { return }  // In draft-07, `$ref` makes every sibling keyword be ignored.
        } else if k.object["$ref"] != nil {
            throw error(pointer + ["$ref"], .invalidKeyword, "$ref must be a string")
        }
        if !draft07 {
            if case .string(let reference) = k.object["$dynamicRef"] ?? .null {
                usesDynamicScope = true
                spec.dynamicRef = addReference(
                    reference, scope: scope, from: pointer + ["$dynamicRef"], keyword: "$dynamicRef")
                let fragment = URIReference(reference).fragment ?? ""
                if !fragment.isEmpty && !fragment.hasPrefix("/") { spec.dynamicRefAnchor = fragment }
            }
            spec.dynamicAnchor = k.object["$dynamicAnchor"]?.stringValue
        }

        spec.types = try k.types()
        spec.enumValues = try k.array("enum")
        spec.constValue = k.object["const"]
        spec.minimum = try k.number("minimum")
        spec.maximum = try k.number("maximum")
        spec.exclusiveMinimum = try k.number("exclusiveMinimum")
        spec.exclusiveMaximum = try k.number("exclusiveMaximum")
        spec.multipleOf = try k.number("multipleOf")
        if let multiple = spec.multipleOf, multiple.doubleValue <= 0 {
            throw error(pointer + ["multipleOf"], .invalidKeyword, "multipleOf must be greater than 0")
        }
        spec.minLength = try k.count("minLength")
        spec.maxLength = try k.count("maxLength")
        if case .string(let source) = k.object["pattern"] ?? .null {
            spec.pattern = try regex(source, pointer + ["pattern"])
        } else if k.object["pattern"] != nil {
            throw error(pointer + ["pattern"], .invalidKeyword, "pattern must be a string")
        }

        // Arrays.
        let itemsValue = k.object["items"]
        if case .array(let list)? = itemsValue {
            // Draft-07 tuple form (also accepted, leniently, in 2020-12).
            for position in list.indices {
                spec.prefixItems.append(try child(pointer + ["items", String(position)], scope, depth))
            }
            spec.prefixKeyword = "items"
            if k.object["additionalItems"] != nil {
                spec.items = try child(pointer + ["additionalItems"], scope, depth)
                spec.itemsKeyword = "additionalItems"
            }
        } else {
            if !draft07, case .array(let list)? = k.object["prefixItems"] {
                for position in list.indices {
                    spec.prefixItems.append(try child(pointer + ["prefixItems", String(position)], scope, depth))
                }
            }
            if itemsValue != nil {
                spec.items = try child(pointer + ["items"], scope, depth)
            }
        }
        if k.object["contains"] != nil {
            spec.contains = try child(pointer + ["contains"], scope, depth)
        }
        if !draft07 {
            spec.minContains = try k.count("minContains")
            spec.maxContains = try k.count("maxContains")
        }
        spec.minItems = try k.count("minItems")
        spec.maxItems = try k.count("maxItems")
        spec.uniqueItems = try k.bool("uniqueItems") ?? false

        // Objects.
        if case .object(let properties) = k.object["properties"] ?? .null {
            for (name, _) in properties {
                spec.propertyNames.append(name)
                spec.propertySchemas.append(try child(pointer + ["properties", name], scope, depth))
            }
        }
        if case .object(let patterns) = k.object["patternProperties"] ?? .null {
            for (source, _) in patterns {
                spec.patternRegexes.append(try regex(source, pointer + ["patternProperties", source]))
                spec.patternSchemas.append(try child(pointer + ["patternProperties", source], scope, depth))
            }
        }
        if k.object["additionalProperties"] != nil {
            spec.additionalProperties = try child(pointer + ["additionalProperties"], scope, depth)
        }
        if k.object["propertyNames"] != nil {
            spec.propertyNamesSchema = try child(pointer + ["propertyNames"], scope, depth)
        }
        spec.required = try k.strings("required") ?? []
        spec.minProperties = try k.count("minProperties")
        spec.maxProperties = try k.count("maxProperties")
        let dependencyKeywords = draft07 ? ["dependencies"] : ["dependentRequired", "dependentSchemas", "dependencies"]
        for keyword in dependencyKeywords {
            guard let value = k.object[keyword] else { continue }
            guard case .object(let map) = value else {
                throw error(pointer + [keyword], .invalidKeyword, "\(keyword) must be an object")
            }
            for (name, dependency) in map {
                if case .array(let names) = dependency, keyword != "dependentSchemas" {
                    var list: [String] = []
                    for item in names {
                        guard case .string(let text) = item else {
                            throw error(pointer + [keyword, name], .invalidKeyword, "\(keyword) lists must hold strings")
                        }
                        list.append(text)
                    }
                    spec.dependentRequiredKeys.append(name)
                    spec.dependentRequiredValues.append(list)
                    spec.dependentRequiredKeyword = keyword
                } else if keyword != "dependentRequired" {
                    spec.dependentSchemaKeys.append(name)
                    spec.dependentSchemaNodes.append(try child(pointer + [keyword, name], scope, depth))
                    spec.dependentSchemasKeyword = keyword
                } else {
                    throw error(pointer + [keyword, name], .invalidKeyword, "dependentRequired values must be arrays")
                }
            }
        }

        // Applicators.
        for keyword in ["allOf", "anyOf", "oneOf"] {
            guard let value = k.object[keyword] else { continue }
            guard case .array(let list) = value, !list.isEmpty else {
                throw error(pointer + [keyword], .invalidKeyword, "\(keyword) must be a non-empty array of schemas")
            }
            var indices: [Int] = []
            for position in list.indices {
                indices.append(try child(pointer + [keyword, String(position)], scope, depth))
            }
            switch keyword {
            case "allOf": spec.allOf = indices
            case "anyOf": spec.anyOf = indices
            default: spec.oneOf = indices
            }
        }
        if k.object["not"] != nil { spec.not = try child(pointer + ["not"], scope, depth) }
        if k.object["if"] != nil {
            spec.ifSchema = try child(pointer + ["if"], scope, depth)
            if k.object["then"] != nil { spec.thenSchema = try child(pointer + ["then"], scope, depth) }
            if k.object["else"] != nil { spec.elseSchema = try child(pointer + ["else"], scope, depth) }
        }
        if !draft07 {
            if k.object["unevaluatedItems"] != nil {
                spec.unevaluatedItems = try child(pointer + ["unevaluatedItems"], scope, depth)
            }
            if k.object["unevaluatedProperties"] != nil {
                spec.unevaluatedProperties = try child(pointer + ["unevaluatedProperties"], scope, depth)
            }
        }
        // Subschemas under `$defs`/`definitions` are compiled when a reference reaches them.
    }

    func regex(_ source: String, _ pointer: [String]) throws(SchemaError) -> ECMARegex {
        do {
            return try ECMARegex(source)
        } catch {
            throw self.error(pointer, .invalidPattern, "\"\(source)\" is not a supported ECMA-262 regular expression: \(error.message)")
        }
    }

    // MARK: References

    mutating func addReference(_ text: String, scope: Scope, from: [String], keyword: String) -> Int {
        let slot = referenceTargets.count
        referenceTargets.append(0)
        pending.append(
            PendingReference(slot: slot, uri: URIReference(text).resolved(against: scope.base), from: from, keyword: keyword))
        return slot
    }

    mutating func resolve(_ reference: PendingReference) throws(SchemaError) -> Int {
        let base = reference.uri.withoutFragment
        let fragment = percentDecoded(reference.uri.fragment ?? "")
        if let target = registry[base + "#" + fragment] {
            return try compileNode(at: target.pointer, scope: target.scope, depth: 0)
        }
        // A JSON Pointer into a part of a resource that is not a known subschema position.
        if fragment.hasPrefix("/"), let resource = registry[base + "#"],
            let tokens = try? JSONPointer(parsing: fragment).tokens
        {
            let pointer = resource.pointer + tokens
            if root[pointer: JSONPointer(tokens: pointer)] != nil {
                var scope = resource.scope
                if case .object(let object) = root[pointer: JSONPointer(tokens: resource.pointer)] ?? .null {
                    scope = try enter(object, pointer: resource.pointer, scope: resource.scope, registering: false)
                }
                return try compileNode(at: pointer, scope: scope, depth: 0)
            }
        }
        let known = registry[base + "#"] != nil
        let why =
            known
            ? "the document has no location \"#\(fragment)\""
            : "remote documents are never fetched; only references into this schema document resolve"
        throw error(reference.from, .unresolvedReference, "cannot resolve \(reference.keyword) \"\(reference.uri.text)\": \(why)")
    }
}
