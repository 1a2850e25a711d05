/// Decodes `Decodable` values straight from a ``JSONValue``, without JSON text.
///
/// Use it to turn a tool call's `arguments` into a Swift type:
///
/// ```swift
/// struct Arguments: Decodable { var city: String; var days: Int; var metric: Bool?; var note: String? }
/// let arguments = try JSONValueDecoder().decode(Arguments.self, from: request["arguments"] ?? [:])
/// ```
///
/// The rules follow Foundation's `JSONDecoder` with its default strategies, applied to
/// the value tree instead of text:
///
/// - `Bool` decodes only from ``JSONValue/bool(_:)`` and `String` only from
///   ``JSONValue/string(_:)``; nothing is converted.
/// - `Int`, `Int8` … `UInt64` decode from ``JSONValue/int(_:)``, and from a
///   ``JSONValue/double(_:)`` whose value is exactly integral (`3.0`). A number that does
///   not fit the type throws `DecodingError.dataCorrupted`; a number with a fraction
///   throws `DecodingError.typeMismatch`.
/// - `Double` and `Float` decode from either kind of number. A value beyond `Float`'s
///   range throws `DecodingError.dataCorrupted`.
/// - `decodeIfPresent` (and so an `Optional` property) gives `nil` for a missing key and
///   for `null`; `decode` of a non-optional value from `null` throws
///   `DecodingError.valueNotFound`, and a missing key `DecodingError.keyNotFound`.
/// - ``JSONValue``, ``JSONObject`` and `[JSONValue]` are taken as they are, so a
///   `JSONValue` property receives exactly the value in the input, `null` included.
/// - Other types, including Foundation's `Date`, `Data` and `URL`, decode through their
///   own `Decodable` implementations (a `Date` from its seconds since 2001, which is
///   `JSONDecoder`'s default). As with `JSONDecoder`'s defaults, a `URL` also decodes
///   from a string and `Data` from a Base64 string.
///
/// Errors carry the coding path to the failing value and a message such as
/// `expected Int, found string "3"`; ``Swift/DecodingError/jsonPointer`` turns the path
/// into a ``JSONPointer`` to show which argument is wrong.
public struct JSONValueDecoder: Sendable {
    /// Values that decoding code can read from `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates a decoder with no user info.
    public init() {
        userInfo = [:]
    }

    /// Decodes a value of type `type` from `value`.
    ///
    /// - Throws: `DecodingError` when `value` does not have the shape `type` expects.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let decoder = _JSONValueDecoderImpl(
            value: value,
            parent: nil,
            key: nil,
            userInfo: userInfo.codingUserInfo
        )
        return try decoder.unbox(value, as: T.self, key: nil)
    }
}

// MARK: - Decoder

/// The `Decoder` for one value in the tree; also its own single-value container.
///
/// Nodes link to their parent, so a coding path is only built when an error needs it.
internal final class _JSONValueDecoderImpl: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    /// The value when it is an object (else empty), kept apart so that keyed lookups
    /// need not match the enum each time.
    let object: JSONObject
    /// Where the next key is likely to be: synthesized `init(from:)` reads keys in
    /// declaration order, which is usually the order of the object too.
    /// (Unchecked for exclusivity: it is a plain integer only its containers touch.)
    @exclusivity(unchecked) var keyHint = 0
    let parent: _JSONValueDecoderImpl?
    /// The key of this value in its parent, `nil` for the root.
    let key: (any CodingKey)?
    let userInfo: [CodingUserInfoKey: Any]

    init(value: JSONValue, parent: _JSONValueDecoderImpl?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: Any]) {
        self.value = value
        if case .object(let object) = value {
            self.object = object
        } else {
            self.object = JSONObject()
        }
        self.parent = parent
        self.key = key
        self.userInfo = userInfo
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: _JSONValueDecoderImpl? = self
        while let current = node, let key = current.key {
            path.append(key)
            node = current.parent
        }
        path.reverse()
        return path
    }

    /// A decoder for a value inside this one.
    func child(_ value: JSONValue, key: any CodingKey) -> _JSONValueDecoderImpl {
        _JSONValueDecoderImpl(value: value, parent: self, key: key, userInfo: userInfo)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object = value else {
            throw containerMismatch(expected: "object", type: KeyedDecodingContainer<Key>.self)
        }
        return KeyedDecodingContainer(_JSONValueKeyedDecoder<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw containerMismatch(expected: "array", type: (any UnkeyedDecodingContainer).self)
        }
        return _JSONValueUnkeyedDecoder(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    private func containerMismatch(expected: String, type: Any.Type) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "expected \(expected), found \(value.codingDescription)"
        )
        if case .null = value {
            return .valueNotFound(type, context)
        }
        return .typeMismatch(type, context)
    }

    // MARK: Single-value container

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(value, key: nil) }
    func decode(_ type: String.Type) throws -> String { try unboxString(value, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble(value, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(value, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInt(value, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(value, as: type, key: nil) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(value, as: type, key: nil) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try unboxInteger(value, as: type, key: nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try unbox(value, as: type, key: nil)
    }

    // MARK: Unboxing

    /// Decodes `value`, found under `key` inside this decoder's value (or this decoder's
    /// own value when `key` is `nil`), as a `T`.
    func unbox<T: Decodable>(_ value: JSONValue, as type: T.Type, key: (any CodingKey)?) throws -> T {
        if let primitive = try unboxPrimitive(value, as: type, key: key) {
            return primitive
        }
        let decoder = key.map { child(value, key: $0) } ?? self
        do {
            return try T(from: decoder)
        } catch let error as DecodingError {
            if case .string(let string) = value,
                let converted = try decodeFoundationString(string, as: type, key: key, error: error)
            {
                return converted
            }
            throw error
        }
    }

    /// Decodes the types with a representation of their own in ``JSONValue``, or gives
    /// `nil` for any other type.
    @inline(__always)
    private func unboxPrimitive<T>(_ value: JSONValue, as type: T.Type, key: (any CodingKey)?) throws -> T? {
        if T.self == JSONValue.self { return value as? T }
        if T.self == String.self { return try unboxString(value, key: key) as? T }
        if T.self == Int.self { return try unboxInt(value, key: key) as? T }
        if T.self == Bool.self { return try unboxBool(value, key: key) as? T }
        if T.self == Double.self { return try unboxDouble(value, key: key) as? T }
        if T.self == JSONObject.self {
            guard case .object(let object) = value else { throw mismatch(JSONObject.self, "object", value, key) }
            return object as? T
        }
        if T.self == [JSONValue].self {
            guard case .array(let elements) = value else { throw mismatch([JSONValue].self, "array", value, key) }
            return elements as? T
        }
        if T.self == Float.self { return try unboxFloat(value, key: key) as? T }
        if T.self == Int64.self { return try unboxInteger(value, as: Int64.self, key: key) as? T }
        if T.self == Int32.self { return try unboxInteger(value, as: Int32.self, key: key) as? T }
        if T.self == Int16.self { return try unboxInteger(value, as: Int16.self, key: key) as? T }
        if T.self == Int8.self { return try unboxInteger(value, as: Int8.self, key: key) as? T }
        if T.self == UInt.self { return try unboxInteger(value, as: UInt.self, key: key) as? T }
        if T.self == UInt64.self { return try unboxInteger(value, as: UInt64.self, key: key) as? T }
        if T.self == UInt32.self { return try unboxInteger(value, as: UInt32.self, key: key) as? T }
        if T.self == UInt16.self { return try unboxInteger(value, as: UInt16.self, key: key) as? T }
        if T.self == UInt8.self { return try unboxInteger(value, as: UInt8.self, key: key) as? T }
        return nil
    }

    @inline(__always)
    func unboxString(_ value: JSONValue, key: (any CodingKey)?) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, "String", value, key) }
        return string
    }

    @inline(__always)
    func unboxBool(_ value: JSONValue, key: (any CodingKey)?) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, "Bool", value, key) }
        return bool
    }

    @inline(__always)
    func unboxInt(_ value: JSONValue, key: (any CodingKey)?) throws -> Int {
        if case .int(let int) = value { return int }
        return try unboxInteger(value, as: Int.self, key: key)
    }

    func unboxInteger<T: FixedWidthInteger>(_ value: JSONValue, as type: T.Type, key: (any CodingKey)?) throws -> T {
        switch value {
        case .int(let int):
            if let result = T(exactly: int) { return result }
            throw outOfRange(T.self, value, key)
        case .double(let double) where double.rounded(.towardZero) == double:
            if let result = T(exactly: double) { return result }
            throw outOfRange(T.self, value, key)
        default:
            throw mismatch(T.self, "\(T.self)", value, key)
        }
    }

    @inline(__always)
    func unboxDouble(_ value: JSONValue, key: (any CodingKey)?) throws -> Double {
        switch value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: throw mismatch(Double.self, "Double", value, key)
        }
    }

    func unboxFloat(_ value: JSONValue, key: (any CodingKey)?) throws -> Float {
        switch value {
        case .double(let double):
            let float = Float(double)
            guard float.isFinite else { throw outOfRange(Float.self, value, key) }
            return float
        case .int(let int):
            return Float(int)
        default:
            throw mismatch(Float.self, "Float", value, key)
        }
    }

    // MARK: Errors

    func path(appending key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return codingPath }
        return codingPath + [key]
    }

    /// `valueNotFound` for `null`, `typeMismatch` for any other value of the wrong type.
    @inline(never)
    func mismatch(_ type: Any.Type, _ expected: String, _ value: JSONValue, _ key: (any CodingKey)?) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: path(appending: key),
            debugDescription: "expected \(expected), found \(value.codingDescription)"
        )
        if case .null = value {
            return .valueNotFound(type, context)
        }
        return .typeMismatch(type, context)
    }

    @inline(never)
    func outOfRange<T>(_ type: T.Type, _ value: JSONValue, _ key: (any CodingKey)?) -> DecodingError {
        let number: String
        switch value {
        case .int(let int): number = String(int)
        case .double(let double): number = String(double)
        default: number = value.codingDescription
        }
        var range = ""
        if let integer = T.self as? any FixedWidthInteger.Type {
            range = " (\(integer.minString)...\(integer.maxString))"
        }
        return .dataCorrupted(
            DecodingError.Context(
                codingPath: path(appending: key),
                debugDescription: "number \(number) does not fit in \(T.self)\(range)"
            )
        )
    }

    // MARK: Foundation types

    /// Decodes a Foundation `URL` from its string and `Data` from Base64, the way
    /// `JSONDecoder` does by default, after their own `init(from:)` failed on a string.
    ///
    /// JSONCore does not import Foundation, so the types are recognized by name, and only
    /// on this error path.
    private func decodeFoundationString<T: Decodable>(
        _ string: String,
        as type: T.Type,
        key: (any CodingKey)?,
        error: DecodingError
    ) throws -> T? {
        guard case .typeMismatch(_, let context) = error, context.codingPath.count == path(appending: key).count
        else { return nil }
        // The replacement decoder stands where the failed one stood.
        let shimParent = key == nil ? parent : self
        let shimKey = key ?? self.key
        switch _FoundationCodable(T.self) {
        case .url:
            // URL's own Codable form is {"relative": string, "base": URL?}.
            let shim = _JSONValueDecoderImpl(
                value: .object(["relative": .string(string)]),
                parent: shimParent,
                key: shimKey,
                userInfo: userInfo
            )
            return try T(from: shim)
        case .data:
            guard let bytes = _Base64.decode(string) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: context.codingPath,
                        debugDescription: "expected Base64-encoded Data, found \(JSONValue.string(string).codingDescription)"
                    )
                )
            }
            let shim = _JSONValueDecoderImpl(
                value: .array(bytes.map { .int(Int($0)) }),
                parent: shimParent,
                key: shimKey,
                userInfo: userInfo
            )
            return try T(from: shim)
        case nil:
            return nil
        }
    }
}

extension FixedWidthInteger {
    fileprivate static var minString: String { String(Self.min) }
    fileprivate static var maxString: String { String(Self.max) }
}

// MARK: - Keyed container

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
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try decoder.unboxInteger(value(for: key), as: type, key: key)
    }
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
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unboxInteger(value, as: type, key: key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = valueIfPresent(for: key) else { return nil }
        return try decoder.unbox(value, as: type, key: key)
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

// MARK: - Unkeyed container

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

// MARK: - Foundation types

/// Foundation types whose `JSONEncoder` and `JSONDecoder` form differs from their own
/// `Codable` form, recognized by name because JSONCore does not import Foundation.
internal enum _FoundationCodable {
    /// `URL`: a string (its `absoluteString`) instead of `{"relative": …, "base": …}`.
    case url
    /// `Data`: a Base64 string instead of an array of bytes.
    case data

    init?(_ type: Any.Type) {
        switch _typeName(type, qualified: true) {
        case "Foundation.URL", "FoundationEssentials.URL":
            self = .url
        case "Foundation.Data", "FoundationEssentials.Data":
            self = .data
        default:
            return nil
        }
    }
}

/// Base64 (RFC 4648, with padding) for Foundation's `Data`.
internal enum _Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            let second = remaining == 2 ? UInt32(bytes[index + 1]) : 0
            let chunk = UInt32(bytes[index]) << 16 | second << 8
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(remaining == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of padded Base64 text, or `nil` when it is not valid Base64.
    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var position = 0
        while position < input.count {
            let isLast = position + 4 == input.count
            var chunk: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let byte = input[position + offset]
                let sextet: UInt32
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = UInt32(byte - UInt8(ascii: "A"))
                case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = UInt32(byte - UInt8(ascii: "a")) + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = UInt32(byte - UInt8(ascii: "0")) + 52
                case UInt8(ascii: "+"): sextet = 62
                case UInt8(ascii: "/"): sextet = 63
                case UInt8(ascii: "=") where isLast && offset >= 2:
                    sextet = 0
                    padding += 1
                default:
                    return nil
                }
                // Padding may only be followed by padding.
                if padding > 0 && byte != UInt8(ascii: "=") { return nil }
                chunk = chunk << 6 | sextet
            }
            output.append(UInt8(truncatingIfNeeded: chunk >> 16))
            if padding < 2 { output.append(UInt8(truncatingIfNeeded: chunk >> 8)) }
            if padding < 1 { output.append(UInt8(truncatingIfNeeded: chunk)) }
            position += 4
        }
        return output
    }
}
