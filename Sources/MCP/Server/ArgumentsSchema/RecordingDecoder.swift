/// The `Decoder` a type's `init(from:)` runs against while its schema is recorded: every
/// container it hands out writes what it is asked into one ``ShapeNode``.
///
/// Also its own single-value container, whose answers are the recorder's placeholders.
struct RecordingDecoder: Decoder, SingleValueDecodingContainer {
    let recorder: SchemaRecorder
    let node: ShapeNode
    let codingPath: [any CodingKey]

    init(recorder: SchemaRecorder, node: ShapeNode, codingPath: [any CodingKey]) {
        self.recorder = recorder
        self.node = node
        self.codingPath = codingPath
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try recorder.step(at: node)
        let members = try recorder.attempt { () throws(ToolArgumentsSchemaError) in try node.members() }
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(recorder: recorder, members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try recorder.step(at: node)
        let elements = try recorder.attempt { () throws(ToolArgumentsSchemaError) in try node.elements() }
        return RecordingUnkeyedContainer(recorder: recorder, elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try recorder.step(at: node)
        return self
    }

    // MARK: Single-value container

    /// Notes that `null` is taken here, and says the value is not `null`, so that the
    /// decoding goes on to read what else it takes.
    func decodeNil() -> Bool {
        if !recorder.isStopped {
            node.isNullable = true
        }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try decodeValue(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try decodeValue(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    /// Records `type` as this very value (a wrapper's wrapped value, a raw value).
    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch try recorder.record(type, into: node, codingPath: codingPath) {
        case .value(let value):
            return value
        case .cutOff:
            throw recorder.requiredRecursion(of: T.self, at: node)
        }
    }
}
