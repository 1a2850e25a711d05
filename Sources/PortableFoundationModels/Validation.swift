// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where generated content departs from a schema (portable only).
public struct GenerationSchemaViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// A JSON Pointer to the offending value ("" is the whole content).
    public let path: String
    public let message: String

    public var description: String { "\(path.isEmpty ? "(root)" : path): \(message)" }
}

extension GenerationSchema {
    /// Checks `content` against the schema the way guided generation would constrain it: types,
    /// required properties, no unknown properties, enums, constants, patterns, bounds and counts.
    /// Returns every violation (empty when the content conforms).
    ///
    /// Portable only: Apple's `GenerationSchema` has no such method, so it is SPI
    /// (`@_spi(Portable) import PortableFoundationModels`).
    @_spi(Portable) public func violations(in content: GeneratedContent) -> [GenerationSchemaViolation] {
        var found: [GenerationSchemaViolation] = []
        check(content, against: node, path: "", depth: 0, into: &found)
        return found
    }

    func definition(_ name: String) -> SchemaNode? {
        if let definition = defs.first(where: { $0.name == name }) { return definition.node }
        if node.typeName == name { return node }
        return nil
    }

    private func check(
        _ content: GeneratedContent, against schema: SchemaNode, path: String, depth: Int, into found: inout [GenerationSchemaViolation]
    ) {
        func fail(_ message: String) { found.append(GenerationSchemaViolation(path: path, message: message)) }
        guard depth < 256 else { return fail("the schema nests too deeply") }
        switch schema {
        case .any:
            return
        case .null:
            if content.kind != .null { fail("expected null, got \(content.kindName)") }
        case .boolean:
            guard case .bool = content.kind else { return fail("expected a boolean, got \(content.kindName)") }
        case .string(let c):
            guard case .string(let text) = content.kind else { return fail("expected a string, got \(content.kindName)") }
            if let constant = c.constant, text != constant { fail("expected \"\(constant)\", got \"\(text)\"") }
            if let choices = c.choices, !choices.contains(text) {
                fail("\"\(text)\" is not one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            if let pattern = c.pattern, !Self.wholeMatches(pattern, text) {
                fail("\"\(text)\" does not match the pattern \(pattern)")
            }
        case .integer(let c), .number(let c):
            guard case .number(let number) = content.kind else { return fail("expected a number, got \(content.kindName)") }
            if case .integer = schema, Int(exactly: number) == nil { return fail("expected an integer, got \(formatJSONNumber(number))") }
            if let minimum = c.minimum, number < minimum {
                fail("\(formatJSONNumber(number)) is less than the minimum \(formatJSONNumber(minimum))")
            }
            if let maximum = c.maximum, number > maximum {
                fail("\(formatJSONNumber(number)) is greater than the maximum \(formatJSONNumber(maximum))")
            }
        case .array(let item, let minimum, let maximum):
            guard case .array(let elements) = content.kind else { return fail("expected an array, got \(content.kindName)") }
            if let minimum, elements.count < minimum { fail("expected at least \(minimum) elements, got \(elements.count)") }
            if let maximum, elements.count > maximum { fail("expected at most \(maximum) elements, got \(elements.count)") }
            for (index, element) in elements.enumerated() {
                check(element, against: item, path: path + "/\(index)", depth: depth + 1, into: &found)
            }
        case .object(let name, _, let properties):
            guard case .structure(let values, let keys) = content.kind else {
                return fail("expected an object (\(name)), got \(content.kindName)")
            }
            for property in properties {
                let childPath = path + "/" + escapePointer(property.name)
                guard let value = values[property.name] else {
                    if !property.isOptional { fail("missing required property '\(property.name)'") }
                    continue
                }
                if property.isOptional, value.kind == .null { continue }
                check(value, against: property.node, path: childPath, depth: depth + 1, into: &found)
            }
            let known = Set(properties.map(\.name))
            for key in keys + values.keys.filter({ !keys.contains($0) }).sorted() where !known.contains(key) {
                fail(
                    "unexpected property '\(key)' (\(name) allows \(properties.isEmpty ? "no properties" : properties.map(\.name).joined(separator: ", ")))"
                )
            }
        case .stringEnum(_, _, let choices):
            guard case .string(let text) = content.kind else { return fail("expected a string, got \(content.kindName)") }
            if !choices.contains(text) { fail("\"\(text)\" is not one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))") }
        case .anyOf(let name, _, let choices):
            for choice in choices {
                var trial: [GenerationSchemaViolation] = []
                check(content, against: choice, path: path, depth: depth + 1, into: &trial)
                if trial.isEmpty { return }
            }
            fail("\(content.jsonString) matches none of the \(choices.count) choices of \(name)")
        case .reference(let name):
            guard let target = definition(name) else { return fail("undefined reference '\(name)'") }
            check(content, against: target, path: path, depth: depth + 1, into: &found)
        }
    }
}

extension GenerationSchema {
    /// Whether a guide's `pattern` matches the whole of `text`: a guide constrains the whole
    /// string, unlike JSON Schema's `pattern`, which matches anywhere in it. Matched on Unicode
    /// scalars (as ECMA-262's `u` mode and a token-level decoder see text), not on Swift's
    /// grapheme clusters, so `\n` matches inside `"\r\n"`. A pattern Swift's `Regex` rejects
    /// constrains nothing.
    static func wholeMatches(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return true }
        return (try? regex.matchingSemantics(.unicodeScalar).wholeMatch(in: text)) != nil
    }
}

func escapePointer(_ key: String) -> String {
    key.replacing("~", with: "~0").replacing("/", with: "~1")
}
#endif
