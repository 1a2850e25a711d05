import JSONCore
import PortableFoundationModels
import Testing

@testable import ChatCompletions

/// The repetition controls and the guided answer's bound in request bodies, by server.
@Suite("Repetition controls and the guided answer's bound")
struct RepetitionControlsTests {
    typealias Server = ChatRequestBuilder.Server

    static func build(
        tools: Bool = false, server: Server, configuration: ChatCompletionsConfiguration = .init(), options: GenerationOptions = .init()
    ) throws -> JSONValue {
        try ChatRequestBuilder.build(
            ChatRequestBuilderTests.request(tools: tools ? try ChatRequestBuilderTests.tools() : [], options: options), model: "m",
            configuration: configuration, stream: true, server: server
        ).body
    }

    static let llamaCppFields = ["repeat_penalty", "repeat_last_n", "dry_multiplier"]
    static let standardFields = ["frequency_penalty", "presence_penalty", "stop"]

    struct Case: Sendable, CustomTestStringConvertible {
        var recipients: RepetitionControls.Recipients
        var server: Server
        /// The fields a free-text request gets.
        var fields: [String]
        var testDescription: String { "\(recipients) to \(server)" }
    }

    static let cases: [Case] = [
        Case(recipients: .llamaCpp, server: .llamaCpp, fields: llamaCppFields + standardFields),
        Case(recipients: .llamaCpp, server: .other, fields: []),
        Case(recipients: .standardFieldsToEveryServer, server: .llamaCpp, fields: llamaCppFields + standardFields),
        Case(recipients: .standardFieldsToEveryServer, server: .other, fields: standardFields),
        Case(recipients: .everyServer, server: .other, fields: llamaCppFields + standardFields),
    ]

    @Test("Each server gets the fields the recipients name", arguments: cases)
    func recipients(_ sample: Case) throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.repetitionControls.recipients = sample.recipients
        configuration.repetitionControls.repeatPenalty = 1.05
        configuration.repetitionControls.frequencyPenalty = 0.2
        configuration.repetitionControls.presencePenalty = 0.1
        let body = try Self.build(server: sample.server, configuration: configuration)
        let sent = (Self.llamaCppFields + Self.standardFields).filter { body[$0] != nil }
        #expect(sent == sample.fields)
    }

    @Test(
        "By default, llama.cpp gets repeat_last_n 64, dry_multiplier 0.8 and four turn markers as stop; no repeat_penalty, no OpenAI penalties"
    )
    func defaults() throws {
        let body = try Self.build(server: .llamaCpp)
        #expect(body["repeat_penalty"] == nil)
        #expect(body["repeat_last_n"]?.intValue == 64)
        #expect(body["dry_multiplier"]?.doubleValue == 0.8)
        #expect(body["stop"]?.arrayValue?.compactMap(\.stringValue) == ["<|im_start|>", "<|im_end|>", "<start_of_turn>", "<end_of_turn>"])
        #expect(body["frequency_penalty"] == nil && body["presence_penalty"] == nil)
        // Another server's request is as it always was.
        let other = try Self.build(server: .other)
        #expect((Self.llamaCppFields + Self.standardFields).allSatisfy { other[$0] == nil })
        #expect(other["max_tokens"] == nil)
    }

    @Test("RepetitionControls.none sends nothing, even to llama.cpp")
    func none() throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.repetitionControls = .none
        let body = try Self.build(server: .llamaCpp, configuration: configuration)
        #expect((Self.llamaCppFields + Self.standardFields).allSatisfy { body[$0] == nil })
    }

    @Test("At most four stop strings are sent (OpenAI's limit)")
    func fourStops() throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.repetitionControls.stop = ["a", "b", "c", "d", "e"]
        let body = try Self.build(server: .llamaCpp, configuration: configuration)
        #expect(body["stop"]?.arrayValue?.compactMap(\.stringValue) == ["a", "b", "c", "d"])
    }

    @Test("DRY is left out of guided steps (it penalizes copying the prompt into arguments) unless asked for")
    func dryInGuidedSteps() throws {
        let guided = try Self.build(tools: true, server: .llamaCpp)
        #expect(guided["response_format"] != nil)
        #expect(guided["repeat_last_n"]?.intValue == 64)
        #expect(guided["dry_multiplier"] == nil)
        var configuration = ChatCompletionsConfiguration()
        configuration.repetitionControls.appliesDRYToGuidedSteps = true
        #expect(try Self.build(tools: true, server: .llamaCpp, configuration: configuration)["dry_multiplier"]?.doubleValue == 0.8)
    }

    /// The request `built` is retried with after a cut, and whether it has one.
    static func built(
        tools: Bool = false, server: Server, configuration: ChatCompletionsConfiguration = .init()
    ) throws -> ChatRequestBuilder.Built {
        try ChatRequestBuilder.build(
            ChatRequestBuilderTests.request(tools: tools ? try ChatRequestBuilderTests.tools() : []), model: "m",
            configuration: configuration, stream: true, server: server)
    }

    @Test("The retry of a cut answer is the same request with repeat_penalty 1.1, guided or free text", arguments: [false, true])
    func retryBody(tools: Bool) throws {
        let built = try Self.built(tools: tools, server: .llamaCpp)
        let retry = try #require(built.retryBody?.objectValue)
        let first = try #require(built.body.objectValue)
        #expect(retry["repeat_penalty"]?.doubleValue == 1.1)
        var withoutPenalty = retry
        withoutPenalty["repeat_penalty"] = nil
        #expect(withoutPenalty == first)
    }

    @Test(
        "No retry where it would send the same: another server, no retry penalty, the same penalty already sent, no controls",
        arguments: [
            ("another server", Server.other, RepetitionControls()),
            ("no retry penalty", .llamaCpp, RepetitionControls(retryRepeatPenalty: nil)),
            ("the same penalty", .llamaCpp, RepetitionControls(repeatPenalty: 1.1, retryRepeatPenalty: 1.1)),
            ("none", .llamaCpp, RepetitionControls.none),
        ])
    func noRetryBody(_ label: String, server: Server, controls: RepetitionControls) throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.repetitionControls = controls
        #expect(try Self.built(server: server, configuration: configuration).retryBody == nil, "\(label)")
    }

    @Test("A retry penalty goes to another server when the recipients say every field goes everywhere")
    func retryToEveryServer() throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.repetitionControls.recipients = .everyServer
        let retry = try #require(try Self.built(server: .other, configuration: configuration).retryBody)
        #expect(retry["repeat_penalty"]?.doubleValue == 1.1)
    }

    /// The guided step's `answer` string schema.
    static func answerSchema(_ body: JSONValue) throws -> JSONValue {
        let choices = try #require(body["response_format"]?["json_schema"]?["schema"]?["anyOf"]?.arrayValue)
        return try #require(choices.first?["properties"]?["answer"])
    }

    struct Bound: Sendable, CustomTestStringConvertible {
        var requested: Int?
        var tools: Bool
        var maxTokens: Int
        var testDescription: String { "\(requested.map { "max_tokens \($0)" } ?? "no limit"), \(tools ? "tools" : "no tools")" }
    }

    /// 2,000 characters: 2000 / 3 + 64 = 730 tokens.
    static let bounds: [Bound] = [
        Bound(requested: nil, tools: true, maxTokens: 730),
        Bound(requested: 1024, tools: true, maxTokens: 730),
        Bound(requested: 160, tools: true, maxTokens: 256),
        Bound(requested: 160, tools: false, maxTokens: 160),
        Bound(requested: 5000, tools: false, maxTokens: 730),
    ]

    @Test(
        "llama.cpp: a guided answer is at most 2,000 characters, and the step at most 730 tokens (256 with tools, the request's when lower)",
        arguments: bounds)
    func guidedBound(_ bound: Bound) throws {
        // A guided step without tools: a request with a schema and tools offered makes one; a
        // text answer with tools offered is one too. Without tools, use a tool list that the
        // rounds limit closes (the step then offers only the answer).
        var configuration = ChatCompletionsConfiguration()
        if !bound.tools { configuration.maximumToolRounds = 0 }
        let body = try Self.build(
            tools: true, server: .llamaCpp, configuration: configuration, options: GenerationOptions(maximumResponseTokens: bound.requested)
        )
        #expect(try Self.answerSchema(body)["maxLength"]?.intValue == 2000)
        #expect(body["max_tokens"]?.intValue == bound.maxTokens)
    }

    @Test("Other servers get no answer bound and no added max_tokens; nil turns the bound off for llama.cpp too")
    func noBound() throws {
        let other = try Self.build(tools: true, server: .other)
        #expect(try Self.answerSchema(other)["maxLength"] == nil)
        #expect(other["max_tokens"] == nil)
        var configuration = ChatCompletionsConfiguration()
        configuration.maximumGuidedAnswerLength = nil
        let unbounded = try Self.build(tools: true, server: .llamaCpp, configuration: configuration)
        #expect(try Self.answerSchema(unbounded)["maxLength"] == nil)
        #expect(unbounded["max_tokens"] == nil)
    }

    @Test("A step that must call a tool has no answer to bound")
    func requiredCall() throws {
        let tools = try ChatRequestBuilderTests.tools()
        var chat = ChatRequest(ChatRequestBuilderTests.request(tools: tools), configuration: ChatCompletionsConfiguration())
        chat.toolChoice = .required
        let body = try ChatRequestBuilder.build(chat, model: "m", configuration: .init(), stream: true, server: .llamaCpp).body
        let choices = try #require(body["response_format"]?["json_schema"]?["schema"]?["anyOf"]?.arrayValue)
        #expect(choices.allSatisfy { $0["properties"]?["answer"] == nil })
        #expect(body["max_tokens"] == nil)
    }
}
