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

    // MARK: Scanning for identifiers

    /// The keywords whose value is a subschema, an array of them, or an object of them.
    static func subschemaKeywords(_ dialect: JSONSchema.Dialect) -> (
        single: [String], arrays: [String], maps: [String]
    ) {
        if dialect.isDraft07 {
            return (
                ["additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else"],
                ["allOf", "anyOf", "oneOf"],
                ["properties", "patternProperties", "definitions", "dependencies"]
            )
        }
        return (
            [
                "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else",
                "unevaluatedProperties", "unevaluatedItems", "additionalItems",
            ],
            ["allOf", "anyOf", "oneOf", "prefixItems"],
            ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]
        )
    }

    /// Applies `$schema` and `$id` of a schema object to the scope around it.
    mutating func enter(
        _ object: JSONObject, pointer: [String], scope outer: Scope, registering: Bool
    ) throws(SchemaError) -> Scope {
        var scope = outer
        let hasDraft07Ref = outer.dialect.isDraft07 && object["$ref"] != nil
        guard case .string(let id) = object["$id"] ?? .null, !hasDraft07Ref else { return scope }
        if case .string(let uri) = object["$schema"] ?? .null, let named = JSONSchema.Dialect.named(uri) {
            scope.dialect = named
        }
        if scope.dialect.isDraft07 && id.hasPrefix("#") {
            return scope  // A draft-07 plain-name fragment: an anchor, registered by `scan`.
        }
        let resolved = URIReference(id).resolved(against: outer.base)
        scope.base = resolved
        scope.base.fragment = nil
        let uri = scope.base.text
        if let existing = resourceURIs.firstIndex(of: uri) {
            scope.resource = existing
        } else if registering {
            resourceURIs.append(uri)
            dynamicAnchorPointers.append([:])
            scope.resource = resourceURIs.count - 1
        }
        return scope
    }

    mutating func scan(
        _ value: JSONValue, pointer: [String], scope outer: Scope, depth: Int, enclosing: [(String, Int)]
    ) throws(SchemaError) {
        if depth > options.maximumDepth {
            throw error(pointer, .tooComplex, "subschemas nest deeper than \(options.maximumDepth) levels")
        }
        guard case .object(let object) = value else { return }
        let scope = try enter(object, pointer: pointer, scope: outer, registering: true)
        var enclosing = enclosing
        let base = scope.base.text
        if scope.resource != outer.resource || (pointer.isEmpty && base != defaultBaseURI) {
            enclosing.append((base, pointer.count))
            registry[base + "#"] = Target(pointer: pointer, scope: outer)
        }
        for (uri, prefix) in enclosing {
            let relative = JSONPointer(tokens: Array(pointer[prefix...])).description
            let key = uri + "#" + relative
            if registry[key] == nil { registry[key] = Target(pointer: pointer, scope: outer) }
        }
        if scope.dialect.isDraft07 {
            if object["$ref"] == nil, case .string(let id) = object["$id"] ?? .null, id.contains("#") {
                let anchor = URIReference(id).resolved(against: outer.base)
                if let fragment = anchor.fragment, !fragment.isEmpty {
                    registry[anchor.withoutFragment + "#" + fragment] = Target(pointer: pointer, scope: outer)
                }
            }
        } else {
            if case .string(let anchor) = object["$anchor"] ?? .null {
                registry[base + "#" + anchor] = Target(pointer: pointer, scope: outer)
            }
            if case .string(let anchor) = object["$dynamicAnchor"] ?? .null {
                registry[base + "#" + anchor] = Target(pointer: pointer, scope: outer)
                dynamicAnchorPointers[scope.resource][anchor] = pointer
            }
        }
        let keywords = Self.subschemaKeywords(scope.dialect)
        for keyword in keywords.single {
            if let child = object[keyword] {
                try scan(child, pointer: pointer + [keyword], scope: scope, depth: depth + 1, enclosing: enclosing)
            }
        }
        if let items = object["items"] {
            if case .array(let list) = items {
                for (index, child) in list.enumerated() {
                    try scan(
                        child, pointer: pointer + ["items", String(index)], scope: scope, depth: depth + 1,
                        enclosing: enclosing)
                }
            } else {
                try scan(items, pointer: pointer + ["items"], scope: scope, depth: depth + 1, enclosing: enclosing)
            }
        }
        for keyword in keywords.arrays {
            guard case .array(let list) = object[keyword] ?? .null else { continue }
            for (index, child) in list.enumerated() {
                try scan(
                    child, pointer: pointer + [keyword, String(index)], scope: scope, depth: depth + 1,
                    enclosing: enclosing)
            }
        }
        for keyword in keywords.maps {
            guard case .object(let map) = object[keyword] ?? .null else { continue }
            for (key, child) in map {
                try scan(
                    child, pointer: pointer + [keyword, key], scope: scope, depth: depth + 1, enclosing: enclosing)
            }
        }
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

/// Reads typed keyword values from a schema object, throwing ``SchemaError`` for a wrong type.
struct KeywordReader {
    let object: JSONObject
    let pointer: [String]

    func fail(_ keyword: String, _ message: String) -> SchemaError {
        SchemaError(location: JSONPointer(tokens: pointer + [keyword]), reason: .invalidKeyword, message: message)
    }

    func number(_ keyword: String) throws(SchemaError) -> Bound? {
        guard let value = object[keyword] else { return nil }
        guard let bound = Bound(value) else { throw fail(keyword, "\(keyword) must be a number") }
        return bound
    }

    func count(_ keyword: String) throws(SchemaError) -> Int? {
        guard let value = object[keyword] else { return nil }
        if case .double(let d) = value, d >= 0, d.isFinite, d == d.rounded() {
            return d >= Double(Int.max) ? Int.max : Int(d)
        }
        guard case .int(let n) = value, n >= 0 else {
            throw fail(keyword, "\(keyword) must be a non-negative integer")
        }
        return n
    }

    func bool(_ keyword: String) throws(SchemaError) -> Bool? {
        guard let value = object[keyword] else { return nil }
        guard case .bool(let flag) = value else { throw fail(keyword, "\(keyword) must be true or false") }
        return flag
    }

    func array(_ keyword: String) throws(SchemaError) -> [JSONValue]? {
        guard let value = object[keyword] else { return nil }
        guard case .array(let list) = value else { throw fail(keyword, "\(keyword) must be an array") }
        return list
    }

    func strings(_ keyword: String) throws(SchemaError) -> [String]? {
        guard let list = try array(keyword) else { return nil }
        var result: [String] = []
        for item in list {
            guard case .string(let text) = item else { throw fail(keyword, "\(keyword) must be an array of strings") }
            result.append(text)
        }
        return result
    }

    func types() throws(SchemaError) -> TypeSet? {
        guard let value = object["type"] else { return nil }
        var names: [JSONValue] = []
        switch value {
        case .string: names = [value]
        case .array(let list): names = list
        default: throw fail("type", "type must be a type name or an array of them")
        }
        var set = TypeSet()
        for name in names {
            guard case .string(let text) = name, let type = TypeSet.names.first(where: { $0.0 == text })?.1 else {
                throw fail("type", "unknown type \(name); use null, boolean, integer, number, string, array or object")
            }
            set.insert(type)
        }
        return set
    }
}
