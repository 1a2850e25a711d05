// JSONValueDecoder: the unkeyed container.

/// An unkeyed container over the array of its decoder.
internal struct _JSONValueUnkeyedDecoder: UnkeyedDecodingContainer {
    let decoder: _JSONValueDecoderImpl
    let elements: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: _JSONValueDecoderImpl, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The current element; the index moves on only once it has been decoded.
    @inline(__always)
    private func current(_ type: Any.Type) throws -> JSONValue {
        guard currentIndex < elements.count else { throw atEnd(type) }
        return elements[currentIndex]
    }

    @inline(never)
    private func atEnd(_ type: Any.Type) -> DecodingError {
        .valueNotFound(
            type,
            DecodingError.Context(
                codingPath: decoder.path(appending: _JSONIndexKey(currentIndex)),
                debugDescription: "expected \(type), found the end of an array of \(elements.count) elements"
            )
        )
    }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try current(Any?.self) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(type) { try $0.unboxBool($1, key: $2) } }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNext(type) { try $0.unboxString($1, key: $2) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeNext(type) { try $0.unboxDouble($1, key: $2) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(type) { try $0.unboxFloat($1, key: $2) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeNext(type) { try $0.unboxInt($1, key: $2) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try decodeInteger(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try decodeInteger(type) }

    private mutating func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try decodeNext(type) { try $0.unboxInteger($1, as: type, key: $2) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeNext(type) { try $0.unbox($1, as: type, key: $2) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decodeNext(KeyedDecodingContainer<NestedKey>.self) { try $0.child($1, key: $2).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try decodeNext((any UnkeyedDecodingContainer).self) { try $0.child($1, key: $2).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try decodeNext((any Decoder).self) { $0.child($1, key: $2) }
    }

    /// Decodes the current element with `unbox` (given the decoder, the element and its
    /// index as a key), then moves on; on an error, the index stays where it is.
    @inline(__always)
    private mutating func decodeNext<T>(
        _ type: T.Type, _ unbox: (_JSONValueDecoderImpl, JSONValue, _JSONIndexKey) throws -> T
    ) throws -> T {
        let result = try unbox(decoder, current(type), _JSONIndexKey(currentIndex))
        currentIndex += 1
        return result
    }
}
