// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A small JSON value with ordered objects, used to encode and decode schemas.
enum SchemaJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([SchemaJSON])
    case object([(String, SchemaJSON)])

    static func == (lhs: SchemaJSON, rhs: SchemaJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            var pairs: [(String, SchemaJSON)] = []
            for key in container.allKeys {
                pairs.append((key.stringValue, try container.decode(SchemaJSON.self, forKey: key)))
            }
            self = .object(pairs)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [SchemaJSON] = []
            while !container.isAtEnd { elements.append(try container.decode(SchemaJSON.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .int(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .int(let integer):
            var container = encoder.singleValueContainer()
            try container.encode(integer)
        case .double(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let pairs):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in pairs { try container.encode(value, forKey: Key(key)) }
        }
    }

    subscript(key: String) -> SchemaJSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    static func number(_ value: Double) -> SchemaJSON {
        if value == value.rounded(), abs(value) < 1e15 { return .int(Int(value)) }
        return .double(value)
    }
}

// MARK: - Encoding (Apple's JSON form)

extension SchemaNode {
    func json(description: String? = nil) -> SchemaJSON {
        var pairs: [(String, SchemaJSON)] = []
        func describe(_ text: String?) { if let text { pairs.append(("description", .string(text))) } }
        switch self {
        case .any:
            describe(description)
        case .null:
            pairs.append(("type", .string("null")))
            describe(description)
        case .boolean:
            pairs.append(("type", .string("boolean")))
            describe(description)
        case .string(let c):
            if let constant = c.constant {
                describe(description)
                pairs.append(("const", .string(constant)))
            } else {
                pairs.append(("type", .string("string")))
                describe(description)
                if let choices = c.choices { pairs.append(("enum", .array(choices.map(SchemaJSON.string)))) }
                if let pattern = c.pattern { pairs.append(("pattern", .string(pattern))) }
            }
        case .integer(let c), .number(let c):
            if case .integer = self { pairs.append(("type", .string("integer"))) } else { pairs.append(("type", .string("number"))) }
            describe(description)
            if let minimum = c.minimum { pairs.append(("minimum", .number(minimum))) }
            if let maximum = c.maximum { pairs.append(("maximum", .number(maximum))) }
        case .array(let item, let minimum, let maximum):
            pairs.append(("type", .string("array")))
            describe(description)
            pairs.append(("items", item.json()))
            if let minimum { pairs.append(("minItems", .int(minimum))) }
            if let maximum { pairs.append(("maxItems", .int(maximum))) }
        case .object(let name, let ownDescription, let properties):
            pairs.append(("type", .string("object")))
            pairs.append(("title", .string(name)))
            describe(description ?? ownDescription)
            pairs.append(("properties", .object(properties.map { ($0.name, $0.node.json(description: $0.description)) })))
            pairs.append(("additionalProperties", .bool(false)))
            pairs.append(("required", .array(properties.filter { !$0.isOptional }.map { .string($0.name) })))
            pairs.append(("x-order", .array(properties.map { .string($0.name) })))
        case .stringEnum(let name, let ownDescription, let choices):
            pairs.append(("type", .string("string")))
            pairs.append(("title", .string(name)))
            describe(description ?? ownDescription)
            pairs.append(("enum", .array(choices.map(SchemaJSON.string))))
        case .anyOf(let name, let ownDescription, let choices):
            pairs.append(("title", .string(name)))
            describe(description ?? ownDescription)
            pairs.append(("anyOf", .array(choices.map { $0.json() })))
        case .reference(let name):
            pairs.append(("$ref", .string("#/$defs/\(name)")))
            describe(description)
        }
        return .object(pairs)
    }
}

extension GenerationSchema {
    var json: SchemaJSON {
        guard case .object(var pairs) = node.json() else { return node.json() }
        if !defs.isEmpty {
            pairs.append(("$defs", .object(defs.map { ($0.name, $0.node.json()) })))
        }
        return .object(pairs)
    }

    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let value = try SchemaJSON(from: decoder)
        var defs: [SchemaDefinition] = []
        if case .object(let pairs)? = value["$defs"] {
            for (name, definition) in pairs {
                defs.append(SchemaDefinition(name: name, node: try SchemaNode(json: definition, decoder: decoder)))
            }
        }
        self.init(node: try SchemaNode(json: value, decoder: decoder), defs: defs)
    }
}

// MARK: - Decoding (only Apple's dialect)

extension SchemaNode {
    init(json: SchemaJSON, decoder: any Decoder) throws {
        func corrupted(_ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: message))
        }
        func require(_ key: String) throws -> SchemaJSON {
            guard let value = json[key] else {
                throw DecodingError.keyNotFound(
                    SchemaJSON.Key(key), .init(codingPath: decoder.codingPath, debugDescription: "No value associated with key \"\(key)\".")
                )
            }
            return value
        }
        func string(_ key: String) -> String? {
            if case .string(let text)? = json[key] { return text }
            return nil
        }
        func strings(_ value: SchemaJSON?) throws -> [String] {
            guard case .array(let elements)? = value else { throw corrupted("Expected an array of strings.") }
            return try elements.map {
                guard case .string(let text) = $0 else { throw corrupted("Expected a string.") }
                return text
            }
        }
        func double(_ key: String) -> Double? {
            switch json[key] {
            case .int(let integer)?: Double(integer)
            case .double(let number)?: number
            default: nil
            }
        }
        func int(_ key: String) -> Int? {
            if case .int(let integer)? = json[key] { return integer }
            return nil
        }
        guard case .object(let pairs) = json else { throw corrupted("Expected a schema object.") }
        if pairs.isEmpty || pairs.allSatisfy({ $0.0 == "description" || $0.0 == "$defs" }) {
            self = .any
            return
        }
        if let reference = string("$ref") {
            let prefix = "#/$defs/"
            self = .reference(reference.hasPrefix(prefix) ? String(reference.dropFirst(prefix.count)) : reference)
            return
        }
        if case .string(let constant)? = json["const"] {
            self = .string(StringConstraints(constant: constant))
            return
        }
        if case .array(let choices)? = json["anyOf"] {
            self = .anyOf(
                name: string("title") ?? "", description: string("description"),
                choices: try choices.map { try SchemaNode(json: $0, decoder: decoder) })
            return
        }
        guard let type = json["type"] else {
            throw corrupted("None of these keys were present: 'type', 'const', '$ref', 'anyOf'")
        }
        guard case .string(let typeName) = type else {
            throw DecodingError.typeMismatch(
                String.self, .init(codingPath: decoder.codingPath, debugDescription: "Expected 'type' to be a string."))
        }
        switch typeName {
        case "object":
            let title = try require("title")
            _ = try require("additionalProperties")
            let required = Set(try strings(try require("required")))
            let order = try strings(try require("x-order"))
            guard case .string(let name) = title else { throw corrupted("Expected 'title' to be a string.") }
            var properties: [SchemaProperty] = []
            for key in order {
                guard let property = json["properties"]?[key] else { throw corrupted("Property '\(key)' in x-order is not in properties.") }
                let description: String? = if case .string(let text)? = property["description"] { text } else { nil }
                properties.append(
                    SchemaProperty(
                        name: key, description: description,
                        node: try SchemaNode(json: property, decoder: decoder), isOptional: !required.contains(key)))
            }
            self = .object(name: name, description: string("description"), properties: properties)
        case "string":
            if let title = string("title"), json["enum"] != nil {
                self = .stringEnum(name: title, description: string("description"), choices: try strings(json["enum"]))
            } else {
                self = .string(
                    StringConstraints(
                        choices: json["enum"] == nil ? nil : try strings(json["enum"]),
                        pattern: string("pattern")))
            }
        case "integer": self = .integer(NumberConstraints(minimum: double("minimum"), maximum: double("maximum")))
        case "number": self = .number(NumberConstraints(minimum: double("minimum"), maximum: double("maximum")))
        case "boolean": self = .boolean
        case "null": self = .null
        case "array":
            self = .array(
                item: try SchemaNode(json: try require("items"), decoder: decoder), minimum: int("minItems"), maximum: int("maxItems"))
        default:
            throw corrupted("Unsupported type '\(typeName)'.")
        }
    }
}
#endif
