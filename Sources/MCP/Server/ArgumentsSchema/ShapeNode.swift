internal import MCPCore

/// What a decoding asked of the value at one place in the arguments, while it is recorded.
///
/// Every question the recording decoder is asked about a place lands on that place's node:
/// the same member decoded twice, a subclass and its superclass asking for the same keyed
/// container, a wrapper decoding its wrapped value in a single-value container. A second
/// answer that contradicts the first (a member decoded as a `String`, then as an `Int`) is a
/// conflict, refused as ``ToolArgumentsSchemaError/dependsOnValues``.
///
/// A class, shared by the decoder and the containers that write into it; used by one
/// recording on one task.
final class ShapeNode {
    /// What the value was decoded as.
    enum Kind {
        /// Nothing was asked of the value (yet).
        case unobserved
        /// A value whose whole schema is known, with the Swift type's name for messages.
        case leaf(JSONObject, typeName: String)
        /// A keyed container: a JSON object with named members.
        case object(Members)
        /// An unkeyed container: a JSON array.
        case array(Elements)
        /// A dictionary: a JSON object whose members all have the shape of `values`.
        case map(values: ShapeNode, keys: JSONObject?)
        /// A recursive type at the depth where the schema stops describing it.
        case cutOff(typeName: String)
    }

    /// The place, as JSON Pointer tokens (`0` for array elements, `*` for dictionary values).
    let path: [String]
    private(set) var kind: Kind = .unobserved
    /// Whether `null` is accepted here too (an optional, or `decodeNil` was asked).
    var isNullable = false

    init(path: [String]) {
        self.path = path
    }

    var location: JSONPointer { JSONPointer(tokens: path) }

    /// Records that the value is a leaf with `schema`.
    func setLeaf(_ schema: JSONObject, typeName: String) throws(ToolArgumentsSchemaError) {
        switch kind {
        case .unobserved:
            kind = .leaf(schema, typeName: typeName)
        case .leaf(let existing, _) where existing == schema:
            return
        default:
            throw conflict(with: typeName)
        }
    }

    /// The members of the object the value is, making it one.
    func members() throws(ToolArgumentsSchemaError) -> Members {
        switch kind {
        case .unobserved:
            let members = Members(path: path)
            kind = .object(members)
            return members
        case .object(let members):
            return members
        default:
            throw conflict(with: "an object")
        }
    }

    /// The elements of the array the value is, making it one.
    func elements() throws(ToolArgumentsSchemaError) -> Elements {
        switch kind {
        case .unobserved:
            let elements = Elements(path: path)
            kind = .array(elements)
            return elements
        case .array(let elements):
            return elements
        default:
            throw conflict(with: "an array")
        }
    }

    /// The node of the values of the dictionary the value is, making it one.
    func mapValues(keys: JSONObject?) throws(ToolArgumentsSchemaError) -> ShapeNode {
        switch kind {
        case .unobserved:
            let values = ShapeNode(path: path + ["*"])
            kind = .map(values: values, keys: keys)
            return values
        case .map(let values, let existing) where existing == keys:
            return values
        default:
            throw conflict(with: "a dictionary")
        }
    }

    /// Records that a recursive type stops being described here.
    func cutOff(typeName: String) throws(ToolArgumentsSchemaError) {
        switch kind {
        case .unobserved:
            kind = .cutOff(typeName: typeName)
        case .cutOff(let existing) where existing == typeName:
            return
        default:
            throw conflict(with: typeName)
        }
    }

    private func conflict(with other: String) -> ToolArgumentsSchemaError {
        .dependsOnValues(
            at: location,
            "it is decoded both as \(kindDescription) and as \(other); the schema cannot say which. Register the tool with an explicit inputSchema."
        )
    }

    /// What the value was decoded as, for messages ("String", "an object").
    var kindDescription: String {
        switch kind {
        case .unobserved: "nothing"
        case .leaf(_, let typeName): typeName
        case .object: "an object"
        case .array: "an array"
        case .map: "a dictionary"
        case .cutOff(let typeName): typeName
        }
    }

    /// The recorded shape as a value, for comparing recordings and writing the schema.
    ///
    /// - Throws: ``ToolArgumentsSchemaError/dependsOnValues`` for an unkeyed container
    ///   read in a pattern the schema cannot describe (see ``Elements``).
    func freeze() throws(ToolArgumentsSchemaError) -> RecordedShape {
        let shape: RecordedShape
        switch kind {
        case .unobserved:
            shape = .unobserved
        case .leaf(let schema, _):
            shape = .leaf(schema)
        case .object(let members):
            shape = .object(try members.freeze())
        case .array(let elements):
            shape = try elements.freeze()
        case .map(let values, let keys):
            shape = .map(values: try values.freeze(), keys: keys)
        case .cutOff(let typeName):
            shape = .cutOff(typeName: typeName)
        }
        return isNullable ? .nullable(shape) : shape
    }
}

extension ShapeNode {
    /// The members of a keyed container, in the order they were first asked for (the
    /// declaration order, for a synthesized `init(from:)`).
    final class Members {
        let path: [String]
        private(set) var names: [String] = []
        private var byName: [String: Member] = [:]

        init(path: [String]) {
            self.path = path
        }

        /// The member `name`, added on first use.
        func member(_ name: String) -> Member {
            if let member = byName[name] { return member }
            let member = Member(node: ShapeNode(path: path + [name]))
            byName[name] = member
            names.append(name)
            return member
        }

        /// The member `name`, if it was asked for.
        func existingMember(_ name: String) -> Member? {
            byName[name]
        }

        func freeze() throws(ToolArgumentsSchemaError) -> [RecordedShape.Member] {
            var frozen: [RecordedShape.Member] = []
            frozen.reserveCapacity(names.count)
            for name in names {
                guard let member = byName[name] else { continue }
                frozen.append(
                    RecordedShape.Member(
                        name: name, shape: try member.node.freeze(), isRequired: member.isRequired, description: member.description))
            }
            return frozen
        }
    }

    /// One member of a keyed container.
    final class Member {
        let node: ShapeNode
        /// Decoded in a way that needs the key (`decode`, `nestedContainer`, `decodeNil`, `superDecoder`).
        var isRead = false
        /// Its presence was asked about (`contains`, `decodeIfPresent`), so it may be missing.
        var isPresenceTested = false
        /// What the type's ``ToolArguments/argumentDescriptions`` says about it.
        var description: String?

        init(node: ShapeNode) {
            self.node = node
        }

        /// Whether the input must have it: read, and never asked about first.
        var isRequired: Bool { isRead && !isPresenceTested }
    }

    /// The elements of an unkeyed container, by position.
    ///
    /// The recorder's container says it is at its end from the second element on, so a loop
    /// (`while !isAtEnd`, as `Array` and `Set` decode) reads one element. How the decoding
    /// read the positions says what the array is:
    ///
    /// - It asked where the end is, and every element it read has the same shape: an array of
    ///   that shape, with at least as many elements as it read before asking (`minItems`).
    /// - It never asked: a tuple, whose first elements have the shapes read (`prefixItems`).
    /// - It asked, and read elements of different shapes (key, value, key, value …): refused.
    final class Elements {
        let path: [String]
        private(set) var nodes: [ShapeNode] = []
        /// The position at which the decoding first asked whether it was at the end.
        private(set) var firstEndQuery: Int?

        init(path: [String]) {
            self.path = path
        }

        /// The node of the element at `index`, added on first use.
        func node(at index: Int) -> ShapeNode {
            while nodes.count <= index {
                nodes.append(ShapeNode(path: path + [String(nodes.count)]))
            }
            return nodes[index]
        }

        /// Notes that the decoding asked whether it was at the end at `index`.
        func noteEndQuery(at index: Int) {
            if firstEndQuery == nil {
                firstEndQuery = index
            }
        }

        func freeze() throws(ToolArgumentsSchemaError) -> RecordedShape {
            var shapes: [RecordedShape] = []
            shapes.reserveCapacity(nodes.count)
            for node in nodes {
                shapes.append(try node.freeze())
            }
            guard let firstEndQuery else {
                return shapes.isEmpty ? .array(items: .unobserved, minItems: 0) : .tuple(shapes)
            }
            guard let first = shapes.first else {
                return .array(items: .unobserved, minItems: 0)
            }
            guard shapes.allSatisfy({ $0 == first }) else {
                throw .dependsOnValues(
                    at: JSONPointer(tokens: path),
                    "it reads an array of elements of different shapes until its end (such as keys and values in turn); the schema cannot describe that. Register the tool with an explicit inputSchema."
                )
            }
            return .array(items: first, minItems: firstEndQuery)
        }
    }
}
