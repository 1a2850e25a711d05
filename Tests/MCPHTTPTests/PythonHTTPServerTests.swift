import Foundation
import MCP
import MCPCore
import OnDeviceMCPTestSupport
import Testing

@testable import MCPHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `body` with `Tests/MCPHTTPTests/Peers/streamable_server.py` in `mode` on a free
/// loopback port, stopping it afterwards.
private func withServer<T: Sendable>(_ mode: String, _ body: (HTTPPeer) async throws -> T) async throws -> T {
    try await HTTPPeer.with("streamable_server.py", [mode], directory: "Tests/MCPHTTPTests/Peers", body)
}

private let hangLimit = Sanitizers.stretched(.seconds(120))

/// The handshakes the SDK speaks, and the version each ends on.
private let handshakes: [(MCPClient.Handshake, ProtocolVersion)] = [
    (.auto, .v2026_07_28), (.version(.v2025_11_25), .v2025_11_25), (.version(.v2025_06_18), .v2025_06_18),
    (.version(.v2025_03_26), .v2025_03_26), (.version(.v2024_11_05), .v2024_11_05),
]

@Suite("HTTP transport against the Python SDK's server", .enabled(if: HTTPPeer.enabled), .serialized)
struct PythonHTTPServerTests {
    @Test(
        "Streamable HTTP in every era the SDK speaks: tools/list, tools/call, mirrored arguments, progress, calls at once",
        arguments: ["streamable", "streamable-json"])
    func everyEra(mode: String) async throws {
        try await withServer(mode) { server in
            try await withHangGuard(hangLimit, "the \(mode) server's eras") {
                for (handshake, version) in handshakes {
                    let configuration = MCPClient.Configuration(
                        handshake: handshake, requestTimeout: .seconds(60), discoverTimeout: .seconds(60))
                    let client = try await MCPClient.connect(to: .http(try server.url("/mcp")), configuration: configuration)
                    #expect(client.protocolVersion == version, "handshake \(handshake)")
                    #expect(client.serverInfo.name == "ondevice-http-peer")

                    // Before any tools/list: in 2026-07-28 the server refuses the call without its
                    // Mcp-Param-Region header (-32020); the transport learns it and sends it again.
                    let first = try await client.callTool(name: "locate", arguments: ["region": "Zürich "])
                    #expect(first.content.first?.text == "region Zürich ", "handshake \(handshake)")

                    let tools = try await client.listTools().map(\.name).sorted()
                    #expect(tools == ["add", "hold", "locate", "release", "slow"], "handshake \(handshake)")
                    let sum = try await client.callTool(name: "add", arguments: ["a": 2, "b": 3])
                    #expect(sum.content.first?.text == "5", "handshake \(handshake)")
                    let located = try await client.callTool(name: "locate", arguments: ["region": "eu-west"])
                    #expect(located.content.first?.text == "region eu-west", "handshake \(handshake)")
                    let unknown = try await client.callTool(name: "nope")
                    #expect(unknown.isError == true)

                    let reports = Recorded<Double>()
                    let slow = try await client.callTool(name: "slow", arguments: ["steps": 3]) { reports.append($0.progress) }
                    #expect(slow.content.first?.text == "done", "handshake \(handshake)")
                    if mode == "streamable" {
                        // Progress comes on the call's event stream, before its result.
                        #expect(reports.values == [1, 2, 3], "handshake \(handshake)")
                        // And it comes while the call runs: this call ends only after release(),
                        // which is called from its first progress report.
                        let releases = Recorded<Task<CallToolResult, any Error>>()
                        let held = try await client.callTool(name: "hold") { _ in
                            releases.append(Task { try await client.callTool(name: "release") })
                        }
                        #expect(held.content.first?.text == "released", "handshake \(handshake)")
                        let release = try #require(releases.values.first)
                        #expect(try await release.value.content.first?.text == "ok")
                    }

                    // Calls in flight at once over one connection.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<8 {
                            group.addTask {
                                let result = try await client.callTool(name: "add", arguments: ["a": .int(index), "b": 100])
                                #expect(result.content.first?.text == "\(index + 100)")
                            }
                        }
                        try await group.waitForAll()
                    }
                    await client.close()
                }
            }
        }
    }

    @Test("the 2024-11-05 HTTP+SSE transport, found by the fallback")
    func legacySSE() async throws {
        try await withServer("sse") { server in
            try await withHangGuard(hangLimit, "HTTP+SSE") {
                for handshake in [MCPClient.Handshake.auto, .version(.v2024_11_05)] {
                    let client = try await MCPClient.connect(
                        to: .http(try server.url("/sse")),
                        configuration: MCPClient.Configuration(
                            handshake: handshake, requestTimeout: .seconds(60), discoverTimeout: .seconds(60)))
                    #expect(try await client.listTools().map(\.name).sorted() == ["add", "hold", "locate", "release", "slow"])
                    let sum = try await client.callTool(name: "add", arguments: ["a": 20, "b": 22])
                    #expect(sum.content.first?.text == "42")
                    let reports = Recorded<Double>()
                    _ = try await client.callTool(name: "slow", arguments: ["steps": 2]) { reports.append($0.progress) }
                    #expect(reports.values == [1, 2])
                    await client.close()
                }
            }
        }
    }

    @Test("a session the server ended is renewed: the next call redoes the handshake and succeeds")
    func sessionRenewal() async throws {
        try await withServer("streamable") { server in
            try await withHangGuard(hangLimit, "session renewal") {
                let transport = try HTTPClientTransport(url: try server.url("/mcp"))
                let client = try await MCPClient.connect(
                    over: transport, configuration: MCPClient.Configuration(handshake: .version(.v2025_11_25), requestTimeout: .seconds(60))
                )
                let first = try #require(transport.core.sessionID)
                // End the session behind the client's back.
                var request = URLRequest(url: try server.url("/mcp"))
                request.httpMethod = "DELETE"
                request.setValue(first, forHTTPHeaderField: "Mcp-Session-Id")
                request.setValue("2025-11-25", forHTTPHeaderField: "MCP-Protocol-Version")
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                let sum = try await client.callTool(name: "add", arguments: ["a": 1, "b": 1])
                #expect(sum.content.first?.text == "2")
                let second = try #require(transport.core.sessionID)
                #expect(second != first)
                await client.close()
            }
        }
    }

}

@Suite("HTTP transport over URLSession")
struct URLSessionTransportTests {
    @Test("nothing listening: connect fails at once with a network error")
    func nothingListening() async throws {
        // Port 1 on this machine: nothing listens there.
        let url = try #require(URL(string: "http://127.0.0.1:1/mcp"))
        let error = await #expect(throws: HTTPTransportError.network) {
            try await MCPClient.connect(to: .http(url), configuration: MCPClient.Configuration(requestTimeout: .seconds(60)))
        }
        #expect(error?.detail.contains("127.0.0.1") == true || error?.detail.contains("connect") == true)
    }
}
