import ChatCompletions
import Foundation
import JSONCore
import JSONSchema
import MCP
import MCPCore
import MCPFoundationModels
import OnDeviceMCPExamples
import OnDeviceMCPTestSupport
import PortableFoundationModels
import Testing

/// The bridge and the chat loop against a real model: llama.cpp's server with SmolLM2-135M.
@Suite(
    "A real model (llama.cpp, SmolLM2-135M)", .serialized,
    .enabled(if: ModelServer.enabled, "needs llama-cpp-server in .venv (scripts/bootstrap-python.sh)"))
struct RealModelTests {
    static let hangLimit = Sanitizers.stretched(.seconds(300))
    /// Greedy and short: the same answers each run, in seconds.
    static let configuration = ChatCompletionsConfiguration(defaultOptions: GenerationOptions(temperature: 0, maximumResponseTokens: 160))

    @Test("connect reads the model, its context size and its tokenizer from the server")
    func connect() async throws {
        try await ModelServer.with(contextSize: 2048) { root in
            try await withHangGuard(Self.hangLimit, "connecting") {
                let model = try await ChatCompletionsModel.connect(to: root, configuration: Self.configuration)
                #expect(model.contextSize == 2048)
                #expect(model.countsWithServerTokenizer)
                #expect(model.model.hasSuffix(".gguf"))
                #expect(model.baseURL.path == "/v1")
                let count = try await model.tokenCount(for: "Hello world, how are you?")
                #expect(count == 7)
                let unknown = await #expect(throws: ChatCompletionsError.self) {
                    _ = try await ChatCompletionsModel.connect(to: root, model: "no-such-model")
                }
                #expect(unknown == .unknownModel)
                #expect(unknown.map { "\($0)" }?.contains(".gguf") == true)
            }
        }
    }

    @Test("A server that is not there is unreachable, with the address in the message")
    func unreachable() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:1"))
        let error = await #expect(throws: ChatCompletionsError.self) { _ = try await ChatCompletionsModel.connect(to: url) }
        #expect(error == .unreachable)
        #expect(error.map { "\($0)" }?.contains("127.0.0.1:1") == true)
    }

    @Test("A guided turn over the example server: the model's tool call runs over MCP and the answer follows it")
    func guidedTurn() async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Self.hangLimit, "a guided turn") {
                try await withExampleServer { client in
                    let backend = try await ChatCompletionsModel.connect(to: root, configuration: Self.configuration)
                    let provider = MCPSessionProvider(client: client, model: backend.systemLanguageModel)
                    let answer = try await provider.respond(to: "What time is it now?")
                    let session = try await provider.session()
                    let calls = session.transcript.compactMap { entry -> Transcript.ToolCalls? in
                        if case .toolCalls(let calls) = entry { calls } else { nil }
                    }
                    let outputs = session.transcript.filter { if case .toolOutput = $0 { true } else { false } }
                    #expect(!calls.isEmpty, "the model called no tool; it answered \(answer)")
                    #expect(outputs.count == calls.map(\.count).reduce(0, +))
                    #expect(!answer.isEmpty)
                    // The answer is the last entry, after the tool's output.
                    if case .response? = session.transcript.last {} else { Issue.record("the transcript does not end with the answer") }
                    await provider.close()
                }
            }
        }
    }
}

/// Runs `body` with a client of the example server (clock and notes, notes in a temporary directory), in process.
func withExampleServer<T: Sendable>(_ body: (MCPClient) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory()
    let server = MCPServer(name: "ondevice-mcp", version: "1.0")
    try await registerExampleTools(on: server, dataDirectory: directory.url, roots: []) { _ in }
    let (clientEnd, serverEnd) = InProcessTransport.makePair()
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run(on: serverEnd) }
        let client = try await MCPClient.connect(over: clientEnd)
        do {
            let result = try await body(client)
            await client.close()
            try await group.waitForAll()
            return result
        } catch {
            await client.close()
            group.cancelAll()
            throw error
        }
    }
}
