internal import MCPCore
// `LengthPattern`, the length guide ChatCompletions reads back (compiled on every platform).
internal import PortableFoundationModels

#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// Lowers a JSON Schema (an MCP tool's `inputSchema`) to an ``ArgumentShape`` tree,
/// collecting a diagnostic for every keyword it cannot map.
///
/// The rules, in the order they are tried on each schema object:
/// 1. `$ref` (local only) → a named dependency, or the target inline when it is a plain scalar;
///    a reference cycle becomes a reference to the dependency being built.
/// 2. `enum` → string choices; other values → the closest exact form (an integer or number
///    pinned with `minimum == maximum`, a string constant); `null` → optional.
/// 3. `const` → the same, for one value.
/// 4. `anyOf` / `oneOf` → a choice of shapes; a `{"type":"null"}` branch → optional.
/// 5. `type` (a string or a list; `"null"` in the list → optional), or the type the keywords imply.
///
/// What the model reads of a node's `description` (else its `title`) is compacted (see
/// ``DescriptionCompactor``): its first sentence without markup, within
/// ``DescriptionCompactor/parameterCharacters``, and nothing when it only repeats the
/// node's name (a property's key, a definition's name, the root's name), as the titles that
/// Python SDKs derive from names do (`"extra_names": {"title": "Extra Names"}`); nor a root
/// title of one word with no description beside it (`"title": "statusArguments"`), a type
/// name. Guides (choices, bounds, patterns, counts) and names are the same either way; the
/// keywords used and the diagnostics too.
struct SchemaLowering {
    /// The whole input schema, for resolving `$ref`.
    let document: JSONValue
    /// Whether descriptions are compacted for the model (off only to measure what it saves).
    let compactsDescriptions: Bool
    // The lowering's state is internal, not private: its extensions (values, references,
    // reporting) live in files of their own.
    /// What the lowering reported, in order.
    var diagnostics: [SchemaDiagnostic] = []
    /// Named shapes reached through `$ref`, in the order they were first needed.
    var definitions: [(name: String, shape: ArgumentShape)] = []
    /// The type names given so far.
    var names = NameRegistry()
    /// Every `$ref` target met, and how far it is lowered.
    var references: [JSONPointer: ReferenceState] = [:]
    private var depth = 0

    /// How deep schemas may nest before the rest is replaced by a string.
    static let maximumDepth = 48

    init(document: JSONValue, compactsDescriptions: Bool = true) {
        self.document = document
        self.compactsDescriptions = compactsDescriptions
    }

    /// The result of lowering one schema.
    struct Lowered {
        var shape: ArgumentShape
        /// The schema allows `null`.
        var isNullable = false
        /// The schema's `description` (or `title`), for the property or node that holds it.
        var description: String?
    }

    enum ReferenceState {
        /// Being lowered; `isRecursive` is set when the target refers back to itself.
        case inProgress(name: String, isRecursive: Bool)
        case done(Lowered)
    }

    /// How the next named node may be named.
    enum NameHint {
        /// A base name to make unique.
        case suggested(String)
        /// A name already reserved for this node.
        case reserved(String)
    }

    // MARK: Root

    /// Lowers the root schema, which must describe an object; anything else is reported
    /// and replaced by an empty object.
    mutating func lowerRoot(name: String) -> ObjectShape {
        let rootName = names.claim(.suggested(name))
        var schema = document
        var pointer = JSONPointer()
        // A root that is only a reference to an object definition: lower the target as the root.
        if case .object(let object) = schema, case .string(let target)? = object["$ref"],
            let (targetPointer, targetSchema) = resolve(target, at: pointer.appending("$ref"))
        {
            for key in object.keys
            where !["$ref", "$defs", "definitions", "description", "title", "$schema", "$id", "$comment"].contains(key) {
                report(.warning, at: pointer.appending(key), "\"\(key)\" beside a root \"$ref\" is ignored")
            }
            schema = targetSchema
            pointer = targetPointer
        }
        var lowered = lower(schema, at: pointer, name: .reserved(rootName))
        if compactsDescriptions, schema["description"]?.stringValue == nil, let title = schema["title"]?.stringValue,
            !title.contains(where: \.isWhitespace)
        {
            // One word with no description: the type name an SDK derived from the function
            // (`statusArguments`), which tells the model nothing its name does not.
            lowered.description = nil
        }
        if case .object(var object) = lowered.shape {
            object.description = lowered.description ?? object.description
            if lowered.isNullable {
                report(.note, at: pointer, "the arguments object cannot be null; null is not offered")
            }
            return object
        }
        report(.error, at: pointer, "the input schema does not describe an object; the tool is offered with no arguments")
        return ObjectShape(name: rootName, description: lowered.description, properties: [])
    }

    // MARK: Any schema

    mutating func lower(_ schema: JSONValue, at pointer: JSONPointer, name: NameHint) -> Lowered {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            report(.error, at: pointer, "the schema nests deeper than \(Self.maximumDepth) levels; a string is used here")
            return Lowered(shape: .string(constant: nil, pattern: nil))
        }
        switch schema {
        case .bool(true):
            report(.warning, at: pointer, "a schema that accepts any value cannot be generated; the model sends a string")
            return Lowered(shape: .string(constant: nil, pattern: nil))
        case .bool(false):
            report(.error, at: pointer, "a schema that accepts no value cannot be generated; a string is used")
            return Lowered(shape: .string(constant: nil, pattern: nil))
        case .object(let object):
            var consumed: Set<String> = []
            var lowered = lowerObjectSchema(object, at: pointer, name: name, consumed: &consumed)
            if lowered.description == nil {
                lowered.description = describe(object, name: name, consumed: &consumed)
            }
            reportUnconsumed(object, at: pointer, consumed: consumed)
            return lowered
        default:
            report(.error, at: pointer, "a schema must be an object or a boolean, not \(schema.typeName); a string is used")
            return Lowered(shape: .string(constant: nil, pattern: nil))
        }
    }

    /// The node's `description`, else its `title`, as the model reads it (compacted, and
    /// `nil` when it only repeats the node's name).
    private func describe(_ object: JSONObject, name: NameHint, consumed: inout Set<String>) -> String? {
        let text: String
        if case .string(let description)? = object["description"] {
            consumed.insert("description")
            text = description
        } else if case .string(let title)? = object["title"] {
            consumed.insert("title")
            text = title
        } else {
            return nil
        }
        guard compactsDescriptions else { return text }
        return DescriptionCompactor.parameterDescription(text, name: hintText(name))
    }

    private mutating func lowerObjectSchema(
        _ object: JSONObject, at pointer: JSONPointer, name: NameHint, consumed: inout Set<String>
    ) -> Lowered {
        consumed.formUnion(["$defs", "definitions"])
        if case .string(let reference)? = object["$ref"] {
            consumed.insert("$ref")
            var lowered = lowerReference(reference, at: pointer.appending("$ref"), name: name)
            lowered.description = describe(object, name: name, consumed: &consumed) ?? lowered.description
            return lowered
        }
        if case .array(let values)? = object["enum"] {
            consumed.formUnion(["enum", "type"])
            return lowerValues(values, at: pointer.appending("enum"), name: name, object: object)
        }
        if let value = object["const"] {
            consumed.formUnion(["const", "type"])
            return lowerValues([value], at: pointer.appending("const"), name: name, object: object)
        }
        for keyword in ["anyOf", "oneOf"] {
            // Branches that only add constraints (`{"required": ["a"]}`) narrow the object
            // beside them; they are not alternative shapes.
            if case .array(let branches)? = object[keyword], branches.contains(where: Self.declaresShape) {
                consumed.insert(keyword)
                if object["type"] != nil && object["properties"] == nil && object["items"] == nil {
                    consumed.insert("type")
                }
                return lowerChoice(branches, at: pointer.appending(keyword), name: name)
            }
        }

        var types: [String] = []
        var isNullable = false
        switch object["type"] {
        case .string(let type)?:
            types = [type]
        case .array(let list)?:
            types = list.compactMap(\.stringValue)
        case nil:
            types = [impliedType(object)]
            if types == ["any"] {
                report(.warning, at: pointer, "a schema with no type accepts any value; the model sends a string")
                return Lowered(shape: .string(constant: nil, pattern: nil))
            }
        case let other?:
            report(.error, at: pointer.appending("type"), "\"type\" must be a string or a list of strings, not \(other.typeName)")
            types = ["string"]
        }
        consumed.insert("type")
        if types.contains("null") {
            isNullable = true
            types.removeAll { $0 == "null" }
        }
        var seen: Set<String> = []
        types = types.filter { seen.insert($0).inserted }
        if types.isEmpty {
            report(
                .warning, at: pointer.appending("type"),
                "a value that can only be null cannot be generated; the property is left out instead")
            return Lowered(shape: .string(constant: nil, pattern: nil), isNullable: true)
        }
        if types.count == 1 {
            var lowered = lowerTyped(types[0], object, at: pointer, name: name, consumed: &consumed)
            lowered.isNullable = lowered.isNullable || isNullable
            return lowered
        }
        // Several types: a choice of one shape per type.
        let choiceName = names.claim(name)
        var choices: [ArgumentShape] = []
        for (index, type) in types.enumerated() {
            let branch = lowerTyped(type, object, at: pointer, name: .suggested("\(choiceName)_\(index + 1)"), consumed: &consumed)
            choices.append(branch.shape)
        }
        return Lowered(shape: .choice(name: choiceName, description: nil, choices: choices), isNullable: isNullable)
    }

    /// Whether a branch of `anyOf`/`oneOf` says what a value looks like, rather than only constraining it.
    private static func declaresShape(_ branch: JSONValue) -> Bool {
        guard case .object(let object) = branch else { return branch == true }
        return ["type", "properties", "items", "$ref", "enum", "const", "anyOf", "oneOf"].contains { object[$0] != nil }
    }

    private func impliedType(_ object: JSONObject) -> String {
        if object["properties"] != nil || object["required"] != nil || object["additionalProperties"] != nil {
            return "object"
        }
        if object["items"] != nil || object["minItems"] != nil || object["maxItems"] != nil || object["prefixItems"] != nil {
            return "array"
        }
        if object["minimum"] != nil || object["maximum"] != nil || object["exclusiveMinimum"] != nil || object["exclusiveMaximum"] != nil {
            return "number"
        }
        if object["pattern"] != nil || object["minLength"] != nil || object["maxLength"] != nil || object["format"] != nil {
            return "string"
        }
        return "any"
    }

    // MARK: Types

    private mutating func lowerTyped(
        _ type: String, _ object: JSONObject, at pointer: JSONPointer, name: NameHint, consumed: inout Set<String>
    ) -> Lowered {
        switch type {
        case "object":
            return Lowered(shape: .object(lowerObject(object, at: pointer, name: name, consumed: &consumed)))
        case "array":
            return Lowered(shape: lowerArray(object, at: pointer, name: name, consumed: &consumed))
        case "string":
            var pattern: String?
            if case .string(let source)? = object["pattern"] {
                consumed.insert("pattern")
                pattern = lowerPattern(source, at: pointer.appending("pattern"))
            } else {
                pattern = lengthPattern(object, at: pointer, consumed: &consumed)
            }
            return Lowered(shape: .string(constant: nil, pattern: pattern))
        case "integer":
            let (minimum, maximum) = integerBounds(object, at: pointer, consumed: &consumed)
            return Lowered(shape: .integer(minimum: minimum, maximum: maximum))
        case "number":
            let (minimum, maximum) = numberBounds(object, at: pointer, consumed: &consumed)
            return Lowered(shape: .number(minimum: minimum, maximum: maximum))
        case "boolean":
            return Lowered(shape: .boolean)
        default:
            report(.error, at: pointer.appending("type"), "\"\(type)\" is not a JSON Schema type; a string is used")
            return Lowered(shape: .string(constant: nil, pattern: nil))
        }
    }

    /// The longest `maxLength` lowered to a guide. Longer ones are left to validation: a
    /// repetition that long costs a constrained decoder a large grammar and a model never
    /// writes that much in a tool call anyway (`minLength` is still lowered).
    static let longestGuidedLength = 1000

    /// The guide pattern for a string's `minLength`/`maxLength` (no `pattern` beside them):
    /// ``LengthPattern``'s any-character repetition, so a constrained decoder cannot write a
    /// string longer (or shorter) than the server accepts. `nil` without usable bounds.
    private mutating func lengthPattern(_ object: JSONObject, at pointer: JSONPointer, consumed: inout Set<String>) -> String? {
        func length(_ keyword: String) -> Int? {
            guard let value = object[keyword] else { return nil }
            guard let count = value.intValue, count >= 0 else {
                consumed.insert(keyword)
                report(.warning, at: pointer.appending(keyword), "\(keyword) \(value) is not a non-negative integer; it is not used")
                return nil
            }
            return count
        }
        var minimum = length("minLength")
        var maximum = length("maxLength")
        if let high = maximum, high > Self.longestGuidedLength {
            consumed.insert("maxLength")
            report(
                .note, at: pointer.appending("maxLength"),
                "maxLength \(high) is longer than a generation guide takes (\(Self.longestGuidedLength)); it is checked when the arguments are validated"
            )
            maximum = nil
        }
        if let low = minimum, let high = maximum, low > high {
            report(
                .warning, at: pointer,
                "no string is at least \(low) and at most \(high) characters long; the lengths are not generation guides")
            consumed.formUnion(["minLength", "maxLength"])
            return nil
        }
        if minimum == 0 {
            // Every string is at least 0 characters long: nothing to guide.
            consumed.insert("minLength")
            minimum = nil
        }
        guard minimum != nil || maximum != nil else { return nil }
        if minimum != nil { consumed.insert("minLength") }
        if maximum != nil { consumed.insert("maxLength") }
        return LengthPattern(minimum: minimum ?? 0, maximum: maximum).pattern
    }

    /// The guide pattern for a JSON Schema `pattern`: its whole-string equivalent (see
    /// ``WholeStringPattern``), or `nil` (reported) when it cannot be rewritten or Swift's
    /// `Regex` does not accept it.
    private mutating func lowerPattern(_ source: String, at pointer: JSONPointer) -> String? {
        let whole: String
        do {
            whole = try WholeStringPattern.rewrite(source)
        } catch  where error.isMalformed {
            report(.warning, at: pointer, "the pattern \"\(source)\" is malformed (\(error.reason)); it is not a generation guide")
            return nil
        } catch {
            report(
                .warning, at: pointer,
                "the pattern \"\(source)\" matches anywhere in a string, and it cannot be rewritten to the whole-string pattern a generation guide needs: \(error.reason); it is not a generation guide, and it is checked when the arguments are validated"
            )
            return nil
        }
        guard (try? Regex(whole)) != nil else {
            report(.warning, at: pointer, "Swift's Regex does not accept the pattern \"\(source)\"; it is not a generation guide")
            return nil
        }
        return whole
    }

    private mutating func lowerObject(
        _ object: JSONObject, at pointer: JSONPointer, name: NameHint, consumed: inout Set<String>
    ) -> ObjectShape {
        let objectName = names.claim(name)
        consumed.formUnion(["properties", "required"])
        var required: [String] = []
        switch object["required"] {
        case .array(let list)?:
            required = list.compactMap(\.stringValue)
        case nil:
            break
        case let other?:
            report(.error, at: pointer.appending("required"), "\"required\" must be a list of strings, not \(other.typeName)")
        }
        var properties: [PropertyShape] = []
        var declared: Set<String> = []
        if case .object(let members)? = object["properties"] {
            for (key, schema) in members {
                let location = pointer.appending("properties").appending(key)
                declared.insert(key)
                if case .bool(false) = schema {
                    report(.note, at: location, "a property whose schema is false must be absent; it is not offered")
                    continue
                }
                let lowered = lower(schema, at: location, name: .suggested(key))
                let isRequired = required.contains(key)
                properties.append(
                    PropertyShape(
                        name: key, description: lowered.description, shape: lowered.shape,
                        isOptional: !isRequired || lowered.isNullable, isNullable: lowered.isNullable, isRequired: isRequired))
            }
        } else if let other = object["properties"] {
            report(.error, at: pointer.appending("properties"), "\"properties\" must be an object, not \(other.typeName)")
        }
        for (index, key) in required.enumerated() where !declared.contains(key) {
            report(
                .warning, at: pointer.appending("required").appending(index),
                "required property \"\(key)\" has no schema, so the model cannot send it")
        }
        switch object["additionalProperties"] {
        case nil, .bool(false)?:
            consumed.insert("additionalProperties")
        case .bool(true)?:
            consumed.insert("additionalProperties")
            report(
                .note, at: pointer.appending("additionalProperties"),
                "other properties are allowed, but the model is offered only the declared ones")
        case .object?:
            consumed.insert("additionalProperties")
            report(
                .warning, at: pointer.appending("additionalProperties"),
                "a map of other properties cannot be generated (no dictionary schema exists); the model is offered only the declared properties"
            )
        default:
            break
        }
        return ObjectShape(name: objectName, description: nil, properties: properties)
    }

    private mutating func lowerArray(
        _ object: JSONObject, at pointer: JSONPointer, name: NameHint, consumed: inout Set<String>
    ) -> ArgumentShape {
        consumed.formUnion(["items", "minItems", "maxItems"])
        let base: String
        switch name {
        case .suggested(let text), .reserved(let text): base = text
        }
        var item: ArgumentShape
        switch object["items"] {
        case .object?, .bool(false)?:
            item = lower(object["items"] ?? true, at: pointer.appending("items"), name: .suggested("\(base)_item")).describedNode
        case .array?:
            report(.warning, at: pointer.appending("items"), "tuple items cannot be generated; the elements are strings")
            item = .string(constant: nil, pattern: nil)
        case .bool(true)?, nil:
            report(.warning, at: pointer, "an array without an \"items\" schema cannot be generated; the elements are strings")
            item = .string(constant: nil, pattern: nil)
        case let other?:
            report(.error, at: pointer.appending("items"), "\"items\" must be a schema, not \(other.typeName); the elements are strings")
            item = .string(constant: nil, pattern: nil)
        }
        let minimum = count(object, "minItems", at: pointer)
        var maximum = count(object, "maxItems", at: pointer)
        if let minimum, let low = maximum, low < minimum {
            report(.warning, at: pointer.appending("maxItems"), "maxItems is below minItems; no upper bound is used")
            maximum = nil
        }
        return .array(item: item, minimum: minimum, maximum: maximum)
    }

    private mutating func count(_ object: JSONObject, _ keyword: String, at pointer: JSONPointer) -> Int? {
        guard let value = object[keyword] else { return nil }
        guard let count = value.intValue, count >= 0 else {
            report(.error, at: pointer.appending(keyword), "\"\(keyword)\" must be a non-negative integer")
            return nil
        }
        return count
    }
}

extension SchemaLowering.Lowered {
    /// The shape with the description on its node, for positions where no property holds it.
    var describedNode: ArgumentShape { shape.describing(description) }
}
