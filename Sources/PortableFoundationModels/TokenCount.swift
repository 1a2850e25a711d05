// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

// Apple's 26.4 API: the model's context size and token counts.

extension SystemLanguageModel {
    /// The context size of the on-device model, and of a backend that does not give its own.
    static let onDeviceContextSize = 4096

    /// The most tokens a session's context can hold: instructions, tool definitions, prompts,
    /// responses, tool calls and outputs together.
    ///
    /// The backend's `contextSize`; 4096 for a model without a backend, as Apple's back-deployed
    /// property returns.
    final public var contextSize: Int {
        backend?.contextSize ?? Self.onDeviceContextSize
    }

    /// The tokens a prompt takes in the context.
    ///
    /// Counted by the backend (a model without a backend uses `TokenEstimator`) on the rendering
    /// the session's context check uses, framing included.
    nonisolated(nonsending) final public func tokenCount(for prompt: some PromptRepresentable) async throws -> Int {
        try await tokenCount(of: TranscriptRendering.pieces(prompt: prompt.promptRepresentation.segments.plainText))
    }

    /// The tokens instructions take in the context (without tool definitions).
    nonisolated(nonsending) final public func tokenCount(for instructions: Instructions) async throws -> Int {
        try await tokenCount(of: TranscriptRendering.pieces(instructions: instructions.segments.plainText))
    }

    /// The tokens the definitions of tools take in the context: names, descriptions and
    /// parameter schemas.
    nonisolated(nonsending) final public func tokenCount(for tools: [any Tool]) async throws -> Int {
        try await tokenCount(of: tools.map { TranscriptRendering.piece(tool: LanguageModelToolDescription(tool: $0)) })
    }

    /// The tokens a response schema takes in the context.
    nonisolated(nonsending) final public func tokenCount(for schema: GenerationSchema) async throws -> Int {
        try await tokenCount(of: [TranscriptRendering.piece(responseSchema: schema)])
    }

    /// The tokens transcript entries take in the context.
    ///
    /// An instructions entry counts its tool definitions too, and a prompt its response format's
    /// schema. A session's next request costs the count of its transcript plus that of its new
    /// prompt (and of any tool whose definition the instructions entry does not hold).
    nonisolated(nonsending) final public func tokenCount(
        for transcriptEntries: some Collection<Transcript.Entry>
    ) async throws -> Int {
        try await tokenCount(of: TranscriptRendering.pieces(entries: transcriptEntries))
    }

    /// The tokens of rendered pieces, counted by the backend or the estimate.
    func tokenCount(of pieces: [TranscriptRendering.Piece]) async throws -> Int {
        guard let backend else {
            return try await TranscriptRendering.tokenCount(of: pieces) { TokenEstimator.tokenCount(for: $0) }
        }
        return try await TranscriptRendering.tokenCount(of: pieces) { try await backend.tokenCount(for: $0) }
    }
}
#endif
