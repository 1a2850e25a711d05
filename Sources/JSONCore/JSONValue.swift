/// A JSON value: the one representation of JSON data across OnDeviceMCP.
///
/// `JSONValue` is a closed enum with one case per JSON type, plus a split of
/// numbers into ``int(_:)`` and ``double(_:)`` so that a value read from JSON
/// is written back exactly as it came: an integer stays an integer (also beyond
/// 2^53, up to the range of `Int`), a number written with a fraction or an
/// exponent stays a `Double`, and no string is ever reinterpreted.
///
/// Objects keep the order of their keys (see ``JSONObject``), so output is
/// deterministic: what was read in one order is written in that order.
///
/// Equality is structural: `.int(1)` and `.double(1.0)` are different values,
/// and two objects are equal when they have the same keys with equal values, in
/// any order. JSON Schema's looser numeric equality (where `1` equals `1.0`)
/// lives in ``JSONValue/isNumericallyEqual(to:)``.
///
/// Read and write JSON text with ``JSONValue/init(parsing:options:)-(String,_)``
/// and ``JSONValue/jsonString(options:)``, which use OnDeviceMCP's own strict
/// RFC 8259 codec.
public enum JSONValue: Sendable {
    /// The JSON `null` literal.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or an exponent that fits in `Int`.
    case int(Int)
    /// Any other finite number.
    case double(Double)
    /// A string of Unicode text.
    case string(String)
    /// An ordered list of values.
    case array([JSONValue])
    /// A set of key-value pairs that remembers the order of its keys.
    case object(JSONObject)
}

extension JSONValue {
    /// The name of this value's JSON type, as JSON Schema's `type` keyword spells it.
    ///
    /// An ``int(_:)`` is `"integer"`; a ``double(_:)`` is `"number"`, even when its
    /// value is integral.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: Hashable {
    /// Structural equality: same case, same value; strings compare by Unicode code points,
    /// as JSON does (so `"é"` and `"e\u{301}"` differ).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a.utf8.count == b.utf8.count && JSONObject.sameKey(a, b)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .int(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .double(let value):
            hasher.combine(3)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(4)
            hasher.combine(value)
        case .array(let value):
            hasher.combine(5)
            hasher.combine(value)
        case .object(let value):
            hasher.combine(6)
            hasher.combine(value)
        }
    }
}
