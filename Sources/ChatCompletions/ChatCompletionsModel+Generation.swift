// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import JSONCore

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

// The 27 executor's work: a `LanguageModelExecutorGenerationRequest` becomes a chat-completions
// request, its answer streams into the session's channel (`ChannelTranslator`), and failures
// become `LanguageModelError`. Written only against names Apple's 27 API and the portable
// module declare alike.

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension ChatCompletionsModel {
    /// Answers one model request of a session, streaming into `channel`.
    func generate(_ request: LanguageModelExecutorGenerationRequest, into channel: LanguageModelExecutorGenerationChannel) async throws {
        let started = ContinuousClock.now
        try Task.checkCancellation()
        let chat = try ChatRequest(request, configuration: configuration)
        let built = try ChatRequestBuilder.build(chat, model: model, configuration: configuration, stream: true, server: server)
        do {
            let exchange = try await self.exchange(
                built, observer: ChannelTranslator(channel: channel, shape: built.shape), started: started)
            var translator = exchange.observer
            try await translator.finish(exchange.stream)
            exchange.reportMetrics(configuration)
        } catch {
            throw languageModelError(for: error, body: built.body)
        }
    }

    /// The error of a failure as a `LanguageModel` reports it: `LanguageModelError` for what
    /// every model can report, anything else unchanged. `body`, when given, is the request's, to
    /// estimate its tokens when the server did not count them.
    func languageModelError(for error: any Error, body: JSONValue? = nil) -> any Error {
        if let failure = error as? ChatCompletionsError, failure == .timedOut {
            return LanguageModelError.timeout(.init(debugDescription: failure.detail))
        }
        guard let failure = error as? ServerFailure else { return error }
        switch failure {
        case .contextOverflow(let overflow):
            let stated = overflow.stated
            let tokens = stated.tokens ?? body.map(Self.estimatedTokenCount(ofMessagesIn:)) ?? 0
            let size = stated.contextSize ?? contextSize
            return LanguageModelError.contextSizeExceeded(
                .init(
                    contextSize: size, tokenCount: tokens,
                    debugDescription:
                        "Content contains \(tokens) tokens, which exceeds the maximum allowed context size of \(size). The server said: \(overflow.message)"
                ))
        case .rateLimited(let message, let resetDate):
            return LanguageModelError.rateLimited(
                .init(resetDate: resetDate, debugDescription: "The model server is rate-limiting requests: \(message)"))
        case .contentFiltered(let message, _):
            return LanguageModelError.guardrailViolation(
                .init(debugDescription: "The model server's content filter stopped the request: \(message)"))
        }
    }

    /// An estimate of the tokens of a request body's messages.
    static func estimatedTokenCount(ofMessagesIn body: JSONValue) -> Int {
        let messages = body["messages"]?.arrayValue ?? []
        let text = messages.compactMap { $0["content"]?.stringValue }.joined(separator: "\n")
        return estimatedTokenCount(for: text)
    }

    /// The refusal of a model that declined, with its explanation: the text the server sent.
    static func refusal(_ explanation: String) -> LanguageModelError {
        // The labels code written against Apple's release SDK uses; the reference does not give
        // them (see the module's documentation: unverified on Apple platforms).
        .refusal(LanguageModelError.Refusal(explanation: explanation, debugDescription: "The model refused: \(explanation)"))
    }
}

#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
extension ChatCompletionsModel {
    /// An error of connecting or counting tokens, in the terms of the platform's session: as a
    /// `LanguageModel` on Apple's systems, as the 26 backend elsewhere (as it always was).
    static func reported(_ error: any Error) -> any Error {
        #if canImport(FoundationModels)
        guard let failure = error as? ServerFailure else { return error }
        switch failure {
        case .contextOverflow(let overflow):
            let stated = overflow.stated
            return LanguageModelError.contextSizeExceeded(
                .init(
                    contextSize: stated.contextSize ?? 0, tokenCount: stated.tokens ?? 0, debugDescription: overflow.message))
        case .rateLimited(let message, let resetDate):
            return LanguageModelError.rateLimited(
                .init(resetDate: resetDate, debugDescription: "The model server is rate-limiting requests: \(message)"))
        case .contentFiltered(let message, _):
            return LanguageModelError.guardrailViolation(
                .init(debugDescription: "The model server's content filter stopped the request: \(message)"))
        }
        #else
        generationError(for: error)
        #endif
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension ChatRequest {
    /// An executor request: its transcript, enabled tools (none when the tool-calling mode
    /// disallows calls), schema and options, each unset option from the configuration's
    /// `defaultOptions`.
    ///
    /// - Throws: `LanguageModelError.unsupportedTranscriptContent` for a transcript with
    ///   attachments (images are not sent).
    init(_ request: LanguageModelExecutorGenerationRequest, configuration: ChatCompletionsConfiguration) throws {
        let options = request.generationOptions
        let defaults = configuration.defaultOptions
        let attached: [Transcript.Entry] = request.transcript.filter(Self.hasAttachment)
        if !attached.isEmpty {
            throw LanguageModelError.unsupportedTranscriptContent(
                .init(
                    unsupportedContent: attached,
                    debugDescription:
                        "The transcript has \(attached.count) entries with attachments; a chat-completions model is sent text only."))
        }
        var toolChoice = ToolChoice.auto
        var allowsTools = true
        if let mode = (options.toolCallingMode ?? defaults.toolCallingMode)?.kind {
            switch mode {
            case .allowed: break
            case .required: toolChoice = .required
            case .disallowed: allowsTools = false
            @unknown default: break
            }
        }
        var described: Set<String>?
        for entry in request.transcript {
            if case .instructions(let instructions) = entry {
                described = Set(instructions.toolDefinitions.map(\.name))
                break
            }
        }
        let tools = allowsTools ? request.enabledToolDefinitions : []
        self.init(
            transcript: request.transcript, promptID: nil,
            tools: tools.map { definition in
                Tool(
                    name: definition.name, description: definition.description, parameters: definition.parameters,
                    includesSchemaInInstructions: described?.contains(definition.name) ?? true)
            },
            schema: request.schema, temperature: options.temperature ?? defaults.temperature,
            maximumResponseTokens: options.maximumResponseTokens ?? defaults.maximumResponseTokens,
            sampling: (options.samplingMode ?? defaults.samplingMode).flatMap { Sampling($0.kind) }, toolChoice: toolChoice,
            reasoningEffort: configuration.reasoning == .reasoningEffort ? request.contextOptions.reasoningLevel.map(Self.effort) : nil,
            includesUsage: true)
    }

    /// Whether an entry holds an attachment.
    static func hasAttachment(_ entry: Transcript.Entry) -> Bool {
        let segments: [Transcript.Segment]
        switch entry {
        case .instructions(let instructions): segments = instructions.segments
        case .prompt(let prompt): segments = prompt.segments
        case .response(let response): segments = response.segments
        case .toolOutput(let output): segments = output.segments
        default: return false
        }
        return segments.contains { segment in
            if case .attachment = segment { true } else { false }
        }
    }

    /// OpenAI's `reasoning_effort` for a reasoning level.
    static func effort(_ level: ContextOptions.ReasoningLevel) -> String {
        switch level {
        case .light: "low"
        case .moderate: "medium"
        case .deep: "high"
        case .custom(let name): name
        @unknown default: "medium"
        }
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension ChatRequest.Sampling {
    /// A 27 sampling mode's kind; `nil` for a kind this version does not know.
    init?(_ kind: GenerationOptions.SamplingMode.Kind) {
        switch kind {
        case .greedy: self = .greedy
        case .randomTopK(let k, let seed): self = .topK(k, seed: seed)
        case .randomProbabilityThreshold(let threshold, let seed): self = .probabilityThreshold(threshold, seed: seed)
        @unknown default: return nil
        }
    }
}
