internal import MCPCore

#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

// The types the recorder does not run `init(from:)` for: their schema is known, or their own
// decoding would ask questions that have no placeholder answer (a dictionary's keys, an
// enum's raw value, a UUID's text).

extension SchemaRecorder {
    /// Records a type whose schema the recorder knows, or gives `nil` for any other type.
    func recordKnown<T: Decodable>(_ type: T.Type, into node: ShapeNode, codingPath: [any CodingKey]) throws -> Outcome<T>? {
        if let (schema, placeholder) = try knownLeaf(T.self, at: node) {
            try attempt { () throws(ToolArgumentsSchemaError) in try node.setLeaf(schema, typeName: String(describing: T.self)) }
            return .value(try cast(placeholder, to: T.self, at: node))
        }
        if let optional = T.self as? any RecordableOptional.Type {
            return .value(try cast(try optional.recordOptional(self, into: node, codingPath: codingPath), to: T.self, at: node))
        }
        if let array = T.self as? any RecordableArray.Type {
            return .value(try cast(try array.recordArray(self, into: node, codingPath: codingPath), to: T.self, at: node))
        }
        if let dictionary = T.self as? any RecordableDictionary.Type {
            return .value(try cast(try dictionary.recordDictionary(self, into: node, codingPath: codingPath), to: T.self, at: node))
        }
        if let enumeration = T.self as? any (CaseIterable & RawRepresentable & Decodable).Type {
            return .value(try cast(try recordCases(enumeration, into: node), to: T.self, at: node))
        }
        return nil
    }

    /// The schema and a placeholder of a type that is a leaf of the schema, or `nil`.
    private func knownLeaf(_ type: Any.Type, at node: ShapeNode) throws(ToolArgumentsSchemaError) -> (JSONObject, Any)? {
        if type == String.self { return (["type": "string"], text) }
        if type == Int.self { return (["type": "integer"], number) }
        if type == Bool.self { return (["type": "boolean"], flag) }
        if type == Double.self { return (["type": "number"], Double(number)) }
        if type == Float.self { return (["type": "number"], Float(number)) }
        if type == Int64.self { return (["type": "integer"], Int64(number)) }
        if type == Int32.self { return (Self.bounded(Int32.self), Int32(number)) }
        if type == Int16.self { return (Self.bounded(Int16.self), Int16(number)) }
        if type == Int8.self { return (Self.bounded(Int8.self), Int8(number)) }
        if type == UInt.self { return (["type": "integer", "minimum": 0], UInt(number)) }
        if type == UInt64.self { return (["type": "integer", "minimum": 0], UInt64(number)) }
        if type == UInt32.self { return (Self.bounded(UInt32.self), UInt32(number)) }
        if type == UInt16.self { return (Self.bounded(UInt16.self), UInt16(number)) }
        if type == UInt8.self { return (Self.bounded(UInt8.self), UInt8(number)) }
        if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
            if type == Int128.self { return (["type": "integer"], Int128(number)) }
            if type == UInt128.self { return (["type": "integer", "minimum": 0], UInt128(number)) }
        }
        // JSONValueDecoder takes these as they are.
        if type == JSONValue.self { return ([:], JSONValue.string(text)) }
        if type == JSONObject.self { return (["type": "object"], JSONObject()) }
        if type == [JSONValue].self { return (["type": "array"], [JSONValue]()) }
        return try foundationLeaf(type, at: node)
    }

    /// An integer type's schema with its bounds.
    private static func bounded<Integer: FixedWidthInteger>(_ type: Integer.Type) -> JSONObject {
        ["type": "integer", "minimum": .int(Int(Integer.min)), "maximum": .int(Int(Integer.max))]
    }

    /// Foundation's types as ``JSONCore/JSONValueDecoder`` decodes them.
    ///
    /// - `Date` through its own `init(from:)`: a number of seconds since 2001-01-01 (the
    ///   default of Foundation's `JSONDecoder` too).
    /// - `URL` from its string, `Data` from Base64, as `JSONDecoder` does by default.
    /// - `UUID` through its own `init(from:)`: its string.
    /// - `Decimal` only through its own keyed form (`JSONDecoder`'s number form is special to
    ///   `JSONDecoder`), which no model writes: refused.
    private func foundationLeaf(_ type: Any.Type, at node: ShapeNode) throws(ToolArgumentsSchemaError) -> (JSONObject, Any)? {
        if type == Date.self {
            return (
                ["type": "number", "description": "a date, as seconds since 2001-01-01T00:00:00Z"],
                Date(timeIntervalSinceReferenceDate: Double(number))
            )
        }
        if type == URL.self, let url = URL(string: "https://example.com/\(text)") {
            return (["type": "string", "format": "uri"], url)
        }
        if type == UUID.self, let uuid = UUID(uuidString: "00000000-0000-4000-8000-00000000000\(number)") {
            return (["type": "string", "format": "uuid"], uuid)
        }
        if type == Data.self {
            return (["type": "string", "contentEncoding": "base64"], Data())
        }
        if type == Decimal.self {
            throw fail(
                .unsupportedType(
                    at: node.location,
                    "JSONValueDecoder decodes a Decimal only from Decimal's own keyed form ({\"exponent\", \"length\", \"isNegative\", \"isCompact\", \"mantissa\"}), not from a number. Use Double, or a String you parse, or register the tool with an explicit inputSchema."
                ))
        }
        return nil
    }

    /// Records a `CaseIterable` enum with raw values as an `enum` of them.
    ///
    /// Each raw value is checked by decoding it with ``JSONCore/JSONValueDecoder``: an enum whose own
    /// `init(from:)` does not take its raw values is refused, not described by them.
    private func recordCases<Enumeration: CaseIterable & RawRepresentable & Decodable>(
        _ type: Enumeration.Type, into node: ShapeNode
    ) throws(ToolArgumentsSchemaError) -> Enumeration {
        let name = String(describing: Enumeration.self)
        let cases = Array(Enumeration.allCases)
        guard !cases.isEmpty else {
            throw fail(
                .unsupportedType(
                    at: node.location,
                    "\(name) has no cases, so no value decodes as it. Give it a case, or register the tool with an explicit inputSchema."))
        }
        largestCaseCount = max(largestCaseCount, cases.count)
        var values: [JSONValue] = []
        values.reserveCapacity(cases.count)
        for each in cases {
            guard let raw = Self.json(rawValue: each.rawValue) else {
                throw fail(
                    .unsupportedType(
                        at: node.location,
                        "the raw values of \(name) are \(Enumeration.RawValue.self), neither strings nor numbers. Register the tool with an explicit inputSchema."
                    ))
            }
            let decoded = try? JSONValueDecoder().decode(Enumeration.self, from: raw)
            guard let decoded, Self.json(rawValue: decoded.rawValue) == raw else {
                throw fail(
                    .dependsOnValues(
                        at: node.location,
                        "\(name) is CaseIterable, but it does not decode from its raw value \(raw), so its own init(from:) decides which values it takes. Register the tool with an explicit inputSchema."
                    ))
            }
            values.append(raw)
        }
        let kind: JSONValue
        if values.allSatisfy({ $0.stringValue != nil }) {
            kind = "string"
        } else if values.allSatisfy({ if case .int = $0 { true } else { false } }) {
            kind = "integer"
        } else {
            kind = "number"
        }
        try attempt { () throws(ToolArgumentsSchemaError) in try node.setLeaf(["type": kind, "enum": .array(values)], typeName: name) }
        return cases[round % cases.count]
    }

    /// A raw value as JSON, when it is a string or a number.
    private static func json(rawValue: Any) -> JSONValue? {
        switch rawValue {
        case let string as String: .string(string)
        case let character as Character: .string(String(character))
        case let integer as any BinaryInteger: Int(exactly: integer).map(JSONValue.int)
        case let double as Double: .double(double)
        case let float as Float: .double(Double(float))
        default: nil
        }
    }

    /// The `propertyNames` schema of a dictionary keyed by `type`, `nil` for `String`.
    ///
    /// The standard library decodes a dictionary keyed by `String`, `Int` or a
    /// `CodingKeyRepresentable` type from a JSON object, and one keyed by anything else
    /// from an array of keys and values in turn.
    func dictionaryKeys(_ type: Any.Type, at node: ShapeNode) throws(ToolArgumentsSchemaError) -> JSONObject? {
        if type == String.self { return nil }
        if type == Int.self { return ["pattern": "^[+-]?[0-9]+$"] }
        if let listed = type as? any (CodingKeyRepresentable & CaseIterable).Type {
            return ["enum": .array(Self.keyNames(listed))]
        }
        let name = String(describing: type)
        if type is any CodingKeyRepresentable.Type {
            throw fail(
                .dependsOnValues(
                    at: node.location,
                    "a dictionary keyed by \(name), which is CodingKeyRepresentable but not CaseIterable, takes the keys \(name) accepts, which cannot be listed. Make \(name) CaseIterable, key the dictionary by String, or register the tool with an explicit inputSchema."
                ))
        }
        throw fail(
            .unsupportedType(
                at: node.location,
                "a dictionary keyed by \(name) decodes from an array of keys and values in turn, not from an object. Key it by String or Int (or make \(name) CodingKeyRepresentable and CaseIterable), or register the tool with an explicit inputSchema."
            ))
    }

    private static func keyNames<Key: CodingKeyRepresentable & CaseIterable>(_ type: Key.Type) -> [JSONValue] {
        Key.allCases.map { .string($0.codingKey.stringValue) }
    }
}
