import Foundation
import JSONCore
import Testing

@Suite("JSONValue and JSONObject")
struct JSONValueTests {
    @Test("accessors give typed values and nil for other types")
    func accessors() {
        let value: JSONValue = ["s": "text", "i": 3, "d": 2.5, "b": true, "n": nil, "a": [1], "o": ["k": 1]]
        #expect(value["s"]?.stringValue == "text")
        #expect(value["i"]?.intValue == 3)
        #expect(value["i"]?.doubleValue == 3.0)
        #expect(value["d"]?.doubleValue == 2.5)
        #expect(value["d"]?.intValue == nil)
        #expect(JSONValue.double(4).intValue == 4)
        #expect(value["b"]?.boolValue == true)
        #expect(value["n"]?.isNull == true)
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1] == nil)
        #expect(value["o"]?["k"] == 1)
        #expect(value["missing"] == nil)
        #expect(value["s"]?.intValue == nil)
        #expect(JSONValue.string("x")["k"] == nil)
    }

    @Test("type names follow JSON Schema")
    func typeNames() {
        let names = ([nil, true, 1, 1.5, "s", [], [:]] as [JSONValue]).map(\.typeName)
        #expect(names == ["null", "boolean", "integer", "number", "string", "array", "object"])
    }

    @Test("integers and doubles are different values, numerically equal")
    func numericEquality() {
        #expect(JSONValue.int(1) != .double(1))
        #expect(JSONValue.int(1).isNumericallyEqual(to: .double(1)))
        #expect(JSONValue.array([1, ["a": 2.0]]).isNumericallyEqual(to: [1.0, ["a": 2]]))
        #expect(!JSONValue.int(1).isNumericallyEqual(to: .string("1")))
        #expect(!JSONValue.int(9_007_199_254_740_993).isNumericallyEqual(to: .double(9_007_199_254_740_992)))
    }

    @Test("objects keep insertion order, compare and hash without it")
    func objectOrder() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = 4
        #expect(object.keys == ["b", "a", "c"])
        #expect(object.values == [4, 2, 3])
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        let reordered: JSONObject = ["c": 3, "b": 4]
        #expect(object == reordered)
        #expect(object.hashValue == reordered.hashValue)
        #expect(Set<JSONValue>([.object(object), .object(reordered)]).count == 1)
        #expect(object != ["c": 3, "b": 5])
    }

    @Test("large objects stay consistent across inserts and removals", arguments: [5, 13, 40])
    func largeObjects(count: Int) {
        var object = JSONObject()
        for index in 0..<count { object["k\(index)"] = .int(index) }
        for index in stride(from: 0, to: count, by: 3) { object.removeValue(forKey: "k\(index)") }
        for index in 0..<count {
            #expect(object["k\(index)"] == (index % 3 == 0 ? nil : .int(index)))
        }
        #expect(object.keys == (0..<count).filter { $0 % 3 != 0 }.map { "k\($0)" })
    }

    @Test("setting through a value's subscript builds objects")
    func subscriptSetter() {
        var value: JSONValue = nil
        value["a"] = 1
        value["b"] = ["c": true]
        value["a"] = nil
        #expect(value == ["b": ["c": true]])
    }

    @Test("Codable through Foundation's encoder and decoder")
    func codable() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", nil, true], "b": ["c": -7]]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == value.sortedByKey() || decoded == value)
        #expect(try JSONValue(parsing: data) == value)
    }

    @Test("sortedByKey sorts every level")
    func sortedByKey() {
        let value: JSONValue = ["b": ["z": 1, "y": 2], "a": [["d": 1, "c": 2]]]
        let sorted = value.sortedByKey()
        #expect(sorted.objectValue?.keys == ["a", "b"])
        #expect(sorted["b"]?.objectValue?.keys == ["y", "z"])
        #expect(sorted["a"]?[0]?.objectValue?.keys == ["c", "d"])
    }
}

@Suite("JSONPointer")
struct JSONPointerTests {
    @Test(
        "escapes and parses tokens",
        arguments: [
            (["a", "b"], "/a/b"), (["a/b", "m~n"], "/a~1b/m~0n"), ([], ""), ([""], "/"), (["~1"], "/~01"),
        ] as [([String], String)])
    func roundTrip(tokens: [String], text: String) throws {
        #expect(JSONPointer(tokens: tokens).description == text)
        #expect(try JSONPointer(parsing: text).tokens == tokens)
    }

    @Test("refuses malformed pointers", arguments: ["a", "/~2", "/a~"])
    func malformed(_ text: String) {
        #expect(throws: JSONPointer.ParseError.self) { try JSONPointer(parsing: text) }
    }

    @Test("resolves inside a value")
    func resolve() throws {
        let value: JSONValue = ["a": [10, ["b/c": "x"]]]
        #expect(value[pointer: try JSONPointer(parsing: "/a/1/b~1c")] == "x")
        #expect(value[pointer: try JSONPointer(parsing: "/a/01")] == nil)
        #expect(value[pointer: try JSONPointer(parsing: "/a/5")] == nil)
        #expect(value[pointer: JSONPointer()] == value)
    }
}

@Suite("Code point equality")
struct CodePointEqualityTests {
    @Test("canonically equivalent strings are different JSON strings and keys")
    func canonicalEquivalents() throws {
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        #expect(composed == decomposed, "Swift's String treats them as equal")
        #expect(JSONValue.string(composed) != .string(decomposed))
        let object = try JSONValue(parsing: "{\"\u{E9}\":1,\"e\u{301}\":2}")
        #expect(object.objectValue?.count == 2)
        #expect(object[composed] == 1)
        #expect(object[decomposed] == 2)
        #expect(JSONValue.object([composed: 1]) != .object([decomposed: 1]))
    }
}
