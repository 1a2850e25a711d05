import Testing

@testable import MCP

/// A frame's text and the id the scanner must find in it.
struct IDScanCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var expected: RequestID?
    var testDescription: String { name }

    static let all: [IDScanCase] = [
        IDScanCase(name: "id first", text: #"{"id":7,"jsonrpc":"2.0","method":"x"}"#, expected: 7),
        IDScanCase(name: "negative id", text: #"{"id":-12,"method":"x"}"#, expected: -12),
        IDScanCase(name: "whitespace everywhere", text: " \t{ \"id\" :\n 3 , \"method\":\"x\"}", expected: 3),
        IDScanCase(
            name: "id after a big result",
            text: #"{"jsonrpc":"2.0","result":{"text":""# + String(repeating: "y", count: 3000) + #""},"id":9}"#,
            expected: 9),
        IDScanCase(name: "string id", text: #"{"jsonrpc":"2.0","id":"call-7","method":"x"}"#, expected: "call-7"),
        IDScanCase(name: "string id with escapes", text: #"{"id":"a\"b\\c\u00e9\ud83d\ude00"}"#, expected: "a\"b\\cé😀"),
        IDScanCase(name: "escaped key", text: #"{"\u0069d":5}"#, expected: 5),
        IDScanCase(name: "a key that only starts like id", text: #"{"idx":1,"id":2}"#, expected: 2),
        IDScanCase(
            name: "nested id keys do not count",
            text: #"{"params":{"id":1,"list":[{"id":2}]},"x":[[{"id":3}]],"id":4}"#, expected: 4),
        IDScanCase(name: "nested id keys only", text: #"{"params":{"id":1}}"#, expected: nil),
        IDScanCase(name: "strings with brackets and quotes are skipped", text: #"{"a":"}{\"id\":1","id":2}"#, expected: 2),
        IDScanCase(name: "truncated after the id", text: #"{"jsonrpc":"2.0","id":11,"method":"tools/call","par"#, expected: 11),
        IDScanCase(name: "excessive depth after the id", text: #"{"id":12,"params":"# + String(repeating: "[", count: 5000), expected: 12),
        IDScanCase(name: "truncated before the id", text: #"{"jsonrpc":"2.0","method":"x","params":{"a":"#, expected: nil),
        IDScanCase(name: "truncated inside the id", text: #"{"id":"abc"#, expected: nil),
        IDScanCase(name: "digits at the very end may go on", text: #"{"id":12"#, expected: nil),
        IDScanCase(name: "fractional id", text: #"{"id":1.5}"#, expected: nil),
        IDScanCase(name: "exponent id", text: #"{"id":1e3}"#, expected: nil),
        IDScanCase(name: "null id", text: #"{"id":null}"#, expected: nil),
        IDScanCase(name: "object id", text: #"{"id":{"a":1}}"#, expected: nil),
        IDScanCase(
            name: "an id past the scanned prefix", text: #"{"a":""# + String(repeating: "z", count: 5000) + #"","id":1}"#, expected: nil),
        IDScanCase(name: "not an object", text: #"[{"id":1}]"#, expected: nil),
        IDScanCase(name: "not JSON", text: "hello", expected: nil),
        IDScanCase(name: "empty", text: "", expected: nil),
        IDScanCase(name: "an id too large for Int", text: #"{"id":99999999999999999999}"#, expected: nil),
    ]
}

/// The first bytes of an over-long frame, and the id an answer to it may name.
struct RequestPrefixCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var expected: RequestID?
    var testDescription: String { name }

    static let all: [RequestPrefixCase] = [
        RequestPrefixCase(
            name: "a request cut in its params", text: #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","argu"#,
            expected: 1),
        RequestPrefixCase(name: "id first, method later", text: #"{"id":"r","method":"x","jsonrpc":"2.0","params":[1,2"#, expected: "r"),
        RequestPrefixCase(name: "a complete request before the cut", text: #"{"jsonrpc":"2.0","id":2,"method":"ping"}   "#, expected: 2),
        RequestPrefixCase(name: "method not yet read", text: #"{"jsonrpc":"2.0","id":3,"meth"#, expected: nil),
        RequestPrefixCase(name: "no jsonrpc member", text: #"{"id":4,"method":"x","params":{"a"#, expected: nil),
        RequestPrefixCase(name: "a response", text: #"{"jsonrpc":"2.0","id":5,"result":{"content":"#, expected: nil),
        RequestPrefixCase(
            name: "a broken member before the id", text: #"{"jsonrpc":"2.0","x":tru,"id":7,"method":"x","params":{"#, expected: nil),
        RequestPrefixCase(
            name: "a NUL inside a string", text: "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"a\u{0}b\",\"params\":{", expected: nil),
        RequestPrefixCase(
            name: "a bad escape in a skipped value", text: #"{"jsonrpc":"2.0","x":"\q","id":9,"method":"x","params":{"#, expected: nil),
        RequestPrefixCase(
            name: "a number that is not JSON", text: #"{"jsonrpc":"2.0","x":01,"id":10,"method":"x","params":{"#, expected: nil),
        RequestPrefixCase(
            name: "an id that is not a string or integer", text: #"{"jsonrpc":"2.0","id":1.5,"method":"x","params":{"#, expected: nil),
        RequestPrefixCase(name: "a duplicate id", text: #"{"jsonrpc":"2.0","id":11,"id":12,"method":"x","params":{"#, expected: nil),
        RequestPrefixCase(name: "not an object", text: #"[{"jsonrpc":"2.0","id":13,"method":"x"},"#, expected: nil),
        RequestPrefixCase(name: "not JSON", text: "hello", expected: nil),
    ]
}

@Suite("Id scanner for unreadable frames")
struct FrameIDScannerTests {
    @Test(arguments: IDScanCase.all)
    func scan(_ testCase: IDScanCase) {
        #expect(FrameIDScanner.id(in: Array(testCase.text.utf8)) == testCase.expected)
    }

    @Test("A slice of a larger buffer is scanned from its own start")
    func slice() {
        let bytes = Array("xxxx{\"id\":5}".utf8)
        #expect(FrameIDScanner.id(in: bytes[4...]) == 5)
    }

    @Test(
        "An over-long frame names its id only when its first bytes are a well-formed prefix of a request", arguments: RequestPrefixCase.all)
    func requestPrefix(_ testCase: RequestPrefixCase) {
        #expect(FrameIDScanner.requestID(inPrefix: Array(testCase.text.utf8), reader: JSONReader()) == testCase.expected)
    }
}
