/// Encodes `Encodable` values straight into a ``JSONValue``, without JSON text.
///
/// Use it to turn a tool's result into `structuredContent`:
///
/// ```swift
/// struct Forecast: Encodable { var city: String; var high: Double; var alerts: [String]? }
/// let content = try JSONValueEncoder().encode(Forecast(city: "Oslo", high: 21.5, alerts: nil))
/// // {"city":"Oslo","high":21.5}
/// ```
///
/// The rules follow Foundation's `JSONEncoder` with its default strategies:
///
/// - Object keys come out in the order they are encoded, which for synthesized
///   `Encodable` conformances is the order the properties are declared in.
/// - `encodeIfPresent` (and so an `Optional` property) leaves out a `nil` value;
///   `encodeNil` writes `null`.
/// - Integers become ``JSONValue/int(_:)``. A `UInt`, `UInt64` or `UInt128` beyond
///   `Int.max` cannot be an ``JSONValue/int(_:)`` and would lose precision as a
///   `Double`, so it throws `EncodingError.invalidValue`.
/// - `Double` becomes ``JSONValue/double(_:)``, and so does `Float`, through its shortest
///   decimal form (`Float(0.1)` becomes `0.1`, as `JSONEncoder` writes it). NaN and
///   infinities throw `EncodingError.invalidValue`.
/// - ``JSONValue``, ``JSONObject`` and `[JSONValue]` are stored as they are.
/// - A value that encodes nothing (asks for no container) becomes an empty object.
/// - Other types, including Foundation's `Date`, `Data` and `URL`, encode through their
///   own `Encodable` implementations (a `Date` as its seconds since 2001, which is
///   `JSONEncoder`'s default), except that, as with `JSONEncoder`'s defaults, `Data`
///   becomes a Base64 string and a `URL` without a base URL becomes its string.
public struct JSONValueEncoder: Sendable {
    /// Values that encoding code can read from `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates an encoder with no user info.
    public init() {
        userInfo = [:]
    }

    /// Encodes `value` as a ``JSONValue``.
    ///
    /// - Throws: `EncodingError.invalidValue` for a number JSON cannot hold (see above),
    ///   or any error `value`'s `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = _JSONValueEncoderImpl(parent: nil, key: nil, userInfo: userInfo.codingUserInfo)
        if let primitive = try encoder.boxPrimitive(value, key: nil) {
            return primitive
        }
        return try encoder.encodeValue(value)
    }
}

// MARK: - Encoder

/// The `Encoder` for one value under construction; also its own single-value container.
///
/// Values encoded through a container's `encode` are finished before the call returns
/// and stored directly. Nested containers and super-encoders outlive the call that made
/// them, so they are kept as pending children and stored when their parent finishes.
internal final class _JSONValueEncoderImpl: Encoder, SingleValueEncodingContainer {
    enum Kind {
        case unset, single, object, array
    }

    /// Where a pending child's value goes in its parent.
    enum Slot {
        case key(String)
        case index(Int)
    }

    // Runtime exclusivity checks on these cost more than the rest of storing a value.
    // They are unneeded: only this encoder and its containers touch them, one short
    // access at a time, and an encoder is not shared between threads.
    @exclusivity(unchecked) var kind = Kind.unset
    @exclusivity(unchecked) var single = JSONValue.null
    @exclusivity(unchecked) var object = JSONObject()
    @exclusivity(unchecked) var array: [JSONValue] = []
    var pending: [(slot: Slot, encoder: _JSONValueEncoderImpl)] = []

    let parent: _JSONValueEncoderImpl?
    /// The key of this value in its parent, `nil` for the root.
    let key: (any CodingKey)?
    let userInfo: [CodingUserInfoKey: Any]

    init(parent: _JSONValueEncoderImpl?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: Any]) {
        self.parent = parent
        self.key = key
        self.userInfo = userInfo
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: _JSONValueEncoderImpl? = self
        while let current = node, let key = current.key {
            path.append(key)
            node = current.parent
        }
        path.reverse()
        return path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if kind != .object {
            kind = .object
            object = JSONObject(minimumCapacity: 8)
            pending = []
        }
        return KeyedEncodingContainer(_JSONValueKeyedEncoder<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if kind != .array {
            kind = .array
            array = []
            pending = []
        }
        return _JSONValueUnkeyedEncoder(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// Encodes `value` into this fresh encoder and gives the result.
    func encodeValue<T: Encodable>(_ value: T) throws -> JSONValue {
        try value.encode(to: self)
        let result = finish()
        switch result {
        case .object(let object) where object.count == 1 && object.entries[0].key == "relative":
            // Foundation's URL encodes as {"relative": string}; JSONEncoder writes the string.
            if case .string = object.entries[0].value, _FoundationCodable(T.self) == .url {
                return object.entries[0].value
            }
        case .array(let elements) where MemoryLayout<T>.size != MemoryLayout<[UInt8]>.size:
            // Foundation's Data encodes as an array of bytes; JSONEncoder writes Base64.
            // (Arrays are pointer-sized and Data is not, so arrays skip the name check.)
            if _FoundationCodable(T.self) == .data {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(elements.count)
                for element in elements {
                    guard case .int(let int) = element, let byte = UInt8(exactly: int) else { return result }
                    bytes.append(byte)
                }
                return .string(_Base64.encode(bytes))
            }
        default:
            break
        }
        return result
    }

    /// The encoded value, with pending children stored in their places.
    func finish() -> JSONValue {
        switch kind {
        case .unset:
            return .object(JSONObject())
        case .single:
            return single
        case .object:
            for (slot, child) in pending {
                if case .key(let key) = slot {
                    object.fastUpdate(child.finish(), forKey: key)
                }
            }
            pending = []
            return .object(object)
        case .array:
            for (slot, child) in pending {
                if case .index(let index) = slot, array.indices.contains(index) {
                    array[index] = child.finish()
                }
            }
            pending = []
            return .array(array)
        }
    }

    /// A child encoder whose value is stored at `slot` when this encoder finishes.
    ///
    /// A placeholder is stored now, so the value keeps the position of this call.
    func pendingChild(key: any CodingKey, slot: Slot) -> _JSONValueEncoderImpl {
        let child = _JSONValueEncoderImpl(parent: self, key: key, userInfo: userInfo)
        switch slot {
        case .key(let name): object.fastUpdate(.null, forKey: name)
        case .index: array.append(.null)
        }
        pending.append((slot, child))
        return child
    }

    // MARK: Boxing

    /// Encodes `value`, to be stored under `key` inside this encoder's value (or as this
    /// encoder's own value when `key` is `nil`).
    func box<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> JSONValue {
        if let primitive = try boxPrimitive(value, key: key) {
            return primitive
        }
        let child =
            if let key {
                _JSONValueEncoderImpl(parent: self, key: key, userInfo: userInfo)
            } else {
                _JSONValueEncoderImpl(parent: parent, key: self.key, userInfo: userInfo)
            }
        return try child.encodeValue(value)
    }

    /// Encodes the types with a representation of their own in ``JSONValue``, or gives
    /// `nil` for any other type.
    @inline(__always)
    func boxPrimitive<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> JSONValue? {
        if T.self == JSONValue.self { return value as? JSONValue }
        if T.self == String.self { return (value as? String).map(JSONValue.string) }
        if T.self == Int.self { return (value as? Int).map(JSONValue.int) }
        if T.self == Bool.self { return (value as? Bool).map(JSONValue.bool) }
        if T.self == Double.self, let double = value as? Double { return try boxDouble(double, key: key) }
        if T.self == JSONObject.self { return (value as? JSONObject).map(JSONValue.object) }
        if T.self == [JSONValue].self { return (value as? [JSONValue]).map(JSONValue.array) }
        if T.self == Float.self, let float = value as? Float { return try boxFloat(float, key: key) }
        if T.self == Int64.self, let int = value as? Int64 { return try boxInteger(int, key: key) }
        if T.self == Int32.self, let int = value as? Int32 { return try boxInteger(int, key: key) }
        if T.self == Int16.self, let int = value as? Int16 { return try boxInteger(int, key: key) }
        if T.self == Int8.self, let int = value as? Int8 { return try boxInteger(int, key: key) }
        if T.self == UInt.self, let int = value as? UInt { return try boxInteger(int, key: key) }
        if T.self == UInt64.self, let int = value as? UInt64 { return try boxInteger(int, key: key) }
        if T.self == UInt32.self, let int = value as? UInt32 { return try boxInteger(int, key: key) }
        if T.self == UInt16.self, let int = value as? UInt16 { return try boxInteger(int, key: key) }
        if T.self == UInt8.self, let int = value as? UInt8 { return try boxInteger(int, key: key) }
        return nil
    }

    @inline(__always)
    func boxInteger<T: FixedWidthInteger>(_ value: T, key: (any CodingKey)?) throws -> JSONValue {
        guard let int = Int(exactly: value) else {
            throw invalid(value, key, "\(T.self) \(value) is beyond Int.max, the largest integer a JSONValue holds")
        }
        return .int(int)
    }

    @inline(__always)
    func boxDouble(_ value: Double, key: (any CodingKey)?) throws -> JSONValue {
        guard value.isFinite else {
            throw invalid(value, key, "Double \(value) is not finite; JSON numbers must be finite")
        }
        return .double(value)
    }

    func boxFloat(_ value: Float, key: (any CodingKey)?) throws -> JSONValue {
        guard value.isFinite else {
            throw invalid(value, key, "Float \(value) is not finite; JSON numbers must be finite")
        }
        // The shortest decimal that reads back as this Float, as JSONEncoder writes it.
        return .double(Double(value.description) ?? Double(value))
    }

    @inline(never)
    func invalid(_ value: Any, _ key: (any CodingKey)?, _ description: String) -> EncodingError {
        var path = codingPath
        if let key { path.append(key) }
        return .invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: description))
    }

    // MARK: Single-value container

    @inline(__always)
    private func set(_ value: JSONValue) {
        kind = .single
        single = value
    }

    func encodeNil() throws { set(.null) }
    func encode(_ value: Bool) throws { set(.bool(value)) }
    func encode(_ value: String) throws { set(.string(value)) }
    func encode(_ value: Double) throws { set(try boxDouble(value, key: nil)) }
    func encode(_ value: Float) throws { set(try boxFloat(value, key: nil)) }
    func encode(_ value: Int) throws { set(.int(value)) }
    func encode(_ value: Int8) throws { set(try boxInteger(value, key: nil)) }
    func encode(_ value: Int16) throws { set(try boxInteger(value, key: nil)) }
    func encode(_ value: Int32) throws { set(try boxInteger(value, key: nil)) }
    func encode(_ value: Int64) throws { set(try boxInteger(value, key: nil)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128) throws { set(try boxInteger(value, key: nil)) }
    func encode(_ value: UInt) throws { set(try boxInteger(value, key: nil)) }
    func encode(_ value: UInt8) throws { set(try boxInteger(value, key: nil)) }
    func encode(_ value: UInt16) throws { set(try boxInteger(value, key: nil)) }
    func encode(_ value: UInt32) throws { set(try boxInteger(value, key: nil)) }
    func encode(_ value: UInt64) throws { set(try boxInteger(value, key: nil)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128) throws { set(try boxInteger(value, key: nil)) }

    func encode<T: Encodable>(_ value: T) throws {
        set(try box(value, key: nil))
    }
}

// MARK: - Keyed container

internal struct _JSONValueKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: _JSONValueEncoderImpl

    var codingPath: [any CodingKey] { encoder.codingPath }

    @inline(__always)
    private func set(_ value: JSONValue, _ key: Key) {
        encoder.object.fastUpdate(value, forKey: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try encoder.boxDouble(value, key: key), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try encoder.boxFloat(value, key: key), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(try encoder.boxInteger(value, key: key), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(try encoder.boxInteger(value, key: key), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(try encoder.boxInteger(value, key: key), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(try encoder.boxInteger(value, key: key), key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws {
        set(try encoder.boxInteger(value, key: key), key)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try encoder.boxInteger(value, key: key), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(try encoder.boxInteger(value, key: key), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(try encoder.boxInteger(value, key: key), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(try encoder.boxInteger(value, key: key), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try encoder.boxInteger(value, key: key), key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        set(try encoder.boxInteger(value, key: key), key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try encoder.box(value, key: key), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.pendingChild(key: key, slot: .key(key.stringValue)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.pendingChild(key: key, slot: .key(key.stringValue)).unkeyedContainer()
    }

    /// An encoder for the value under `"super"`.
    mutating func superEncoder() -> any Encoder {
        let key = _JSONStringKey.super
        return encoder.pendingChild(key: key, slot: .key(key.stringValue))
    }

    /// An encoder for the value under `key`.
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.pendingChild(key: key, slot: .key(key.stringValue))
    }
}

// MARK: - Unkeyed container

internal struct _JSONValueUnkeyedEncoder: UnkeyedEncodingContainer {
    let encoder: _JSONValueEncoderImpl

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.array.count }

    @inline(__always)
    private var nextKey: _JSONIndexKey { _JSONIndexKey(encoder.array.count) }

    @inline(__always)
    private func append(_ value: JSONValue) {
        encoder.array.append(value)
    }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try encoder.boxDouble(value, key: nextKey)) }
    mutating func encode(_ value: Float) throws { append(try encoder.boxFloat(value, key: nextKey)) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Int8) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    mutating func encode(_ value: Int16) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    mutating func encode(_ value: Int32) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    mutating func encode(_ value: Int64) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    mutating func encode(_ value: UInt) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    mutating func encode(_ value: UInt8) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    mutating func encode(_ value: UInt16) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    mutating func encode(_ value: UInt32) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    mutating func encode(_ value: UInt64) throws { append(try encoder.boxInteger(value, key: nextKey)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { append(try encoder.boxInteger(value, key: nextKey)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try encoder.box(value, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.pendingChild(key: nextKey, slot: .index(count)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.pendingChild(key: nextKey, slot: .index(count)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.pendingChild(key: nextKey, slot: .index(count))
    }
}
