public import MCPCore

#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif

/// Generated content that cannot be a tool's arguments.
public struct ArgumentConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Turns `GeneratedContent` into JSON, guided by the lowered shape when there is one.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct ArgumentDecoder {
    let definitions: [String: ArgumentShape]

    /// How deep references may be followed while matching one value.
    private static let maximumReferenceDepth = 32

    func object(from content: GeneratedContent, shape: ObjectShape?) throws(ArgumentConversionError) -> JSONObject {
        guard case .structure = content.kind else {
            throw ArgumentConversionError("the arguments must be an object, not \(Self.kindName(content.kind))")
        }
        guard case .object(let object) = value(from: content, shape: shape.map { .object($0) }) else {
            throw ArgumentConversionError("the arguments must be an object")
        }
        return object
    }

    /// The JSON for `content`; without a shape, a number is an integer when it is integral.
    func value(from content: GeneratedContent, shape: ArgumentShape?, depth: Int = 0) -> JSONValue {
        let shape = resolved(shape, depth: depth)
        switch content.kind {
        case .null:
            return .null
        case .bool(let flag):
            return .bool(flag)
        case .string(let text):
            return .string(text)
        case .number(let number):
            switch shape {
            case .number?:
                return .double(number)
            case .choice(_, _, let choices)? where !choices.contains(where: { resolved($0, depth: depth)?.isInteger ?? false }):
                return .double(number)
            default:
                // An integer, or no shape: integral numbers become integers.
                return Int(exactly: number).map(JSONValue.int) ?? .double(number)
            }
        case .array(let elements):
            var item: ArgumentShape?
            if case .array(let itemShape, _, _)? = shape {
                item = itemShape
            } else if case .choice(_, _, let choices)? = shape {
                item =
                    choices.lazy.compactMap { choice -> ArgumentShape? in
                        if case .array(let itemShape, _, _) = self.resolved(choice, depth: depth) { return itemShape }
                        return nil
                    }.first
            }
            return .array(elements.map { value(from: $0, shape: item, depth: depth + 1) })
        case .structure(let properties, let orderedKeys):
            let object = objectShape(for: shape, keys: orderedKeys, depth: depth)
            var result = JSONObject(minimumCapacity: orderedKeys.count)
            for key in orderedKeys {
                guard let member = properties[key] else { continue }
                let property = object?.properties.first { $0.name == key }
                if case .null = member.kind, let property, !property.isNullable {
                    continue  // An optional property the model set to null: leave it out.
                }
                result[key] = value(from: member, shape: property?.shape, depth: depth + 1)
            }
            for property in object?.properties ?? [] where property.isRequired && property.isNullable && result[property.name] == nil {
                result[property.name] = .null
            }
            return .object(result)
        @unknown default:
            return .null
        }
    }

    /// The object shape that `keys` belong to: the shape itself, or the first object
    /// choice that declares every key.
    private func objectShape(for shape: ArgumentShape?, keys: [String], depth: Int) -> ObjectShape? {
        switch shape {
        case .object(let object)?:
            return object
        case .choice(_, _, let choices)?:
            let objects = choices.compactMap { choice -> ObjectShape? in
                if case .object(let object) = resolved(choice, depth: depth) { return object }
                return nil
            }
            return objects.first { object in keys.allSatisfy { key in object.properties.contains { $0.name == key } } } ?? objects.first
        default:
            return nil
        }
    }

    /// `shape` with references followed.
    private func resolved(_ shape: ArgumentShape?, depth: Int) -> ArgumentShape? {
        var current = shape
        var steps = 0
        while case .reference(let name)? = current, steps < Self.maximumReferenceDepth {
            current = definitions[name]
            steps += 1
        }
        if case .choice(_, _, let choices)? = current, choices.count == 1 {
            return resolved(choices[0], depth: depth)  // A named wrapper around one shape.
        }
        return current
    }

    static func kindName(_ kind: GeneratedContent.Kind) -> String {
        switch kind {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .structure: "an object"
        @unknown default: "an unknown value"
        }
    }
}

extension ArgumentShape {
    fileprivate var isInteger: Bool {
        if case .integer = self { return true }
        return false
    }
}

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension GeneratedContent {
    /// This content as JSON: objects keep the order of their keys, integral numbers become
    /// integers. For a tool's arguments prefer ``SchemaConversion/arguments(from:)``,
    /// which follows the schema (a `number` property stays a number).
    public var jsonValue: JSONValue {
        ArgumentDecoder(definitions: [:]).value(from: self, shape: nil)
    }
}
