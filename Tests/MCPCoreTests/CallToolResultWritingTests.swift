import MCPCore
import Testing

/// A tool result written straight to JSON text (`CallToolResult.write`), as a server writes a
/// call's answer: byte for byte what the result's JSON value and the message's encoding make.
@Suite struct CallToolResultWritingTests {
    static let results: [(String, CallToolResult)] = [
        ("one text block", .text("hello")),
        ("text that needs escaping", .text("quote \" backslash \\ newline \n tab \t bell \u{07} é ✓ 😀")),
        ("an empty text", .text("")),
        ("no blocks", CallToolResult(content: [])),
        ("a tool error", .error("it broke")),
        (
            "several blocks of every kind",
            CallToolResult(content: [
                .text("first"),
                .image(data: "aGk=", mimeType: "image/png"),
                .audio(data: "AAA=", mimeType: "audio/wav"),
                .resourceLink(["type": "resource_link", "uri": "file:///a", "name": "a"]),
                .resource(["type": "resource", "resource": ["uri": "file:///b", "text": "b"]]),
                .other(["type": "future", "x": [1, 2.5, true, nil]]),
                .text("last"),
            ])
        ),
        ("structured content", .structured(["city": "Paris", "temperature": 21.5, "tags": ["a", "b"], "none": nil])),
        ("structured content that is not an object", CallToolResult(content: [.text("3")], structuredContent: 3)),
        ("_meta", CallToolResult(content: [.text("x")], isError: true, meta: ["trace": "abc", "n": 1])),
    ]

    @Test("A result is written as its JSON value would be, byte for byte, with or without structured content", arguments: results)
    func writtenMatchesTheJSONValue(name: String, result: CallToolResult) throws {
        for includingStructuredContent in [true, false] {
            var expected = result
            if !includingStructuredContent { expected.structuredContent = nil }
            var written: [UInt8] = []
            try result.write(into: &written, includingStructuredContent: includingStructuredContent)
            #expect(written == (try expected.json.jsonBytes()), "\(includingStructuredContent ? "with" : "without") structured content")
            #expect(try CallToolResult(json: JSONReader().read(written)) == expected)
        }
    }

    @Test(
        "A response written around a result is the response message's encoding", arguments: [RequestID.int(7), .string("a\"b"), .int(-1)])
    func encodedResponseMatchesTheMessage(id: RequestID) throws {
        let result = CallToolResult.structured(["ok": true])
        let line = try JSONRPCMessage.encodedResponse(id: id) { (buffer: inout [UInt8]) throws(JSONWriteError) in
            try result.write(into: &buffer, includingStructuredContent: true)
        }
        let message = JSONRPCMessage.response(JSONRPCResponse(id: id, result: result.json))
        #expect(line == (try message.encoded()))
        #expect(try JSONRPCMessage(parsing: line) == message)
    }

    @Test func aNonFiniteNumberIsRefusedAsByTheTree() {
        let result = CallToolResult(content: [.text("x")], structuredContent: ["value": .double(.nan)])
        var buffer: [UInt8] = []
        #expect(throws: JSONWriteError.self) { try result.write(into: &buffer, includingStructuredContent: true) }
        #expect(throws: JSONWriteError.self) { try result.json.jsonBytes() }
        var skipped: [UInt8] = []
        #expect(throws: Never.self) { try result.write(into: &skipped, includingStructuredContent: false) }
    }
}
