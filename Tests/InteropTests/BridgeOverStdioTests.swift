import Foundation
import MCP
import MCPFoundationModels
import Testing

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

#if !canImport(FoundationModels)
/// The FoundationModels bridge end to end over stdio, against a server built on the official
/// Python SDK: the scripted model calls `mcp-server-time`'s tool through a real session.
@Suite("Bridge over stdio", .serialized, .timeLimit(.minutes(2)))
struct BridgeOverStdioTests {
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "prompt → the model calls mcp-server-time → the output reaches the transcript → the answer uses it",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment))
    func timeServerThroughTheBridge() async throws {
        let server = try PythonPeers.script("mcp-server-time")
        try await withServerProcess(server, arguments: ["--local-timezone", "UTC"], handshake: .auto) { client in
            let script = ScriptedLanguageModel([
                .callTool("get_current_time", arguments: GeneratedContent(properties: ["timezone": "Asia/Tokyo"])),
                .reply { request in "In Tokyo it is \(request.toolOutput("get_current_time") ?? "unknown")" },
            ])
            let session = try await MCPBridgedTool.session(client: client, model: script.model)
            let answer = try await session.respond(to: "What time is it in Tokyo?").content

            // The answer carries the tool's real output: a Tokyo timestamp.
            #expect(answer.hasPrefix("In Tokyo it is "))
            #expect(answer.contains("Asia/Tokyo"))
            #expect(answer.contains("+09:00"))

            // The transcript holds the call with its arguments and the tool's output.
            var sawCall = false
            var sawOutput = false
            for entry in session.transcript {
                switch entry {
                case .toolCalls(let calls):
                    sawCall = calls.contains { $0.toolName == "get_current_time" && $0.arguments.jsonString.contains("Asia/Tokyo") }
                case .toolOutput(let output):
                    sawOutput = output.toolName == "get_current_time"
                default:
                    continue
                }
            }
            #expect(sawCall)
            #expect(sawOutput)
            // The model was offered both of the server's tools, with schemas built from their inputSchemas.
            let offered = try #require(script.requests.first).tools.map(\.name).sorted()
            #expect(offered == ["convert_time", "get_current_time"])
        }
    }
}
#endif
