internal import MCPCore

/// The shape one recording found for a value: what ``ShapeNode`` holds, as a value that
/// two recordings can be compared by and a schema written from.
indirect enum RecordedShape: Equatable {
    /// Nothing was asked of the value: any value is accepted.
    case unobserved
    /// A value whose whole schema is known (a string, an integer, an enum's raw values …).
    case leaf(JSONObject)
    /// The shape, or `null`.
    case nullable(RecordedShape)
    /// A JSON object with named members.
    case object([Member])
    /// A JSON array whose elements all have one shape.
    case array(items: RecordedShape, minItems: Int)
    /// A JSON array whose first elements have these shapes, in order.
    case tuple([RecordedShape])
    /// A JSON object whose members all have the shape `values`, with names matching `keys`.
    case map(values: RecordedShape, keys: JSONObject?)
    /// A recursive type below the levels the schema describes.
    case cutOff(typeName: String)

    /// A member of an object.
    struct Member: Equatable {
        var name: String
        var shape: RecordedShape
        var isRequired: Bool
        var description: String?
    }

    // MARK: Agreeing

    /// The shape both recordings describe, where one recording left a value unobserved
    /// (a member whose `contains` was answered "no") and the other did not.
    ///
    /// - Throws: ``ToolArgumentsSchemaError/dependsOnValues`` when the recordings read
    ///   different members or different types at the same place: the decoding branches on a
    ///   value the recorder chose.
    func agreeing(with other: RecordedShape, at path: [String]) throws(ToolArgumentsSchemaError) -> RecordedShape {
        switch (self, other) {
        case (.unobserved, _):
            return other
        case (_, .unobserved):
            return self
        case (.nullable(let mine), .nullable(let theirs)):
            return .nullable(try mine.agreeing(with: theirs, at: path))
        case (.object(let mine), .object(let theirs)):
            let names = Set(mine.map(\.name))
            let otherNames = Set(theirs.map(\.name))
            guard names == otherNames else {
                let some = (mine.map(\.name) + theirs.map(\.name)).filter { !names.contains($0) || !otherNames.contains($0) }
                throw .dependsOnValues(
                    at: JSONPointer(tokens: path),
                    "it reads \(Self.members(some)) for some placeholder values and not for others, so it branches on a value the recorder cannot see. Register the tool with an explicit inputSchema."
                )
            }
            var agreed: [Member] = []
            agreed.reserveCapacity(mine.count)
            for member in mine {
                guard let match = theirs.first(where: { $0.name == member.name }) else { continue }
                guard match.isRequired == member.isRequired else {
                    throw .dependsOnValues(
                        at: JSONPointer(tokens: path + [member.name]),
                        "it requires the member for some placeholder values and not for others, so it branches on a value the recorder cannot see. Register the tool with an explicit inputSchema."
                    )
                }
                var merged = member
                merged.shape = try member.shape.agreeing(with: match.shape, at: path + [member.name])
                agreed.append(merged)
            }
            return .object(agreed)
        case (.array(let mine, let minimum), .array(let theirs, let otherMinimum)) where minimum == otherMinimum:
            return .array(items: try mine.agreeing(with: theirs, at: path + ["0"]), minItems: minimum)
        case (.tuple(let mine), .tuple(let theirs)) where mine.count == theirs.count:
            var agreed: [RecordedShape] = []
            for (index, shape) in mine.enumerated() {
                agreed.append(try shape.agreeing(with: theirs[index], at: path + [String(index)]))
            }
            return .tuple(agreed)
        case (.map(let mine, let keys), .map(let theirs, let otherKeys)) where keys == otherKeys:
            return .map(values: try mine.agreeing(with: theirs, at: path + ["*"]), keys: keys)
        default:
            if self == other { return self }
            throw disagreement(at: path, other)
        }
    }

    /// `the member "a"`, `the members "a", "b"`.
    private static func members(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }.joined(separator: ", ")
        return names.count == 1 ? "the member \(quoted)" : "the members \(quoted)"
    }

    private func disagreement(at path: [String], _ other: RecordedShape) -> ToolArgumentsSchemaError {
        .dependsOnValues(
            at: JSONPointer(tokens: path),
            "its decoding reads \(summary) for one set of placeholder values and \(other.summary) for another, so it branches on a value the recorder cannot see. Register the tool with an explicit inputSchema."
        )
    }

    /// A short description for messages: `string`, `an object with query, limit`.
    var summary: String {
        switch self {
        case .unobserved: "nothing"
        case .leaf(let schema): schema["type"]?.stringValue ?? "a value"
        case .nullable(let shape): "\(shape.summary) or null"
        case .object(let members) where members.isEmpty: "an object with no members"
        case .object(let members): "an object with " + Self.members(members.map(\.name))
        case .array: "an array"
        case .tuple(let shapes): "an array of \(shapes.count) elements"
        case .map: "a dictionary"
        case .cutOff(let typeName): typeName
        }
    }

    // MARK: Writing the schema

    /// The JSON Schema of the shape, and the notes on what it leaves to decoding.
    func schema(levels: Int) -> (schema: JSONValue, notes: [String]) {
        var notes: [String] = []
        let schema = render(notes: &notes, levels: levels)
        return (schema, notes)
    }

    private func render(notes: inout [String], levels: Int) -> JSONValue {
        switch self {
        case .unobserved:
            return [:]
        case .leaf(let schema):
            return .object(schema)
        case .nullable(let shape):
            return Self.allowingNull(shape.render(notes: &notes, levels: levels))
        case .object(let members):
            var properties = JSONObject()
            var required: [JSONValue] = []
            for member in members {
                var schema = member.shape.render(notes: &notes, levels: levels)
                if let description = member.description {
                    schema = Self.describing(schema, as: description)
                }
                properties[member.name] = schema
                if member.isRequired {
                    required.append(.string(member.name))
                }
            }
            var object: JSONObject = ["type": "object", "properties": .object(properties)]
            if !required.isEmpty {
                object["required"] = .array(required)
            }
            return .object(object)
        case .array(let items, let minItems):
            var object: JSONObject = ["type": "array"]
            if items != .unobserved {
                object["items"] = items.render(notes: &notes, levels: levels)
            }
            if minItems > 0 {
                object["minItems"] = .int(minItems)
            }
            return .object(object)
        case .tuple(let shapes):
            return [
                "type": "array",
                "prefixItems": .array(shapes.map { $0.render(notes: &notes, levels: levels) }),
                "minItems": .int(shapes.count),
            ]
        case .map(let values, let keys):
            var object: JSONObject = ["type": "object"]
            if values != .unobserved {
                object["additionalProperties"] = values.render(notes: &notes, levels: levels)
            }
            if let keys {
                object["propertyNames"] = .object(keys)
            }
            return .object(object)
        case .cutOff(let typeName):
            let note =
                "\(typeName) is recursive: the schema describes \(levels) levels of it, and accepts any value below them, which decoding then checks"
            if !notes.contains(note) {
                notes.append(note)
            }
            return ["description": .string("\(typeName), nested too deeply to be described here: checked when the tool decodes it")]
        }
    }

    /// `schema`, accepting `null` as well.
    static func allowingNull(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        switch object["type"] {
        case .string(let type)?:
            object["type"] = [.string(type), "null"]
        case .array(let types)? where !types.contains("null"):
            object["type"] = .array(types + ["null"])
        default:
            break
        }
        if case .array(let values)? = object["enum"], !values.contains(.null) {
            object["enum"] = .array(values + [.null])
        }
        return .object(object)
    }

    /// `schema` with `description`, before any description it already has (a note such as
    /// a date's unit), which then follows in parentheses.
    static func describing(_ schema: JSONValue, as description: String) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        if case .string(let existing)? = object["description"] {
            object["description"] = .string("\(description) (\(existing))")
        } else {
            object["description"] = .string(description)
        }
        return .object(object)
    }
}
