internal import MCPCore

/// A keyed container whose members are recorded, not read: every member decoded becomes a
/// member of the object's schema.
///
/// - `decode` makes a member required, `decodeIfPresent` optional and nullable (as
///   ``JSONCore/JSONValueDecoder`` takes `null` for a missing value there); in the recorder's even
///   rounds `decodeIfPresent` gives a placeholder, in odd rounds `nil`.
/// - `contains` says yes in even rounds and no in odd ones, and makes the member optional.
/// - `decodeNil(forKey:)` makes the member nullable (and required: ``JSONCore/JSONValueDecoder``
///   needs the key) and says no.
/// - `allKeys` is refused: which keys the input has is a value the recorder cannot see.
/// - `superDecoder()` records the member `"super"`, as ``JSONCore/JSONValueDecoder`` reads it.
struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: SchemaRecorder
    let members: ShapeNode.Members
    let codingPath: [any CodingKey]

    /// Refused: a decoding that looks at which keys the input has (a dictionary-like type,
    /// an enum with associated values) depends on values the recorder cannot see.
    var allKeys: [Key] {
        _ = recorder.fail(
            .dependsOnValues(
                at: JSONPointer(tokens: members.path),
                "its decoding asks which keys the input has (allKeys), as an enum with associated values or a dictionary-like type does, so what it reads depends on the input. Register the tool with an explicit inputSchema."
            ))
        return []
    }

    func contains(_ key: Key) -> Bool {
        guard !recorder.isStopped else { return false }
        members.member(key.stringValue).isPresenceTested = true
        return recorder.presentsOptionals
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        let member = members.member(key.stringValue)
        try recorder.step(at: member.node)
        member.isRead = true
        member.node.isNullable = true
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try read(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try read(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try read(type, forKey: key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try readIfPresent(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try readIfPresent(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try readIfPresent(type, forKey: key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try readIfPresent(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try requiredDecoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try requiredDecoder(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try requiredDecoder(forKey: RecordingKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try requiredDecoder(forKey: key)
    }

    // MARK: Recording members

    /// Records a required member.
    private func read<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let member = members.member(key.stringValue)
        try recorder.step(at: member.node)
        member.isRead = true
        switch try recorder.record(type, into: member.node, codingPath: codingPath + [key]) {
        case .value(let value):
            return value
        case .cutOff:
            throw recorder.requiredRecursion(of: T.self, at: member.node)
        }
    }

    /// Records an optional member.
    private func readIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let member = members.member(key.stringValue)
        try recorder.step(at: member.node)
        member.isPresenceTested = true
        member.node.isNullable = true
        switch try recorder.record(type, into: member.node, codingPath: codingPath + [key]) {
        case .value(let value):
            return recorder.presentsOptionals ? value : nil
        case .cutOff:
            return nil
        }
    }

    /// A decoder for a required member, read by the decoding's own containers.
    private func requiredDecoder(forKey key: some CodingKey) throws -> RecordingDecoder {
        let member = members.member(key.stringValue)
        try recorder.step(at: member.node)
        member.isRead = true
        return RecordingDecoder(recorder: recorder, node: member.node, codingPath: codingPath + [key])
    }
}
