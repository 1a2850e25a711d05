import ChatCompletions
import Foundation
import HTTPClientCore
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
    .enabled(if: ModelServer.enabled, "needs llama-cpp-server in .venv (scripts/bootstrap-python.sh)"),
    // The model's time dominates these tests and does not change under ThreadSanitizer; the
    // Swift paths they take run under it against the scripted server (ScriptedServerTests).
    .disabled(if: Sanitizers.threadSanitizerIsActive, "the ordinary run covers the real model; CI's time budget"))
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

    @Test("requestMetrics reports each answered request: the client's building, exchange and decoding, and llama.cpp's timings")
    func requestMetrics() async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Self.hangLimit, "a measured turn") {
                let reports = MetricsRecorder()
                var configuration = Self.configuration
                configuration.defaultOptions = GenerationOptions(temperature: 0, maximumResponseTokens: 8)
                configuration.requestMetrics = { reports.append($0) }
                let backend = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                let session = LanguageModelSession(model: backend.systemLanguageModel)
                _ = try await session.respond(to: "Say hello.")
                let metrics = try #require(reports.all.first)
                #expect(reports.all.count == 1)
                let server = try #require(metrics.server, "llama.cpp sends timings with its answer")
                #expect(server.predictedTokens > 0 && server.predictedTokens <= 8)
                #expect(server.promptTokens + server.cachedTokens > 0)
                #expect(server.predicted > .zero && server.prompt > .zero)
                // The server's time is inside the exchange, and the headers come within it.
                #expect(server.model <= metrics.exchange)
                #expect(metrics.timeToHeaders <= metrics.exchange)
                #expect(metrics.building > .zero && metrics.requestBytes > 0)
            }
        }
    }

    /// How a provider runs on the model: through the 26 backend seam (`systemLanguageModel`), or
    /// as a 27 `LanguageModel` with the model's own token counter.
    enum Way: String, CaseIterable, Sendable {
        case backend26, languageModel27

        func provider(client: MCPClient, model: ChatCompletionsModel) -> MCPSessionProvider {
            switch self {
            case .backend26:
                return MCPSessionProvider(client: client, model: model.systemLanguageModel)
            case .languageModel27:
                let counter = TokenCounter(contextSize: model.contextSize) { try await model.tokenCount(for: $0) }
                return MCPSessionProvider(client: client, model: model, configuration: .init(tokenCounter: counter))
            }
        }
    }

    @Test("A guided turn over the example server: the model's tool call runs over MCP and the answer follows it", arguments: Way.allCases)
    func guidedTurn(way: Way) async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Self.hangLimit, "a guided turn") {
                try await withExampleServer { client in
                    var configuration = Self.configuration
                    configuration.maximumToolRounds = 1
                    configuration.defaultOptions = GenerationOptions(temperature: 0, maximumResponseTokens: 48)
                    let backend = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                    let provider = way.provider(client: client, model: backend)
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

    /// Prompts a user of the example tools might type: the time, and notes to add, list, search and delete.
    static let prompts: [String] = [
        "What time is it?", "Tell me the current time.", "What is the date today?", "What day of the week is it?",
        "Is it morning or evening now?", "Add a note: buy milk.", "Remember that the meeting is at 3 pm.",
        "Save a note saying call the dentist.", "Write down: pick up the kids at 5.", "Add a note about the project deadline on Friday.",
        "List my notes.", "Show me all my notes.", "What notes do I have?", "Read my notes back to me.", "How many notes have I saved?",
        "Search my notes for milk.", "Find the note about the dentist.", "Do I have a note mentioning the meeting?",
        "Look for notes about the project.", "Search notes for kids.", "Delete the note about milk.", "Remove the dentist note.",
        "Delete my first note.", "Erase the note about the meeting.", "What time is it in UTC?", "Note that the car needs a service.",
        "Add a shopping note: eggs, bread, butter.", "Search my notes for eggs.", "What is on my notes list now?",
        "What's the time, please?",
        "Jot down: water the plants.", "Find notes containing plants.",
    ]

    @Test("Over 32 turns, every tool call the model makes names a listed tool with arguments that validate against its input schema")
    func everyCallValid() async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Sanitizers.stretched(.seconds(1500)), "32 turns") {
                try await withExampleServer { client in
                    var configuration = Self.configuration
                    configuration.maximumToolRounds = 1
                    // Answers are cut short: this test looks at the calls (which are never cut).
                    configuration.defaultOptions = GenerationOptions(temperature: 0, maximumResponseTokens: 16)
                    let backend = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                    let schemas = try await Dictionary(
                        uniqueKeysWithValues: client.listTools().map { ($0.name, try JSONSchema($0.inputSchema)) })
                    var seen = Set<String>()
                    var calls = 0
                    var invalid: [String] = []
                    var ended = 0
                    var answered = 0
                    for prompt in Self.prompts {
                        // A conversation per prompt, every tool offered each time: the server's
                        // prompt cache keeps the shared instructions and tools, so each turn costs
                        // its own tokens only. The notes tools write and delete: this test's app
                        // allows them.
                        let provider = MCPSessionProvider(
                            client: client, model: backend.systemLanguageModel,
                            configuration: .init(policy: .allowAll, pinnedTools: Set(schemas.keys)))
                        let answer = try await provider.respond(to: prompt)
                        if !answer.isEmpty { answered += 1 }
                        let transcript = try await provider.session().transcript
                        // The loop asked for the answer after the tool round: the turn ends with it.
                        if case .response? = transcript.last { ended += 1 }
                        var turnCalls: [String] = []
                        for entry in transcript {
                            guard case .toolCalls(let batch) = entry, !seen.contains(batch.id) else { continue }
                            seen.insert(batch.id)
                            for call in batch {
                                calls += 1
                                turnCalls.append("\(call.toolName) \(call.arguments.jsonString)")
                                guard let schema = schemas[call.toolName] else {
                                    invalid.append("\(prompt): unknown tool \(call.toolName)")
                                    continue
                                }
                                let arguments = try JSONValue(parsing: call.arguments.jsonString)
                                let result = schema.validate(arguments)
                                if !result.isValid { invalid.append("\(prompt): \(call.toolName) \(call.arguments.jsonString): \(result)") }
                            }
                        }
                        await provider.close()
                        print(
                            "real model turn: \(prompt) → \(turnCalls.isEmpty ? "no tool" : turnCalls.joined(separator: ", ")) → \(answer.prefix(80))"
                        )
                    }
                    print(
                        "real model report: \(Self.prompts.count) turns, \(ended) ended with an answer, \(answered) with text, \(calls) tool calls, \(calls - invalid.count) valid"
                    )
                    #expect(calls > 0)
                    #expect(invalid.isEmpty, "\(invalid)")
                    #expect(ended == Self.prompts.count)
                    // The text is the model's: a 135M model ends an answer at its first token now
                    // and then (one turn in 32 on one CI machine), so only a few may be empty. An
                    // answer round the loop broke would leave most of them empty.
                    #expect(
                        answered >= Self.prompts.count - Self.prompts.count / 8, "\(answered) of \(Self.prompts.count) answers have text")
                }
            }
        }
    }

    @Test("A schema with a pattern the server's grammar cannot take still constrains the answer (the pattern stays local)")
    func unportablePattern() async throws {
        // llama.cpp drops the whole schema for a negated class: the answer would then be any JSON.
        let json =
            #"{"type":"object","title":"Code","properties":{"code":{"type":"string","pattern":"[^x]+"}},"required":["code"],"additionalProperties":false,"x-order":["code"]}"#
        let schema = try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
        try await ModelServer.with { root in
            try await withHangGuard(Self.hangLimit, "a structured answer") {
                let backend = try await ChatCompletionsModel.connect(to: root, configuration: Self.configuration)
                let session = LanguageModelSession(model: backend.systemLanguageModel)
                let answer = try await session.respond(to: "What is 2 plus 2?", schema: schema).content
                guard case .structure(let properties, _) = answer.kind else {
                    Issue.record("not an object: \(answer.jsonString)")
                    return
                }
                #expect(Array(properties.keys) == ["code"], "\(answer.jsonString)")
            }
        }
    }

    /// A reminder, generated with guided generation.
    struct Reminder: Generable, Equatable {
        var title: String
        var minutes: Int

        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Reminder.self, description: "A reminder",
                properties: [
                    GenerationSchema.Property(name: "title", description: "What to remember", type: String.self),
                    GenerationSchema.Property(name: "minutes", description: "In how many minutes", type: Int.self),
                ])
        }

        init(title: String, minutes: Int) {
            self.title = title
            self.minutes = minutes
        }

        init(_ content: GeneratedContent) throws {
            title = try content.value(forProperty: "title")
            minutes = try content.value(forProperty: "minutes")
        }

        var generatedContent: GeneratedContent {
            GeneratedContent(properties: ["title": title, "minutes": minutes])
        }
    }

    @Test("A Generable response decodes, with and without tools offered")
    func generable() async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Self.hangLimit, "a Generable response") {
                let backend = try await ChatCompletionsModel.connect(to: root, configuration: Self.configuration)
                let session = LanguageModelSession(model: backend.systemLanguageModel, instructions: "You write reminders.")
                let reminder = try await session.respond(to: "Remind me to stretch in 20 minutes.", generating: Reminder.self).content
                #expect(!reminder.title.isEmpty)
                let again = LanguageModelSession(model: backend.systemLanguageModel, tools: [Echo()], instructions: "You write reminders.")
                let second = try await again.respond(to: "Remind me to call Sam in 5 minutes.", generating: Reminder.self).content
                #expect(!second.title.isEmpty)
            }
        }
    }

    /// A tool that returns its text.
    struct Echo: Tool {
        let name = "echo"
        let description = "Repeats a text."
        var parameters: GenerationSchema {
            GenerationSchema(type: GeneratedContent.self, properties: [GenerationSchema.Property(name: "text", type: String.self)])
        }
        func call(arguments: GeneratedContent) async throws -> String {
            (try? arguments.value(String.self, forProperty: "text")) ?? ""
        }
    }

    @Test("A conversation longer than the model's context is carried on by the provider", arguments: Way.allCases)
    func longConversation(way: Way) async throws {
        try await ModelServer.with(contextSize: 1024) { root in
            try await withHangGuard(Sanitizers.stretched(.seconds(600)), "a long conversation") {
                try await withExampleServer { client in
                    var configuration = Self.configuration
                    configuration.maximumToolRounds = 0
                    configuration.defaultOptions = GenerationOptions(temperature: 0, maximumResponseTokens: 40)
                    let backend = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                    #expect(backend.contextSize == 1024)
                    let provider = way.provider(client: client, model: backend)
                    let animals = ["cat", "dog", "horse", "owl", "whale", "fox", "bee", "crow", "seal", "wolf", "hare", "deer"]
                    var total = 0
                    for (turn, animal) in animals.enumerated() {
                        let facts = (1...12).map {
                            "Fact \($0) about the \(animal): it is an animal that people have watched for a long time."
                        }
                        let prompt =
                            "Turn \(turn + 1). Read these notes.\n" + facts.joined(separator: "\n")
                            + "\nIn one sentence, what animal are the notes about?"
                        let answer = try await provider.respond(to: prompt)
                        #expect(!answer.isEmpty)
                        total += try await backend.tokenCount(for: prompt) + backend.tokenCount(for: answer)
                    }
                    // The conversation passed the context many times over: the provider shortened the history to carry on.
                    #expect(total > 1024)
                    await provider.close()
                }
            }
        }
    }

    @Test("Cancelling a turn stops the server generating")
    func cancellation() async throws {
        try await ModelServer.with(serverArguments: ["--ignore-eos"]) { root in
            try await withHangGuard(Self.hangLimit, "a cancelled turn") {
                var configuration = Self.configuration
                configuration.defaultOptions = GenerationOptions(temperature: 0.8, maximumResponseTokens: 3000)
                configuration.detectsDegenerateOutput = false
                let backend = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                let (started, generating) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                let session = LanguageModelSession(
                    model: SystemLanguageModel(backend: GenerationSignallingBackend(model: backend) { generating.yield() }))
                // The server ignores the end of the answer (`--ignore-eos`) and nothing cuts it as degenerate:
                // without the cancellation it would stop only at 3000 tokens (the model alone ends its count after
                // about 150, which a missed cancellation would pass unseen).
                let turn = Task { try await session.respond(to: "Count from 1 to 5000, one number per line.") }
                // The first token the server streams for the turn (which is not streamed itself): it generates.
                for await _ in started { break }
                turn.cancel()
                let outcome = await turn.result
                #expect(throws: CancellationError.self) { try outcome.get() }
                // The server stops once it sees the connection closed, having predicted far fewer
                // tokens than the 3000 it was asked for. It has one slot: this request is answered
                // only once the cancelled one stopped.
                let short = LanguageModelSession(model: backend.systemLanguageModel)
                _ = try await short.respond(to: "Say hi.", options: GenerationOptions(maximumResponseTokens: 4))
                let metrics = try #require(URL(string: "metrics", relativeTo: root))
                let predicted = try await Self.text(metrics).split(separator: "\n")
                    .first { $0.hasPrefix("llamacpp:tokens_predicted_total ") }
                    .flatMap { Double($0.split(separator: " ").last ?? "") }
                let tokens = try #require(predicted)
                #expect(tokens < 2000, "the server predicted \(tokens) tokens")
            }
        }
    }

    /// A backend that runs each turn on `model` and calls `generating` when the server streams
    /// the answer's first text: a turn that is not streamed has no event of its own for it.
    struct GenerationSignallingBackend: LanguageModelBackend {
        let model: ChatCompletionsModel
        let generating: @Sendable () -> Void

        var contextSize: Int { model.contextSize }

        func tokenCount(for text: String) async throws -> Int { try await model.tokenCount(for: text) }

        func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
            try await model.respond(to: request) { _ in generating() }
        }
    }

    static func text(_ url: URL) async throws -> String {
        let exchanger = HTTPEngine.exchanger(for: url, maximumWaitingBytes: 5 << 20)
        defer { exchanger.shutdown() }
        let response = try await exchanger.exchange(HTTPRequest(method: "GET", url: url, headers: [], body: nil))
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes += chunk }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The metrics a model reported, in order.
final class MetricsRecorder: @unchecked Sendable {
    // Safety: `reports` is only touched with `lock` held.
    private let lock = NSLock()
    private var reports: [ChatCompletionsRequestMetrics] = []

    func append(_ metrics: ChatCompletionsRequestMetrics) {
        lock.withLock { reports.append(metrics) }
    }

    var all: [ChatCompletionsRequestMetrics] { lock.withLock { reports } }
}

/// The moment the example server's `clock_now` reads in these tests (2026-12-05T07:04:36Z): a
/// tool's output, and so a greedy model's answer after it, is the same on every run.
let exampleServerMoment = Date(timeIntervalSince1970: 1_796_454_276)

/// Runs `body` with a client of the example server (clock and notes, notes in a temporary directory
/// removed afterwards), in process; `clock_now` reads ``exampleServerMoment``.
func withExampleServer<T: Sendable>(_ body: (MCPClient) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = MCPServer(name: "ondevice-mcp", version: "1.0")
    try await registerExampleTools(on: server, dataDirectory: directory.url, roots: [], warnings: { _ in }, now: { exampleServerMoment })
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
