import MCPCore
import Testing

/// JSON-RPC classification through `import MCPCore` alone, which also proves that MCPCore
/// re-exports JSONCore (`JSONValue`, `JSONReader`) for its users.
@Suite struct JSONRPCMessageTests {
    @Test func requestIsClassifiedAndWrittenBack() throws {
        let line = #"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}"#
        let message = try JSONRPCMessage(parsing: Array(line.utf8))
        let expected = JSONRPCRequest(id: 7, method: "tools/list", params: [:])
        #expect(message == .request(expected))
        #expect(message.id == 7)
        let json: JSONValue = message.json
        #expect(try JSONRPCMessage(json) == message)
    }

    @Test func notificationHasNoID() throws {
        let json: JSONValue = ["jsonrpc": "2.0", "method": "notifications/initialized"]
        let message = try JSONRPCMessage(json)
        #expect(message == .notification(JSONRPCNotification(method: "notifications/initialized")))
        #expect(message.id == nil)
    }

    @Test func textThatIsNotJSONIsAParseError() {
        do {
            _ = try JSONRPCMessage(parsing: Array("{".utf8))
            Issue.record("\"{\" was accepted")
        } catch {
            #expect(error.error.code == .parseError)
            #expect(error.id == nil)
        }
    }

    /// A JSON value that is not a valid message, and the ids its error must carry.
    struct InvalidCase: Sendable, CustomTestStringConvertible {
        let name: String
        let json: JSONValue
        let answerID: RequestID?
        let apparentID: RequestID?
        var testDescription: String { name }
    }

    static let invalidCases: [InvalidCase] = [
        InvalidCase(
            name: "a request with the wrong version", json: ["jsonrpc": "1.0", "id": 3, "method": "ping"], answerID: nil, apparentID: 3),
        InvalidCase(name: "a request without a version", json: ["id": 3, "method": "ping"], answerID: nil, apparentID: 3),
        InvalidCase(
            name: "a method that is not a string", json: ["jsonrpc": "2.0", "id": 900, "method": ["roots": []]], answerID: nil,
            apparentID: 900),
        InvalidCase(
            name: "a request with bad params", json: ["jsonrpc": "2.0", "id": "p", "method": "ping", "params": 1], answerID: "p",
            apparentID: "p"),
        InvalidCase(
            name: "a response with the wrong version", json: ["jsonrpc": "1.0", "id": 4, "result": [:]], answerID: nil, apparentID: 4),
        InvalidCase(
            name: "an error response with a bad error", json: ["jsonrpc": "2.0", "id": 5, "error": "bad"], answerID: nil, apparentID: 5),
        InvalidCase(name: "an object with an id and nothing else", json: ["jsonrpc": "2.0", "id": 6], answerID: nil, apparentID: 6),
        InvalidCase(
            name: "a request whose id is an object", json: ["jsonrpc": "2.0", "id": ["x": 1], "method": "ping"], answerID: nil,
            apparentID: nil),
    ]

    @Test("Only a request's id names the answer to an invalid message; a response's id is only apparent", arguments: invalidCases)
    func answerIDs(_ testCase: InvalidCase) {
        do {
            _ = try JSONRPCMessage(testCase.json)
            Issue.record("\(testCase.json) was accepted")
        } catch {
            #expect(error.id == testCase.answerID)
            #expect(error.apparentID == testCase.apparentID)
            #expect(error.response == .errorResponse(JSONRPCErrorResponse(id: testCase.answerID, error: error.error)))
        }
    }

    /// Messages of every kind, for the directly written envelope.
    static let encodedCases: [(String, JSONRPCMessage)] = [
        (
            "request with params",
            .request(JSONRPCRequest(id: 7, method: "tools/call", params: ["name": "echo", "arguments": ["text": "h\u{e9}\"llo\n"]]))
        ),
        ("request with a string id and no params", .request(JSONRPCRequest(id: "a\"b", method: "ping"))),
        ("notification with params", .notification(JSONRPCNotification(method: "notifications/cancelled", params: ["requestId": 3]))),
        ("notification without params", .notification(JSONRPCNotification(method: "notifications/initialized"))),
        ("response", .response(JSONRPCResponse(id: 12, result: ["content": [["type": "text", "text": "hi"]], "isError": false]))),
        ("response with an empty result", .response(JSONRPCResponse(id: -1, result: [:]))),
        ("error response", .errorResponse(JSONRPCErrorResponse(id: "x", error: .methodNotFound("nope")))),
        ("error response without an id", .errorResponse(JSONRPCErrorResponse(id: nil, error: .invalidRequest("bad")))),
        ("batch", .batch([["jsonrpc": "2.0", "id": 1, "result": [:]], ["jsonrpc": "2.0", "method": "m"]])),
    ]

    @Test("A message is written as its JSON value would be, byte for byte", arguments: encodedCases)
    func encodedMatchesTheJSONValue(name: String, message: JSONRPCMessage) throws {
        let bytes = try message.encoded()
        #expect(bytes == (try message.json.jsonBytes()))
        #expect(try JSONRPCMessage(parsing: bytes) == message)
    }

    @Test func aNonFiniteNumberIsLocatedInTheWholeMessage() {
        let message = JSONRPCMessage.response(JSONRPCResponse(id: 1, result: ["value": .double(.infinity)]))
        #expect(throws: JSONWriteError.self) { try message.encoded() }
        do {
            _ = try message.encoded()
        } catch {
            #expect(error.location.description == "/result/value")
        }
    }
}
