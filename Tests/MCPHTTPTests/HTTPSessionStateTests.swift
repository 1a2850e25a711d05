import Foundation
import MCPCore
import Testing

@testable import HTTPClientCore
@testable import MCPHTTP

private let url = URL(string: "https://example.com/mcp")!

private func header(_ outgoing: HTTPSessionState.Outgoing, _ name: String) -> String? {
    outgoing.headers.last { $0.name.lowercased() == name.lowercased() }?.value
}

private let initialize = JSONRPCMessage.request(
    JSONRPCRequest(
        id: 1, method: "initialize",
        params: ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]]))

private func modernCall(_ name: String, id: RequestID = 9) -> JSONRPCMessage {
    .request(
        JSONRPCRequest(
            id: id, method: "tools/call",
            params: [
                "name": .string(name), "arguments": [:],
                "_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": [:]],
            ]))
}

/// A state after a completed handshake with session `s-1` at `2025-06-18`.
private func handshaken() -> HTTPSessionState {
    var state = HTTPSessionState(endpoint: url)
    let outgoing = state.prepare(initialize)
    state.succeeded(HTTPResponseHead(status: 200, headers: ["Mcp-Session-Id": "s-1"]), for: outgoing)
    state.observe(
        .response(
            JSONRPCResponse(
                id: 1, result: ["protocolVersion": "2025-06-18", "capabilities": [:], "serverInfo": ["name": "s", "version": "1"]])))
    _ = state.prepare(.notification(JSONRPCNotification(method: "notifications/initialized")))
    return state
}

@Suite("HTTP session state")
struct HTTPSessionStateTests {
    @Test("initialize goes without version or session; later requests carry both")
    func handshakeHeaders() {
        var state = HTTPSessionState(endpoint: url)
        let first = state.prepare(initialize)
        #expect(header(first, "Accept") == "application/json, text/event-stream")
        #expect(header(first, "Content-Type") == "application/json")
        #expect(header(first, "MCP-Protocol-Version") == nil)
        #expect(header(first, "Mcp-Session-Id") == nil)

        state = handshaken()
        let list = state.prepare(.request(JSONRPCRequest(id: 2, method: "tools/list")))
        #expect(header(list, "MCP-Protocol-Version") == "2025-06-18")
        #expect(header(list, "Mcp-Session-Id") == "s-1")
        #expect(list.sessionID == "s-1")
        #expect(header(list, "Mcp-Method") == nil)
        #expect(state.hasSession)
        #expect(state.initializedNotification != nil)
    }

    @Test("a session id outside visible ASCII is not kept")
    func invalidSessionID() {
        var state = HTTPSessionState(endpoint: url)
        let outgoing = state.prepare(initialize)
        state.succeeded(HTTPResponseHead(status: 200, headers: ["Mcp-Session-Id": "bad id"]), for: outgoing)
        #expect(state.sessionID == nil)
    }

    @Test("2026-07-28 requests carry the version, method and name headers and no session")
    func modernHeaders() {
        var state = handshaken()
        let call = state.prepare(modernCall("get_weather"))
        #expect(header(call, "MCP-Protocol-Version") == "2026-07-28")
        #expect(header(call, "Mcp-Method") == "tools/call")
        #expect(header(call, "Mcp-Name") == "get_weather")
        #expect(header(call, "Mcp-Session-Id") == nil)
        #expect(state.isModern)
        let discover = state.prepare(
            .request(
                JSONRPCRequest(
                    id: 3, method: "server/discover", params: ["_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"]])))
        #expect(header(discover, "Mcp-Method") == "server/discover")
        #expect(header(discover, "Mcp-Name") == nil)
        let read = state.prepare(
            .request(
                JSONRPCRequest(
                    id: 4, method: "resources/read",
                    params: ["uri": "file:///a b", "_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"]])))
        #expect(header(read, "Mcp-Name") == "file:///a b")
    }

    @Test(
        "header values outside plain ASCII use the base64 sentinel (the spec's examples)",
        arguments: [
            ("us-west1", "us-west1"), ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="), (" padded ", "=?base64?IHBhZGRlZCA=?="),
            ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="), ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
        ])
    func headerValues(value: String, expected: String) {
        #expect(HTTPSessionState.headerValue(value) == expected)
    }

    @Test("arguments annotated with x-mcp-header are mirrored into Mcp-Param headers on 2026-07-28 calls")
    func mirroredArguments() throws {
        var state = HTTPSessionState(endpoint: url)
        let schema: JSONValue = [
            "type": "object",
            "properties": [
                "region": ["type": "string", "x-mcp-header": "Region"],
                "limit": ["type": "integer", "x-mcp-header": "Limit"],
                "dry": ["type": "boolean", "x-mcp-header": "Dry-Run"],
                "filter": ["type": "object", "properties": ["owner": ["type": "string", "x-mcp-header": "Owner"]]],
                "query": ["type": "string"],
            ],
        ]
        state.learnTools(from: [
            "tools": [["name": "execute_sql", "inputSchema": schema], ["name": "plain", "inputSchema": ["type": "object"]]]
        ])
        let call = state.prepare(
            .request(
                JSONRPCRequest(
                    id: 1, method: "tools/call",
                    params: [
                        "name": "execute_sql",
                        "arguments": ["region": "Hello, 世界", "limit": 42, "dry": false, "filter": ["owner": "ana"], "query": "SELECT 1"],
                        "_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"],
                    ])))
        #expect(header(call, "Mcp-Param-Region") == "=?base64?SGVsbG8sIOS4lueVjA==?=")
        #expect(header(call, "Mcp-Param-Limit") == "42")
        #expect(header(call, "Mcp-Param-Dry-Run") == "false")
        #expect(header(call, "Mcp-Param-Owner") == "ana")
        #expect(call.headers.filter { $0.name.hasPrefix("Mcp-Param-") }.count == 4)
        // Absent or null arguments send no header.
        let sparse = state.prepare(
            .request(
                JSONRPCRequest(
                    id: 2, method: "tools/call",
                    params: [
                        "name": "execute_sql", "arguments": ["region": nil],
                        "_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"],
                    ])))
        #expect(!sparse.headers.contains { $0.name.hasPrefix("Mcp-Param-") })
    }

    @Test(
        "invalid x-mcp-header annotations mirror nothing",
        arguments: [
            ["a": ["type": "number", "x-mcp-header": "A"]],
            ["a": ["type": "string", "x-mcp-header": "bad name"]],
            ["a": ["type": "string", "x-mcp-header": ""]],
            ["a": ["type": "string", "x-mcp-header": "Dup"], "b": ["type": "string", "x-mcp-header": "dup"]],
            ["a": ["type": "string", "x-mcp-header": 7]],
        ] as [JSONValue])
    func invalidAnnotations(properties: JSONValue) {
        #expect(HTTPSessionState.parameterHeaders(in: ["type": "object", "properties": properties]) == nil)
    }

    @Test("what a status means")
    func verdicts() {
        var state = handshaken()
        let withSession = state.prepare(.request(JSONRPCRequest(id: 2, method: "tools/list")))
        #expect(state.verdict(status: 200, for: withSession) == .success)
        #expect(state.verdict(status: 202, for: withSession) == .success)
        #expect(state.verdict(status: 401, for: withSession) == .unauthorized)
        #expect(state.verdict(status: 404, for: withSession) == .sessionExpired("s-1"))
        #expect(state.verdict(status: 500, for: withSession) == .failure)
        let modern = state.prepare(modernCall("x"))
        #expect(state.verdict(status: 404, for: modern) == .failure)
    }

    @Test("the first POST failing like an HTTP+SSE server's asks for the fallback, once", arguments: [400, 404, 405])
    func legacyFallback(status: Int) {
        var state = HTTPSessionState(endpoint: url)
        let outgoing = state.prepare(initialize)
        #expect(
            state.failureAction(status: status, body: Array("Not Found".utf8), contentType: "text/plain", for: outgoing) == .tryLegacySSE)
        let first = state.beginLegacyProbe()
        let second = state.beginLegacyProbe()
        #expect(first && !second)
        #expect(state.failureAction(status: status, body: [], contentType: "", for: outgoing) != .tryLegacySSE)
        state.legacyProbeSucceeded(postURL: URL(string: "https://example.com/messages?session=1")!)
        let next = state.prepare(.request(JSONRPCRequest(id: 2, method: "tools/list")))
        #expect(next.url.absoluteString == "https://example.com/messages?session=1")
        #expect(header(next, "MCP-Protocol-Version") == nil)
    }

    @Test("a modern JSON-RPC error is the server's answer, not a reason to fall back")
    func modernErrorsAreAnswers() {
        var state = HTTPSessionState(endpoint: url)
        let discover = state.prepare(
            .request(
                JSONRPCRequest(
                    id: 5, method: "server/discover", params: ["_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"]])))
        let unsupported = Array(
            #"{"jsonrpc":"2.0","id":5,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01"]}}}"#
                .utf8)
        guard
            case .deliver(let answer) = state.failureAction(status: 400, body: unsupported, contentType: "application/json", for: discover)
        else {
            Issue.record("expected the error to be delivered")
            return
        }
        #expect(answer.id == 5)
        #expect(answer.error.code == .unsupportedProtocolVersion)
        let unknown = Array(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}"#.utf8)
        guard case .deliver(let named) = state.failureAction(status: 404, body: unknown, contentType: "application/json", for: discover)
        else {
            Issue.record("expected the error to be delivered")
            return
        }
        #expect(named.id == 5)
    }

    @Test("a discover probe refused at the HTTP level is answered with an error the client falls back on")
    func refusedProbe() {
        var state = HTTPSessionState(endpoint: url)
        _ = state.beginLegacyProbe()
        let discover = state.prepare(
            .request(
                JSONRPCRequest(
                    id: 5, method: "server/discover", params: ["_meta": ["io.modelcontextprotocol/protocolVersion": "2026-07-28"]])))
        guard
            case .refuseProbe(let answer) = state.failureAction(
                status: 400, body: Array("Bad Request: Missing session ID".utf8), contentType: "text/plain", for: discover)
        else {
            Issue.record("expected a refused probe")
            return
        }
        #expect(answer.id == 5)
        #expect(answer.error.code == .methodNotFound)
    }

    @Test("other failures carry the status and the start of the body")
    func failures() {
        let state = handshaken()
        let call = state.outgoing(.request(JSONRPCRequest(id: 3, method: "tools/call", params: ["name": "x"])), modernVersion: nil)
        let body = Array(("<html>\n  <body>Internal   error " + String(repeating: "x", count: 500) + "</body></html>").utf8)
        guard case .fail(let error) = state.failureAction(status: 500, body: body, contentType: "text/html", for: call) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error == .httpStatus)
        #expect(error.status == 500)
        #expect(error.detail.contains("HTTP 500 (Internal Server Error): <html> <body>Internal   error"))
        #expect(error.detail.count < 300)
    }

    @Test("an expired session is renewed once, by whoever sees it first")
    func renewal() {
        var state = handshaken()
        let first = state.beginRenewal(expired: "s-1")
        let second = state.beginRenewal(expired: "s-1")
        #expect(first && !second)
        state.renewed(sessionID: "s-2", version: "2025-06-18")
        let stale = state.beginRenewal(expired: "s-1")
        #expect(!stale)
        let next = state.prepare(.request(JSONRPCRequest(id: 7, method: "tools/list")))
        #expect(header(next, "Mcp-Session-Id") == "s-2")
    }

    @Test("the GET stream and DELETE carry the session, and Last-Event-ID when resuming")
    func streamAndDelete() {
        var state = handshaken()
        let headers = state.streamHeaders(resumingAfter: "ev-3")
        #expect(headers.contains { $0 == ("Accept", "text/event-stream") })
        #expect(headers.contains { $0 == ("Mcp-Session-Id", "s-1") })
        #expect(headers.contains { $0 == ("MCP-Protocol-Version", "2025-06-18") })
        #expect(headers.contains { $0 == ("Last-Event-ID", "ev-3") })
        let end = state.sessionEnd()
        #expect(end?.method == "DELETE")
        #expect(end?.header("mcp-session-id") == "s-1")
        state = HTTPSessionState(endpoint: url)
        #expect(state.sessionEnd() == nil)
    }

    @Test(
        "the resource metadata URL comes from the challenge",
        arguments: [
            (
                #"Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource""#,
                "https://example.com/.well-known/oauth-protected-resource"
            ),
            (
                #"Bearer realm="mcp", error="invalid_token", resource_metadata="https://a.example/m\/x", scope="read""#,
                "https://a.example/m/x"
            ),
            ("Bearer resource_metadata=https://b.example/meta, realm=x", "https://b.example/meta"),
            (#"Bearer realm="resource_metadata=https://evil.example/""#, nil),
            ("Basic realm=x", nil),
            (#"Bearer resource_metadata="not a url""#, nil),
        ] as [(String, String?)])
    func resourceMetadata(challenge: String, expected: String?) {
        #expect(HTTPSessionState.resourceMetadata(inChallenge: challenge)?.absoluteString == expected)
    }

    @Test(
        "loopback hosts",
        arguments: [
            ("localhost", true), ("LOCALHOST", true), ("127.0.0.1", true), ("127.1.2.3", true), ("::1", true), ("[::1]", true),
            ("api.localhost", true), ("128.0.0.1", false), ("example.com", false), ("127.0.0.1.example.com", false),
            ("localhost.example.com", false), ("10.0.0.1", false),
        ])
    func loopback(host: String, expected: Bool) {
        #expect(HTTPEngine.isLoopback(host: host) == expected)
    }
}
