/// An unkeyed container whose elements are recorded, not read.
///
/// It says it is at its end from the second element on (`count` is unknown), so that a loop
/// such as `Array`'s and `Set`'s reads one element; where the decoding asked is what tells
/// an array from a tuple (see ``ShapeNode/Elements``). Every element it hands out moves it
/// on, even when recording the element fails, so no loop of the decoding's can stay on one
/// element; once the recording is refused it is at its end.
struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let recorder: SchemaRecorder
    let elements: ShapeNode.Elements
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(recorder: SchemaRecorder, elements: ShapeNode.Elements, codingPath: [any CodingKey]) {
        self.recorder = recorder
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { nil }

    var isAtEnd: Bool {
        guard !recorder.isStopped else { return true }
        elements.noteEndQuery(at: currentIndex)
        return currentIndex >= 1
    }

    /// Notes that the element may be `null`, and says it is not.
    mutating func decodeNil() throws -> Bool {
        let node = elements.node(at: currentIndex)
        try recorder.step(at: node)
        node.isNullable = true
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try read(type) }
    mutating func decode(_ type: String.Type) throws -> String { try read(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try read(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try read(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try read(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try read(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try read(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try read(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try read(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try read(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try read(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try read(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try nextDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try nextDecoder()
    }

    // MARK: Recording elements

    private mutating func read<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = try nextDecoder()
        switch try recorder.record(type, into: decoder.node, codingPath: decoder.codingPath) {
        case .value(let value):
            return value
        case .cutOff:
            throw recorder.requiredRecursion(of: T.self, at: decoder.node)
        }
    }

    /// A decoder for the current element; the container moves on to the next whatever happens.
    private mutating func nextDecoder() throws -> RecordingDecoder {
        let index = currentIndex
        currentIndex += 1
        let node = elements.node(at: index)
        try recorder.step(at: node)
        return RecordingDecoder(recorder: recorder, node: node, codingPath: codingPath + [RecordingKey(index: index)])
    }
}
