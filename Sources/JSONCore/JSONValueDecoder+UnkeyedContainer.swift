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

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let result = try decoder.unboxBool(current(type), key: _JSONIndexKey(currentIndex))
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let result = try decoder.unboxString(current(type), key: _JSONIndexKey(currentIndex))
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let result = try decoder.unboxDouble(current(type), key: _JSONIndexKey(currentIndex))
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let result = try decoder.unboxFloat(current(type), key: _JSONIndexKey(currentIndex))
        currentIndex += 1
        return result
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let result = try decoder.unboxInt(current(type), key: _JSONIndexKey(currentIndex))
        currentIndex += 1
        return result
    }
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
        let result = try decoder.unboxInteger(current(type), as: type, key: _JSONIndexKey(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let result = try decoder.unbox(current(type), as: type, key: _JSONIndexKey(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try decoder.child(current(KeyedDecodingContainer<NestedKey>.self), key: _JSONIndexKey(currentIndex))
            .container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.child(current((any UnkeyedDecodingContainer).self), key: _JSONIndexKey(currentIndex))
            .unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let superDecoder = try decoder.child(current((any Decoder).self), key: _JSONIndexKey(currentIndex))
        currentIndex += 1
        return superDecoder
    }
}
