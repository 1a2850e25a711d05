import ChatCompletions
import Foundation
import JSONCore
import JSONSchema
import MCP
import MCPFoundationModels
import OnDeviceMCPTestSupport
import PortableFoundationModels
import Testing

// The real model's main checks through the 27 path: a `LanguageModelSession` on
// `ChatCompletionsModel` itself (a `LanguageModel`), with the MCP example server's tools bridged
// by `MCPBridgedTool`. Here, in the real model's serialized suite, so that they never run beside
// another model test.
extension RealModelTests {
    /// The example server's tools as FoundationModels tools (read-only policy: the notes tools
    /// that write answer with a denial the model reads).
    static func bridgedTools(_ client: MCPClient) async throws -> [any Tool] {
        try await client.listTools().map { try MCPBridgedTool(tool: $0, client: client) }
    }

    /// The tool calls of a transcript, in order.
    static func calls(in transcript: Transcript) -> [Transcript.ToolCall] {
        transcript.flatMap { entry -> [Transcript.ToolCall] in
            if case .toolCalls(let calls) = entry { Array(calls) } else { [] }
        }
    }

    @Test(
        "27: a session on the model itself calls a real MCP tool (guided) and answers after its output; llama.cpp's usage is the session's")
    func guidedTurn27() async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Self.hangLimit, "a guided turn through the 27 path") {
                try await withExampleServer { client in
                    var configuration = Self.configuration
                    configuration.maximumToolRounds = 1
                    configuration.defaultOptions = GenerationOptions(temperature: 0, maximumResponseTokens: 48)
                    let model = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                    let session = LanguageModelSession(model: model, tools: try await Self.bridgedTools(client))
                    let answer = try await session.respond(to: "What time is it now?").content
                    let calls = Self.calls(in: session.transcript)
                    let outputs = session.transcript.filter { if case .toolOutput = $0 { true } else { false } }
                    #expect(!calls.isEmpty, "the model called no tool; it answered \(answer)")
                    #expect(outputs.count == calls.count)
                    #expect(!answer.isEmpty)
                    if case .response? = session.transcript.last {} else { Issue.record("the transcript does not end with the answer") }
                    // llama.cpp reports each request's tokens: two requests (the call, the answer).
                    #expect(session.usage.input.totalTokenCount > 0)
                    #expect(session.usage.output.totalTokenCount > 0)
                    print(
                        "real model 27 turn: \(calls.map { "\($0.toolName) \($0.arguments.jsonString)" }) → \(answer.prefix(80)); usage \(session.usage)"
                    )
                }
            }
        }
    }

    @Test("27: over the first 8 prompts, every call the model makes names a listed tool with arguments that validate")
    func everyCallValid27() async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Sanitizers.stretched(.seconds(600)), "8 turns through the 27 path") {
                try await withExampleServer { client in
                    var configuration = Self.configuration
                    configuration.maximumToolRounds = 1
                    configuration.defaultOptions = GenerationOptions(temperature: 0, maximumResponseTokens: 16)
                    let model = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                    let schemas = try await Dictionary(
                        uniqueKeysWithValues: client.listTools().map { ($0.name, try JSONSchema($0.inputSchema)) })
                    let tools = try await Self.bridgedTools(client)
                    var count = 0
                    var invalid: [String] = []
                    var answered = 0
                    for prompt in Self.prompts.prefix(8) {
                        let session = LanguageModelSession(model: model, tools: tools)
                        let answer = try await session.respond(to: prompt).content
                        if !answer.isEmpty { answered += 1 }
                        if case .response? = session.transcript.last {
                        } else {
                            Issue.record("\(prompt): the transcript does not end with the answer")
                        }
                        for call in Self.calls(in: session.transcript) {
                            count += 1
                            guard let schema = schemas[call.toolName] else {
                                invalid.append("\(prompt): unknown tool \(call.toolName)")
                                continue
                            }
                            let result = schema.validate(try JSONValue(parsing: call.arguments.jsonString))
                            if !result.isValid { invalid.append("\(prompt): \(call.toolName) \(call.arguments.jsonString): \(result)") }
                        }
                    }
                    print(
                        "real model 27 report: 8 turns, \(answered) answers with text, \(count) tool calls, \(count - invalid.count) valid")
                    #expect(count > 0)
                    #expect(invalid.isEmpty, "\(invalid)")
                    // As over 32 turns: the text is the model's, and one may end at its first token.
                    #expect(answered >= 7, "\(answered) of 8 answers have text")
                }
            }
        }
    }

    @Test("27: streamResponse shows the answer growing, and the last snapshot is the response")
    func streaming27() async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Self.hangLimit, "a streamed answer through the 27 path") {
                var configuration = Self.configuration
                configuration.defaultOptions = GenerationOptions(temperature: 0, maximumResponseTokens: 32)
                let model = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                let session = LanguageModelSession(model: model)
                let stream = session.streamResponse(to: "Name three colours.")
                var snapshots: [String] = []
                for try await snapshot in stream { snapshots.append(snapshot.content) }
                let response = try await stream.collect()
                #expect(snapshots.count > 1, "\(snapshots)")
                #expect(snapshots.last == response.content)
                #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $1.hasPrefix($0) }, "\(snapshots)")
                #expect(response.usage.output.totalTokenCount > 0)
            }
        }
    }

    @Test("27: a Generable response decodes, with and without tools offered")
    func generable27() async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Self.hangLimit, "a Generable response through the 27 path") {
                let model = try await ChatCompletionsModel.connect(to: root, configuration: Self.configuration)
                let session = LanguageModelSession(model: model, instructions: "You write reminders.")
                let reminder = try await session.respond(to: "Remind me to stretch in 20 minutes.", generating: Reminder.self).content
                #expect(!reminder.title.isEmpty)
                let again = LanguageModelSession(model: model, tools: [Echo()], instructions: "You write reminders.")
                let second = try await again.respond(to: "Remind me to call Sam in 5 minutes.", generating: Reminder.self).content
                #expect(!second.title.isEmpty)
            }
        }
    }

    @Test("27: cancelling a streamed turn stops the server generating (the next request is served at once)")
    func cancellation27() async throws {
        try await ModelServer.with(serverArguments: ["--ignore-eos"]) { root in
            try await withHangGuard(Self.hangLimit, "a cancelled turn through the 27 path") {
                var configuration = Self.configuration
                configuration.defaultOptions = GenerationOptions(temperature: 0.8, maximumResponseTokens: 3000)
                configuration.detectsDegenerateOutput = false
                let model = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                let session = LanguageModelSession(model: model)
                let (started, generating) = AsyncStream<Void>.makeStream()
                // The server ignores the end of the answer (`--ignore-eos`) and nothing cuts it as degenerate:
                // without the cancellation it would stop only at 3000 tokens (the model alone ends its count after
                // about 150, which a missed cancellation would pass unseen).
                let turn = Task {
                    var iterator = session.streamResponse(to: "Count from 1 to 5000, one number per line.").makeAsyncIterator()
                    _ = try await iterator.next()
                    generating.yield()
                    while try await iterator.next() != nil {}
                    try Task.checkCancellation()
                }
                // The first snapshot: the server is generating.
                for await _ in started { break }
                turn.cancel()
                let outcome = await turn.result
                #expect(throws: CancellationError.self) { try outcome.get() }
                // The server has one slot: this request is answered only once the cancelled one stopped.
                let short = LanguageModelSession(model: model)
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
}
