import Foundation
import JSONCore
import OnDeviceMCPTestSupport
import PortableFoundationModels
import Testing

@testable import ChatCompletions

/// `ChatCompletionsModel` as a 27 `LanguageModel`: sessions on it against a scripted server,
/// each request's body and each answer's transcript, usage and errors.
@Suite("ChatCompletionsModel as a LanguageModel (27) against a scripted server")
struct LanguageModelTests {
    typealias Answer = ScriptedExchanger.Answer

    static func model(
        _ answers: [Answer], configuration: ChatCompletionsConfiguration = .init()
    ) throws -> (ChatCompletionsModel, ScriptedExchanger) {
        try ScriptedServerTests.model(answers, configuration: configuration)
    }

    // MARK: Answers

    /// A streamed answer: an event per chunk, then `[DONE]`.
    static func events(_ chunks: [JSONValue]) throws -> Answer {
        let body = try chunks.map { "data: " + (try $0.jsonString()) + "\n\n" }.joined() + "data: [DONE]\n\n"
        return .respond(status: 200, contentType: "text/event-stream", body: body)
    }

    /// One chunk of a streamed answer.
    static func delta(content: String? = nil, reasoning: String? = nil, calls: [JSONValue]? = nil, finish: String? = nil) -> JSONValue {
        var delta = JSONObject()
        if let content { delta["content"] = .string(content) }
        if let reasoning { delta["reasoning_content"] = .string(reasoning) }
        if let calls { delta["tool_calls"] = .array(calls) }
        return ["choices": [["index": 0, "delta": .object(delta), "finish_reason": finish.map(JSONValue.string) ?? .null]]]
    }

    /// The chunk that carries the server's usage (no choices), as OpenAI sends it last.
    static func usage(prompt: Int, completion: Int, cached: Int? = nil, reasoning: Int? = nil) -> JSONValue {
        var usage: JSONObject = ["prompt_tokens": .int(prompt), "completion_tokens": .int(completion)]
        if let cached { usage["prompt_tokens_details"] = ["cached_tokens": .int(cached)] }
        if let reasoning { usage["completion_tokens_details"] = ["reasoning_tokens": .int(reasoning)] }
        return ["choices": [], "usage": .object(usage)]
    }

    /// Text streamed in `pieces`, then the usage chunk when given.
    static func text(_ pieces: [String], usage: JSONValue? = nil, finish: String = "stop") throws -> Answer {
        var chunks = pieces.enumerated().map { index, piece in delta(content: piece, finish: index == pieces.count - 1 ? finish : nil) }
        if let usage { chunks.append(usage) }
        return try events(chunks)
    }

    /// A guided step's JSON streamed in pieces of `size` characters.
    static func guided(_ json: String, size: Int = 7, usage: JSONValue? = nil, finish: String = "stop") throws -> Answer {
        var pieces: [String] = []
        var rest = Substring(json)
        while !rest.isEmpty {
            pieces.append(String(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return try text(pieces, usage: usage, finish: finish)
    }

    /// A native call of `echo`, its name and arguments in fragments as OpenAI streams them.
    static func nativeCall(
        id: String = "call_1", names: [String] = ["echo"], arguments: [String] = [#"{"te"#, #"xt":"hi"}"#], before: String? = nil,
        usage: JSONValue? = nil
    ) throws -> Answer {
        var chunks: [JSONValue] = []
        if let before { chunks.append(delta(content: before)) }
        for (index, name) in names.enumerated() {
            var fragment: JSONObject = ["index": 0, "type": "function", "function": ["name": .string(name), "arguments": ""]]
            if index == 0 { fragment["id"] = .string(id) }
            // The first fragment carries the first piece of the arguments: a name in pieces then
            // grows after the call could be opened.
            if index == 0, let first = arguments.first { fragment["function"] = ["name": .string(name), "arguments": .string(first)] }
            chunks.append(delta(calls: [.object(fragment)]))
        }
        for piece in arguments.dropFirst() {
            chunks.append(delta(calls: [["index": 0, "function": ["arguments": .string(piece)]]]))
        }
        chunks.append(delta(finish: "tool_calls"))
        if let usage { chunks.append(usage) }
        return try events(chunks)
    }

    /// The kinds of a transcript's entries.
    static func kinds(_ transcript: Transcript) -> [String] {
        transcript.map { entry in
            switch entry {
            case .instructions: "instructions"
            case .prompt: "prompt"
            case .toolCalls: "toolCalls"
            case .toolOutput: "toolOutput"
            case .response: "response"
            case .reasoning: "reasoning"
            }
        }
    }

    /// The text of an entry's segments.
    static func text(of segments: [Transcript.Segment]) -> String {
        segments.map { segment in
            switch segment {
            case .text(let text): text.content
            case .structure(let structure): structure.content.jsonString
            case .attachment: "[attachment]"
            }
        }.joined()
    }

    // MARK: Answers and tools

    @Test(
        "A text answer: the session's response, one request that names the model, streams and asks for usage; the server's usage is the response's"
    )
    func textAnswer() async throws {
        let (model, exchanger) = try Self.model([
            try Self.text(["Hello", ", world"], usage: Self.usage(prompt: 12, completion: 3, cached: 8))
        ])
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "Hi")
        #expect(response.content == "Hello, world")
        #expect(Self.kinds(session.transcript) == ["prompt", "response"])
        let body = try exchanger.body(0)
        #expect(body["model"]?.stringValue == "m")
        #expect(body["stream"]?.boolValue == true)
        #expect(body["stream_options"]?["include_usage"]?.boolValue == true)
        #expect(body["tools"] == nil && body["response_format"] == nil)
        #expect(body["messages"]?.arrayValue?.map { $0["role"]?.stringValue } == ["user"])
        #expect(response.usage.input.totalTokenCount == 12)
        #expect(response.usage.input.cachedTokenCount == 8)
        #expect(response.usage.output.totalTokenCount == 3)
        #expect(session.usage.totalTokenCount == 15)
    }

    @Test("Without the server's usage, each streamed delta counts as a token of the answer")
    func usageWithoutServer() async throws {
        let (model, _) = try Self.model([try Self.text(["One", " two", " three"])])
        let response = try await LanguageModelSession(model: model).respond(to: "Count")
        #expect(response.content == "One two three")
        #expect(response.usage.output.totalTokenCount == 3)
        #expect(response.usage.input.totalTokenCount == 0)
    }

    /// The answers of a turn with one call of `echo` and the answer after its output.
    static func callAndAnswer(_ calling: ChatCompletionsConfiguration.ToolCalling) throws -> [Answer] {
        switch calling {
        case .guided:
            [
                try guided(#"{"tool":"echo","arguments":{"text":"hi"}}"#, usage: usage(prompt: 40, completion: 12)),
                try guided(#"{"answer":"The tool said hi."}"#, usage: usage(prompt: 60, completion: 9, cached: 40)),
            ]
        case .native:
            [
                try nativeCall(usage: usage(prompt: 40, completion: 12)),
                try text(["The tool", " said hi."], usage: usage(prompt: 60, completion: 9, cached: 40)),
            ]
        }
    }

    @Test(
        "A tool call and the answer after its output, with guided and with native tool calling",
        arguments: [ChatCompletionsConfiguration.ToolCalling.guided, .native])
    func toolCall(_ calling: ChatCompletionsConfiguration.ToolCalling) async throws {
        let (model, exchanger) = try Self.model(try Self.callAndAnswer(calling), configuration: .init(toolCalling: calling))
        let session = LanguageModelSession(model: model, tools: [RealModelTests.Echo()])
        let response = try await session.respond(to: "Say hi")
        #expect(response.content == "The tool said hi.")
        #expect(Self.kinds(session.transcript) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
        let calls = try #require(
            session.transcript.compactMap { entry -> Transcript.ToolCalls? in
                if case .toolCalls(let calls) = entry { calls } else { nil }
            }.first)
        #expect(calls.map(\.toolName) == ["echo"])
        #expect(calls.first?.arguments.jsonString == #"{"text":"hi"}"#)
        // Usage on the calls' entry did not make an empty answer; the session adds up both requests.
        #expect(session.usage.input.totalTokenCount == 100)
        #expect(session.usage.input.cachedTokenCount == 40)
        #expect(session.usage.output.totalTokenCount == 21)

        let first = try exchanger.body(0)
        let second = try exchanger.body(1)
        let messages = try #require(second["messages"]?.arrayValue)
        switch calling {
        case .guided:
            #expect(first["response_format"]?["json_schema"]?["schema"]?["anyOf"]?.arrayValue?.count == 2)
            #expect(first["tools"] == nil)
            #expect(messages.map { $0["role"]?.stringValue } == ["system", "user", "assistant", "user"])
            #expect(messages[2]["content"]?.stringValue == #"{"tool":"echo","arguments":{"text":"hi"}}"#)
            #expect(messages[3]["content"]?.stringValue == "Output of the tool echo:\nhi")
        case .native:
            #expect(calls.first?.id == "call_1")
            #expect(first["tools"]?[0]?["function"]?["name"]?.stringValue == "echo")
            #expect(first["tool_choice"]?.stringValue == "auto")
            #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant", "tool"])
            #expect(messages[1]["tool_calls"]?[0]?["id"]?.stringValue == "call_1")
            #expect(messages[2]["tool_call_id"]?.stringValue == "call_1")
            #expect(messages[2]["content"]?.stringValue == "hi")
        }
    }

    @Test(
        "A native call's name and arguments in fragments become one call (a name in pieces included)",
        arguments: [["echo"], ["ec", "ho"]])
    func fragmentedCall(names: [String]) async throws {
        let (model, _) = try Self.model(
            [try Self.nativeCall(names: names, arguments: ["{", #""text""#, ":", #""hi"}"#]), try Self.text(["Done."])],
            configuration: .init(toolCalling: .native))
        let session = LanguageModelSession(model: model, tools: [RealModelTests.Echo()])
        _ = try await session.respond(to: "Say hi")
        let calls = session.transcript.compactMap { entry -> Transcript.ToolCalls? in
            if case .toolCalls(let calls) = entry { calls } else { nil }
        }
        #expect(calls.count == 1)
        #expect(calls.first?.map(\.toolName) == ["echo"])
        #expect(calls.first?.first?.arguments.jsonString == #"{"text":"hi"}"#)
    }

    @Test("Native: text before a call stays a response entry, and goes back with the call as one assistant message")
    func textBeforeCall() async throws {
        let (model, exchanger) = try Self.model(
            [try Self.nativeCall(before: "Let me check."), try Self.text(["It said hi."])], configuration: .init(toolCalling: .native))
        let session = LanguageModelSession(model: model, tools: [RealModelTests.Echo()])
        let response = try await session.respond(to: "Say hi")
        #expect(response.content == "It said hi.")
        #expect(Self.kinds(session.transcript) == ["instructions", "prompt", "response", "toolCalls", "toolOutput", "response"])
        let messages = try #require(try exchanger.body(1)["messages"]?.arrayValue)
        #expect(messages.map { $0["role"]?.stringValue } == ["user", "assistant", "tool"])
        #expect(messages[1]["content"]?.stringValue == "Let me check.")
        #expect(messages[1]["tool_calls"]?[0]?["function"]?["name"]?.stringValue == "echo")
    }

    @Test("Guided: an answer cut at the response limit is the text so far; a step that is neither answer nor call is invalidResponse")
    func guidedEdges() async throws {
        let (model, _) = try Self.model(
            [try Self.guided(#"{"answer":"It is nine o'cl"#, finish: "length"), try Self.guided(#"{"neither":1}"#)])
        let session = LanguageModelSession(model: model, tools: [RealModelTests.Echo()])
        #expect(try await session.respond(to: "Time?").content == "It is nine o'cl")
        let error = await #expect(throws: ChatCompletionsError.self) { _ = try await session.respond(to: "Again") }
        #expect(error == .invalidResponse)
    }

    // MARK: Streaming

    @Test("streamResponse: snapshots grow with each streamed event")
    func streamedSnapshots() async throws {
        let (body, feed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let (model, _) = try Self.model([.fed(status: 200, contentType: "text/event-stream", body: body)])
        let session = LanguageModelSession(model: model)
        var iterator = session.streamResponse(to: "Hi").makeAsyncIterator()
        feed.yield(try ScriptedServerTests.delta("Hello"))
        // The stream has not ended: this snapshot can only be the partial answer.
        #expect(try await iterator.next()?.content == "Hello")
        feed.yield(try ScriptedServerTests.delta(", wor"))
        #expect(try await iterator.next()?.content == "Hello, wor")
        feed.yield(try ScriptedServerTests.delta("ld", finish: true))
        feed.finish()
        var last = ""
        while let snapshot = try await iterator.next() { last = snapshot.content }
        #expect(last == "Hello, world")
    }

    @Test("Guided: the answer streams as it grows, the call's JSON never does")
    func guidedSnapshots() async throws {
        let (callBody, callFeed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let (answerBody, answerFeed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let (model, exchanger) = try Self.model([
            .fed(status: 200, contentType: "text/event-stream", body: callBody),
            .fed(status: 200, contentType: "text/event-stream", body: answerBody),
        ])
        let session = LanguageModelSession(model: model, tools: [RealModelTests.Echo()])
        var iterator = session.streamResponse(to: "Say hi").makeAsyncIterator()
        callFeed.yield(try ScriptedServerTests.delta(#"{"tool":"echo","argu"#))
        callFeed.yield(try ScriptedServerTests.delta(#"ments":{"text":"hi"}}"#, finish: true))
        callFeed.finish()
        answerFeed.yield(try ScriptedServerTests.delta(#"{"answer":"The tool s"#))
        // Had the call been shown, it would come first; the first snapshot is the answer's prefix.
        #expect(try await iterator.next()?.content == "The tool s")
        answerFeed.yield(try ScriptedServerTests.delta(#"aid hi"#))
        #expect(try await iterator.next()?.content == "The tool said hi")
        answerFeed.yield(try ScriptedServerTests.delta(#"."}"#, finish: true))
        answerFeed.finish()
        var last = ""
        while let snapshot = try await iterator.next() { last = snapshot.content }
        #expect(last == "The tool said hi.")
        #expect(exchanger.requests.count == 2)
    }

    @Test("Reasoning the server streams (reasoning_content) becomes a reasoning entry before the answer")
    func reasoning() async throws {
        let (model, _) = try Self.model([
            try Self.events([
                Self.delta(reasoning: "The user greets"), Self.delta(reasoning: " me."), Self.delta(content: "Hello!", finish: "stop"),
                Self.usage(prompt: 10, completion: 6, reasoning: 4),
            ])
        ])
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "Hi")
        #expect(response.content == "Hello!")
        #expect(Self.kinds(session.transcript) == ["prompt", "reasoning", "response"])
        guard case .reasoning(let reasoning)? = session.transcript.dropFirst().first else {
            Issue.record("no reasoning entry")
            return
        }
        #expect(Self.text(of: reasoning.segments) == "The user greets me.")
        #expect(response.usage.output.reasoningTokenCount == 4)
    }

    // MARK: Options

    /// A row of tool-calling modes: the mode, how tools are called, the rounds allowed.
    struct ModeCase: Sendable, CustomTestStringConvertible {
        var mode: GenerationOptions.ToolCallingMode?
        var calling: ChatCompletionsConfiguration.ToolCalling
        var rounds = 4
        /// Native: `tool_choice` (nil: no tools sent). Guided: the step's choices (nil: no format).
        var expected: String?
        var testDescription: String { "\(mode.map { "\($0.kind)" } ?? "nil") \(calling) rounds \(rounds) → \(expected ?? "no tools")" }
    }

    static let modeCases: [ModeCase] = [
        ModeCase(mode: nil, calling: .native, expected: "auto"),
        ModeCase(mode: .allowed, calling: .native, expected: "auto"),
        ModeCase(mode: .required, calling: .native, expected: "required"),
        ModeCase(mode: .disallowed, calling: .native, expected: nil),
        ModeCase(mode: nil, calling: .guided, expected: "answer,echo"),
        ModeCase(mode: .allowed, calling: .guided, expected: "answer,echo"),
        ModeCase(mode: .required, calling: .guided, expected: "echo"),
        ModeCase(mode: .disallowed, calling: .guided, expected: nil),
        // No round left: only the answer, unless a call is required.
        ModeCase(mode: .allowed, calling: .guided, rounds: 0, expected: "answer"),
        ModeCase(mode: .required, calling: .guided, rounds: 0, expected: "echo"),
    ]

    @Test("The tool-calling mode in the request body", arguments: modeCases)
    func toolCallingMode(_ row: ModeCase) async throws {
        var configuration = ChatCompletionsConfiguration(toolCalling: row.calling)
        configuration.maximumToolRounds = row.rounds
        let (model, exchanger) = try Self.model([try Self.guided(#"{"answer":"ok"}"#)], configuration: configuration)
        let session = LanguageModelSession(model: model, tools: [RealModelTests.Echo()])
        // A required call answered with text ends the response with an error: only the request matters here.
        _ = try? await session.respond(to: "Hi", options: GenerationOptions(toolCallingMode: row.mode))
        let body = try exchanger.body(0)
        switch row.calling {
        case .native:
            #expect(body["tool_choice"]?.stringValue == row.expected)
            #expect((body["tools"] != nil) == (row.expected != nil))
            #expect(body["response_format"] == nil)
        case .guided:
            #expect(body["tools"] == nil && body["tool_choice"] == nil)
            let choices = body["response_format"]?["json_schema"]?["schema"]?["anyOf"]?.arrayValue
            let names = choices?.map { choice in choice["properties"]?["tool"]?["const"]?.stringValue ?? "answer" }
            #expect(names?.joined(separator: ",") == row.expected)
        }
    }

    @Test(
        "Sampling modes, temperature and length in the request body (each unset one from the configuration's defaults)",
        arguments: [
            (GenerationOptions(samplingMode: .greedy), ["temperature": JSONValue.double(0), "top_k": .int(1), "max_tokens": .int(99)]),
            (
                GenerationOptions(samplingMode: .random(top: 40, seed: 7), temperature: 0.7),
                ["temperature": .double(0.7), "top_k": .int(40), "seed": .int(7), "max_tokens": .int(99)]
            ),
            (
                GenerationOptions(samplingMode: .random(probabilityThreshold: 0.9), maximumResponseTokens: 64),
                ["temperature": .double(0.25), "top_p": .double(0.9), "max_tokens": .int(64)]
            ),
            (GenerationOptions(), ["temperature": .double(0.25), "max_tokens": .int(99)]),
        ])
    func sampling(options: GenerationOptions, expected: [String: JSONValue]) async throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.defaultOptions = GenerationOptions(temperature: 0.25, maximumResponseTokens: 99)
        let (model, exchanger) = try Self.model([try Self.text(["ok"])], configuration: configuration)
        _ = try await LanguageModelSession(model: model).respond(to: "Hi", options: options)
        let body = try #require(try exchanger.body(0).objectValue)
        for key in ["temperature", "top_k", "top_p", "seed", "max_tokens"] {
            #expect(body[key] == expected[key], "\(key)")
        }
    }

    @Test(
        "A Generable answer: the schema goes as response_format (alone, or as the guided step's answer beside the tools)",
        arguments: [false, true])
    func schema(withTools: Bool) async throws {
        let answer = #"{"title":"Stretch","minutes":20}"#
        let (model, exchanger) = try Self.model([try Self.guided(withTools ? #"{"answer":"# + answer + "}" : answer)])
        let session = LanguageModelSession(model: model, tools: withTools ? [RealModelTests.Echo()] : [])
        let reminder = try await session.respond(to: "Remind me to stretch in 20 minutes.", generating: RealModelTests.Reminder.self)
            .content
        #expect(reminder == RealModelTests.Reminder(title: "Stretch", minutes: 20))
        let schema = try #require(try exchanger.body(0)["response_format"]?["json_schema"]?["schema"])
        let reminderSchema = withTools ? schema["anyOf"]?[0]?["properties"]?["answer"] : schema
        #expect(reminderSchema?["properties"]?["minutes"]?["type"]?.stringValue == "integer")
        #expect(schema["anyOf"]?.arrayValue?.count == (withTools ? 2 : nil))
    }

    @Test("A structured answer streams as its content grows")
    func schemaSnapshots() async throws {
        let (body, feed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let (model, _) = try Self.model([.fed(status: 200, contentType: "text/event-stream", body: body)])
        let session = LanguageModelSession(model: model)
        var iterator = session.streamResponse(to: "Remind me", schema: RealModelTests.Reminder.generationSchema).makeAsyncIterator()
        feed.yield(try ScriptedServerTests.delta(#"{"title":"Str"#))
        #expect(try await iterator.next()?.rawContent.jsonString == #"{"title":"Str"}"#)
        feed.yield(try ScriptedServerTests.delta(#"etch","minutes":20}"#, finish: true))
        feed.finish()
        var last: GeneratedContent?
        while let snapshot = try await iterator.next() { last = snapshot.rawContent }
        #expect(last?.jsonString == #"{"title":"Stretch","minutes":20}"#)
    }

    @Test(
        "Capabilities: tool calling and guided generation always, reasoning when configured",
        arguments: [ChatCompletionsConfiguration.Reasoning?.none, .fixed, .reasoningEffort])
    func capabilities(_ reasoning: ChatCompletionsConfiguration.Reasoning?) throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.reasoning = reasoning
        let (model, _) = try Self.model([], configuration: configuration)
        #expect(model.capabilities.contains(.toolCalling))
        #expect(model.capabilities.contains(.guidedGeneration))
        #expect(!model.capabilities.contains(.vision))
        #expect(model.capabilities.contains(.reasoning) == (reasoning != nil))
    }

    @Test(
        "A reasoning level: refused by the session for a model not declared to reason, accepted and not sent (.fixed), sent as reasoning_effort",
        arguments: [
            (ChatCompletionsConfiguration.Reasoning?.none, ContextOptions.ReasoningLevel.deep, "unsupportedCapability"),
            (.fixed, .deep, "sent: nil"), (.reasoningEffort, .light, "sent: low"), (.reasoningEffort, .moderate, "sent: medium"),
            (.reasoningEffort, .deep, "sent: high"), (.reasoningEffort, .custom("minimal"), "sent: minimal"),
        ])
    func reasoningLevel(
        _ reasoning: ChatCompletionsConfiguration.Reasoning?, _ level: ContextOptions.ReasoningLevel, _ expected: String
    ) async throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.reasoning = reasoning
        let (model, exchanger) = try Self.model([try Self.text(["ok"])], configuration: configuration)
        let session = LanguageModelSession(model: model)
        do {
            _ = try await session.respond(to: "Think", contextOptions: ContextOptions(reasoningLevel: level))
            #expect("sent: \(try exchanger.body(0)["reasoning_effort"]?.stringValue ?? "nil")" == expected)
        } catch LanguageModelError.unsupportedCapability(let unsupported) {
            #expect(unsupported.capability == .reasoning)
            #expect(expected == "unsupportedCapability")
            #expect(exchanger.requests.isEmpty)
        }
    }

    @Test("The executor's configuration is the model's identity: the same for one model, different for another connection")
    func executorConfiguration() throws {
        let (first, _) = try Self.model([])
        let (second, _) = try Self.model([])
        #expect(first.executorConfiguration == first.executorConfiguration)
        #expect(first.executorConfiguration != second.executorConfiguration)
    }

    @Test("The 26 backend and the 27 executor send the same request for the same turn (one implementation), but for usage")
    func sameRequest() async throws {
        let answers = [try Self.guided(#"{"answer":"ok"}"#), try Self.guided(#"{"answer":"ok"}"#)]
        let (model, exchanger) = try Self.model(answers, configuration: .init(defaultOptions: GenerationOptions(temperature: 0)))
        _ = try await LanguageModelSession(model: model.systemLanguageModel, tools: [RealModelTests.Echo()], instructions: "Be brief.")
            .respond(to: "Hi")
        _ = try await LanguageModelSession(model: model, tools: [RealModelTests.Echo()], instructions: "Be brief.").respond(to: "Hi")
        guard case .object(var legacy) = try exchanger.body(0), case .object(var current) = try exchanger.body(1) else {
            Issue.record("not JSON objects")
            return
        }
        #expect(legacy["stream_options"] == nil)
        #expect(current.removeValue(forKey: "stream_options") != nil)
        legacy.removeValue(forKey: "stream_options")
        #expect(try JSONValue.object(legacy).jsonString() == (try JSONValue.object(current).jsonString()))
    }

    // MARK: Errors

    /// An error as a row's expectation reads it.
    static func describe(_ error: any Error) async -> String {
        if let error = error as? LanguageModelError {
            switch error {
            case .contextSizeExceeded(let overflow): return "contextSizeExceeded \(overflow.contextSize) \(overflow.tokenCount)"
            case .rateLimited(let limit): return "rateLimited \(limit.resetDate.map { ISO8601DateFormatter().string(from: $0) } ?? "nil")"
            case .refusal(let refusal): return "refusal \((try? await refusal.explanation.content) ?? "?")"
            case .guardrailViolation: return "guardrailViolation"
            case .timeout: return "timeout"
            case .unsupportedTranscriptContent(let content): return "unsupportedTranscriptContent \(content.unsupportedContent.count)"
            default: return "LanguageModelError \(error)"
            }
        }
        if let error = error as? ChatCompletionsError {
            let kinds: [(String, ChatCompletionsError)] = [
                ("unauthorized", .unauthorized), ("httpStatus", .httpStatus), ("unreachable", .unreachable),
                ("invalidResponse", .invalidResponse),
            ]
            return "ChatCompletionsError " + (kinds.first { $0.1 == error }?.0 ?? "\(error)")
        }
        return "\(type(of: error)) \(error)"
    }

    /// A failing answer and the error it makes.
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var name: String
        var answer: Answer
        var expected: String
        var testDescription: String { "\(name) → \(expected)" }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(
            name: "llama.cpp's overflow",
            answer: .respond(
                status: 400, contentType: "application/json",
                body:
                    #"{"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error","n_prompt_tokens":4200,"n_ctx":4096}}"#
            ),
            expected: "contextSizeExceeded 4096 4200"),
        ErrorCase(
            name: "OpenAI's overflow",
            answer: .respond(
                status: 400, contentType: "application/json",
                body:
                    #"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#
            ),
            expected: "contextSizeExceeded 8192 9000"),
        ErrorCase(
            name: "an overflow inside the stream",
            answer: .respond(
                status: 200, contentType: "text/event-stream",
                body:
                    #"data: {"error":{"code":400,"message":"exceeds the available context size","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}"#
                    + "\n\n"),
            expected: "contextSizeExceeded 4096 5000"),
        ErrorCase(
            name: "a 429 with Retry-After as a date",
            answer: .respond(
                status: 429, contentType: "application/json", body: #"{"error":{"message":"slow down"}}"#,
                headers: ["Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"]),
            expected: "rateLimited 2026-10-21T07:28:00Z"),
        ErrorCase(
            name: "a 429 without Retry-After",
            answer: .respond(status: 429, contentType: "application/json", body: #"{"error":{"message":"slow down"}}"#),
            expected: "rateLimited nil"),
        ErrorCase(
            name: "a refusal",
            answer: .respond(
                status: 200, contentType: "application/json",
                body:
                    #"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}"#
            ),
            expected: "refusal I can't help with that."),
        ErrorCase(
            name: "a content filter's error status",
            answer: .respond(
                status: 400, contentType: "application/json",
                body:
                    #"{"error":{"code":"content_filter","message":"The response was filtered due to the prompt triggering the content management policy."}}"#
            ),
            expected: "guardrailViolation"),
        ErrorCase(
            name: "an answer cut by the content filter",
            answer: .respond(
                status: 200, contentType: "text/event-stream",
                body: #"data: {"choices":[{"index":0,"delta":{"content":"Well"},"finish_reason":"content_filter"}]}"#
                    + "\n\ndata: [DONE]\n\n"),
            expected: "guardrailViolation"),
        ErrorCase(
            name: "refused credentials",
            answer: .respond(status: 401, contentType: "application/json", body: #"{"error":{"message":"Invalid API key"}}"#),
            expected: "ChatCompletionsError unauthorized"),
        ErrorCase(
            name: "another error status",
            answer: .respond(status: 503, contentType: "application/json", body: #"{"error":{"message":"Loading model"}}"#),
            expected: "ChatCompletionsError httpStatus"),
        ErrorCase(
            name: "a stream that ends before the model finished",
            answer: .respond(
                status: 200, contentType: "text/event-stream", body: #"data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}"# + "\n\n"),
            expected: "ChatCompletionsError invalidResponse"),
    ]

    @Test(
        "Each failure is the LanguageModelError an app matches for every model; the server's own failures stay ChatCompletionsError",
        arguments: errorCases)
    func errors(_ row: ErrorCase) async throws {
        let (model, _) = try Self.model([row.answer])
        do {
            let answer = try await LanguageModelSession(model: model).respond(to: "Hi").content
            Issue.record("no error: \(answer)")
        } catch {
            #expect(await Self.describe(error) == row.expected)
        }
    }

    @Test("An overflow the server does not count is the model's context size and the request's estimated tokens")
    func uncountedOverflow() async throws {
        let (model, _) = try Self.model([
            .respond(
                status: 400, contentType: "application/json",
                body: #"{"error":{"message":"Input is too long: maximum context size exceeded"}}"#)
        ])
        do {
            _ = try await LanguageModelSession(model: model).respond(to: String(repeating: "word ", count: 200))
            Issue.record("no overflow")
        } catch LanguageModelError.contextSizeExceeded(let overflow) {
            #expect(overflow.contextSize == 4096)
            #expect(overflow.tokenCount > 100)
        }
    }

    @Test("A server that goes quiet mid-answer is LanguageModelError.timeout")
    func timeout() async throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.idleTimeout = .milliseconds(200)
        let (model, _) = try Self.model(
            [
                .hang(
                    status: 200, contentType: "text/event-stream",
                    first: #"data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}"# + "\n\n")
            ],
            configuration: configuration)
        let outcome = try await withHangGuard(.seconds(30), "the idle timeout") { () -> String in
            do {
                _ = try await LanguageModelSession(model: model).respond(to: "Hi")
                return "no error"
            } catch {
                return await Self.describe(error)
            }
        }
        #expect(outcome == "timeout")
    }

    @Test("A transcript with an attachment is unsupportedTranscriptContent, before anything is sent")
    func attachment() async throws {
        let (model, exchanger) = try Self.model([try Self.text(["ok"])])
        let image = Transcript.AttachmentSegment(
            content: .image(Transcript.ImageAttachment(data: Data([0x89, 0x50]), contentType: "image/png")))
        let history = Transcript(entries: [
            .prompt(Transcript.Prompt(segments: [.attachment(image)])),
            .response(
                Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: "A picture."))])),
        ])
        let session = LanguageModelSession(model: model, transcript: history)
        do {
            _ = try await session.respond(to: "What is in it?")
            Issue.record("no error")
        } catch {
            #expect(await Self.describe(error) == "unsupportedTranscriptContent 1")
        }
        #expect(exchanger.requests.isEmpty)
    }

    @Test("Cancelling the task waiting for a turn ends it with CancellationError and closes the request's connection")
    func cancellation() async throws {
        let (model, exchanger) = try Self.model([
            .hang(
                status: 200, contentType: "text/event-stream",
                first: #"data: {"choices":[{"index":0,"delta":{"content":"1\n2\n"}}]}"# + "\n\n")
        ])
        let session = LanguageModelSession(model: model)
        let turn = Task { try await session.respond(to: "Count to 5000.") }
        try await withHangGuard(.seconds(30), "the cancelled turn") {
            await exchanger.waitForRequests(1)
            turn.cancel()
            let outcome = await turn.result
            #expect(throws: CancellationError.self) { try outcome.get() }
        }
        #expect(exchanger.closes == 1)
    }
}
