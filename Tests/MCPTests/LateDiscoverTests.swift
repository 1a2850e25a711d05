import OnDeviceMCPTestSupport
import Testing

@testable import MCP

@Suite("Handshake probe")
struct LateDiscoverTests {
    /// Under load the `server/discover` probe can time out although the server answers it:
    /// the server has then settled on 2026-07-28 and refuses the `initialize` fallback. The
    /// client must speak the modern era after all instead of failing.
    @Test("A discover answered after the probe's deadline still ends in the modern era")
    func lateDiscoverAnswer() async throws {
        let (clientEnd, serverEnd) = InProcessTransport.makePair()
        let server = Task {
            var held: JSONRPCRequest?
            for try await inbound in serverEnd.receive() {
                guard case .message(.request(let request)) = inbound else { continue }
                switch request.method {
                case "server/discover" where held == nil:
                    held = request  // answered only once the client has given up on it
                case "initialize":
                    if let discover = held {
                        try await serverEnd.send(.response(JSONRPCResponse(id: discover.id, result: Self.discoverResult)))
                    }
                    let refusal = JSONRPCError(
                        code: .unsupportedProtocolVersion, message: "this connection uses 2026-07-28",
                        data: ["supported": ["2026-07-28"], "requested": "2025-11-25"])
                    try await serverEnd.send(.errorResponse(JSONRPCErrorResponse(id: request.id, error: refusal)))
                case "server/discover":
                    try await serverEnd.send(.response(JSONRPCResponse(id: request.id, result: Self.discoverResult)))
                default:
                    try await serverEnd.send(.response(JSONRPCResponse(id: request.id, result: ["resultType": "complete", "tools": []])))
                }
            }
        }
        let configuration = MCPClient.Configuration(requestTimeout: .seconds(30), discoverTimeout: .milliseconds(50))
        let client = try await withHangGuard { try await MCPClient.connect(over: clientEnd, configuration: configuration) }
        #expect(client.protocolVersion == .v2026_07_28)
        #expect(try await client.listTools().isEmpty)
        await client.close()
        await serverEnd.close()
        _ = await server.result
    }

    static let discoverResult: JSONValue = [
        "resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": ["tools": [:]],
        "serverInfo": ["name": "late", "version": "1"],
    ]
}
