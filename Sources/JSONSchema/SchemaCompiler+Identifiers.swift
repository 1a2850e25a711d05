import JSONCore

/// Scanning the document for schema resources (`$id`), anchors and dynamic anchors, before compiling.
extension SchemaCompiler {
    /// The keywords whose value is a subschema, an array of them, or an object of them.
    static func subschemaKeywords(
        _ dialect: JSONSchema.Dialect
    ) -> (
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
}
