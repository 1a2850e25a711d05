import MCP
import OnDeviceMCPTestSupport
import Testing

@testable import MCPCommandLine

#if canImport(FoundationModels)
import FoundationModels
#else
import ChatCompletions
import PortableFoundationModels
#endif

/// `--model-url URL [--model NAME]` and `ONDEVICE_MCP_MODEL_URL` in process, with models
/// standing in for the program's (the real model client is tested against llama.cpp in
/// ChatCompletionsTests).
@Suite("A model server (--model-url)")
struct ModelServerCommandTests {
    static let url = "http://127.0.0.1:8080"

    /// What a connector was asked for.
    struct Request: Sendable, Equatable {
        let url: String
        let model: String?
    }

    /// Models whose server records what it is asked for into `requests` and answers with `script`'s model.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    static func models(_ script: ScriptedLanguageModel, recording requests: Recorder<Request>) -> TestModels {
        TestModels { url, model in
            requests.append(Request(url: url, model: model))
            return script.model
        }
    }

    /// A connector failing as a model server that is not there does.
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "the model server could not be reached: Connection refused\n(while listing models)" }
    }

    // MARK: In process

    @Test("A model server, from --model-url or ONDEVICE_MCP_MODEL_URL, is the command's model; other commands take none")
    func modelChoice() throws {
        let chatting: [(argv: [String], environment: [String: String], name: String?)] = [
            (["chat", "--model-url", Self.url], [:], nil),
            (["--model-url", Self.url], [:], nil),
            (["--config", "servers.json", "--model-url", Self.url, "--model", "m"], [:], "m"),
            ([], ["ONDEVICE_MCP_MODEL_URL": Self.url], nil),
            (["chat", "--data-dir", "d"], ["ONDEVICE_MCP_MODEL_URL": Self.url], nil),
        ]
        for row in chatting {
            let command = try CommandLineParser.parse(row.argv, environment: row.environment)
            #expect(Self.model(of: command) == .server(url: Self.url, name: row.name), "\(row.argv)")
        }
        // Without a model server, the on-device model; serve, tools and call take no model
        // whatever the environment says.
        let others: [(argv: [String], environment: [String: String], model: ModelChoice?)] = [
            ([], [:], .onDevice), (["chat"], [:], .onDevice), (["chat"], ["ONDEVICE_MCP_MODEL": "m"], .onDevice),
            (["serve"], ["ONDEVICE_MCP_MODEL_URL": Self.url], nil), (["tools"], ["ONDEVICE_MCP_MODEL_URL": Self.url], nil),
            (["call", "clock_now"], ["ONDEVICE_MCP_MODEL_URL": Self.url], nil),
        ]
        for row in others {
            let command = try CommandLineParser.parse(row.argv, environment: row.environment)
            #expect(Self.model(of: command) == row.model, "\(row.argv)")
        }
    }

    /// The model a command chats with; `nil` for commands that do not chat.
    static func model(of command: ParsedCommand) -> ModelChoice? {
        switch command {
        case .chat(let options), .start(let options): options.model
        default: nil
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A remote MCP server and a model server are reached in this process, model first")
    func remoteAndModelServerInProcess() async throws {
        let script = ScriptedLanguageModel([.reply { _ in "unused" }])
        let requests = Recorder<Request>()
        let reached = Recorder<String>()
        let run = await CommandRun(
            ["chat", "--url", "https://example.com/mcp", "--model-url", Self.url], input: "Hello\n",
            models: Self.models(script, recording: requests),
            remote: { url, _, _ in
                reached.append(url)
                throw Unreachable()
            })
        #expect(run.status == .failure)
        #expect(requests.values == [Request(url: Self.url, model: nil)])
        #expect(reached.values == ["https://example.com/mcp"])
        #expect(run.errors.hasPrefix("error: connecting to https://example.com/mcp failed: "), "\(run.errors)")
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
            builtInServer: exampleServer(in: directory), models: Self.models(script, recording: requests))
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.output.hasPrefix("In Tokyo it is"), "\(run.output)")
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
            models: Self.models(script, recording: requests))
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
            }, models: UnusableModels(failure: Unreachable()))
        #expect(run.status == .failure)
        #expect(run.status.rawValue == 3)
        #expect(run.output.isEmpty)
        #expect(
            run.errors
                == "error: cannot chat with the model at \(Self.url): the model server could not be reached: Connection refused (while listing models)\n"
        )
        #expect(started.values.isEmpty)
    }

    #if !canImport(FoundationModels)
    @Test("A model server's chat answers are greedy and stop at 1,024 tokens")
    func chatOptions() {
        let options = StandardModelSource.chatConfiguration.defaultOptions
        #expect(options.samplingMode == .greedy)
        #expect(options.maximumResponseTokens == 1024)
    }
    #endif

    @Test("A build without a model client (where FoundationModels exists) refuses a model server, exit 3")
    func noModelClient() async {
        let run = await CommandRun(["chat", "--model-url", Self.url], input: "Hello\n", models: UnusableModels())
        #expect(run.status == .failure)
        #expect(
            run.errors.hasPrefix("error: this build has no model client: --model-url (ONDEVICE_MCP_MODEL_URL) is for platforms without"))
    }
}
