import JSONCore
import Testing

/// One JSON text, what it must read as, and the compact text it must write back as.
struct RoundTripCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let value: JSONValue
    let output: String

    init(_ name: String, _ input: String, _ value: JSONValue, _ output: String? = nil) {
        self.name = name
        self.input = input
        self.value = value
        self.output = output ?? input
    }

    var testDescription: String { name }

    static let all: [RoundTripCase] = [
        .init("null", "null", .null),
        .init("true", "true", true),
        .init("false", "false", false),
        .init("zero", "0", 0),
        .init("negative zero integer", "-0", 0, "0"),
        .init("negative zero double", "-0.0", .double(-0.0)),
        .init("integer stays integer", "42", .int(42)),
        .init("double stays double", "42.0", .double(42)),
        .init("2^53 + 1 exact", "9007199254740993", .int(9_007_199_254_740_993)),
        .init("Int.max", "9223372036854775807", .int(Int.max)),
        .init("Int.min", "-9223372036854775808", .int(Int.min)),
        .init("beyond Int.max becomes double", "9223372036854775808", .double(9_223_372_036_854_775_808), "9.223372036854776e+18"),
        .init("fraction", "0.1", 0.1),
        .init("shortest double", "0.30000000000000004", .double(0.1 + 0.2)),
        .init("exponent", "1e+16", .double(1e16)),
        .init("upper-case exponent", "2E-3", .double(0.002), "0.002"),
        .init("tiny exponent", "1e-07", .double(1e-7)),
        .init("smallest subnormal", "5e-324", .double(.leastNonzeroMagnitude)),
        .init("largest double", "1.7976931348623157e+308", .double(.greatestFiniteMagnitude)),
        .init("underflow becomes zero", "1e-400", .double(0), "0.0"),
        .init("many digits", "3.14159265358979323846264338327950288", .double(3.141592653589793), "3.141592653589793"),
        .init("empty string", #""""#, ""),
        .init("simple escapes", #""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t", #""\"\\/\b\f\n\r\t""#),
        .init("control characters escaped", #""\u0000\u001f""#, "\u{00}\u{1F}", #""\u0000\u001f""#),
        .init("unicode escape", #""\u00e9""#, "é", "\"é\""),
        .init("surrogate pair escape", #""\ud83d\ude00""#, "😀", "\"😀\""),
        .init("raw UTF-8", "\"日本語 💩\"", "日本語 💩"),
        .init("U+2028 passes through", "\"\u{2028}\"", "\u{2028}"),
        .init("DEL is allowed raw", "\"\u{7F}\"", "\u{7F}"),
        .init("empty array", "[]", []),
        .init("empty object", "{}", [:]),
        .init("whitespace around", " \t\r\n[ 1 , 2 ]\n", [1, 2], "[1,2]"),
        .init("key order kept", #"{"z":1,"a":2,"m":3}"#, ["z": 1, "a": 2, "m": 3]),
        .init("nested", #"{"a":[1,{"b":null}],"c":{"d":[]}}"#, ["a": [1, ["b": nil]], "c": ["d": []]]),
        .init(
            "mcp request", #"{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
            ["jsonrpc": "2.0", "id": "abc", "method": "tools/call", "params": ["name": "echo", "arguments": ["text": "hi"]]]),
    ]
}

@Suite("JSON round trip")
struct JSONRoundTripTests {
    @Test(arguments: RoundTripCase.all)
    func roundTrip(_ testCase: RoundTripCase) throws {
        let value = try JSONValue(parsing: testCase.input)
        #expect(value == testCase.value)
        if case .double(let expected) = testCase.value, case .double(let actual) = value {
            #expect(expected.sign == actual.sign, "sign of zero must survive")
        }
        let written = try value.jsonString()
        #expect(written == testCase.output)
        #expect(try JSONValue(parsing: written) == value)
    }

    @Test("compact output never contains a newline")
    func compactOutputIsOneLine() throws {
        let value: JSONValue = ["text": "line one\nline two\r\n", "list": ["a\n", ["b": "\u{0B}"]]]
        let bytes = try value.jsonBytes()
        #expect(!bytes.contains(0x0A))
        #expect(!bytes.contains(0x0D))
        #expect(try JSONValue(parsing: bytes) == value)
    }

    @Test("sorted keys are sorted at every level, unsorted keep insertion order")
    func sortedKeys() throws {
        let value: JSONValue = ["b": ["y": 1, "x": 2], "a": true]
        #expect(try value.jsonString() == #"{"b":{"y":1,"x":2},"a":true}"#)
        #expect(try value.jsonString(sortingKeys: true) == #"{"a":true,"b":{"x":2,"y":1}}"#)
    }

    @Test("pretty printing indents and reads back")
    func prettyPrinting() throws {
        let value: JSONValue = ["a": [1, 2], "b": [:], "c": []]
        let text = try JSONWriter(prettyPrints: true).string(from: value)
        #expect(text == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": []\n}")
        #expect(try JSONValue(parsing: text) == value)
    }

    @Test("non-finite doubles are refused with their location", arguments: [Double.infinity, -.infinity, .nan])
    func nonFiniteNumbers(_ number: Double) throws {
        let value: JSONValue = ["outer": ["ok", ["bad/key": .double(number)]]]
        let error = #expect(throws: JSONWriteError.self) { try value.jsonString() }
        #expect(error?.location.description == "/outer/1/bad~1key")
        #expect(value.description.contains(number.isNaN ? "NaN" : "Infinity"))
    }

    @Test("duplicate keys keep the last value under keepLast")
    func duplicateKeysKeepLast() throws {
        let value = try JSONReader(duplicateKeys: .keepLast).read(#"{"a":1,"b":2,"a":3}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == 3)
    }

    @Test("nesting exactly at the limit is accepted", arguments: [1, 2, 64, JSONReader.defaultMaximumDepth])
    func nestingAtLimit(_ depth: Int) throws {
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let value = try JSONReader(maximumDepth: depth).read(text)
        var level = 0
        var current = value
        while case .array(let elements) = current {
            level += 1
            current = elements.first ?? .null
        }
        #expect(level == depth)
    }

    @Test("objects nest to the limit too")
    func objectNesting() throws {
        let depth = 100
        let text = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(throws: Never.self) { try JSONReader(maximumDepth: depth).read(text) }
        let error = #expect(throws: JSONReadError.self) { try JSONReader(maximumDepth: depth - 1).read(text) }
        #expect(error?.reason == .nestingTooDeep)
        #expect(error?.offset == (depth - 1) * 5)
    }

    @Test("a million open brackets fail cleanly, also on a task's small stack")
    func hostileNesting() async throws {
        let text = String(repeating: "[", count: 1_000_000)
        let error = await Task.detached { () -> JSONReadError? in
            #expect(throws: JSONReadError.self) { try JSONValue(parsing: text) }
        }.value
        #expect(error?.reason == .nestingTooDeep)
        #expect(error?.offset == JSONReader.defaultMaximumDepth)
    }
}
