import Foundation
import JSONCore
import Testing

// MARK: - Sample types

private struct Arguments: Codable, Equatable {
    var city: String
    var days: Int
    var metric: Bool
    var note: String?
}

private enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Int, height: Int)
    case named(String)
    case empty
}

private struct Layer: Codable, Equatable {
    var name: String
    var shapes: [Shape]
    var tags: [String: Int]
    var children: [Layer]
    var opacity: Float?
    var matrix: [[Double]]
    var bytes: [UInt8]
    var small: Int8
    var big: UInt64
}

private struct Ordered: Codable, Equatable {
    var zebra: Int
    var apple: String
    var mango: Bool
    var kiwi: [Int]
}

private struct Envelope: Codable, Equatable {
    var id: Int
    var payload: JSONValue
    var extra: JSONObject
    var list: [JSONValue]
}

private class Animal: Codable {
    var name: String
    init(name: String) { self.name = name }
}

private final class Dog: Animal {
    var breed: String

    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case breed }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        breed = try container.decode(String.self, forKey: .breed)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(breed, forKey: .breed)
        try super.encode(to: container.superEncoder())
    }
}

/// A class that shares its encoder with its superclass instead of nesting it.
private final class Cat: Animal {
    var lives: Int

    init(name: String, lives: Int) {
        self.lives = lives
        super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case lives }

    required init(from decoder: any Decoder) throws {
        lives = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .lives)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lives, forKey: .lives)
    }
}

/// Encodes and decodes through nested containers by hand.
private struct Manual: Codable, Equatable {
    var x: Int
    var points: [[Int]]
    var label: String

    private enum Keys: String, CodingKey { case header, points, label, x }

    init(x: Int, points: [[Int]], label: String) {
        self.x = x
        self.points = points
        self.label = label
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let header = try container.nestedContainer(keyedBy: Keys.self, forKey: .header)
        x = try header.decode(Int.self, forKey: .x)
        var outer = try container.nestedUnkeyedContainer(forKey: .points)
        var points: [[Int]] = []
        while !outer.isAtEnd {
            var inner = try outer.nestedUnkeyedContainer()
            var point: [Int] = []
            while !inner.isAtEnd { point.append(try inner.decode(Int.self)) }
            points.append(point)
        }
        self.points = points
        label = try container.decode(String.self, forKey: .label)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var header = container.nestedContainer(keyedBy: Keys.self, forKey: .header)
        var outer = container.nestedUnkeyedContainer(forKey: .points)
        // Written after the nested containers were made: the order must still follow the calls.
        try container.encode(label, forKey: .label)
        for point in points {
            var inner = outer.nestedUnkeyedContainer()
            for coordinate in point { try inner.encode(coordinate) }
        }
        try header.encode(x, forKey: .x)
    }
}

private struct Pair: Decodable {
    var first: Int
    var second: Int

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        first = try container.decode(Int.self)
        second = try container.decode(Int.self)
    }
}

private struct UserInfoReader: Codable {
    static let key = CodingUserInfoKey(rawValue: "prefix")!
    var text: String

    init(text: String) { self.text = text }

    init(from decoder: any Decoder) throws {
        let prefix = decoder.userInfo[Self.key] as? String ?? ""
        text = prefix + (try decoder.singleValueContainer().decode(String.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode((encoder.userInfo[Self.key] as? String ?? "") + text)
    }
}

private struct Media: Codable, Equatable {
    var link: URL
    var blob: Data
    var created: Date
    var links: [URL]
    var maybe: Data?
}

/// A type exercising most of what `JSONEncoder` and `JSONValueEncoder` must agree on.
private struct Report: Codable, Equatable {
    var title: String
    var count: Int
    var ratio: Double
    var score: Float
    var flags: [Bool]
    var missing: String?
    var present: Int?
    var shapes: [Shape]
    var lookup: [String: [Int]]
    var byNumber: [Int: String]
    var nested: Ordered
    var unsigned: UInt32
    var negative: Int64
}

private let sampleLayer = Layer(
    name: "root",
    shapes: [.circle(radius: 1.5), .rectangle(width: 2, height: 3), .named("star"), .empty],
    tags: ["a": 1, "b": 2],
    children: [
        Layer(
            name: "child",
            shapes: [],
            tags: [:],
            children: [],
            opacity: nil,
            matrix: [],
            bytes: [],
            small: -128,
            big: 0
        )
    ],
    opacity: 0.5,
    matrix: [[1, 0], [0, 1]],
    bytes: [0, 127, 255],
    small: 127,
    big: UInt64(Int.max)
)

private let sampleReport = Report(
    title: "quarterly \"report\" ü 😀",
    count: -42,
    ratio: 0.1,
    score: 0.1,
    flags: [true, false],
    missing: nil,
    present: 7,
    shapes: [.circle(radius: 2), .named("x"), .empty, .rectangle(width: 1, height: 2)],
    lookup: ["one": [1], "none": []],
    byNumber: [1: "one", 20: "twenty"],
    nested: Ordered(zebra: 1, apple: "a", mango: false, kiwi: [3, 2, 1]),
    unsigned: .max,
    negative: .min
)

private struct Wide: Codable, Equatable {
    var f0 = 0, f1 = 1, f2 = 2, f3 = 3, f4 = 4, f5 = 5, f6 = 6, f7 = 7
    var f8 = 8, f9 = 9, f10 = 10, f11 = 11, f12 = 12, f13 = 13
    var tail: String? = "end"
}

private enum Color: String, Codable {
    case red, green
}

private struct Nothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

private struct Twice: Encodable {
    private enum Keys: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .a)
        try container.encode(2, forKey: .b)
        try container.encode(3, forKey: .a)
    }
}

// MARK: - Tests

@Suite("JSONValueEncoder and JSONValueDecoder")
struct JSONValueCodingTests {
    let encoder = JSONValueEncoder()
    let decoder = JSONValueDecoder()

    // MARK: Round trips

    @Test("a flat struct decodes from an arguments object")
    func decodesArguments() throws {
        let value: JSONValue = ["city": "Oslo", "days": 3, "metric": true, "note": "rain"]
        let arguments = try decoder.decode(Arguments.self, from: value)
        #expect(arguments == Arguments(city: "Oslo", days: 3, metric: true, note: "rain"))
        #expect(try encoder.encode(arguments) == value)
    }

    @Test("nested structs, enums with associated values, arrays, dictionaries and optionals round-trip")
    func roundTripNested() throws {
        let encoded = try encoder.encode(sampleLayer)
        #expect(try decoder.decode(Layer.self, from: encoded) == sampleLayer)

        // Spot-check the shape of what was written.
        #expect(encoded["shapes"]?[0] == ["circle": ["radius": 1.5]])
        #expect(encoded["shapes"]?[1] == ["rectangle": ["width": 2, "height": 3]])
        #expect(encoded["shapes"]?[2] == ["named": ["_0": "star"]])
        #expect(encoded["shapes"]?[3] == ["empty": [:]])
        #expect(encoded["tags"] == ["a": 1, "b": 2])
        #expect(encoded["children"]?[0]?["opacity"] == nil, "nil optionals are left out")
        #expect(encoded["children"]?[0]?.objectValue?.contains(key: "opacity") == false)
        #expect(encoded["opacity"] == .double(0.5))
        #expect(encoded["matrix"] == [[1.0, 0.0], [0.0, 1.0]])
        #expect(encoded["bytes"] == [0, 127, 255])
        #expect(encoded["big"] == .int(Int.max))
    }

    @Test(
        "top-level values of every primitive type round-trip",
        arguments: [
            ("String", JSONValue.string("hi")), ("Int", .int(-5)), ("Bool", .bool(false)), ("Double", .double(2.5)),
            ("[Int]", [1, 2, 3]), ("[String: Bool]", ["k": true]), ("[String?]", ["a", nil]),
        ] as [(String, JSONValue)]
    )
    func topLevelPrimitives(name: String, value: JSONValue) throws {
        switch name {
        case "String": #expect(try encoder.encode(decoder.decode(String.self, from: value)) == value)
        case "Int": #expect(try encoder.encode(decoder.decode(Int.self, from: value)) == value)
        case "Bool": #expect(try encoder.encode(decoder.decode(Bool.self, from: value)) == value)
        case "Double": #expect(try encoder.encode(decoder.decode(Double.self, from: value)) == value)
        case "[Int]": #expect(try encoder.encode(decoder.decode([Int].self, from: value)) == value)
        case "[String: Bool]": #expect(try encoder.encode(decoder.decode([String: Bool].self, from: value)) == value)
        case "[String?]": #expect(try encoder.encode(decoder.decode([String?].self, from: value)) == value)
        default: Issue.record("no case for \(name)")
        }
    }

    @Test("every fixed-width integer type and Float round-trip at their limits")
    func fixedWidthLimits() throws {
        func check<T: Codable & Equatable & FixedWidthInteger>(_ type: T.Type) throws {
            for limit in [T.min, T.max] where Int(exactly: limit) != nil {
                let encoded = try encoder.encode(limit)
                #expect(encoded == .int(Int(limit)))
                #expect(try decoder.decode(T.self, from: encoded) == limit)
                #expect(try decoder.decode([T].self, from: [encoded]) == [limit])
            }
        }
        try check(Int8.self)
        try check(Int16.self)
        try check(Int32.self)
        try check(Int64.self)
        try check(UInt.self)
        try check(UInt8.self)
        try check(UInt16.self)
        try check(UInt32.self)
        try check(UInt64.self)
        #expect(try decoder.decode(Float.self, from: .double(0.25)) == 0.25)
        #expect(try decoder.decode(Float.self, from: .int(3)) == 3)
    }

    @Test("decodeIfPresent gives nil for a missing key and for null")
    func optionals() throws {
        let missing = try decoder.decode(Arguments.self, from: ["city": "A", "days": 1, "metric": false])
        #expect(missing.note == nil)
        let null = try decoder.decode(Arguments.self, from: ["city": "A", "days": 1, "metric": false, "note": nil])
        #expect(null.note == nil)
        #expect(try encoder.encode(null) == ["city": "A", "days": 1, "metric": false], "encodeIfPresent leaves nil out")
        #expect(try decoder.decode(Int?.self, from: .null) == nil)
        #expect(try decoder.decode([Int?].self, from: [1, nil]) == [1, nil])
    }

    // MARK: Order and exactness

    @Test("keys come out in declaration order")
    func keyOrder() throws {
        let encoded = try encoder.encode(Ordered(zebra: 1, apple: "a", mango: true, kiwi: []))
        #expect(encoded.objectValue?.keys == ["zebra", "apple", "mango", "kiwi"])
        #expect(try encoded.jsonString() == #"{"zebra":1,"apple":"a","mango":true,"kiwi":[]}"#)
    }

    @Test("nested containers keep the order they were created in")
    func nestedContainers() throws {
        let manual = Manual(x: 9, points: [[1, 2], [], [3]], label: "path")
        let encoded = try encoder.encode(manual)
        #expect(encoded.objectValue?.keys == ["header", "points", "label"])
        #expect(encoded == ["header": ["x": 9], "points": [[1, 2], [], [3]], "label": "path"])
        #expect(try decoder.decode(Manual.self, from: encoded) == manual)
    }

    @Test("a JSONValue inside a struct round-trips exactly")
    func jsonValueField() throws {
        let payload: JSONValue = [
            "z": 1, "a": .double(1.0), "n": nil, "big": .int(Int.max), "list": [true, "s", [:], []],
            "deep": ["y": ["x": .double(-0.0)]],
        ]
        let envelope = Envelope(id: 1, payload: payload, extra: ["k": "v", "b": 2], list: [nil, 1.5])
        let encoded = try encoder.encode(envelope)
        #expect(encoded["payload"] == payload)
        #expect(encoded["payload"]?.objectValue?.keys == ["z", "a", "n", "big", "list", "deep"])
        #expect(encoded["payload"]?["a"] == .double(1.0), "1.0 stays a double, not an int")
        let decoded = try decoder.decode(Envelope.self, from: encoded)
        #expect(decoded == envelope)
        #expect(decoded.payload.objectValue?.keys == payload.objectValue?.keys)
        #expect(decoded.extra.keys == ["k", "b"])

        // null is a value for a JSONValue property, not a missing one.
        let nullPayload = try decoder.decode(Envelope.self, from: ["id": 2, "payload": nil, "extra": [:], "list": []])
        #expect(nullPayload.payload == .null)
        #expect(try encoder.encode(nullPayload)["payload"] == .null)
        #expect(try encoder.encode(payload) == payload)
        #expect(try decoder.decode(JSONValue.self, from: payload) == payload)
    }

    // MARK: Numbers

    @Test(
        "integral doubles decode as integers",
        arguments: [(JSONValue.double(3.0), 3), (.double(-0.0), 0), (.double(1e15), 1_000_000_000_000_000), (.int(7), 7)]
    )
    func integralDoubles(value: JSONValue, expected: Int) throws {
        #expect(try decoder.decode(Int.self, from: value) == expected)
        #expect(try decoder.decode(Int64.self, from: value) == Int64(expected))
    }

    struct RangeCase: CustomTestStringConvertible, Sendable {
        var name: String
        var value: JSONValue
        var decode: @Sendable (JSONValueDecoder, JSONValue) throws -> Void
        var fits: Bool
        var testDescription: String { "\(name) \(fits ? "fits" : "does not fit")" }
    }

    @Test(
        "integers are range-checked",
        arguments: [
            RangeCase(name: "127 as Int8", value: 127, decode: { _ = try $0.decode(Int8.self, from: $1) }, fits: true),
            RangeCase(name: "128 as Int8", value: 128, decode: { _ = try $0.decode(Int8.self, from: $1) }, fits: false),
            RangeCase(name: "-129 as Int8", value: -129, decode: { _ = try $0.decode(Int8.self, from: $1) }, fits: false),
            RangeCase(name: "255 as UInt8", value: 255, decode: { _ = try $0.decode(UInt8.self, from: $1) }, fits: true),
            RangeCase(name: "256 as UInt8", value: 256, decode: { _ = try $0.decode(UInt8.self, from: $1) }, fits: false),
            RangeCase(name: "-1 as UInt", value: -1, decode: { _ = try $0.decode(UInt.self, from: $1) }, fits: false),
            RangeCase(name: "-1 as UInt64", value: -1, decode: { _ = try $0.decode(UInt64.self, from: $1) }, fits: false),
            RangeCase(name: "70000 as Int16", value: 70000, decode: { _ = try $0.decode(Int16.self, from: $1) }, fits: false),
            RangeCase(name: "2^31 as Int32", value: .int(1 << 31), decode: { _ = try $0.decode(Int32.self, from: $1) }, fits: false),
            RangeCase(name: "2^32 as UInt32", value: .int(1 << 32), decode: { _ = try $0.decode(UInt32.self, from: $1) }, fits: false),
            RangeCase(name: "1e19 as Int", value: .double(1e19), decode: { _ = try $0.decode(Int.self, from: $1) }, fits: false),
            RangeCase(name: "1e19 as UInt64", value: .double(1e19), decode: { _ = try $0.decode(UInt64.self, from: $1) }, fits: true),
            RangeCase(name: "3e38 as Float", value: .double(3e38), decode: { _ = try $0.decode(Float.self, from: $1) }, fits: true),
            RangeCase(name: "1e39 as Float", value: .double(1e39), decode: { _ = try $0.decode(Float.self, from: $1) }, fits: false),
        ]
    )
    func integerRanges(testCase: RangeCase) throws {
        if testCase.fits {
            try testCase.decode(decoder, testCase.value)
            return
        }
        let error = try #require(throws: DecodingError.self) { try testCase.decode(self.decoder, testCase.value) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.debugDescription.contains("does not fit in"))
        #expect(context.codingPath.isEmpty)
    }

    @Test("the range message names the number, the type and its range")
    func rangeMessage() throws {
        let error = try #require(throws: DecodingError.self) {
            try self.decoder.decode([String: UInt8].self, from: ["level": 300])
        }
        #expect(error.context.debugDescription == "number 300 does not fit in UInt8 (0...255)")
        #expect(error.jsonPointer.description == "/level")
    }

    @Test(
        "numbers with a fraction, and other types, are not integers",
        arguments: [JSONValue.double(2.5), .string("3"), .bool(true), [1], ["a": 1]]
    )
    func notIntegers(value: JSONValue) throws {
        let error = try #require(throws: DecodingError.self) { try self.decoder.decode(Int.self, from: value) }
        guard case .typeMismatch(let type, let context) = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        #expect(context.debugDescription.hasPrefix("expected Int, found "))
    }

    @Test("Bool and String are never converted")
    func noConversions() {
        #expect(throws: DecodingError.self) { try self.decoder.decode(Bool.self, from: 1) }
        #expect(throws: DecodingError.self) { try self.decoder.decode(Bool.self, from: "true") }
        #expect(throws: DecodingError.self) { try self.decoder.decode(String.self, from: 1) }
        #expect(throws: DecodingError.self) { try self.decoder.decode(Double.self, from: "1.5") }
    }

    @Test("doubles decode from integers too")
    func doublesFromIntegers() throws {
        #expect(try decoder.decode(Double.self, from: 3) == 3.0)
        #expect(try decoder.decode([Double].self, from: [1, 2.5]) == [1.0, 2.5])
    }

    @Test(
        "non-finite numbers cannot be encoded",
        arguments: [Double.infinity, -.infinity, .nan]
    )
    func nonFinite(number: Double) throws {
        struct Holder: Encodable {
            var values: [Double]
        }
        let error = try #require(throws: EncodingError.self) {
            try self.encoder.encode(Holder(values: [1, number]))
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["values", "Index 1"])
        #expect(JSONPointer(codingPath: context.codingPath).description == "/values/1")
        #expect(context.debugDescription.contains("not finite"))
        #expect(throws: EncodingError.self) { try self.encoder.encode(Float(number)) }
        #expect(throws: EncodingError.self) { try self.encoder.encode(["x": number]) }
    }

    @Test("unsigned integers beyond Int.max cannot be encoded")
    func unsignedBeyondIntMax() throws {
        #expect(try encoder.encode(UInt64(Int.max)) == .int(Int.max))
        let error = try #require(throws: EncodingError.self) { try self.encoder.encode(["n": UInt64.max]) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["n"])
        #expect(context.debugDescription.contains("beyond Int.max"))
        #expect(throws: EncodingError.self) { try self.encoder.encode(UInt.max) }
    }

    @Test("a Float is written as its shortest decimal")
    func floatDecimal() throws {
        #expect(try encoder.encode(Float(0.1)) == .double(0.1))
        #expect(try encoder.encode([Float(1) / 3]) == [.double(0.33333334)])
        #expect(try decoder.decode(Float.self, from: encoder.encode(Float(0.1))) == Float(0.1))
    }

    // MARK: Errors

    struct ErrorCase: CustomTestStringConvertible, Sendable {
        enum Kind: Sendable { case typeMismatch, valueNotFound, keyNotFound, dataCorrupted }
        var name: String
        var input: JSONValue
        var kind: Kind
        /// The error context's coding path, as `stringValue`s.
        var codingPath: [String]
        var pointer: String
        var message: String
        var testDescription: String { name }
    }

    private struct Outer: Decodable {
        var name: String
        var count: Int
        var items: [Inner]
        var level: UInt8?
    }

    private struct Inner: Decodable {
        var id: Int
        var label: String?
    }

    @Test(
        "decoding errors carry their case, coding path, pointer and message",
        arguments: [
            ErrorCase(
                name: "type mismatch",
                input: ["name": "a", "count": "3", "items": []],
                kind: .typeMismatch, codingPath: ["count"], pointer: "/count",
                message: #"expected Int, found string "3""#
            ),
            ErrorCase(
                name: "null for a required value",
                input: ["name": nil, "count": 1, "items": []],
                kind: .valueNotFound, codingPath: ["name"], pointer: "/name",
                message: "expected String, found null"
            ),
            ErrorCase(
                name: "missing key",
                input: ["count": 1, "items": []],
                kind: .keyNotFound, codingPath: [], pointer: "/name",
                message: #"no value for key "name""#
            ),
            ErrorCase(
                name: "number out of range",
                input: ["name": "a", "count": 1, "items": [], "level": 256],
                kind: .dataCorrupted, codingPath: ["level"], pointer: "/level",
                message: "number 256 does not fit in UInt8 (0...255)"
            ),
            ErrorCase(
                name: "wrong type deep in an array",
                input: ["name": "a", "count": 1, "items": [["id": 1], ["id": 2, "label": 5]]],
                kind: .typeMismatch, codingPath: ["items", "Index 1", "label"], pointer: "/items/1/label",
                message: "expected String, found integer 5"
            ),
            ErrorCase(
                name: "missing key deep in an array",
                input: ["name": "a", "count": 1, "items": [["id": 1], ["label": "x"]]],
                kind: .keyNotFound, codingPath: ["items", "Index 1"], pointer: "/items/1/id",
                message: #"no value for key "id""#
            ),
            ErrorCase(
                name: "array where an object belongs",
                input: ["name": "a", "count": 1, "items": [[1]]],
                kind: .typeMismatch, codingPath: ["items", "Index 0"], pointer: "/items/0",
                message: "expected object, found array of 1 element"
            ),
            ErrorCase(
                name: "object where an array belongs",
                input: ["name": "a", "count": 1, "items": ["id": 1]],
                kind: .typeMismatch, codingPath: ["items"], pointer: "/items",
                message: "expected array, found object with 1 key"
            ),
            ErrorCase(
                name: "null where an object belongs",
                input: ["name": "a", "count": 1, "items": [nil]],
                kind: .valueNotFound, codingPath: ["items", "Index 0"], pointer: "/items/0",
                message: "expected object, found null"
            ),
            ErrorCase(
                name: "not an object at the top",
                input: "text",
                kind: .typeMismatch, codingPath: [], pointer: "",
                message: #"expected object, found string "text""#
            ),
            ErrorCase(
                name: "fraction where an integer belongs",
                input: ["name": "a", "count": 1.5, "items": []],
                kind: .typeMismatch, codingPath: ["count"], pointer: "/count",
                message: "expected Int, found number 1.5"
            ),
        ]
    )
    func decodingErrors(testCase: ErrorCase) throws {
        let error = try #require(throws: DecodingError.self) {
            try self.decoder.decode(Outer.self, from: testCase.input)
        }
        let kind: ErrorCase.Kind
        switch error {
        case .typeMismatch: kind = .typeMismatch
        case .valueNotFound: kind = .valueNotFound
        case .keyNotFound: kind = .keyNotFound
        case .dataCorrupted: kind = .dataCorrupted
        @unknown default:
            Issue.record("unknown error \(error)")
            return
        }
        #expect(kind == testCase.kind)
        #expect(error.context.codingPath.map(\.stringValue) == testCase.codingPath)
        #expect(error.jsonPointer.description == testCase.pointer)
        #expect(error.context.debugDescription == testCase.message)
        if case .keyNotFound(let key, _) = error {
            #expect(key.stringValue == testCase.pointer.split(separator: "/").last.map(String.init))
        }
    }

    @Test("long strings are shortened in messages")
    func longStringMessage() throws {
        let error = try #require(throws: DecodingError.self) {
            try self.decoder.decode(Int.self, from: .string(String(repeating: "x", count: 100)))
        }
        #expect(error.context.debugDescription == "expected Int, found string \"\(String(repeating: "x", count: 40))…\"")
    }

    @Test("running off the end of an array is valueNotFound at the missing index")
    func unkeyedAtEnd() throws {
        #expect(try decoder.decode(Pair.self, from: [1, 2]).second == 2)
        let error = try #require(throws: DecodingError.self) { try self.decoder.decode([Pair].self, from: [[1, 2], [3]]) }
        guard case .valueNotFound(let type, let context) = error else {
            Issue.record("expected valueNotFound, got \(error)")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        #expect(error.jsonPointer.description == "/1/1")
        #expect(context.codingPath.compactMap(\.intValue) == [1, 1])
    }

    @Test("a failed unkeyed decode does not move past the element")
    func unkeyedIndexStays() throws {
        struct Lenient: Decodable {
            var values: [String] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                while !container.isAtEnd {
                    if let text = try? container.decode(String.self) {
                        values.append(text)
                    } else {
                        values.append(String(try container.decode(Int.self)))
                    }
                }
            }
        }
        #expect(try decoder.decode(Lenient.self, from: ["a", 1, "b"]).values == ["a", "1", "b"])
    }

    @Test("JSONPointer(codingPath:) escapes keys and writes indices as numbers")
    func pointerFromCodingPath() throws {
        let error = try #require(throws: DecodingError.self) {
            try self.decoder.decode([String: [[String: Int]]].self, from: ["a/b": [["~k": 1], ["~k": "x"]]])
        }
        #expect(error.jsonPointer.description == "/a~1b/1/~0k")
        #expect(error.jsonPointer.tokens == ["a/b", "1", "~k"])
        // Integer dictionary keys are keys, not indices.
        let intKeys = try #require(throws: DecodingError.self) {
            try self.decoder.decode([Int: String].self, from: ["5": 5])
        }
        #expect(intKeys.jsonPointer.description == "/5")
    }

    // MARK: Lookup

    @Test("keys are found in any order, in small and in hashed objects", arguments: [false, true])
    func keysInAnyOrder(reversed: Bool) throws {
        let wide = Wide()
        var object = try #require(try encoder.encode(wide).objectValue)
        #expect(object.keys.count == 15)
        if reversed {
            object = JSONObject(object.reversed().map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        #expect(try decoder.decode(Wide.self, from: .object(object)) == wide)
        object["tail"] = nil
        #expect(try decoder.decode(Wide.self, from: .object(object)).tail == nil)
        object["f13"] = nil
        let error = try #require(throws: DecodingError.self) { try self.decoder.decode(Wide.self, from: .object(object)) }
        #expect(error.jsonPointer.description == "/f13")

        let small: JSONValue = ["note": "n", "metric": true, "days": 2, "city": "C"]
        #expect(try decoder.decode(Arguments.self, from: small) == Arguments(city: "C", days: 2, metric: true, note: "n"))
    }

    @Test("a string enum with an unknown value is dataCorrupted at its pointer")
    func rawEnum() throws {
        #expect(try decoder.decode([Color].self, from: ["red", "green"]) == [.red, .green])
        #expect(try encoder.encode([Color.green]) == ["green"])
        let error = try #require(throws: DecodingError.self) {
            try self.decoder.decode([String: Color].self, from: ["shade": "purple"])
        }
        guard case .dataCorrupted = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(error.jsonPointer.description == "/shade")
    }

    @Test("a value that encodes nothing is an empty object; a key encoded twice keeps its place")
    func edgeEncodings() throws {
        #expect(try encoder.encode(Nothing()) == [:])
        #expect(try encoder.encode([Nothing()]) == [[:]])
        let twice = try encoder.encode(Twice())
        #expect(twice == ["a": 3, "b": 2])
        #expect(twice.objectValue?.keys == ["a", "b"])
    }

    // MARK: Inheritance and user info

    @Test("superEncoder and superDecoder nest a superclass under \"super\"")
    func superCoders() throws {
        let encoded = try encoder.encode(Dog(name: "Rex", breed: "collie"))
        #expect(encoded == ["breed": "collie", "super": ["name": "Rex"]])
        #expect(encoded.objectValue?.keys == ["breed", "super"])
        let dog = try decoder.decode(Dog.self, from: encoded)
        #expect(dog.name == "Rex")
        #expect(dog.breed == "collie")

        let error = try #require(throws: DecodingError.self) {
            try self.decoder.decode(Dog.self, from: ["breed": "pug", "super": ["name": 1]])
        }
        #expect(error.jsonPointer.description == "/super/name")
        // A missing "super" decodes as null, as with JSONDecoder.
        let missing = try #require(throws: DecodingError.self) { try self.decoder.decode(Dog.self, from: ["breed": "pug"]) }
        guard case .valueNotFound = missing else {
            Issue.record("expected valueNotFound, got \(missing)")
            return
        }
        #expect(missing.jsonPointer.description == "/super")
    }

    @Test("a subclass sharing its superclass's encoder writes one object")
    func sharedEncoder() throws {
        let encoded = try encoder.encode(Cat(name: "Tom", lives: 9))
        #expect(encoded.objectValue?.keys == ["name", "lives"])
        let cat = try decoder.decode(Cat.self, from: encoded)
        #expect(cat.name == "Tom")
        #expect(cat.lives == 9)
    }

    @Test("user info reaches the coding code")
    func userInfo() throws {
        var decoder = JSONValueDecoder()
        decoder.userInfo[UserInfoReader.key] = ">"
        #expect(try decoder.decode([UserInfoReader].self, from: ["a"]).first?.text == ">a")
        var encoder = JSONValueEncoder()
        encoder.userInfo[UserInfoReader.key] = "<"
        #expect(try encoder.encode(["k": UserInfoReader(text: "b")]) == ["k": "<b"])
    }

    // MARK: Agreement with Foundation

    @Test("output matches JSONEncoder's for the same value")
    func matchesJSONEncoder() throws {
        let foundationEncoder = JSONEncoder()
        let text = try #require(String(data: try foundationEncoder.encode(sampleReport), encoding: .utf8))
        let viaText = try JSONValue(parsing: text)
        let direct = try encoder.encode(sampleReport)
        // JSONEncoder writes the Double 2.0 as `2`, which reads back as an integer; the
        // values are the same numbers. (It does not keep key order on every platform.)
        #expect(direct.isNumericallyEqual(to: viaText))
        #expect(direct["shapes"]?[0]?["circle"]?["radius"] == .double(2))
        #expect(direct.objectValue?.keys.sorted() == viaText.objectValue?.keys.sorted())
        #expect(direct["nested"]?.objectValue?.keys == ["zebra", "apple", "mango", "kiwi"])
        #expect(direct["missing"] == nil && viaText["missing"] == nil)
        #expect(direct["score"] == viaText["score"], "Float 0.1 is 0.1 in both")

        // And JSONDecoder agrees on reading it back.
        let fromDirect = try decoder.decode(Report.self, from: direct)
        let fromText = try JSONDecoder().decode(Report.self, from: Data(text.utf8))
        #expect(fromDirect == fromText)
        #expect(fromDirect == sampleReport)
    }

    @Test("Date, Data and URL take JSONEncoder's default forms")
    func foundationTypes() throws {
        let media = Media(
            link: try #require(URL(string: "https://example.com/a?b=c")),
            blob: Data([0, 1, 2, 250, 251, 252, 253]),
            created: Date(timeIntervalSinceReferenceDate: 123.5),
            links: [try #require(URL(string: "file:///tmp/x"))],
            maybe: Data()
        )
        let text = try #require(String(data: try JSONEncoder().encode(media), encoding: .utf8))
        let direct = try encoder.encode(media)
        #expect(direct.isNumericallyEqual(to: try JSONValue(parsing: text)))
        #expect(direct["link"] == "https://example.com/a?b=c")
        #expect(direct["blob"] == "AAEC+vv8/Q==")
        #expect(direct["created"] == 123.5)
        #expect(direct["maybe"] == "")
        #expect(try decoder.decode(Media.self, from: direct) == media)

        for count in 0..<7 {
            let bytes = Data((0..<count).map { UInt8($0 * 40) })
            let encoded = try encoder.encode(bytes)
            #expect(encoded == .string(bytes.base64EncodedString()))
            #expect(try decoder.decode(Data.self, from: encoded) == bytes)
        }
        // The arrays of bytes that Data's own Codable writes still decode.
        #expect(try decoder.decode(Data.self, from: [1, 2]) == Data([1, 2]))

        let error = try #require(throws: DecodingError.self) {
            try self.decoder.decode([String: Data].self, from: ["blob": "not base64!"])
        }
        guard case .dataCorrupted = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(error.jsonPointer.description == "/blob")
    }

    @Test(
        "decoding matches JSONDecoder for text both can read",
        arguments: [
            #"{"city":"Oslo","days":3,"metric":true}"#,
            #"{"city":"Oslo","days":3.0,"metric":false,"note":null}"#,
            #"{"city":"","days":-1,"metric":true,"note":"n"}"#,
        ])
    func matchesJSONDecoder(text: String) throws {
        let foundation = try JSONDecoder().decode(Arguments.self, from: Data(text.utf8))
        let direct = try decoder.decode(Arguments.self, from: JSONValue(parsing: text))
        #expect(direct == foundation)
    }
}
