// JSONValueDecoder: the keyed container.

/// A keyed container over the object of its decoder.
///
/// It holds nothing but the decoder, because the standard library's type-erasing box
/// copies the container on every call.
internal struct _JSONValueKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: _JSONValueDecoderImpl

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        decoder.object.entries.compactMap { Key(stringValue: $0.key) }
    }

    func contains(_ key: Key) -> Bool {
        position(of: key) != nil
    }

    @inline(__always)
    private func position(of key: Key) -> Int? {
        let name = key.stringValue
        let hint = decoder.keyHint
        if hint < decoder.object.entries.count, decoder.object.entries[hint].key == name {
            decoder.keyHint = hint + 1
            return hint
        }
        guard let position = decoder.object.fastPosition(of: name) else { return nil }
        decoder.keyHint = position + 1
        return position
    }

    @inline(__always)
    private func value(for key: Key) throws -> JSONValue {
        guard let position = position(of: key) else {
            throw keyNotFound(key)
        }
        return decoder.object.entries[position].value
    }

    /// The value for `key`, or `nil` when the key is missing or its value is `null`.
    @inline(__always)
    private func valueIfPresent(for key: Key) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let value = decoder.object.entries[position].value
        if case .null = value { return nil }
        return value
    }

    @inline(never)
    private func keyNotFound(_ key: Key) -> DecodingError {
        .keyNotFound(
            key,
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "no value for key \"\(key.stringValue)\""
            )
        )
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(for: key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let value = try value(for: key)
        if case .bool(let result) = value { return result }
        return try decoder.unboxBool(value, key: key)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let value = try value(for: key)
        if case .string(let result) = value { return result }
        return try decoder.unboxString(value, key: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let value = try value(for: key)
        if case .double(let result) = value { return result }
        return try decoder.unboxDouble(value, key: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.unboxFloat(value(for: key), key: key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let value = try value(for: key)
        if case .int(let result) = value { return result }
        return try decoder.unboxInt(value, key: key)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeInteger(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeInteger(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeInteger(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeInteger(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try decodeInteger(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeInteger(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeInteger(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeInteger(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeInteger(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeInteger(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try decodeInteger(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(value(for: key), as: type, key: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = valueIfPresent(for: key) else { return nil }
        if case .bool(let result) = value { return result }
        return try decoder.unboxBool(value, key: key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = valueIfPresent(for: key) else { return nil }
        if case .string(let result) = value { return result }
        return try decoder.unboxString(value, key: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxDouble(value, key: key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxFloat(value, key: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = valueIfPresent(for: key) else { return nil }
        if case .int(let result) = value { return result }
        return try decoder.unboxInt(value, key: key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIntegerIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIntegerIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIntegerIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIntegerIfPresent(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try decodeIntegerIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIntegerIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIntegerIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIntegerIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIntegerIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIntegerIfPresent(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try decodeIntegerIfPresent(type, forKey: key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unbox(value, as: type, key: key)
    }

    /// The integer types without a case of their own in ``JSONValue`` (all but `Int`) take
    /// one path, the range-checked `unboxInteger(_:as:key:)`.
    @inline(__always)
    private func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }

    /// `decodeInteger(_:forKey:)`, or `nil` when the key is missing or its value is `null`.
    @inline(__always)
    private func decodeIntegerIfPresent<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(value(for: key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(value(for: key), key: key).unkeyedContainer()
    }

    /// A decoder for the value under `"super"`, or for `null` when there is none.
    func superDecoder() throws -> any Decoder {
        let key = _JSONStringKey.super
        return decoder.child(decoder.object[key.stringValue] ?? .null, key: key)
    }

    /// A decoder for the value under `key`, or for `null` when there is none.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(decoder.object[key.stringValue] ?? .null, key: key)
    }
}
