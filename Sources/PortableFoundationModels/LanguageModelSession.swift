// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A conversation with a language model, with tools it may call.
///
/// `respond` runs the tool loop the way Apple's session does: it asks the model; when the model
/// asks for tools it runs them (concurrently when it asks for several), appends the calls and
/// outputs to the transcript and asks again, until the model answers. A tool that throws ends
/// `respond` with `ToolCallError`; an error the model's backend throws (such as its own
/// `GenerationError.exceededContextWindowSize` or `.refusal`) ends it unchanged; a second
/// `respond` while one runs fails with `GenerationError.concurrentRequests`.
///
/// The session keeps to its model's context as Apple's does. Before every request (the first of
/// a turn and each one after tool outputs) it counts the request, instructions, tool definitions,
/// the whole transcript with the new prompt and this turn's tool calls and outputs, and the
/// response schema, with the model's counter (`SystemLanguageModel.tokenCount(for:)` counts the
/// same rendering). When the request, or the request and the model's answer, pass
/// `SystemLanguageModel.contextSize`, `respond` throws
/// `GenerationError.exceededContextWindowSize`. A session that overflowed stays over its
/// context: the entries the failed turn added (its prompt, tool calls and outputs, and the
/// answer that did not fit) stay in the transcript, so every later request fails the same way.
/// As Apple's TN3193 says, such a session cannot respond again: make a new one with
/// `init(model:tools:transcript:)` from a shortened or summarized transcript.
public final class LanguageModelSession: @unchecked Sendable {
    let model: SystemLanguageModel
    let tools: [any Tool]
    private let lock = Lock()
    private var storedTranscript: Transcript
    private var responding = false

    final public var transcript: Transcript { lock.withLock { storedTranscript } }

    final public var isResponding: Bool { lock.withLock { responding } }

    init(model: SystemLanguageModel, tools: [any Tool], initialTranscript transcript: Transcript) {
        self.model = model
        self.tools = tools
        self.storedTranscript = transcript
    }

    init(model: SystemLanguageModel, tools: [any Tool], instructionSegments: [Transcript.Segment]?) {
        self.model = model
        self.tools = tools
        var entries: [Transcript.Entry] = []
        let definitions = tools.filter(\.includesSchemaInInstructions).map { Transcript.ToolDefinition(tool: $0) }
        if instructionSegments != nil || !definitions.isEmpty {
            entries.append(.instructions(Transcript.Instructions(segments: instructionSegments ?? [], toolDefinitions: definitions)))
        }
        self.storedTranscript = Transcript(entries: entries)
    }

    public struct Response<Content: Generable> {
        public let content: Content
        public let rawContent: GeneratedContent
        public let transcriptEntries: ArraySlice<Transcript.Entry>
    }

    /// A tool failed: `underlyingError` is what its `call(arguments:)` threw.
    public struct ToolCallError: Error, LocalizedError {
        public var tool: any Tool
        public var underlyingError: any Error

        public init(tool: any Tool, underlyingError: any Error) {
            self.tool = tool
            self.underlyingError = underlyingError
        }

        public var errorDescription: String? {
            "Tool '\(tool.name)' failed: \((underlyingError as? any LocalizedError)?.errorDescription ?? String(describing: underlyingError))"
        }
    }

    public enum GenerationError: Error, LocalizedError {
        public struct Context: Sendable {
            public let debugDescription: String
            public init(debugDescription: String) { self.debugDescription = debugDescription }
        }

        /// The model declined to answer; `explanation` says why.
        public struct Refusal: Sendable {
            let transcriptEntries: [Transcript.Entry]
            /// The model's own explanation, when the backend gave one.
            let explanationText: String?

            public init(transcriptEntries: [Transcript.Entry]) {
                self.transcriptEntries = transcriptEntries
                self.explanationText = nil
            }

            /// Portable only: a refusal with the model's explanation, for a
            /// ``LanguageModelBackend`` to throw in `GenerationError.refusal(_:_:)`.
            ///
            /// Apple's session asks its model for the explanation when `explanation` is read; a
            /// backend for another model (whose API returns the refusal's text with the refusal)
            /// hands the text over here, and `explanation` returns it.
            public init(transcriptEntries: [Transcript.Entry], explanation: String) {
                self.transcriptEntries = transcriptEntries
                self.explanationText = explanation
            }
        }

        case exceededContextWindowSize(LanguageModelSession.GenerationError.Context)
        case assetsUnavailable(LanguageModelSession.GenerationError.Context)
        case guardrailViolation(LanguageModelSession.GenerationError.Context)
        case unsupportedGuide(LanguageModelSession.GenerationError.Context)
        case unsupportedLanguageOrLocale(LanguageModelSession.GenerationError.Context)
        case decodingFailure(LanguageModelSession.GenerationError.Context)
        case rateLimited(LanguageModelSession.GenerationError.Context)
        case concurrentRequests(LanguageModelSession.GenerationError.Context)
        case refusal(LanguageModelSession.GenerationError.Refusal, LanguageModelSession.GenerationError.Context)

        var context: Context {
            switch self {
            case .exceededContextWindowSize(let c), .assetsUnavailable(let c), .guardrailViolation(let c),
                 .unsupportedGuide(let c), .unsupportedLanguageOrLocale(let c), .decodingFailure(let c),
                 .rateLimited(let c), .concurrentRequests(let c), .refusal(_, let c):
                c
            }
        }

        public var errorDescription: String? {
            let summary = switch self {
            case .exceededContextWindowSize: "The context window size was exceeded."
            case .assetsUnavailable: "The model's assets are unavailable."
            case .guardrailViolation: "The content was flagged by guardrails."
            case .unsupportedGuide: "A generation guide is not supported."
            case .unsupportedLanguageOrLocale: "The language or locale is not supported."
            case .decodingFailure: "The model's output could not be decoded."
            case .rateLimited: "The session was rate limited."
            case .concurrentRequests: "The session is already responding to a request."
            case .refusal: "The model refused to answer."
            }
            return context.debugDescription.isEmpty ? summary : "\(summary) \(context.debugDescription)"
        }

        public var recoverySuggestion: String? {
            switch self {
            case .exceededContextWindowSize: "Start a new session with a shorter transcript."
            case .concurrentRequests: "Wait for the current response to finish before sending another."
            case .assetsUnavailable: "Check SystemLanguageModel.default.availability before creating a session."
            default: nil
            }
        }

        public var failureReason: String? { context.debugDescription }
    }
}

extension LanguageModelSession.Response: Sendable where Content: Sendable {}

extension LanguageModelSession.GenerationError.Refusal {
    /// The model's explanation of why it refused.
    ///
    /// Portable: the explanation the backend gave (`init(transcriptEntries:explanation:)`),
    /// else the text of the last response among the refusal's transcript entries; without
    /// either it throws `GenerationError.refusal` again, as there is no model to ask. The
    /// response's `transcriptEntries` hold the explanation as one response entry.
    nonisolated(nonsending) public var explanation: LanguageModelSession.Response<String> {
        get async throws {
            guard let text = explanationText ?? lastResponseText else {
                throw LanguageModelSession.GenerationError.refusal(
                    self, .init(debugDescription: "The model gave no explanation for its refusal."))
            }
            let entry = Transcript.Entry.response(Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: text))]))
            return LanguageModelSession.Response(content: text, rawContent: GeneratedContent(kind: .string(text)), transcriptEntries: [entry][...])
        }
    }

    /// The model's explanation of why it refused, as a stream (one snapshot: the explanation
    /// is already known when the refusal is thrown).
    public var explanationStream: LanguageModelSession.ResponseStream<String> {
        LanguageModelSession.ResponseStream { _ in try await self.explanation }
    }

    /// The text of the last response entry of the refusal's transcript entries.
    private var lastResponseText: String? {
        for entry in transcriptEntries.reversed() {
            if case .response(let response) = entry { return response.segments.plainText }
        }
        return nil
    }
}

extension LanguageModelSession {
    @_disfavoredOverload
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: String? = nil) {
        self.init(model: model, tools: tools, instructionSegments: instructions.map { [.text(Transcript.TextSegment(content: $0))] })
    }

    public convenience init(
        model: SystemLanguageModel = .default, tools: [any Tool] = [], @InstructionsBuilder instructions: () throws -> Instructions
    ) rethrows {
        let built = try instructions()
        self.init(model: model, tools: tools, instructionSegments: built.segments)
    }

    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: Instructions? = nil) {
        self.init(model: model, tools: tools, instructionSegments: instructions?.segments)
    }

    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], transcript: Transcript) {
        self.init(model: model, tools: tools, initialTranscript: transcript)
    }

    /// Does nothing without an on-device model (Apple's loads the model's assets early).
    final public func prewarm(promptPrefix: Prompt? = nil) {}
}

// MARK: - respond

extension LanguageModelSession {
    @discardableResult
    nonisolated(nonsending) final public func respond(
        to prompt: Prompt, options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<String> {
        try await run(prompt: prompt, schema: nil, format: nil, options: options, as: String.self)
    }

    @discardableResult @_disfavoredOverload
    nonisolated(nonsending) final public func respond(
        to prompt: String, options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<String> {
        try await respond(to: Prompt(prompt), options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond(
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> LanguageModelSession.Response<String> {
        try await respond(to: try prompt(), options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond(
        to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<GeneratedContent> {
        try await run(prompt: prompt, schema: schema, format: Transcript.ResponseFormat(schema: schema), options: options, as: GeneratedContent.self)
    }

    @discardableResult @_disfavoredOverload
    nonisolated(nonsending) final public func respond(
        to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<GeneratedContent> {
        try await respond(to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond(
        schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> LanguageModelSession.Response<GeneratedContent> {
        try await respond(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<Content> {
        try await run(
            prompt: prompt, schema: Content.generationSchema, format: Transcript.ResponseFormat(type: Content.self),
            options: options, as: Content.self)
    }

    @discardableResult @_disfavoredOverload
    nonisolated(nonsending) final public func respond<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> LanguageModelSession.Response<Content> {
        try await respond(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    @discardableResult
    nonisolated(nonsending) final public func respond<Content: Generable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> LanguageModelSession.Response<Content> {
        try await respond(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }
}

// MARK: - The tool loop

extension LanguageModelSession {
    private func begin() throws {
        try lock.withLock {
            if responding {
                throw GenerationError.concurrentRequests(.init(debugDescription: "The session is already responding to a request."))
            }
            responding = true
        }
    }

    private func end() {
        lock.withLock { responding = false }
    }

    private func append(_ entry: Transcript.Entry) {
        lock.withLock { storedTranscript.entries.append(entry) }
    }

    /// Runs a turn: asks the model, runs the tools it calls, and asks again until it answers.
    /// `partial`, when given, receives the answer so far as the backend generates it.
    func run<Content: Generable>(
        prompt: Prompt, schema: GenerationSchema?, format: Transcript.ResponseFormat?, options: GenerationOptions, as: Content.Type,
        partial: (@Sendable (GeneratedContent) -> Void)? = nil
    ) async throws -> Response<Content> {
        try begin()
        defer { end() }
        guard let backend = model.backend else {
            throw GenerationError.assetsUnavailable(.init(
                debugDescription: "No on-device language model on this platform (\(model.availability)); create the session with SystemLanguageModel(backend:)."))
        }
        if case .unavailable(let reason) = backend.availability {
            throw GenerationError.assetsUnavailable(.init(debugDescription: "The language model is unavailable: \(reason)."))
        }
        let promptEntry = Transcript.Prompt(segments: prompt.segments, options: options, responseFormat: format)
        let start: Int = lock.withLock {
            storedTranscript.entries.append(.prompt(promptEntry))
            return storedTranscript.entries.count - 1
        }
        let descriptions = tools.map(LanguageModelToolDescription.init(tool:))
        while true {
            try Task.checkCancellation()
            let request = LanguageModelRequest(transcript: transcript, tools: descriptions, prompt: promptEntry, schema: schema, options: options)
            let requestTokens = try await model.tokenCount(of: TranscriptRendering.pieces(request: request))
            try checkContext(requestTokens)
            let turn = if let partial {
                try await backend.respond(to: request, partialAnswer: partial)
            } else {
                try await backend.respond(to: request)
            }
            switch turn {
            case .toolCalls(let calls):
                if calls.isEmpty {
                    throw GenerationError.decodingFailure(.init(debugDescription: "The model asked for an empty list of tool calls."))
                }
                let resolved = try calls.map { call in (call, try resolveTool(call)) }
                append(.toolCalls(Transcript.ToolCalls(calls.map {
                    Transcript.ToolCall(id: $0.id, toolName: $0.toolName, arguments: $0.arguments)
                })))
                let outputs = try await runTools(resolved)
                for output in outputs { append(.toolOutput(output)) }
            case .text(let text):
                let raw: GeneratedContent
                if schema == nil || Content.self == String.self {
                    raw = GeneratedContent(kind: .string(text))
                } else {
                    do {
                        raw = try GeneratedContent(json: text)
                    } catch {
                        throw GenerationError.decodingFailure(.init(debugDescription: "The model answered with text that is not JSON for the requested schema: \(text)"))
                    }
                }
                return try await finish(raw, schema: schema, start: start, requestTokens: requestTokens, as: Content.self)
            case .content(let content):
                return try await finish(content, schema: schema, start: start, requestTokens: requestTokens, as: Content.self)
            }
        }
    }

    /// Fails with `exceededContextWindowSize` when `tokens` do not fit the model's context.
    private func checkContext(_ tokens: Int) throws {
        let size = model.contextSize
        guard tokens > size else { return }
        throw GenerationError.exceededContextWindowSize(.init(
            debugDescription: "Content contains \(tokens) tokens, which exceeds the maximum allowed context size of \(size)."))
    }

    private func finish<Content: Generable>(
        _ raw: GeneratedContent, schema: GenerationSchema?, start: Int, requestTokens: Int, as: Content.Type
    ) async throws -> Response<Content> {
        let segment: Transcript.Segment = if case .string(let text) = raw.kind, schema == nil || Content.self == String.self {
            .text(Transcript.TextSegment(content: text))
        } else {
            .structure(Transcript.StructuredSegment(schemaName: String(describing: Content.self), content: raw))
        }
        let answer = Transcript.Response(assetIDs: [], segments: [segment])
        // The answer fills the context as it is generated: one that does not fit overflows before
        // it could be decoded, and stays in the transcript, which is now over the context.
        let total = try await requestTokens + model.tokenCount(of: [TranscriptRendering.piece(response: answer.segments)])
        if total > model.contextSize {
            append(.response(answer))
            try checkContext(total)
        }
        if let schema, Content.self != String.self, let violation = schema.violations(in: raw).first {
            throw GenerationError.decodingFailure(.init(debugDescription: "The model's response does not match the schema: \(violation)"))
        }
        let content: Content
        do {
            content = try Content(raw)
        } catch {
            throw GenerationError.decodingFailure(.init(debugDescription: "Cannot make \(Content.self) from the model's response: \(error)"))
        }
        let entries: ArraySlice<Transcript.Entry> = lock.withLock {
            storedTranscript.entries.append(.response(answer))
            return storedTranscript.entries[start...]
        }
        return Response(content: content, rawContent: raw, transcriptEntries: entries)
    }

    /// The tool a call names, after checking its arguments against the tool's schema (what
    /// guided generation guarantees on a device).
    private func resolveTool(_ call: LanguageModelToolCall) throws -> any Tool {
        guard let tool = tools.first(where: { $0.name == call.toolName }) else {
            throw GenerationError.decodingFailure(.init(
                debugDescription: "The model called '\(call.toolName)', which is not one of the session's tools (\(tools.map(\.name).joined(separator: ", ")))."))
        }
        if let violation = tool.parameters.violations(in: call.arguments).first {
            throw GenerationError.decodingFailure(.init(
                debugDescription: "The arguments the model generated for tool '\(tool.name)' do not match its parameters: \(violation)"))
        }
        return tool
    }

    private func runTools(_ calls: [(LanguageModelToolCall, any Tool)]) async throws -> [Transcript.ToolOutput] {
        if calls.count == 1 {
            let (call, tool) = calls[0]
            return [try await Self.invoke(tool, call)]
        }
        return try await withThrowingTaskGroup(of: (Int, Transcript.ToolOutput).self) { group in
            for (index, (call, tool)) in calls.enumerated() {
                group.addTask { (index, try await Self.invoke(tool, call)) }
            }
            var outputs = [Transcript.ToolOutput?](repeating: nil, count: calls.count)
            for try await (index, output) in group { outputs[index] = output }
            // Every index is filled once the group ends without throwing.
            return outputs.compactMap { $0 }
        }
    }

    private static func invoke(_ tool: any Tool, _ call: LanguageModelToolCall) async throws -> Transcript.ToolOutput {
        do {
            let segments = try await callTool(tool, call.arguments).map { segment -> Transcript.Segment in
                guard case .structure(var structure) = segment else { return segment }
                structure.schemaName = tool.name
                return .structure(structure)
            }
            return Transcript.ToolOutput(id: call.id, toolName: tool.name, segments: segments)
        } catch let error as ToolCallError {
            throw error
        } catch {
            throw ToolCallError(tool: tool, underlyingError: error)
        }
    }

    private static func callTool<T: Tool>(_ tool: T, _ arguments: GeneratedContent) async throws -> [Transcript.Segment] {
        let converted = try T.Arguments(arguments)
        let output = try await tool.call(arguments: converted)
        return output.promptRepresentation.segments
    }
}

extension LanguageModelSession {
    final public func streamResponse(
        to prompt: Prompt, options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<String> {
        LanguageModelSession.ResponseStream { partial in
            try await self.run(prompt: prompt, schema: nil, format: nil, options: options, as: String.self, partial: partial)
        }
    }

    @_disfavoredOverload
    final public func streamResponse(
        to prompt: String, options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<String> {
        streamResponse(to: Prompt(prompt), options: options)
    }

    final public func streamResponse(
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending LanguageModelSession.ResponseStream<String> {
        streamResponse(to: try prompt(), options: options)
    }

    final public func streamResponse(
        to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        LanguageModelSession.ResponseStream { partial in
            try await self.run(
                prompt: prompt, schema: schema, format: Transcript.ResponseFormat(schema: schema), options: options, as: GeneratedContent.self,
                partial: partial)
        }
    }

    @_disfavoredOverload
    final public func streamResponse(
        to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        streamResponse(to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    final public func streamResponse(
        schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending LanguageModelSession.ResponseStream<GeneratedContent> {
        streamResponse(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    final public func streamResponse<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<Content> {
        LanguageModelSession.ResponseStream { partial in
            try await self.run(
                prompt: prompt, schema: Content.generationSchema, format: Transcript.ResponseFormat(type: Content.self), options: options,
                as: Content.self, partial: partial)
        }
    }

    @_disfavoredOverload
    final public func streamResponse<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> sending LanguageModelSession.ResponseStream<Content> {
        streamResponse(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    final public func streamResponse<Content: Generable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending LanguageModelSession.ResponseStream<Content> {
        streamResponse(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }
}
#endif
