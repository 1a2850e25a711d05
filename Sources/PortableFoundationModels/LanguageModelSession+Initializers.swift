// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

// 27: sessions with any LanguageModel, with dynamic instructions, and with a dynamic profile.

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// A session with `model`, `tools` and instructions from a builder.
    public convenience init<Failure>(
        model: some LanguageModel, tools: [any Tool] = [], @InstructionsBuilder instructions: () throws(Failure) -> Instructions
    ) throws(Failure) where Failure: Swift.Error {
        let built = try instructions()
        self.init(model: modelDriver(for: model), tools: tools, instructionSegments: built.segments)
    }

    /// A session with `model` and `tools` that continues `transcript`.
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], transcript: Transcript) {
        self.init(source: StaticContext(model: modelDriver(for: model), tools: tools), dialect: .session27, transcript: transcript)
    }

    /// A session with `model`, `tools` and optional instructions.
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: Instructions? = nil) {
        self.init(model: modelDriver(for: model), tools: tools, instructionSegments: instructions?.segments)
    }

    /// A session with `model`, `tools` and optional instructions as text.
    @_disfavoredOverload
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: String? = nil) {
        self.init(
            model: modelDriver(for: model), tools: tools,
            instructionSegments: instructions.map { [.text(Transcript.TextSegment(content: $0))] })
    }

    /// A session whose instructions and tools come from `dynamicInstructions`, evaluated before
    /// every model request, continuing `history`.
    ///
    /// Before each request the session writes the evaluated instructions (and the definitions of
    /// the tools that put their schema in the instructions) into the transcript's leading
    /// instructions entry, keeping the entry as it is when nothing changed.
    @available(watchOS, unavailable)
    public convenience init(
        model: some LanguageModel = SystemLanguageModel.default, dynamicInstructions: sending some DynamicInstructions,
        history: some Collection<Transcript.Entry> = []
    ) {
        self.init(
            source: DynamicInstructionsContext(model: modelDriver(for: model), instructions: dynamicInstructions), dialect: .session27,
            transcript: Transcript(entries: history))
    }

    /// A session configured by `profile`, evaluated before every model request, continuing
    /// `history`.
    public convenience init(profile: sending some LanguageModelSession.DynamicProfile, history: some Collection<Transcript.Entry> = []) {
        self.init(source: ProfileContext(profile: profile), dialect: .session27, transcript: Transcript(entries: history))
    }

    /// A 27 session with fixed model, tools and instructions.
    private convenience init(model: any ModelDriver, tools: [any Tool], instructionSegments: [Transcript.Segment]?) {
        var entries: [Transcript.Entry] = []
        let definitions = tools.filter(\.includesSchemaInInstructions).map { Transcript.ToolDefinition(tool: $0) }
        if instructionSegments != nil || !definitions.isEmpty {
            entries.append(.instructions(Transcript.Instructions(segments: instructionSegments ?? [], toolDefinitions: definitions)))
        }
        self.init(source: StaticContext(model: model, tools: tools), dialect: .session27, transcript: Transcript(entries: entries))
    }
}
#endif
