import MCP
import MCPPlatform
import Testing

@testable import MCP

/// A server the test writes by hand: it answers each request with what `answer` returns
/// (`nil`: never answers), on one end of an in-process transport pair. For misbehaviour
/// that a real ``MCPServer`` never shows.
struct ScriptedServer: Sendable {
    let clientEnd: InProcessTransport
    private let serverEnd: InProcessTransport
    private let task: Task<Void, Never>

    init(_ answer: @escaping @Sendable (JSONRPCRequest) -> JSONValue?) {
        let (clientEnd, serverEnd) = InProcessTransport.makePair()
        self.clientEnd = clientEnd
        self.serverEnd = serverEnd
        task = Task {
            do {
                for try await inbound in serverEnd.receive() {
                    guard case .message(.request(let request)) = inbound, let result = answer(request) else { continue }
                    try await serverEnd.send(.response(JSONRPCResponse(id: request.id, result: result)))
                }
            } catch {}
        }
    }

    /// Sends a message of the test's choosing to the client.
    func send(_ message: JSONRPCMessage) async throws {
        try await serverEnd.send(message)
    }

    /// Ends the server.
    func stop() async {
        await serverEnd.close()
        await task.value
    }

    /// The `initialize` result of a 2025-11-25 server with tools.
    static let initializeResult: JSONValue = [
        "protocolVersion": "2025-11-25", "capabilities": ["tools": [:]], "serverInfo": ["name": "scripted", "version": "1"],
    ]
}
