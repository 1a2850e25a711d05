// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

// Portable only: the adapter that puts a 26 `LanguageModelBackend` behind the 27 executor
// seam. Nothing in this file exists in Apple's framework.

/// Runs a ``LanguageModelBackend`` as an executor: one backend turn per model request, its
/// answer or tool calls translated into channel events.
///
/// It does what the 26 session did around its backend, so 26 backends behave as before:
///
/// - it fails with `GenerationError.assetsUnavailable` when the model has no backend or the
///   backend is unavailable;
/// - it rebuilds the backend's ``LanguageModelRequest`` from the executor request (transcript,
///   enabled tools, the prompt of the turn, schema, options);
/// - it counts the request with the backend's counter before asking, and after the answer
///   counts request and answer, failing with `GenerationError.exceededContextWindowSize` and
///   Apple's message when either passes the backend's `contextSize` (an answer that does not fit
///   is sent first, so it stays in the transcript, as before);
/// - when the caller streams, it calls `respond(to:partialAnswer:)` and turns each report of the
///   answer so far into a text delta (or a replacement when the report does not extend the last
///   one); otherwise it calls `respond(to:)`;
/// - it turns the turn into events: a text answer as response text; structured content as its
///   JSON (the session parses it back); tool calls as one tool-calls entry whose calls carry
///   their arguments' JSON; an empty list of calls fails with `GenerationError.decodingFailure`;
/// - it reports usage: the counted request as input tokens, the estimated tokens of each delta
///   as output tokens.
///
/// Backend errors pass through unchanged.
struct BackendExecutor: Sendable {
    /// What identifies the executor: the system model's use case and guardrails. Executors are
    /// stateless (each request reads the backend of the model it is given), so models of equal
    /// configuration share one.
    struct Configuration: Hashable, Sendable {
        var useCase: String
        var permissiveGuardrails: Bool

        init(_ model: SystemLanguageModel) {
            useCase = model.useCase.name
            permissiveGuardrails = model.guardrails.permissive
        }
    }

    /// The error of a model that cannot answer, with the 26 session's messages.
    static func unavailability(of model: SystemLanguageModel) -> LanguageModelSession.GenerationError? {
        guard let backend = model.backend else {
            return .assetsUnavailable(
                .init(
                    debugDescription:
                        "No on-device language model on this platform (\(model.availability)); create the session with SystemLanguageModel(backend:)."
                ))
        }
        if case .unavailable(let reason) = backend.availability {
            return .assetsUnavailable(.init(debugDescription: "The language model is unavailable: \(reason)."))
        }
        return nil
    }

    func respond(to request: ModelRequest, model: SystemLanguageModel, into channel: ChannelBuffer) async throws {
        if let error = Self.unavailability(of: model) { throw error }
        guard let backend = model.backend else { return }
        let legacy = Self.legacyRequest(request)
        let requestTokens = try await model.tokenCount(of: TranscriptRendering.pieces(request: legacy))
        try Self.checkContext(requestTokens, size: backend.contextSize)
        var forwarder = AnswerForwarder(channel: channel, requestTokens: requestTokens)
        let turn: LanguageModelTurn
        if request.details.streamsAnswer {
            turn = try await withThrowingTaskGroup(of: LanguageModelTurn.self) { group in
                let (partials, sink) = AsyncStream.makeStream(of: GeneratedContent.self, bufferingPolicy: .bufferingNewest(1))
                group.addTask {
                    defer { sink.finish() }
                    return try await backend.respond(to: legacy) { sink.yield($0) }
                }
                for await partial in partials {
                    await forwarder.forward(Self.text(of: partial, plain: legacy.schema == nil || request.details.answersWithPlainText))
                }
                guard let turn = try await group.next() else { throw CancellationError() }
                return turn
            }
        } else {
            turn = try await backend.respond(to: legacy)
        }
        try Task.checkCancellation()
        switch turn {
        case .toolCalls(let calls):
            if calls.isEmpty {
                throw LanguageModelSession.GenerationError.decodingFailure(
                    .init(debugDescription: "The model asked for an empty list of tool calls."))
            }
            await forwarder.send(calls)
        case .text(let text):
            await forwarder.finish(text)
            let answer = Self.answerText(text: text, schema: legacy.schema, plain: request.details.answersWithPlainText)
            try await checkAnswer(answer, requestTokens: requestTokens, model: model, size: backend.contextSize)
        case .content(let content):
            let plain = legacy.schema == nil || request.details.answersWithPlainText
            let text = Self.text(of: content, plain: plain)
            await forwarder.finish(text)
            let answer: String = if case .string(let string) = content.kind, plain { string } else { content.jsonString }
            try await checkAnswer(answer, requestTokens: requestTokens, model: model, size: backend.contextSize)
        }
    }

    /// Fails when the request and its answer together pass the context, as the 26 session did
    /// (the answer is already in the channel, so it stays in the transcript).
    private func checkAnswer(_ answer: String, requestTokens: Int, model: SystemLanguageModel, size: Int) async throws {
        let answerTokens = try await model.tokenCount(of: [TranscriptRendering.Piece(kind: .response, text: answer)])
        try Self.checkContext(requestTokens + answerTokens, size: size)
    }

    /// Fails with `exceededContextWindowSize` when `tokens` do not fit `size`.
    static func checkContext(_ tokens: Int, size: Int) throws {
        guard tokens > size else { return }
        throw LanguageModelSession.GenerationError.exceededContextWindowSize(
            .init(
                debugDescription: "Content contains \(tokens) tokens, which exceeds the maximum allowed context size of \(size)."))
    }

    /// The backend's view of an executor request.
    static func legacyRequest(_ request: ModelRequest) -> LanguageModelRequest {
        var prompt = Transcript.Prompt(segments: [])
        for entry in request.transcript.reversed() {
            if case .prompt(let found) = entry {
                prompt = found
                break
            }
        }
        let tools = request.enabledTools.map {
            LanguageModelToolDescription(
                name: $0.name, description: $0.description, parameters: $0.storedParameters,
                includesSchemaInInstructions: !request.details.toolsOutsideInstructions.contains($0.name))
        }
        return LanguageModelRequest(
            transcript: request.transcript, tools: tools, prompt: prompt, schema: request.schema, options: request.generationOptions)
    }

    /// The text the response entry holds for `content`: a string as it is when the answer is
    /// plain text, anything else as JSON (which the session parses back).
    static func text(of content: GeneratedContent, plain: Bool) -> String {
        if plain, case .string(let text) = content.kind { return text }
        return content.jsonString
    }

    /// The answer as the 26 session rendered it to count it: text as it is; text for a schema
    /// as its JSON normalized.
    static func answerText(text: String, schema: GenerationSchema?, plain: Bool) -> String {
        guard schema != nil, !plain, let parsed = try? GeneratedContent(json: text) else { return text }
        return parsed.jsonString
    }
}

/// Sends a backend's answer into a channel as text deltas.
private struct AnswerForwarder {
    let channel: ChannelBuffer
    let requestTokens: Int
    /// The answer text the channel holds so far; `nil` before the first event.
    private var sent: String?

    init(channel: ChannelBuffer, requestTokens: Int) {
        self.channel = channel
        self.requestTokens = requestTokens
    }

    /// The request's input tokens, before any output.
    private func usage(_ kind: (UsageCore) -> ChannelEvent.Payload) -> ChannelEvent {
        ChannelEvent(entryID: nil, payload: kind(UsageCore(inputTokens: requestTokens)), publishesSnapshot: false)
    }

    /// A report of the answer so far, shown to stream readers.
    mutating func forward(_ text: String) async {
        await update(to: text, publishes: true)
    }

    /// The complete answer, which readers get as the response's end (no snapshot of its own).
    mutating func finish(_ text: String) async {
        await update(to: text, publishes: false)
    }

    private mutating func update(to text: String, publishes: Bool) async {
        let operation: TextOperation
        if let sent {
            if text == sent { return }
            if text.hasPrefix(sent) {
                let delta = String(text.dropFirst(sent.count))
                operation = .append(delta, segmentID: nil, tokenCount: TokenEstimator.tokenCount(for: delta))
            } else {
                operation = .replace(text, segmentID: nil, tokenCount: TokenEstimator.tokenCount(for: text))
            }
        } else {
            await channel.send(usage { .response(.usage($0)) })
            operation = .append(text, segmentID: nil, tokenCount: TokenEstimator.tokenCount(for: text))
        }
        sent = text
        await channel.send(ChannelEvent(entryID: nil, payload: .response(.text(operation)), publishesSnapshot: publishes))
    }

    /// Tool calls: one tool-calls entry, each call's arguments as one JSON fragment.
    func send(_ calls: [LanguageModelToolCall]) async {
        await channel.send(usage { .toolCalls(.usage($0)) })
        for call in calls {
            let arguments = call.arguments.jsonString
            let fragment = ToolCallActionCore.appendArguments(arguments, tokenCount: TokenEstimator.tokenCount(for: arguments))
            await channel.send(ChannelEvent(entryID: nil, payload: .toolCalls(.call(id: call.id, name: call.toolName, fragment))))
        }
    }
}

/// The 26 `SystemLanguageModel` as the session's core drives it: its executor is a
/// ``BackendExecutor``.
struct SystemModelDriver: ModelDriver {
    let model: SystemLanguageModel

    /// Tool calling and guided generation: what every 26 backend is asked for.
    var capabilities: Set<CapabilityCore> { [.toolCalling, .guidedGeneration] }

    var executorKey: ExecutorKey {
        ExecutorKey(executorType: ObjectIdentifier(BackendExecutor.self), configuration: AnyHashable(BackendExecutor.Configuration(model)))
    }

    func makeExecutor() throws -> any Sendable { BackendExecutor() }

    func prewarm(_ executor: any Sendable, transcript: Transcript) {}

    func respond(_ executor: any Sendable, to request: ModelRequest, into channel: ChannelBuffer) async throws {
        guard let executor = executor as? BackendExecutor else { throw ExecutorMismatch(expected: "BackendExecutor") }
        try await executor.respond(to: request, model: model, into: channel)
    }

    func unavailabilityError() -> (any Error)? {
        BackendExecutor.unavailability(of: model)
    }
}
#endif
