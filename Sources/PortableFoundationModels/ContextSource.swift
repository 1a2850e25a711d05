// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

// Where a session's model, instructions and tools come from, request by request.

typealias ActivationHook = @isolated(any) () async -> Void
typealias PromptHook = nonisolated(nonsending) (Transcript.Prompt) async throws -> Void
typealias ReasoningHook = nonisolated(nonsending) (Transcript.Reasoning) async throws -> Void
typealias ResponseHook = nonisolated(nonsending) (Transcript.Response) async throws -> Void
typealias ToolCallHook = nonisolated(nonsending) (Transcript.ToolCall) async throws -> Void
typealias ToolOutputHook = nonisolated(nonsending) (Transcript.ToolCall, Transcript.ToolOutput) async throws -> Void
typealias HistoryTransform = ([Transcript.Entry]) -> [Transcript.Entry]

/// A resolved profile's lifecycle callbacks, outermost modifier first (the session runs them
/// innermost first).
struct SessionHooks {
    var activate: [ActivationHook] = []
    var deactivate: [ActivationHook] = []
    var prompt: [PromptHook] = []
    var reasoning: [ReasoningHook] = []
    var response: [ResponseHook] = []
    var toolCall: [ToolCallHook] = []
    var toolOutput: [ToolOutputHook] = []
}

/// What the next model request uses.
struct ResolvedContext {
    var model: any ModelDriver
    var tools: [any Tool]
    /// The instructions of a dynamic source (which the session writes into the transcript's
    /// leading entry before each request); `nil` for a static source, whose transcript holds
    /// its instructions.
    var instructions: [Transcript.Segment]?
    var settings = ProfileSettings()
    /// Outermost first.
    var historyTransforms: [HistoryTransform] = []
    var hooks = SessionHooks()
    /// What identifies the active profile; `nil` without a profile.
    var profileID: String?

    /// The transcript to send: `transcript` with its history passed through the transforms,
    /// innermost first.
    func requestTranscript(_ transcript: Transcript) -> Transcript {
        guard !historyTransforms.isEmpty else { return transcript }
        var history = transcript.historyEntries
        for transform in historyTransforms.reversed() { history = transform(history) }
        var result = transcript
        result.historyEntries = history
        return result
    }
}

/// Where a session's context comes from.
protocol ContextSource: Sendable {
    /// Evaluates the context of the next request (bodies run here, with the session bound).
    func resolve() -> ResolvedContext
}

/// A model and tools fixed at initialization, with instructions in the transcript (every
/// `init(model:tools:…)`).
struct StaticContext: ContextSource {
    let model: any ModelDriver
    let tools: [any Tool]

    func resolve() -> ResolvedContext {
        ResolvedContext(model: model, tools: tools)
    }
}

/// A fixed model with dynamic instructions (`init(model:dynamicInstructions:history:)`).
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
final class DynamicInstructionsContext<Instructions: DynamicInstructions>: ContextSource, @unchecked Sendable {
    // Safety: `instructions` was handed over with `sending` and is only read, by the session's
    // responses, one at a time (a session runs one response at a time).
    let model: any ModelDriver
    let instructions: Instructions

    init(model: any ModelDriver, instructions: Instructions) {
        self.model = model
        self.instructions = instructions
    }

    func resolve() -> ResolvedContext {
        var resolution = InstructionsResolution()
        resolveInstructions(instructions, into: &resolution)
        return ResolvedContext(model: model, tools: resolution.tools, instructions: resolution.segments)
    }
}

/// A dynamic profile (`init(profile:history:)`).
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
final class ProfileContext<Profile: LanguageModelSession.DynamicProfile>: ContextSource, @unchecked Sendable {
    // Safety: as `DynamicInstructionsContext`.
    let profile: Profile

    init(profile: Profile) {
        self.profile = profile
    }

    func resolve() -> ResolvedContext {
        var resolution = ProfileResolution()
        resolveProfile(profile, into: &resolution)
        let instructions = resolution.instructions ?? InstructionsResolution()
        return ResolvedContext(
            model: resolution.model ?? SystemModelDriver(model: .default), tools: instructions.tools, instructions: instructions.segments,
            settings: resolution.settings, historyTransforms: resolution.historyTransforms, hooks: resolution.hooks,
            profileID: resolution.path.joined(separator: "/"))
    }
}
#endif
