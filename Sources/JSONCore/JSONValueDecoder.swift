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
