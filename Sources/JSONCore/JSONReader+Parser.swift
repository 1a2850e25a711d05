// The strict reader's parser: values, arrays and objects. Strings are in
// `JSONReader+Strings.swift`, numbers in `JSONReader+Numbers.swift`.

/// The bytes of JSON's grammar.
enum ASCII {
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C
    static let slash: UInt8 = 0x2F
    static let comma: UInt8 = 0x2C
    static let colon: UInt8 = 0x3A
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let lowerE: UInt8 = 0x65
    static let upperE: UInt8 = 0x45

    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
    }
}

/// One reading of one document: a cursor over UTF-8 bytes, bounded in depth.
struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let rejectsDuplicates: Bool
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, rejectsDuplicates: Bool) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.rejectsDuplicates = rejectsDuplicates
    }

    mutating func parseDocument() throws(JSONReadError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else {
            throw JSONReadError(.unexpectedEndOfInput, at: position, "expected a JSON value, found no input")
        }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < bytes.count {
            throw JSONReadError(
                .trailingContent, at: position,
                "expected the end of input after the value, found \(ASCII.describe(bytes[position]))")
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case ASCII.space, ASCII.newline, ASCII.carriageReturn, ASCII.tab:
                position += 1
            default:
                return
            }
        }
    }

    func endOfInput(_ expectation: String) -> JSONReadError {
        JSONReadError(.unexpectedEndOfInput, at: position, "unexpected end of input: expected \(expectation)")
    }

    mutating func parseValue(depth: Int) throws(JSONReadError) -> JSONValue {
        guard position < bytes.count else { throw endOfInput("a value") }
        switch bytes[position] {
        case ASCII.quote:
            return .string(try parseString())
        case ASCII.openBrace:
            return try parseObject(depth: depth + 1)
        case ASCII.openBracket:
            return try parseArray(depth: depth + 1)
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return try parseNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case let byte:
            throw JSONReadError(.unexpectedCharacter, at: position, "expected a value, found \(ASCII.describe(byte))")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
        let start = position
        let count = literal.utf8CodeUnitCount
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count {
            guard start + offset < bytes.count else {
                throw JSONReadError(.unexpectedEndOfInput, at: start + offset, "unexpected end of input inside '\(literal)'")
            }
            guard bytes[start + offset] == text[offset] else {
                throw JSONReadError(.unexpectedCharacter, at: start, "expected a value; did you mean '\(literal)'?")
            }
        }
        position = start + count
    }

    mutating func enter(depth: Int) throws(JSONReadError) {
        if depth > maximumDepth {
            throw JSONReadError(
                .nestingTooDeep, at: position,
                "arrays and objects are nested more than \(maximumDepth) levels deep")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONReadError) -> JSONValue {
        try enter(depth: depth)
        position += 1  // [
        skipWhitespace()
        guard position < bytes.count else { throw endOfInput("a value or ']'") }
        if bytes[position] == ASCII.closeBracket {
            position += 1
            return .array([])
        }
        var elements: [JSONValue] = []
        elements.reserveCapacity(4)
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput("',' or ']'") }
            switch bytes[position] {
            case ASCII.comma:
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == ASCII.closeBracket {
                    throw JSONReadError(.trailingComma, at: position - 1, "trailing comma before ']'")
                }
            case ASCII.closeBracket:
                position += 1
                return .array(elements)
            case let byte:
                throw JSONReadError(
                    .unexpectedCharacter, at: position,
                    "expected ',' or ']' after an array element, found \(ASCII.describe(byte))")
            }
        }
    }

    mutating func parseObject(depth: Int) throws(JSONReadError) -> JSONValue {
        try enter(depth: depth)
        position += 1  // {
        skipWhitespace()
        guard position < bytes.count else { throw endOfInput("a key or '}'") }
        if bytes[position] == ASCII.closeBrace {
            position += 1
            return .object(JSONObject())
        }
        // Most objects in MCP messages have a handful of keys: one allocation covers them.
        var entries: [JSONObject.Entry] = []
        entries.reserveCapacity(6)
        // Positions of keys, once the object is too large to search linearly for duplicates.
        var keyPositions: [String: Int]?
        while true {
            guard position < bytes.count else { throw endOfInput("a key") }
            guard bytes[position] == ASCII.quote else {
                if bytes[position] == ASCII.closeBrace {
                    throw JSONReadError(.trailingComma, at: position, "trailing comma before '}'")
                }
                throw JSONReadError(
                    .unexpectedCharacter, at: position,
                    "expected a string key, found \(ASCII.describe(bytes[position]))")
            }
            let keyStart = position
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput("':'") }
            guard bytes[position] == ASCII.colon else {
                throw JSONReadError(
                    .unexpectedCharacter, at: position,
                    "expected ':' after an object key, found \(ASCII.describe(bytes[position]))")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            let existing: Int?
            if let keyPositions {
                existing = keyPositions[key]
            } else {
                // Comparing lengths first skips most of String's Unicode-aware comparison.
                let length = key.utf8.count
                existing = entries.firstIndex { $0.key.utf8.count == length && JSONObject.sameKey($0.key, key) }
            }
            if let existing {
                if rejectsDuplicates {
                    throw JSONReadError(.duplicateKey, at: keyStart, "the key \"\(key)\" appears twice in one object")
                }
                entries[existing].value = value
            } else {
                entries.append(JSONObject.Entry(key: key, value: value))
                if keyPositions != nil {
                    keyPositions?[key] = entries.count - 1
                } else if entries.count > JSONObject.linearSearchLimit {
                    var positions: [String: Int] = [:]
                    for (position, entry) in entries.enumerated() {
                        positions[entry.key] = position
                    }
                    keyPositions = positions
                }
            }
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput("',' or '}'") }
            switch bytes[position] {
            case ASCII.comma:
                position += 1
                skipWhitespace()
            case ASCII.closeBrace:
                position += 1
                return .object(JSONObject(uniqueEntries: entries))
            case let byte:
                throw JSONReadError(
                    .unexpectedCharacter, at: position,
                    "expected ',' or '}' after an object value, found \(ASCII.describe(byte))")
            }
        }
    }
}
