extension JSONValue {
    /// Whether this value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, when this value is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, when this value is an ``int(_:)``, or a ``double(_:)`` with an
    /// integral value that fits in `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let value):
            return value
        case .double(let value):
            return Int(exactly: value)
        default:
            return nil
        }
    }

    /// The number as a `Double`, when this value is an ``int(_:)`` or a ``double(_:)``.
    ///
    /// Integers beyond 2^53 are rounded to the nearest `Double`.
    public var doubleValue: Double? {
        switch self {
        case .int(let value):
            return Double(value)
        case .double(let value):
            return value
        default:
            return nil
        }
    }

    /// The string, when this value is a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, when this value is an ``array(_:)``.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, when this value is an ``object(_:)``.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The value stored under `key`, when this value is an object that has it.
    ///
    /// Reading through a non-object, or a missing key, gives `nil`. Setting a key on a
    /// non-object replaces this value with a one-key object; setting `nil` removes the
    /// key.
    public subscript(key: String) -> JSONValue? {
        get {
            if case .object(let object) = self { return object[key] }
            return nil
        }
        set {
            var object: JSONObject
            if case .object(let existing) = self {
                object = existing
                self = .null  // Release the enum's reference so the object is mutated in place.
            } else {
                object = JSONObject()
            }
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index`, when this value is an array that long.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) {
            return elements[index]
        }
        return nil
    }

    /// Whether this value equals `other` the way JSON Schema compares instances.
    ///
    /// Numbers compare by mathematical value (`1` equals `1.0`), arrays element by
    /// element, objects key by key regardless of order; everything else structurally.
    public func isNumericallyEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.int(let a), .int(let b)):
            return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
            return Double(exactly: a).map { $0 == b } ?? (Int(exactly: b) == a)
        case (.double(let a), .double(let b)):
            return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isNumericallyEqual(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, value in
                b[key].map { value.isNumericallyEqual(to: $0) } ?? false
            }
        default:
            return self == other
        }
    }
}
