import Foundation
import MCP
import MCPCore
import MCPFoundationModels
import OnDeviceMCPTestSupport
import Testing

@testable import MCPHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// MCPClient against the official Python SDK's Streamable HTTP server
/// (`Tests/Interop/http/streamable_server.py`), on a free loopback port.
@Suite(
    "Streamable HTTP against the Python SDK's server", .serialized,
    .enabled(if: HTTPPeer.enabled, "needs .venv/bin/python (scripts/bootstrap-python.sh)"))
struct StreamableInteropTests {
    /// The eras the SDK speaks over HTTP, as the client asks for them.
    static let eras: [MCPClient.Handshake] = [.auto, .version(.v2025_11_25), .version(.v2025_06_18), .version(.v2025_03_26)]

    static func configuration(_ handshake: MCPClient.Handshake, timeout: Duration = .seconds(30)) -> MCPClient.Configuration {
        MCPClient.Configuration(handshake: handshake, requestTimeout: Sanitizers.stretched(timeout))
    }

    /// Runs `body` with a client of a fresh server started with `arguments`.
    static func withServer(
        _ arguments: [String] = [], handshake: MCPClient.Handshake,
        _ body: @escaping @Sendable (MCPClient, HTTPPeer) async throws -> Void
    ) async throws {
        try await HTTPPeer.with("streamable_server.py", arguments) { peer in
            let url = try peer.url()
            try await withHangGuard(Sanitizers.stretched(.seconds(90)), "streamable_server \(arguments)") {
                let client = try await MCPClient.connect(to: .http(url), configuration: configuration(handshake))
                do {
                    try await body(client, peer)
                } catch {
                    await client.close()
                    throw error
                }
                await client.close()
            }
        }
    }

    @Test("tools/list follows the server's pages in every era", arguments: eras)
    func pagination(_ handshake: MCPClient.Handshake) async throws {
        try await Self.withServer(["--page-size", "10", "--extra-tools", "30"], handshake: handshake) { client, _ in
            let tools = try await client.listTools()
            #expect(tools.count == 37)
            #expect(tools.prefix(3).map(\.name) == ["echo", "add", "slow"])
            #expect(Set(tools.map(\.name)).count == 37)
        }
    }

    @Test(
        "tools/call with a JSON response and with an SSE response carrying progress before the result",
        arguments: [(["--json-response"], MCPClient.Handshake.version(.v2025_11_25)), ([], .version(.v2025_11_25)), ([], .auto)])
    func callResponses(_ arguments: [String], _ handshake: MCPClient.Handshake) async throws {
        try await Self.withServer(arguments, handshake: handshake) { client, _ in
            let echo = try await client.callTool(name: "echo", arguments: ["text": "héllo"])
            #expect(echo.text == "héllo")
            let progress = Recorder<Double>()
            let slow = try await client.callTool(name: "slow", arguments: ["seconds": 0.2, "steps": 4]) { report in
                progress.append(report.progress)
            }
            #expect(slow.text == "slept")
            if arguments.contains("--json-response") {
                // A JSON response carries one message: the SDK drops the progress notifications.
                #expect(progress.values.isEmpty)
            } else {
                // Every report arrived, in order, before the result (the call returns after them).
                #expect(progress.values == [1, 2, 3, 4])
            }
        }
    }

    @Test("A call that times out is cancelled and the connection goes on", arguments: [MCPClient.Handshake.auto, .version(.v2025_11_25)])
    func cancellation(_ handshake: MCPClient.Handshake) async throws {
        try await Self.withServer([], handshake: handshake) { client, _ in
            await #expect(throws: MCPClientError.timedOut) {
                try await client.callTool(name: "slow", arguments: ["seconds": 30, "steps": 30], timeout: .seconds(1))
            }
            let after = try await client.callTool(name: "echo", arguments: ["text": "after"])
            #expect(after.text == "after")
        }
    }

    @Test("A session the server forgets (404) is renewed by a new handshake, and the call succeeds")
    func forgottenSession() async throws {
        try await Self.withServer([], handshake: .version(.v2025_11_25)) { client, peer in
            let first = try await client.callTool(name: "echo", arguments: ["text": "first"])
            #expect(first.text == "first")
            // The server drops every session, from outside MCP.
            var request = URLRequest(url: try peer.url("/admin/forget"))
            request.httpMethod = "POST"
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let again = try await client.callTool(name: "echo", arguments: ["text": "again"])
            #expect(again.text == "again")
        }
    }

    @Test(
        "The server restarts between calls; the next call reaches the new one",
        arguments: [MCPClient.Handshake.auto, .version(.v2025_11_25)])
    func restart(_ handshake: MCPClient.Handshake) async throws {
        let first = try await HTTPPeer.start("streamable_server.py")
        let port = first.port
        let url = try first.url()
        let client: MCPClient
        do {
            client = try await MCPClient.connect(to: .http(url), configuration: Self.configuration(handshake))
        } catch {
            await first.stop()
            throw error
        }
        let one = try await client.callTool(name: "echo", arguments: ["text": "one"])
        #expect(one.text == "one")
        await first.stop()
        try await HTTPPeer.with("streamable_server.py", ["--port", "\(port)"]) { _ in
            let two = try await withHangGuard(Sanitizers.stretched(.seconds(60)), "a call after the restart") {
                try await client.callTool(name: "echo", arguments: ["text": "two"])
            }
            #expect(two.text == "two")
        }
        await client.close()
    }

    #if !canImport(FoundationModels)
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "tools/list_changed reaches a running MCPSessionProvider: the next turn offers the new tool",
        arguments: [MCPClient.Handshake.version(.v2025_11_25), .auto])
    func listChangedReachesProvider(_ handshake: MCPClient.Handshake) async throws {
        try await Self.withServer([], handshake: handshake) { client, _ in
            let offered = Recorder<[String]>()
            let model = ScriptedLanguageModel { request in
                offered.append(request.tools.map(\.name))
                return .text("ok")
            }
            let provider = MCPSessionProvider(client: client, model: model.model, configuration: .init(policy: .allowAll))
            _ = try await provider.respond(to: "hello")
            #expect(offered.values.last?.contains("weather_now") == false)
            var events = provider.events.makeAsyncIterator()
            _ = try await client.callTool(name: "add_tool", arguments: ["name": "weather_now"])
            while let event = await events.next() {
                if case .toolListChanged = event { break }
            }
            _ = try await provider.respond(to: "what is the weather now?")
            #expect(offered.values.last?.contains("weather_now") == true)
            await provider.close()
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("The bridge end to end over HTTP: the model calls the server's tool and the answer uses its output", arguments: eras.prefix(2))
    func bridge(_ handshake: MCPClient.Handshake) async throws {
        try await Self.withServer([], handshake: handshake) { client, _ in
            let script = ScriptedLanguageModel([
                .callTool("echo", arguments: GeneratedContent(properties: ["text": "from the model"])),
                .reply { request in "The server said: \(request.toolOutput("echo") ?? "nothing")" },
            ])
            // The server's tools carry no annotations, so they may reach the network: the app allows them.
            let provider = MCPSessionProvider(client: client, model: script.model, configuration: .init(policy: .allowAll))
            let answer = try await provider.respond(to: "Echo something")
            #expect(answer.hasPrefix("The server said:"))
            #expect(answer.contains("from the model"))
            let session = try await provider.session()
            #expect(session.transcript.contains { if case .toolOutput(let output) = $0 { output.toolName == "echo" } else { false } })
            await provider.close()
        }
    }
    #endif
}
