extension JSONValue: Codable {
    /// Decodes any JSON value from a decoder.
    ///
    /// With Foundation's `JSONDecoder` this works through `Decoder`'s typed containers:
    /// an integral number that fits in `Int` becomes ``int(_:)``, another number
    /// ``double(_:)``. Object key order is whatever the decoder reports. To read JSON
    /// text, ``init(parsing:)-(String)`` is faster and keeps key order.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var object = JSONObject(minimumCapacity: keyed.allKeys.count)
            for key in keyed.allKeys {
                object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            elements.reserveCapacity(unkeyed.count ?? 0)
            while !unkeyed.isAtEnd {
                elements.append(try unkeyed.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .int(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes this value into an encoder, keeping object key order where the encoder does.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .int(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .double(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var unkeyed = encoder.unkeyedContainer()
            for element in elements {
                try unkeyed.encode(element)
            }
        case .object(let object):
            var keyed = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in object {
                try keyed.encode(value, forKey: AnyCodingKey(key))
            }
        }
    }
}

/// A coding key for any string, used to walk objects of unknown shape.
internal struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init?(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
