#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif
import MCP
import OnDeviceMCPTestSupport
import Testing

@testable import MCPCommandLine

/// `--model-url URL [--model NAME]` and `ONDEVICE_MCP_MODEL_URL` in process, with a model
/// connector standing in for ondevice-mcp-http's (the real one is tested against llama.cpp in
/// ChatCompletionsTests).
@Suite("A model server (--model-url)")
struct ModelServerCommandTests {
    static let url = "http://127.0.0.1:8080"

    /// What a connector was asked for.
    struct Request: Sendable, Equatable {
        let url: String
        let model: String?
    }

    /// A connector recording what it is asked for into `requests` and answering with `script`'s model.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    static func connector(_ script: ScriptedLanguageModel, recording requests: Recorder<Request>) -> ModelConnector {
        { url, model in
            requests.append(Request(url: url, model: model))
            return script.model
        }
    }

    /// A connector failing as a model server that is not there does.
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "the model server could not be reached: Connection refused\n(while listing models)" }
    }

    // MARK: Handing over

    @Test("ondevice-mcp (no connectors) hands a command with a model server over to ondevice-mcp-http")
    func handOverDecision() throws {
        let handedOver: [(argv: [String], environment: [String: String])] = [
            (["chat", "--model-url", Self.url], [:]),
            (["--model-url", Self.url], [:]),
            (["--config", "servers.json", "--model-url", Self.url, "--model", "m"], [:]),
            ([], ["ONDEVICE_MCP_MODEL_URL": Self.url]),
            (["chat", "--data-dir", "d"], ["ONDEVICE_MCP_MODEL_URL": Self.url]),
        ]
        for row in handedOver {
            let command = try CommandLineParser.parse(row.argv, environment: row.environment)
            let reason = command.handOverReason(remote: nil, model: nil)
            #expect(reason?.contains("a model server (--model-url, ONDEVICE_MCP_MODEL_URL)") == true, "\(row.argv)")
            // ondevice-mcp-http has connectors: it runs the command itself.
            #expect(command.handOverReason(remote: { _, _, _ in throw Unreachable() }, model: nil) == nil)
            #expect(command.handOverReason(remote: nil, model: { _, _ in throw Unreachable() }) == nil)
        }
        // Without a model server, or for the commands that take no model, ondevice-mcp runs it:
        // serve stays without Foundation whatever the environment says.
        let kept: [(argv: [String], environment: [String: String])] = [
            ([], [:]), (["chat"], [:]), (["serve"], ["ONDEVICE_MCP_MODEL_URL": Self.url]),
            (["tools"], ["ONDEVICE_MCP_MODEL_URL": Self.url]), (["call", "clock_now"], ["ONDEVICE_MCP_MODEL_URL": Self.url]),
            (["chat"], ["ONDEVICE_MCP_MODEL": "m"]),
        ]
        for row in kept {
            let command = try CommandLineParser.parse(row.argv, environment: row.environment)
            #expect(command.handOverReason(remote: nil, model: nil) == nil, "\(row.argv)")
        }
        // A remote MCP server is handed over for its own reason.
        let remote = try CommandLineParser.parse(["chat", "--url", "https://e.com/mcp", "--model-url", Self.url])
        #expect(remote.handOverReason(remote: nil, model: nil) == "remote servers need")
    }

    // MARK: Chatting

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("chat --model-url URL --model NAME: the connector gets both, the model's tool call runs, the answer is printed")
    func chatWithModelServer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = ScriptedLanguageModel([
            .callTool("clock_now", json: #"{"timezone": "Asia/Tokyo"}"#),
            .reply { request in "In Tokyo it is \(request.toolOutput("clock_now") ?? "unknown")" },
        ])
        let requests = Recorder<Request>()
        let run = await CommandRun(
            ["chat", "--model-url", Self.url, "--model", "smollm2"], input: "What time is it in Tokyo?\n",
            builtInServer: exampleServer(in: directory), modelConnector: Self.connector(script, recording: requests))
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.output.hasPrefix("In Tokyo it is "), "\(run.output)")
        #expect(run.output.contains("+09:00 (Asia/Tokyo, "))
        #expect(run.errors.hasPrefix("Chatting with the model smollm2 at \(Self.url); its tools: "))
        #expect(requests.values == [Request(url: Self.url, model: "smollm2")])
        #expect(script.requests.count == 2)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("The main job with ONDEVICE_MCP_MODEL_URL chats with that server's model")
    func startWithEnvironment() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = ScriptedLanguageModel([.reply { _ in "Hello from the model server." }])
        let requests = Recorder<Request>()
        let run = await CommandRun(
            [], input: "Hello\n", builtInServer: exampleServer(in: directory), environment: ["ONDEVICE_MCP_MODEL_URL": Self.url],
            modelConnector: Self.connector(script, recording: requests))
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.output == "Hello from the model server.\n")
        #expect(run.errors.hasPrefix("Chatting with the model at \(Self.url); "))
        #expect(requests.values == [Request(url: Self.url, model: nil)])
    }

    @Test(
        "A model server that cannot be used: one line on standard error, exit 3, before any server starts",
        arguments: [["chat", "--model-url", url], ["--model-url", url]])
    func unusableModelServer(_ argv: [String]) async throws {
        let started = Recorder<String?>()
        let run = await CommandRun(
            argv, input: "Hello\n",
            builtInServer: { directory in
                started.append(directory)
                return MCPServer(name: "unused", version: "1")
            }, modelConnector: { _, _ in throw Unreachable() })
        #expect(run.status == .failure)
        #expect(run.status.rawValue == 3)
        #expect(run.output.isEmpty)
        #expect(
            run.errors
                == "error: cannot chat with the model at \(Self.url): the model server could not be reached: Connection refused (while listing models)\n"
        )
        #expect(started.values.isEmpty)
    }

    @Test("ondevice-mcp-http without a model client (where FoundationModels exists) refuses a model server, exit 3")
    func noModelClient() async {
        let run = await CommandRun(["chat", "--model-url", Self.url], input: "Hello\n", remote: { _, _, _ in throw Unreachable() })
        #expect(run.status == .failure)
        #expect(run.errors.hasPrefix("error: this build has no model client: --model-url (ONDEVICE_MCP_MODEL_URL) is for platforms without"))
    }
}
