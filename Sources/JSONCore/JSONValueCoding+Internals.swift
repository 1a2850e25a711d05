// Pieces shared by JSONValueDecoder and JSONValueEncoder: coding keys, the wording of
// error messages, and the conversion of coding paths into JSON Pointers.

/// The key of an array element in a coding path: `intValue` is the index, `stringValue`
/// is `"Index N"`, as Foundation's `JSONDecoder` spells it.
internal struct _JSONIndexKey: CodingKey {
    let index: Int

    init(_ index: Int) {
        self.index = index
    }

    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }

    init?(stringValue: String) {
        return nil
    }

    init?(intValue: Int) {
        self.init(intValue)
    }
}

/// A coding key for any string: the `"super"` key, and keys from elsewhere.
internal struct _JSONStringKey: CodingKey {
    let stringValue: String

    init(_ string: String) {
        stringValue = string
    }

    var intValue: Int? { nil }

    init?(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        self.init(String(intValue))
    }

    static var `super`: _JSONStringKey { _JSONStringKey("super") }
}

extension JSONPointer {
    /// Creates the pointer to the value a `Decoder` or `Encoder` coding path leads to.
    ///
    /// Each key becomes one token: an array index (a key whose `stringValue` is
    /// `"Index N"` and whose `intValue` is `N`, the convention of this module's coders and
    /// of Foundation's) becomes `"N"`; any other key becomes its `stringValue`.
    ///
    /// ```swift
    /// // codingPath: [CodingKeys.items, Index 2, CodingKeys.name]
    /// JSONPointer(codingPath: error.context.codingPath).description   // "/items/2/name"
    /// ```
    public init(codingPath: [any CodingKey]) {
        var tokens: [String] = []
        tokens.reserveCapacity(codingPath.count)
        for key in codingPath {
            if let index = key as? _JSONIndexKey {
                tokens.append(String(index.index))
            } else if let index = key.intValue, key.stringValue == "Index \(index)" {
                tokens.append(String(index))
            } else {
                tokens.append(key.stringValue)
            }
        }
        self.init(tokens: tokens)
    }
}

extension DecodingError {
    /// The JSON Pointer to the value that could not be decoded.
    ///
    /// For ``Swift/DecodingError/keyNotFound(_:_:)`` this points at the missing member
    /// (the container's coding path plus the key), so that a caller can report, say,
    /// `/location/city` as the argument that is missing. For the other cases it is the
    /// error context's coding path, converted with ``JSONPointer/init(codingPath:)``.
    ///
    /// ```swift
    /// do {
    ///     let arguments = try JSONValueDecoder().decode(Arguments.self, from: value)
    /// } catch let error as DecodingError {
    ///     print("\(error.jsonPointer): \(error.context.debugDescription)")
    ///     // "/count: expected Int, found string "3""
    /// }
    /// ```
    public var jsonPointer: JSONPointer {
        switch self {
        case .keyNotFound(let key, let context):
            return JSONPointer(codingPath: context.codingPath + [key])
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return JSONPointer(codingPath: context.codingPath)
        @unknown default:
            return JSONPointer()
        }
    }

    /// The error's context, whatever its case.
    public var context: Context {
        switch self {
        case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .dataCorrupted(let context):
            return context
        @unknown default:
            return Context(codingPath: [], debugDescription: "\(self)")
        }
    }
}

extension JSONValue {
    /// A short description of this value for error messages, such as `string "3"`,
    /// `integer 300` or `array of 2 elements`.
    internal var codingDescription: String {
        switch self {
        case .null:
            return "null"
        case .bool(let value):
            return "boolean \(value)"
        case .int(let value):
            return "integer \(value)"
        case .double(let value):
            return "number \(value)"
        case .string(let value):
            let limit = 40
            if value.count > limit {
                return "string \"\(value.prefix(limit))…\""
            }
            return "string \"\(value)\""
        case .array(let elements):
            return elements.count == 1 ? "array of 1 element" : "array of \(elements.count) elements"
        case .object(let object):
            return object.count == 1 ? "object with 1 key" : "object with \(object.count) keys"
        }
    }
}

extension Dictionary where Key == CodingUserInfoKey, Value == any Sendable {
    /// These values typed as `Decoder.userInfo` and `Encoder.userInfo` want them.
    internal var codingUserInfo: [CodingUserInfoKey: Any] {
        if isEmpty {
            return [:]
        }
        var result: [CodingUserInfoKey: Any] = [:]
        for (key, value) in self {
            result[key] = value
        }
        return result
    }
}

extension JSONObject: Codable {
    /// Decodes a JSON object from a decoder, the way ``JSONValue/init(from:)`` does.
    ///
    /// ``JSONValueDecoder`` hands over the object as it is, keeping key order.
    ///
    /// - Throws: `DecodingError.typeMismatch` when the value is not an object.
    public init(from decoder: any Decoder) throws {
        guard case .object(let object) = try JSONValue(from: decoder) else {
            throw DecodingError.typeMismatch(
                JSONObject.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected object")
            )
        }
        self = object
    }

    /// Encodes this object into an encoder, keeping key order where the encoder does.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(self).encode(to: encoder)
    }
}

extension JSONObject {
    /// The position of `key`, like ``position(of:)`` but comparing UTF-8 lengths before
    /// contents, which skips most non-matching keys without a full string comparison.
    @inline(__always)
    internal func fastPosition(of key: String) -> Int? {
        if index != nil {
            return position(of: key)
        }
        let length = key.utf8.count
        for position in entries.indices where entries[position].key.utf8.count == length {
            if entries[position].key == key {
                return position
            }
        }
        return nil
    }

    /// Sets `value` for `key`, appending a new key and replacing an existing one in place.
    @inline(__always)
    internal mutating func fastUpdate(_ value: JSONValue, forKey key: String) {
        if let position = fastPosition(of: key) {
            entries[position].value = value
        } else {
            append(key, value)
        }
    }
}
