import Foundation
import OnDeviceMCPTestSupport
import Testing

/// Runs the built `ondevice-mcp` with `input` on standard input, then closed, in this
/// process's environment without the model variables, plus `environment`.
private func runOndeviceMCP(
    _ arguments: [String], input: String = "", environment: [String: String] = [:], hangGuard: Duration
) async throws -> SpawnedProcess.Outcome {
    var variables = ProcessInfo.processInfo.environment
    variables["ONDEVICE_MCP_MODEL_URL"] = nil
    variables["ONDEVICE_MCP_MODEL"] = nil
    variables["ONDEVICE_MCP_MODEL_API_KEY"] = nil
    variables.merge(environment) { _, new in new }
    let process = try SpawnedProcess.launch(try BuiltProducts.ondeviceMCP(), arguments: arguments, environment: variables)
    if !input.isEmpty {
        _ = await process.write(input)
    }
    return try await process.finish(hangGuard: hangGuard)
}

extension RealModelTests {
    // Here, in the real model's serialized suite, so that it never runs beside another model test.
    /// `ondevice-mcp --model-url URL` as a user runs it: ondevice-mcp chats with the server's
    /// model in its own process.
    @Test("ondevice-mcp --model-url: the main job chats with SmolLM2 (an answer, exit 0); an unknown model is exit 3, naming the server's")
    func commandLine() async throws {
        // Greedy, and at most 128 tokens a request: the CLI sets neither, the server's defaults do.
        try await ModelServer.with(serverArguments: ["--temp", "0", "--n-predict", "128"]) { root in
            let home = try TemporaryDirectory()
            defer { home.remove() }
            // The main job's notes go to the default data directory: here, a temporary one.
            let chat = try await runOndeviceMCP(
                ["--model-url", root.absoluteString], input: "What time is it?\n",
                environment: ["HOME": home.path, "XDG_DATA_HOME": home.path], hangGuard: Self.hangLimit)
            #expect(chat.status == .exited(0), "\(chat.standardErrorTail)")
            #expect(!chat.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(chat.standardErrorTail)")
            #expect(chat.standardErrorTail.contains("Chatting with the model at \(root.absoluteString)"), "\(chat.standardErrorTail)")
            #expect(!chat.standardErrorTail.contains("error:"), "\(chat.standardErrorTail)")

            let unknown = try await runOndeviceMCP(
                ["chat", "--model-url", root.absoluteString, "--model", "no-such-model", "--data-dir", home.path], input: "Hello\n",
                hangGuard: Self.hangLimit)
            #expect(unknown.status == .exited(3))
            #expect(unknown.output.isEmpty)
            let message = unknown.standardErrorTail
            #expect(message.hasPrefix("error: cannot chat with the model at \(root.absoluteString): "), "\(message)")
            #expect(message.contains("has no model no-such-model; it has: ") && message.contains(".gguf"), "\(message)")
            #expect(message.split(separator: "\n").count == 1, "\(message)")
        }
    }
}

extension RealModelTests {
    @Test("ONDEVICE_MCP_MODEL_API_KEY reaches a server that wants a key; without it the refusal is one line, exit 3")
    func apiKey() async throws {
        let key = "test-key-\(UInt64.random(in: 1...UInt64.max))"
        try await ModelServer.with(serverArguments: ["--api-key", key, "--temp", "0", "--n-predict", "128"]) { root in
            let home = try TemporaryDirectory()
            defer { home.remove() }
            let keyed = try await runOndeviceMCP(
                ["chat", "--model-url", root.absoluteString, "--data-dir", home.path], input: "What time is it?\n",
                environment: ["ONDEVICE_MCP_MODEL_API_KEY": key], hangGuard: Self.hangLimit)
            #expect(keyed.status == .exited(0), "\(keyed.standardErrorTail)")
            #expect(keyed.standardErrorTail.contains("Chatting with the model at \(root.absoluteString)"), "\(keyed.standardErrorTail)")
            // The key got through: the model server answered the turn. What it answered is the
            // small model's (the time in the tool's output changes it from run to run), and may be
            // a loop that the degenerate-output detector cuts and reports: either way, no refusal.
            #expect(!keyed.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(keyed.standardErrorTail)")
            #expect(
                !keyed.standardErrorTail.contains("refused the credentials") && !keyed.output.contains("refused the credentials")
                    && !keyed.standardErrorTail.contains("error:"),
                "\(keyed.output) \(keyed.standardErrorTail)")

            let refused = try await runOndeviceMCP(
                ["chat", "--model-url", root.absoluteString, "--data-dir", home.path], input: "What time is it?\n",
                hangGuard: Self.hangLimit)
            #expect(refused.status == .exited(3))
            let message = refused.standardErrorTail
            #expect(message.contains("refused the credentials (HTTP 401)"), "\(message)")
            #expect(message.split(separator: "\n").count == 1, "\(message)")
        }
    }
}

/// `ondevice-mcp --model-url URL` without a model server: no model needed.
@Suite("ondevice-mcp --model-url")
struct ModelCommandTests {
    @Test("A model server that is not there: one line naming it, exit 3 (from --model-url and from ONDEVICE_MCP_MODEL_URL)")
    func unreachable() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let limit = Sanitizers.stretched(.seconds(60))
        let runs = [
            try await runOndeviceMCP(
                ["chat", "--model-url", "http://127.0.0.1:1", "--data-dir", home.path], input: "Hello\n", hangGuard: limit),
            try await runOndeviceMCP(
                [], input: "Hello\n", environment: ["ONDEVICE_MCP_MODEL_URL": "http://127.0.0.1:1", "XDG_DATA_HOME": home.path],
                hangGuard: limit),
        ]
        for outcome in runs {
            #expect(outcome.status == .exited(3))
            #expect(outcome.output.isEmpty)
            let message = outcome.standardErrorTail
            #expect(
                message.hasPrefix("error: cannot chat with the model at http://127.0.0.1:1: the model server could not be reached"),
                "\(message)")
            #expect(message.hasSuffix("\n") && message.split(separator: "\n").count == 1, "\(message)")
        }
        // Nothing started: no notes were written.
        #expect(try home.contents().isEmpty)
    }
}
