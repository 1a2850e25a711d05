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

    @Test func wrongVersionKeepsTheID() {
        do {
            _ = try JSONRPCMessage(["jsonrpc": "1.0", "id": "a", "method": "ping"])
            Issue.record("a 1.0 message was accepted")
        } catch {
            #expect(error.error.code == .invalidRequest)
            #expect(error.id == "a")
        }
    }
}
