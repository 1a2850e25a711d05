import Foundation
import JSONSchema
import MCP
import Testing

/// The derived schema accepts what the type's own `Encodable` side writes, and what it
/// accepts decodes.
@Suite("Derived input schemas: round trips")
struct DerivedSchemaRoundTripTests {
    struct Sample: Sendable, CustomTestStringConvertible {
        let name: String
        /// The derived schema, the encoded value, and whether that value decodes back to itself.
        let run: @Sendable () throws -> (schema: JSONValue, encoded: JSONValue, decodesBack: Bool)
        var testDescription: String { name }

        init<Arguments: Codable & Equatable & Sendable>(_ name: String, _ value: Arguments) {
            self.name = name
            self.run = {
                let schema = try ToolArgumentsSchema(for: Arguments.self).json
                let encoded = try JSONValueEncoder().encode(value)
                let decoded = try JSONValueDecoder().decode(Arguments.self, from: encoded)
                return (schema, encoded, decoded == value)
            }
        }
    }

    static func tree(depth: Int) -> Tree {
        Tree(name: "level \(depth)", children: depth == 0 ? [] : [tree(depth: depth - 1), Tree(name: "leaf", children: [])])
    }

    static func folder(depth: Int) -> Folder {
        Folder(
            name: "level \(depth)",
            subfolders: depth == 0 ? [:] : ["sub": folder(depth: depth - 1), "empty": Folder(name: "e", subfolders: [:])])
    }

    static let samples: [Sample] = [
        Sample("flat", FlatArguments(name: "x", count: -3, ratio: 0.25, enabled: true)),
        Sample("optionals present", OptionalArguments(query: "q", limit: 5, tags: ["a", "b"])),
        Sample("optionals missing", OptionalArguments(query: "q", limit: nil, tags: nil)),
        Sample("integers at their bounds", IntegerArguments(small: -128, byte: 255, wide: .max, count: 7, medium: .min, port: 65535)),
        Sample(
            "nested",
            NestedArguments(
                place: Place(name: "Lisbon", latitude: 38.7), stops: [Place(name: "Porto", latitude: 41.1)], grid: [[1, 2], [], [3]],
                labels: ["x", "y"])),
        Sample(
            "dictionaries",
            MapArguments(counts: ["a": 1, "b": 2], names: [3: "three", -4: "minus four"], shown: [.red: true, .green: false])),
        Sample("enums", EnumArguments(sort: .relevance, priority: .high, also: [.newest, .oldest])),
        Sample("enum missing", EnumArguments(sort: .newest, priority: nil, also: [])),
        Sample(
            "Foundation types",
            FoundationArguments(
                when: Date(timeIntervalSinceReferenceDate: 700_000_000.5),
                link: URL(string: "https://example.com/notes?id=3") ?? URL(filePath: "/"),
                id: UUID(), blob: Data([0, 1, 2, 254, 255]))),
        Sample("any values", AnyValueArguments(options: ["deep": [1, "two", nil, ["three": true]]], extra: ["k": 1.5], list: [1, "x"])),
        Sample("a tree deeper than the levels described", tree(depth: 6)),
        Sample("optionals inside containers", OptionalElementArguments(maybe: [1, nil, 3], series: ["a": [1.5], "b": nil])),
        Sample("folders deeper than the levels described", folder(depth: 5)),
        Sample("a tuple and a wrapper", ShapedArguments(at: Point(x: 1.5, y: -2), to: Email(address: "a@example.com"))),
        Sample(
            "described arguments",
            SearchArguments(
                query: "trip", changedAfter: Date(timeIntervalSinceReferenceDate: 0), filter: Filter(folder: "Travel"), limit: 3)),
    ]

    @Test("the schema accepts what the type encodes, and that decodes back", arguments: samples)
    func roundTrip(_ sample: Sample) throws {
        let (schema, encoded, decodesBack) = try sample.run()
        let result = try JSONSchema(schema).validate(encoded)
        #expect(result.isValid, "\(result) for \(encoded)")
        #expect(decodesBack)
    }

    struct Rejection: Sendable, CustomTestStringConvertible {
        let name: String
        let schema: @Sendable () throws -> JSONValue
        let instance: JSONValue
        /// What the first validation error starts with: where, and what.
        let error: String
        var testDescription: String { name }

        init<Arguments: Decodable & Sendable>(_ name: String, _ type: Arguments.Type, _ instance: JSONValue, _ error: String) {
            self.name = name
            self.schema = { try ToolArgumentsSchema(for: Arguments.self).json }
            self.instance = instance
            self.error = error
        }
    }

    static let rejections: [Rejection] = [
        Rejection("a string for an integer", FlatArguments.self, ["name": "x", "count": "3", "ratio": 1, "enabled": true], "/count: "),
        Rejection("a missing required member", OptionalArguments.self, ["limit": 3], "(root): missing required property \"query\""),
        Rejection("a value outside an enum", EnumArguments.self, ["sort": "random", "also": []], "/sort: "),
        Rejection(
            "an integer out of its type's range", IntegerArguments.self,
            ["small": 1, "byte": 256, "wide": 1, "count": 1, "medium": 1, "port": 1], "/byte: "),
        Rejection(
            "a negative unsigned integer", IntegerArguments.self,
            ["small": 1, "byte": 1, "wide": 1, "count": -1, "medium": 1, "port": 1], "/count: "),
        Rejection(
            "a number that is not a key of an integer-keyed dictionary", MapArguments.self,
            ["counts": [:], "names": ["x": "y"], "shown": [:]], "/names"),
        Rejection(
            "a key outside an enum-keyed dictionary", MapArguments.self,
            ["counts": [:], "names": [:], "shown": ["blue": true]], "/shown"),
        Rejection(
            "a date as text", FoundationArguments.self,
            ["when": "2024-01-01", "link": "https://example.com", "id": "00000000-0000-4000-8000-000000000000", "blob": ""], "/when: "),
        Rejection(
            "a tree's child of the wrong type", Tree.self, ["name": "root", "children": [["name": 3, "children": []]]],
            "/children/0/name: "),
    ]

    @Test("the schema rejects wrong values, naming where", arguments: rejections)
    func rejects(_ test: Rejection) throws {
        let result = try JSONSchema(try test.schema()).validate(test.instance)
        let first = try #require(result.errors.first)
        #expect(first.description.hasPrefix(test.error), "\(result)")
    }
}
