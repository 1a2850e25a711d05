// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A unique identifier for a generation, as in Apple's `GenerationID`.
public struct GenerationID: Sendable, Hashable {
    let value: UUID
    public init() { value = UUID() }
}

/// Structured content produced by a language model (Apple's `GeneratedContent`).
///
/// `kind` describes the value; objects keep the order of their keys in `orderedKeys`.
public struct GeneratedContent: Sendable, Equatable, Generable, CustomDebugStringConvertible {
    public enum Kind: Equatable, Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([GeneratedContent])
        case structure(properties: [String: GeneratedContent], orderedKeys: [String])
    }

    public var id: GenerationID?
    public let kind: GeneratedContent.Kind
    let complete: Bool

    public init(kind: GeneratedContent.Kind, id: GenerationID? = nil) {
        self.kind = kind
        self.id = id
        self.complete = true
    }

    init(kind: GeneratedContent.Kind, id: GenerationID? = nil, isComplete: Bool) {
        self.kind = kind
        self.id = id
        self.complete = isComplete
    }

    public static var generationSchema: GenerationSchema {
        GenerationSchema(node: .any, defs: [])
    }

    public init(_ content: GeneratedContent) throws {
        self = content
    }

    public var generatedContent: GeneratedContent { self }

    public init(properties: KeyValuePairs<String, any ConvertibleToGeneratedContent>, id: GenerationID? = nil) {
        var values: [String: GeneratedContent] = [:]
        var keys: [String] = []
        for (key, value) in properties {
            if values[key] == nil { keys.append(key) }
            values[key] = value.generatedContent
        }
        self.init(kind: .structure(properties: values, orderedKeys: keys), id: id)
    }

    public init<S>(
        properties: S,
        id: GenerationID? = nil,
        uniquingKeysWith combine: (GeneratedContent, GeneratedContent) throws -> some ConvertibleToGeneratedContent
    ) rethrows where S: Sequence, S.Element == (String, any ConvertibleToGeneratedContent) {
        var values: [String: GeneratedContent] = [:]
        var keys: [String] = []
        for (key, value) in properties {
            let content = value.generatedContent
            if let existing = values[key] {
                values[key] = try combine(existing, content).generatedContent
            } else {
                keys.append(key)
                values[key] = content
            }
        }
        self.init(kind: .structure(properties: values, orderedKeys: keys), id: id)
    }

    public init<S>(elements: S, id: GenerationID? = nil) where S: Sequence, S.Element == any ConvertibleToGeneratedContent {
        self.init(kind: .array(elements.map { $0.generatedContent }), id: id)
    }

    public init(_ value: some ConvertibleToGeneratedContent) {
        self = value.generatedContent
    }

    public init(_ value: some ConvertibleToGeneratedContent, id: GenerationID) {
        self = value.generatedContent
        self.id = id
    }

    /// Parses JSON text. Like Apple's, it accepts incomplete JSON (a prefix of a document): open
    /// strings, arrays and objects are closed and `isComplete` is `false`.
    public init(json: String) throws {
        var parser = PartialJSONParser(Array(json.utf8))
        self = try parser.parseDocument()
    }

    /// The content as compact JSON; object keys in `orderedKeys` order, integral numbers without a fraction.
    public var jsonString: String {
        var output = ""
        writeJSON(to: &output)
        return output
    }

    public func value<Value: ConvertibleFromGeneratedContent>(_ type: Value.Type = Value.self) throws -> Value {
        try Value(self)
    }

    public func value<Value: ConvertibleFromGeneratedContent>(
        _ type: Value.Type = Value.self,
        forProperty property: String
    ) throws -> Value {
        guard case .structure(let properties, _) = kind else {
            throw Self.decodingFailure("cannot read property '\(property)' of \(kindName), expected an object")
        }
        guard let value = properties[property] else {
            throw Self.decodingFailure("property '\(property)' is missing")
        }
        return try Value(value)
    }

    public func value<Value: ConvertibleFromGeneratedContent>(
        _ type: Value?.Type = Value?.self,
        forProperty property: String
    ) throws -> Value? {
        guard case .structure(let properties, _) = kind else {
            throw Self.decodingFailure("cannot read property '\(property)' of \(kindName), expected an object")
        }
        guard let value = properties[property] else { return nil }
        if case .null = value.kind { return nil }
        return try Value(value)
    }

    public var debugDescription: String { jsonString }

    /// Whether the content is a complete value (`false` for a prefix parsed by `init(json:)`).
    public var isComplete: Bool {
        guard complete else { return false }
        switch kind {
        case .array(let elements): return elements.allSatisfy(\.isComplete)
        case .structure(let properties, _): return properties.values.allSatisfy(\.isComplete)
        default: return true
        }
    }

    public static func == (lhs: GeneratedContent, rhs: GeneratedContent) -> Bool {
        lhs.kind == rhs.kind && lhs.id == rhs.id
    }

    var kindName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .structure: "an object"
        }
    }

    static func decodingFailure(_ message: String) -> LanguageModelSession.GenerationError {
        .decodingFailure(.init(debugDescription: message))
    }
}

// MARK: - JSON writing

extension GeneratedContent {
    func writeJSON(to output: inout String) {
        switch kind {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += formatJSONNumber(number)
        case .string(let text): writeJSONString(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.writeJSON(to: &output)
            }
            output += "]"
        case .structure(let properties, let orderedKeys):
            output += "{"
            var first = true
            var written = Set<String>()
            for key in orderedKeys + properties.keys.sorted() where !written.contains(key) {
                guard let value = properties[key] else { continue }
                written.insert(key)
                if !first { output += "," }
                first = false
                writeJSONString(key, to: &output)
                output += ":"
                value.writeJSON(to: &output)
            }
            output += "}"
        }
    }
}

func formatJSONNumber(_ number: Double) -> String {
    guard number.isFinite else { return "null" }
    if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
    return "\(number)"
}

func writeJSONString(_ text: String, to output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": output += "\\\""
        case "\\": output += "\\\\"
        case "\n": output += "\\n"
        case "\r": output += "\\r"
        case "\t": output += "\\t"
        case "\u{08}": output += "\\b"
        case "\u{0C}": output += "\\f"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
    }
    output += "\""
}

// MARK: - JSON parsing (accepts a prefix of a document)

/// The reader behind `GeneratedContent(json:)`: JSON or a prefix of it, read into generated
/// content whose every value says whether it is complete.
///
/// This module keeps its own reader rather than JSONCore's partial mode (`JSONReader.readPrefix`),
/// which `ChatCompletions` uses: it mirrors Apple's framework and depends on nothing, so it can
/// stand in for FoundationModels on its own (and is empty where FoundationModels exists, where
/// Apple's parser does this job); and it reads into what Apple's parser produces, which JSONCore's
/// values do not carry: completeness per value (`isComplete` of each element and property) and
/// numbers as `Double`.
struct PartialJSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws -> GeneratedContent {
        skipWhitespace()
        guard index < bytes.count else { throw error("empty JSON text") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    func error(_ message: String) -> LanguageModelSession.GenerationError {
        GeneratedContent.decodingFailure("invalid JSON at offset \(index): \(message)")
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    var atEnd: Bool { index >= bytes.count }

    mutating func parseValue() throws -> GeneratedContent {
        skipWhitespace()
        guard index < bytes.count else { throw error("expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let (text, complete) = try parseString()
            return GeneratedContent(kind: .string(text), isComplete: complete)
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    mutating func parseLiteral(_ word: String, _ kind: GeneratedContent.Kind) throws -> GeneratedContent {
        let expected = Array(word.utf8)
        var matched = 0
        while matched < expected.count, index < bytes.count {
            guard bytes[index] == expected[matched] else { throw error("invalid literal") }
            matched += 1
            index += 1
        }
        return GeneratedContent(kind: kind, isComplete: matched == expected.count)
    }

    mutating func parseNumber() throws -> GeneratedContent {
        let start = index
        while index < bytes.count,
            let c = Optional(bytes[index]),
            (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
        {
            index += 1
        }
        var text = String(decoding: bytes[start..<index], as: UTF8.self)
        let complete = !atEnd
        if let number = Double(text) { return GeneratedContent(kind: .number(number), isComplete: complete) }
        // A truncated number such as "1." or "-" or "1e".
        guard atEnd else { throw error("invalid number '\(text)'") }
        while !text.isEmpty, Double(text) == nil { text.removeLast() }
        return GeneratedContent(kind: .number(Double(text) ?? 0), isComplete: false)
    }

    mutating func parseString() throws -> (String, Bool) {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ parser: PartialJSONParser, _ upTo: Int) {
            if runStart < upTo {
                scalars.append(contentsOf: String(decoding: parser.bytes[runStart..<upTo], as: UTF8.self).unicodeScalars)
            }
        }
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                flush(self, index)
                index += 1
                return (String(scalars), true)
            }
            if c == UInt8(ascii: "\\") {
                flush(self, index)
                index += 1
                guard index < bytes.count else { return (String(scalars), false) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard let unit = readHex4() else { return (String(scalars), false) }
                    if (0xD800..<0xDC00).contains(unit) {
                        // A surrogate pair: expect \uDC00-\uDFFF next.
                        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                            index += 2
                            guard let low = readHex4() else { return (String(scalars), false) }
                            let value = 0x10000 + ((unit - 0xD800) << 10) + (low &- 0xDC00)
                            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                        } else if index >= bytes.count {
                            return (String(scalars), false)
                        } else {
                            scalars.append("\u{FFFD}")
                        }
                    } else {
                        scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                    }
                default:
                    throw error("invalid escape")
                }
                runStart = index
                continue
            }
            if c < 0x20 { throw error("control character in string") }
            index += 1
        }
        flush(self, index)
        return (String(scalars), false)
    }

    mutating func readHex4() -> UInt32? {
        guard index + 4 <= bytes.count else {
            index = bytes.count
            return nil
        }
        let text = String(decoding: bytes[index..<index + 4], as: UTF8.self)
        index += 4
        return UInt32(text, radix: 16)
    }

    mutating func parseArray() throws -> GeneratedContent {
        index += 1
        depth += 1
        defer { depth -= 1 }
        guard depth <= 512 else { throw error("nesting too deep") }
        var elements: [GeneratedContent] = []
        skipWhitespace()
        if atEnd { return GeneratedContent(kind: .array(elements), isComplete: false) }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return GeneratedContent(kind: .array(elements))
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            if atEnd { return GeneratedContent(kind: .array(elements), isComplete: false) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
                if atEnd { return GeneratedContent(kind: .array(elements), isComplete: false) }
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return GeneratedContent(kind: .array(elements))
            }
            throw error("expected ',' or ']'")
        }
    }

    mutating func parseObject() throws -> GeneratedContent {
        index += 1
        depth += 1
        defer { depth -= 1 }
        guard depth <= 512 else { throw error("nesting too deep") }
        var properties: [String: GeneratedContent] = [:]
        var keys: [String] = []
        func result(_ complete: Bool) -> GeneratedContent {
            GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys), isComplete: complete)
        }
        skipWhitespace()
        if atEnd { return result(false) }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return result(true)
        }
        while true {
            skipWhitespace()
            if atEnd { return result(false) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error("expected a property name") }
            let (key, keyComplete) = try parseString()
            if !keyComplete { return result(false) }
            skipWhitespace()
            if atEnd { return result(false) }
            guard bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            if atEnd { return result(false) }
            let value = try parseValue()
            if properties[key] == nil { keys.append(key) }
            properties[key] = value
            skipWhitespace()
            if atEnd { return result(false) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return result(true)
            }
            throw error("expected ',' or '}'")
        }
    }
}
#endif
