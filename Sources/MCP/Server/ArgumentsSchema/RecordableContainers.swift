// The standard library's containers, recorded from their element types rather than by
// running their own `init(from:)`: so that a recursive type inside them can stop (an empty
// array, `nil`, an empty dictionary), and a dictionary's value type is seen at all (its own
// decoding reads `allKeys`, which the recorder cannot answer).

/// `Optional`: its wrapped type, or `null`.
protocol RecordableOptional {
    static func recordOptional(_ recorder: SchemaRecorder, into node: ShapeNode, codingPath: [any CodingKey]) throws -> Self
}

/// `Array`: an array of its element type.
protocol RecordableArray {
    static func recordArray(_ recorder: SchemaRecorder, into node: ShapeNode, codingPath: [any CodingKey]) throws -> Self
}

/// `Dictionary`: an object whose members have its value type.
protocol RecordableDictionary {
    static func recordDictionary(_ recorder: SchemaRecorder, into node: ShapeNode, codingPath: [any CodingKey]) throws -> Self
}

extension Optional: RecordableOptional where Wrapped: Decodable {
    static func recordOptional(_ recorder: SchemaRecorder, into node: ShapeNode, codingPath: [any CodingKey]) throws -> Self {
        node.isNullable = true
        switch try recorder.record(Wrapped.self, into: node, codingPath: codingPath) {
        case .value(let value):
            return recorder.presentsOptionals ? value : nil
        case .cutOff:
            return nil
        }
    }
}

extension Array: RecordableArray where Element: Decodable {
    static func recordArray(_ recorder: SchemaRecorder, into node: ShapeNode, codingPath: [any CodingKey]) throws -> Self {
        let elements = try recorder.attempt { () throws(ToolArgumentsSchemaError) in try node.elements() }
        elements.noteEndQuery(at: 0)
        switch try recorder.record(Element.self, into: elements.node(at: 0), codingPath: codingPath + [RecordingKey(index: 0)]) {
        case .value(let element):
            return [element]
        case .cutOff:
            return []
        }
    }
}

extension Dictionary: RecordableDictionary where Key: Decodable, Value: Decodable {
    static func recordDictionary(_ recorder: SchemaRecorder, into node: ShapeNode, codingPath: [any CodingKey]) throws -> Self {
        let keys = try recorder.dictionaryKeys(Key.self, at: node)
        let values = try recorder.attempt { () throws(ToolArgumentsSchemaError) in try node.mapValues(keys: keys) }
        _ = try recorder.record(Value.self, into: values, codingPath: codingPath + [RecordingKey("*")])
        return [:]
    }
}
