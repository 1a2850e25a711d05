// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
#if !canImport(FoundationModels)
import JSONCore
// SPI: `SamplingMode.strategy` and the refusal with its explanation, which Apple's types lack.
@_spi(Portable) public import PortableFoundationModels

// Portable only: the model as the 26 `LanguageModelBackend` of `SystemLanguageModel(backend:)`,
// as it has been since the module began. It runs the same request and stream code as the 27
// executor (`ChatRequestBuilder`, `exchange(_:observer:started:)`), and reports what the server
// says as the 26 session did.

extension ChatCompletionsModel: LanguageModelBackend {
    /// A `SystemLanguageModel` answered by this model (the 26 way to run a session on it; the
    /// model is also a `LanguageModel` itself).
    public var systemLanguageModel: SystemLanguageModel { SystemLanguageModel(backend: self) }

    /// One turn of the model for a session's request: text, structured content, or tool calls.
    ///
    /// - Throws: `LanguageModelSession.GenerationError.exceededContextWindowSize` when the
    ///   server finds the request over the model's context, `.refusal` when the model refuses,
    ///   `.rateLimited` for a `429`, `.decodingFailure` for an answer that cannot be read as the
    ///   request needs; ``ChatCompletionsError`` when the server cannot be reached or fails;
    ///   `CancellationError` when the task is cancelled (the request is then stopped).
    public func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
        try await respond(to: request, reporting: nil)
    }

    /// One turn of the model, reporting its answer as the server streams it.
    ///
    /// `partialAnswer` receives the answer so far after each event of the stream that adds to
    /// it: the text, or the structured content parsed so far. With guided tool calls it is the
    /// `answer` part of the step's JSON, once the model has chosen to answer; a tool call is
    /// never reported. With native function calling, text that comes before a call is reported
    /// (a server may stream text, then decide to call a tool). Errors are as for
    /// ``respond(to:)``.
    public func respond(
        to request: LanguageModelRequest, partialAnswer: @escaping @Sendable (GeneratedContent) -> Void
    ) async throws -> LanguageModelTurn {
        try await respond(to: request, reporting: partialAnswer)
    }

    private func respond(
        to request: LanguageModelRequest, reporting partialAnswer: (@Sendable (GeneratedContent) -> Void)?
    ) async throws -> LanguageModelTurn {
        let started = ContinuousClock.now
        let built = try ChatRequestBuilder.build(request, model: model, configuration: configuration, stream: true, server: server)
        let exchange: Exchange<PartialAnswerReporter>
        do {
            exchange = try await self.exchange(
                built, observer: PartialAnswerReporter(shape: built.shape, report: partialAnswer), started: started)
        } catch {
            throw Self.generationError(for: error)
        }
        let answer = exchange.stream.completion
        if let refusal = answer.refusal, !refusal.isEmpty {
            throw LanguageModelSession.GenerationError.refusal(
                LanguageModelSession.GenerationError.Refusal(transcriptEntries: [], explanation: refusal),
                LanguageModelSession.GenerationError.Context(debugDescription: "The model refused: \(refusal)"))
        }
        let turn: ChatRequestBuilder.Turn
        do {
            turn = try ChatRequestBuilder.turn(content: answer.content, toolCalls: answer.toolCalls, shape: built.shape)
        } catch {
            let cut = answer.finishReason == "length" ? " (the answer was cut at the response token limit)" : ""
            throw LanguageModelSession.GenerationError.decodingFailure(.init(debugDescription: error.reason + cut))
        }
        exchange.reportMetrics(configuration)
        return LanguageModelTurn(turn)
    }

    /// The error of a failure as the 26 session reports it: the model's overflow and rate limit
    /// as `GenerationError`, a content filter as the ``ChatCompletionsError/httpStatus`` it
    /// always was, anything else unchanged.
    static func generationError(for error: any Error) -> any Error {
        guard let failure = error as? ServerFailure else { return error }
        switch failure {
        case .contextOverflow(let overflow):
            var detail = "The request exceeds the model's context: \(overflow.message)"
            if let prompt = overflow.promptTokens, let context = overflow.contextSize {
                detail = "Content contains \(prompt) tokens, which exceeds the maximum allowed context size of \(context)."
            }
            return LanguageModelSession.GenerationError.exceededContextWindowSize(.init(debugDescription: detail))
        case .rateLimited(let message, _):
            return LanguageModelSession.GenerationError.rateLimited(
                .init(debugDescription: "The model server is rate-limiting requests: \(message)"))
        case .contentFiltered(let message, let status):
            let code = status ?? 200
            return ChatCompletionsError.make(.httpStatus, "the model server answered HTTP \(code): \(message)", status: code)
        }
    }

    /// The error for an error status, as the 26 session reports it.
    static func failure(status: Int, body: [UInt8]) -> any Error {
        generationError(for: ServerFailure.classify(status: status, body: body))
    }
}

extension ChatRequestBuilder {
    /// The request body for a 26 backend request.
    static func build(
        _ request: LanguageModelRequest, model: String, configuration: ChatCompletionsConfiguration, stream: Bool, server: Server = .other
    ) throws -> Built {
        try build(
            ChatRequest(request, configuration: configuration), model: model, configuration: configuration, stream: stream, server: server)
    }
}

extension ChatRequest {
    /// A 26 backend request: its tools, schema and options (each unset one from the
    /// configuration's `defaultOptions`). A 26 request has no tool-calling mode, reasoning level
    /// or usage.
    init(_ request: LanguageModelRequest, configuration: ChatCompletionsConfiguration) {
        let options = request.options
        let defaults = configuration.defaultOptions
        self.init(
            transcript: request.transcript, promptID: request.prompt.id, tools: request.tools.map(Tool.init), schema: request.schema,
            temperature: options.temperature ?? defaults.temperature,
            maximumResponseTokens: options.maximumResponseTokens ?? defaults.maximumResponseTokens,
            sampling: (options.samplingMode ?? defaults.samplingMode).map { Sampling($0.strategy) })
    }
}

extension ChatRequest.Tool {
    /// A 26 backend's tool.
    init(_ tool: LanguageModelToolDescription) {
        self.init(
            name: tool.name, description: tool.description, parameters: tool.parameters,
            includesSchemaInInstructions: tool.includesSchemaInInstructions)
    }
}

extension ChatRequest.Sampling {
    /// A 26 sampling mode's parameters.
    init(_ strategy: GenerationOptions.SamplingMode.Strategy) {
        switch strategy {
        case .greedy: self = .greedy
        case .randomTopK(let k, let seed): self = .topK(k, seed: seed)
        case .randomProbabilityThreshold(let threshold, let seed): self = .probabilityThreshold(threshold, seed: seed)
        }
    }
}

extension LanguageModelTurn {
    /// A 26 turn: calls without the server's id get one of their own.
    init(_ turn: ChatRequestBuilder.Turn) {
        switch turn {
        case .text(let text):
            self = .text(text)
        case .content(let content):
            self = .content(content)
        case .toolCalls(let calls):
            self = .toolCalls(
                calls.map { call in
                    call.id.map { LanguageModelToolCall(id: $0, toolName: call.toolName, arguments: call.arguments) }
                        ?? LanguageModelToolCall(toolName: call.toolName, arguments: call.arguments)
                })
        }
    }
}

/// Reports a 26 backend's answer so far to `partialAnswer` as the server streams it.
struct PartialAnswerReporter: CompletionObserver {
    let shape: ChatRequestBuilder.AnswerShape
    let report: (@Sendable (GeneratedContent) -> Void)?
    /// The content's length at the last report.
    private var reported = 0

    init(shape: ChatRequestBuilder.AnswerShape, report: (@Sendable (GeneratedContent) -> Void)?) {
        self.shape = shape
        self.report = report
    }

    mutating func observe(_ stream: StreamedCompletion) async throws {
        guard let report else { return }
        let content = stream.completion.content
        let length = content.utf8.count
        guard ChatCompletionsModel.reportsPartial(length: length, reported: reported) else { return }
        if let partial = ChatRequestBuilder.partialAnswer(content: content, shape: shape, callsStarted: stream.callsStarted) {
            report(partial)
        }
        reported = length
    }

    /// Each report is the whole answer so far: the retry's first one replaces the cut answer's.
    mutating func restart() async -> Bool {
        reported = 0
        return true
    }
}
#endif
