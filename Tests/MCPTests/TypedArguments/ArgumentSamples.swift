import Foundation
import MCP

// Arguments types whose schemas the typed-tool tests derive: what a tool would take, and
// the decoders the recorder must refuse.

// MARK: Described by their shape

struct FlatArguments: Codable, Sendable, Equatable {
    var name: String
    var count: Int
    var ratio: Double
    var enabled: Bool
}

struct OptionalArguments: Codable, Sendable, Equatable {
    var query: String
    var limit: Int?
    var tags: [String]?
}

struct IntegerArguments: Codable, Sendable, Equatable {
    var small: Int8
    var byte: UInt8
    var wide: Int64
    var count: UInt
    var medium: Int32
    var port: UInt16
}

struct Place: Codable, Sendable, Equatable {
    var name: String
    var latitude: Double
}

struct NestedArguments: Codable, Sendable, Equatable {
    var place: Place
    var stops: [Place]
    var grid: [[Int]]
    var labels: Set<String>
}

enum Color: String, Codable, Sendable, CaseIterable, CodingKeyRepresentable {
    case red, green
}

struct MapArguments: Codable, Sendable, Equatable {
    var counts: [String: Int]
    var names: [Int: String]
    var shown: [Color: Bool]
}

enum SortOrder: String, Codable, Sendable, CaseIterable {
    case newest, oldest, relevance
}

enum Priority: Int, Codable, Sendable, CaseIterable {
    case low = 1
    case high = 5
}

struct EnumArguments: Codable, Sendable, Equatable {
    var sort: SortOrder
    var priority: Priority?
    var also: [SortOrder]
}

struct FoundationArguments: Codable, Sendable, Equatable {
    var when: Date
    var link: URL
    var id: UUID
    var blob: Data
}

struct AnyValueArguments: Codable, Sendable, Equatable {
    var options: JSONValue
    var extra: JSONObject?
    var list: [JSONValue]
}

struct Tree: Codable, Sendable, Equatable {
    var name: String
    var children: [Tree]
}

final class Chain: Codable, Sendable {
    let value: Int
    let next: Chain?

    init(value: Int, next: Chain?) {
        self.value = value
        self.next = next
    }
}

/// A default for a missing member, with its own `init(from:)`.
struct DefaultingArguments: Decodable, Sendable {
    var query: String
    var limit: Int

    private enum CodingKeys: String, CodingKey { case query, limit }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        query = try container.decode(String.self, forKey: .query)
        limit = try container.decodeIfPresent(Int.self, forKey: .limit) ?? 10
    }
}

/// A member read only when it is there, asked with `contains`.
struct ContainsArguments: Decodable, Sendable {
    var verbose: Bool

    private enum CodingKeys: String, CodingKey { case verbose }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        verbose = container.contains(.verbose) ? try container.decode(Bool.self, forKey: .verbose) : false
    }
}

/// Flat properties read from a nested object with `nestedContainer`.
struct FlattenedArguments: Decodable, Sendable {
    var city: String
    var zip: String?

    private enum CodingKeys: String, CodingKey { case address }
    private enum AddressKeys: String, CodingKey { case city, zip }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let address = try container.nestedContainer(keyedBy: AddressKeys.self, forKey: .address)
        city = try address.decode(String.self, forKey: .city)
        zip = try address.decodeIfPresent(String.self, forKey: .zip)
    }
}

class BaseArguments: Decodable, @unchecked Sendable {
    let id: Int
}

/// A subclass whose superclass decodes from `"super"`, through `superDecoder()`.
final class SuperKeyArguments: BaseArguments, @unchecked Sendable {
    let label: String

    private enum CodingKeys: String, CodingKey { case label }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        try super.init(from: container.superDecoder())
    }
}

/// A subclass whose superclass decodes from the same object.
final class SharedObjectArguments: BaseArguments, @unchecked Sendable {
    let label: String

    private enum CodingKeys: String, CodingKey { case label }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        try super.init(from: decoder)
    }
}

/// A pair read from an array without asking for its end: a tuple.
struct Point: Codable, Sendable, Equatable {
    var x: Double
    var y: Double

    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        x = try container.decode(Double.self)
        y = try container.decode(Double.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }
}

/// A wrapper that decodes from the value it wraps.
struct Email: Codable, Sendable, Equatable {
    var address: String

    init(address: String) {
        self.address = address
    }

    init(from decoder: any Decoder) throws {
        address = try decoder.singleValueContainer().decode(String.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(address)
    }
}

struct ShapedArguments: Codable, Sendable, Equatable {
    var at: Point
    var to: Email
}

// MARK: Described by the type

struct Filter: ToolArguments, Codable, Equatable {
    var folder: String
    static let argumentDescriptions = ["folder": "Only notes in this folder"]
}

struct SearchArguments: ToolArguments, Codable, Equatable {
    var query: String
    var changedAfter: Date?
    var filter: Filter
    var limit: Int?

    static let argumentDescriptions = [
        "query": "Words to look for",
        "changedAfter": "Only notes changed after this",
        "limit": "At most this many notes; 10 when left out",
    ]
}

struct Found: Codable, Sendable, Equatable {
    var query: String
    var folder: String
    var titles: [String]
}

// MARK: Refused

enum Mode: String, Decodable, Sendable {
    case fast, slow
}

struct ModeArguments: Decodable, Sendable {
    var mode: Mode
}

enum Drawing: Decodable, Sendable {
    case circle(radius: Double)
    case square(side: Double)
}

struct DrawingArguments: Decodable, Sendable {
    var shape: Drawing
}

/// Checks a value in its `init(from:)`.
struct ValidatingArguments: Decodable, Sendable {
    var query: String

    private enum CodingKeys: String, CodingKey { case query }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        query = try container.decode(String.self, forKey: .query)
        guard query.count >= 3 else {
            throw DecodingError.dataCorruptedError(forKey: .query, in: container, debugDescription: "a query has at least 3 characters")
        }
    }
}

/// Reads a member only when a flag is on.
struct FlagBranchArguments: Decodable, Sendable {
    var level: Int?

    private enum CodingKeys: String, CodingKey { case detailed, level }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        level = try container.decode(Bool.self, forKey: .detailed) ? try container.decode(Int.self, forKey: .level) : nil
    }
}

/// A tagged union on a three-case enum whose first two cases read the same member: only a
/// round with the third case sees the other member.
struct TaggedArguments: Decodable, Sendable {
    enum Kind: String, Decodable, Sendable, CaseIterable {
        case circle, triangle, square
    }

    var size: Double

    private enum CodingKeys: String, CodingKey { case kind, size, side }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .circle, .triangle: size = try container.decode(Double.self, forKey: .size)
        case .square: size = try container.decode(Double.self, forKey: .side)
        }
    }
}

/// Takes an old name for a member when the new one is missing.
struct RenamedArguments: Decodable, Sendable {
    var name: String

    private enum CodingKeys: String, CodingKey { case name, oldName }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .oldName) ?? container.decode(String.self, forKey: .name)
    }
}

/// Decodes one member as two types.
struct TwoTypesArguments: Decodable, Sendable {
    private enum CodingKeys: String, CodingKey { case value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        _ = try container.decode(String.self, forKey: .value)
        _ = try container.decode(Int.self, forKey: .value)
    }
}

/// A `CaseIterable` enum whose own decoding takes other values than its raw values.
enum Spelled: String, Decodable, Sendable, CaseIterable {
    case one, two

    init(from decoder: any Decoder) throws {
        switch try decoder.singleValueContainer().decode(String.self) {
        case "1": self = .one
        case "2": self = .two
        default: throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "1 or 2"))
        }
    }
}

struct SpelledArguments: Decodable, Sendable {
    var count: Spelled
}

struct DecimalArguments: Decodable, Sendable {
    var amount: Decimal
}

struct DoubleKeyedArguments: Decodable, Sendable {
    var weights: [Double: Int]
}

final class LoopArguments: Decodable, Sendable {
    let next: LoopArguments
}

struct MisdescribedArguments: ToolArguments {
    var query: String
    static let argumentDescriptions = ["qurey": "Words to look for"]
}

/// Catches the recorder's refusal of its member and goes on.
struct SwallowingArguments: Decodable, Sendable {
    var mode: Mode?

    private enum CodingKeys: String, CodingKey { case mode }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try? container.decode(Mode.self, forKey: .mode)
    }
}

/// Reads an array until an element fails to decode: with the recorder, nothing fails.
struct GreedyNumbers: Decodable, Sendable {
    var values: [Int] = []

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while let value = try? container.decode(Int.self) {
            values.append(value)
        }
    }
}

struct GreedyArguments: Decodable, Sendable {
    var numbers: GreedyNumbers
}

/// A new type at every level: recursion the recorder cannot see by type.
final class Nesting<Inner: Decodable & Sendable>: Decodable, Sendable {
    let inner: Nesting<Nesting<Inner>>?
}

// MARK: Added: containers read by hand, optionals inside containers, recursion through a dictionary

/// Reads objects out of an array with `nestedContainer` until its end.
struct LabelledValues: Decodable, Sendable {
    var labels: [String] = []

    private enum Keys: String, CodingKey { case label, weight }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            let element = try container.nestedContainer(keyedBy: Keys.self)
            labels.append(try element.decode(String.self, forKey: .label))
            _ = try element.decodeIfPresent(Double.self, forKey: .weight)
        }
    }
}

struct HandReadArguments: Decodable, Sendable {
    var values: LabelledValues
}

struct OptionalElementArguments: Codable, Sendable, Equatable {
    var maybe: [Int?]
    var series: [String: [Double]?]
}

struct Folder: Codable, Sendable, Equatable {
    var name: String
    var subfolders: [String: Folder]
}
