import Foundation
import JSONCore
import OnDeviceMCPTestSupport
import Testing

enum DocumentGenerator {
    static let alphabet: [String] = [
        "a", "b", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "é", "ß", "日", "😀", "\u{2028}", "\u{7F}", "~",
    ]

    static func string(_ rng: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" }.joined()
    }

    static func value(_ rng: inout SeededGenerator, depth: Int) -> JSONValue {
        let choice = Int.random(in: 0..<(depth > 4 ? 6 : 8), using: &rng)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2:
            let magnitude = [9, 1_000, 1 << 40, Int.max].randomElement(using: &rng) ?? 9
            return .int(Int.random(in: -magnitude...magnitude, using: &rng))
        case 3:
            let exponent = Double(Int.random(in: -30...30, using: &rng))
            let double = Double.random(in: -1...1, using: &rng) * pow(10, exponent)
            return .double(double)
        case 4, 5: return .string(string(&rng))
        case 6:
            return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                object[string(&rng)] = value(&rng, depth: depth + 1)
            }
            return .object(object)
        }
    }
}

/// Compares what Foundation read with what we read, guided by our value's shape.
func foundationValue(_ foundation: Any, matches value: JSONValue) -> Bool {
    switch value {
    case .null:
        return foundation is NSNull
    case .bool(let bool):
        return (foundation as? Bool) == bool
    case .int(let int):
        return (foundation as? NSNumber)?.int64Value == Int64(int)
    case .double(let double):
        // Foundation on Linux reads fractions as NSDecimalNumber, whose doubleValue can be off by
        // a few ulps; its decimal text is exact, so compare through that.
        return (foundation as? NSNumber).flatMap { Double($0.description) } == double
    case .string(let string):
        return (foundation as? String) == string
    case .array(let elements):
        guard let array = foundation as? [Any], array.count == elements.count else { return false }
        return zip(array, elements).allSatisfy { foundationValue($0, matches: $1) }
    case .object(let object):
        guard let dictionary = foundation as? [String: Any], dictionary.count == object.count else { return false }
        return object.allSatisfy { key, value in dictionary[key].map { foundationValue($0, matches: value) } ?? false }
    }
}

func foundationObject(_ value: JSONValue) -> Any {
    switch value {
    case .null: NSNull()
    case .bool(let bool): bool
    case .int(let int): int
    case .double(let double): double
    case .string(let string): string
    case .array(let elements): elements.map(foundationObject)
    case .object(let object): Dictionary(uniqueKeysWithValues: object.map { ($0.key, foundationObject($0.value)) })
    }
}

@Suite("Differential against JSONSerialization")
struct JSONDifferentialTests {
    @Test("Foundation reads what we write", arguments: 0..<8)
    func foundationReadsOurOutput(seed: UInt64) throws {
        var rng = SeededGenerator(state: seed)
        for _ in 0..<250 {
            let value = JSONValue.object(["document": DocumentGenerator.value(&rng, depth: 0)])
            let bytes = try value.jsonBytes()
            let foundation = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            #expect(foundationValue(foundation, matches: value), "\(value)")
            #expect(try JSONValue(parsing: bytes) == value)
        }
    }

    @Test("we read what Foundation writes", arguments: 100..<108)
    func weReadFoundationOutput(seed: UInt64) throws {
        var rng = SeededGenerator(state: seed)
        for _ in 0..<250 {
            let value = JSONValue.array([DocumentGenerator.value(&rng, depth: 0)])
            let data = try JSONSerialization.data(withJSONObject: foundationObject(value), options: [.fragmentsAllowed])
            let ours = try JSONValue(parsing: data)
            // Foundation may write an integral double without its fraction, so compare numerically.
            #expect(ours.isNumericallyEqual(to: value), "\(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test("we refuse what Foundation refuses", arguments: ["{\"a\":}", "[01]", "\"\\x\"", "[1 2]", "{\"a\" 1}", "tru", "[\"a\nb\"]"])
    func bothRefuse(_ text: String) {
        #expect(throws: JSONReadError.self) { try JSONValue(parsing: text) }
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) }
    }

    @Test("we refuse a trailing comma that Foundation on Linux accepts")
    func stricterThanFoundation() throws {
        #expect(throws: JSONReadError.self) { try JSONValue(parsing: "[1,]") }
        let foundation = try JSONSerialization.jsonObject(with: Data("[1,]".utf8)) as? [Int]
        #expect(foundation == [1], "if Foundation starts refusing this, move the case to bothRefuse")
    }
}
