import Foundation
import OnDeviceMCPTestSupport
import Testing

/// `ondevice-mcp --model-url URL` as a user runs it: ondevice-mcp (no HTTP, no Foundation) hands
/// the command over to ondevice-mcp-http, which chats with the model of a chat-completions server.
@Suite("ondevice-mcp --model-url, through ondevice-mcp-http", .serialized)
struct ModelCommandTests {
    static let hangLimit = Sanitizers.stretched(.seconds(300))

    /// Runs the built `ondevice-mcp` with `input` on standard input, then closed.
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws -> SpawnedProcess.Outcome {
        var variables = ProcessInfo.processInfo.environment
        variables["ONDEVICE_MCP_MODEL_URL"] = nil
        variables["ONDEVICE_MCP_MODEL"] = nil
        variables.merge(environment) { _, new in new }
        let process = try SpawnedProcess.launch(try BuiltProducts.ondeviceMCP(), arguments: arguments, environment: variables)
        if !input.isEmpty {
            _ = await process.write(input)
        }
        return try await process.finish(hangGuard: hangLimit)
    }

    @Test(
        "The main job chats with llama.cpp's SmolLM2 (an answer, exit 0); an unknown model is exit 3, naming the server's",
        .enabled(if: ModelServer.enabled, "needs llama-cpp-server in .venv (scripts/bootstrap-python.sh)"))
    func realModel() async throws {
        try await ModelServer.with { root in
            let home = try TemporaryDirectory()
            defer { home.remove() }
            // The main job's notes go to the default data directory: here, a temporary one.
            let chat = try await Self.run(
                ["--model-url", root.absoluteString], input: "What time is it?\n",
                environment: ["HOME": home.path, "XDG_DATA_HOME": home.path])
            #expect(chat.status == .exited(0), "\(chat.standardErrorTail)")
            #expect(!chat.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(chat.standardErrorTail)")
            #expect(chat.standardErrorTail.contains("Chatting with the model at \(root.absoluteString)"), "\(chat.standardErrorTail)")
            #expect(!chat.standardErrorTail.contains("error:"), "\(chat.standardErrorTail)")

            let unknown = try await Self.run(
                ["chat", "--model-url", root.absoluteString, "--model", "no-such-model", "--data-dir", home.path], input: "Hello\n")
            #expect(unknown.status == .exited(3))
            #expect(unknown.output.isEmpty)
            let message = unknown.standardErrorTail
            #expect(message.hasPrefix("error: cannot chat with the model at \(root.absoluteString): "), "\(message)")
            #expect(message.contains("has no model no-such-model; it has: ") && message.contains(".gguf"), "\(message)")
            #expect(message.split(separator: "\n").count == 1, "\(message)")
        }
    }

    @Test("A model server that is not there: one line naming it, exit 3 (from --model-url and from ONDEVICE_MCP_MODEL_URL)")
    func unreachable() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let runs = [
            try await Self.run(["chat", "--model-url", "http://127.0.0.1:1", "--data-dir", home.path], input: "Hello\n"),
            try await Self.run([], input: "Hello\n", environment: ["ONDEVICE_MCP_MODEL_URL": "http://127.0.0.1:1", "XDG_DATA_HOME": home.path]),
        ]
        for outcome in runs {
            #expect(outcome.status == .exited(3))
            #expect(outcome.output.isEmpty)
            let message = outcome.standardErrorTail
            #expect(message.hasPrefix("error: cannot chat with the model at http://127.0.0.1:1: the model server could not be reached"), "\(message)")
            #expect(message.hasSuffix("\n") && message.split(separator: "\n").count == 1, "\(message)")
        }
        // Nothing started: no notes were written.
        #expect(try home.contents().isEmpty)
    }
}
