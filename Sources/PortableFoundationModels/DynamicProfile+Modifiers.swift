// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession.DynamicProfile {
    /// The model the profile's requests go to (`SystemLanguageModel.default` without one).
    public func model(_ model: some LanguageModel) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.model = modelDriver(for: model) }
    }

    /// The sampling temperature; `nil` leaves it to the modifiers outside.
    public func temperature(_ temperature: Double?) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { resolution in
            if let temperature { resolution.settings.temperature = temperature }
        }
    }

    /// The sampling mode; `nil` leaves it to the modifiers outside.
    public func samplingMode(_ samplingMode: GenerationOptions.SamplingMode?) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { resolution in
            if let samplingMode { resolution.settings.samplingMode = samplingMode }
        }
    }

    /// The most tokens an answer may have; `nil` leaves it to the modifiers outside.
    public func maximumResponseTokens(_ maximumResponseTokens: Int?) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { resolution in
            if let maximumResponseTokens { resolution.settings.maximumResponseTokens = maximumResponseTokens }
        }
    }

    /// How much the model reasons; `nil` leaves it to the modifiers outside. A level for a model
    /// without `.reasoning` fails the request with `LanguageModelError.unsupportedCapability(_:)`.
    public func reasoningLevel(_ reasoningLevel: ContextOptions.ReasoningLevel?) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { resolution in
            if let reasoningLevel { resolution.settings.reasoningLevel = reasoningLevel.core }
        }
    }

    /// Whether the model may, must or must not call tools; `nil` leaves it to the modifiers
    /// outside. `.disallowed` enables no tool for the request; `.required` makes an answer
    /// without a tool call fail (see `GenerationOptions.ToolCallingMode`).
    public func toolCallingMode(_ toolCallingMode: GenerationOptions.ToolCallingMode?) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { resolution in
            if let toolCallingMode { resolution.settings.toolCalling = toolCallingMode.core }
        }
    }

    /// Changes what the model sees: `transform` receives the history (the entries after the
    /// instructions) before each request and returns the entries to send. The session's
    /// transcript is not changed. Transforms chain, innermost first.
    public func historyTransform(
        _ transform: @escaping ([Transcript.Entry]) -> [Transcript.Entry]
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.historyTransforms.append(transform) }
    }

    /// What happens to the transcript when a response fails; `nil` leaves it to the modifiers
    /// outside (and then to the session's `transcriptErrorHandlingPolicy`).
    public func transcriptErrorHandlingPolicy(
        _ transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { resolution in
            if let transcriptErrorHandlingPolicy { resolution.settings.errorPolicy = transcriptErrorHandlingPolicy.core }
        }
    }

    /// Applies a LanguageModelSession/DynamicProfileModifier.
    public func modifier<Modifier>(_ modifier: Modifier) -> some LanguageModelSession.DynamicProfile
    where Modifier: LanguageModelSession.DynamicProfileModifier {
        LanguageModelSession.ModifiedDynamicProfile(content: self, modifier: modifier)
    }

    // MARK: Lifecycle

    /// Runs `action` when the profile becomes the session's active profile (before its first
    /// request).
    public func onActivate(
        @_inheritActorContext perform action: sending @escaping @isolated(any) () async -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.activate.append(action) }
    }

    /// Runs `action` when another profile replaces this one as the active profile (before the
    /// new one's first request).
    public func onDeactivate(
        @_inheritActorContext perform action: sending @escaping @isolated(any) () async -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.deactivate.append(action) }
    }

    /// Runs `action` after a prompt is added to the transcript, before the model is asked. A
    /// throw ends the response with that error.
    public func onPrompt(
        perform action: nonisolated(nonsending) sending @escaping () async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.prompt.append { _ in try await action() } }
    }

    /// Runs `action` with the prompt after it is added to the transcript, before the model is
    /// asked. A throw ends the response with that error.
    public func onPrompt(
        perform action: nonisolated(nonsending) sending @escaping (Transcript.Prompt) async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.prompt.append(action) }
    }

    /// Runs `action` when the model's reasoning is added to the transcript (models with
    /// `.reasoning`).
    public func onReasoning(
        perform action: nonisolated(nonsending) sending @escaping () async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.reasoning.append { _ in try await action() } }
    }

    /// Runs `action` with the model's reasoning when it is added to the transcript.
    public func onReasoning(
        perform action: nonisolated(nonsending) sending @escaping (Transcript.Reasoning) async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.reasoning.append(action) }
    }

    /// Runs `action` when a response is added to the transcript.
    public func onResponse(
        perform action: nonisolated(nonsending) sending @escaping () async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.response.append { _ in try await action() } }
    }

    /// Runs `action` with a response when it is added to the transcript.
    public func onResponse(
        perform action: nonisolated(nonsending) sending @escaping (Transcript.Response) async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.response.append(action) }
    }

    /// Runs `action` before the session calls a tool; a throw vetoes the call and ends the
    /// response with that error.
    public func onToolCall(
        perform action: nonisolated(nonsending) sending @escaping () async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.toolCall.append { _ in try await action() } }
    }

    /// Runs `action` with each tool call before the session calls the tool; a throw vetoes the
    /// call and ends the response with that error.
    public func onToolCall(
        perform action: nonisolated(nonsending) sending @escaping (Transcript.ToolCall) async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.toolCall.append(action) }
    }

    /// Runs `action` after a tool's output is added to the transcript.
    public func onToolOutput(
        perform action: nonisolated(nonsending) sending @escaping () async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.toolOutput.append { _, _ in try await action() } }
    }

    /// Runs `action` with a tool call and its output after the output is added to the
    /// transcript.
    public func onToolOutput(
        perform action: nonisolated(nonsending) sending @escaping (Transcript.ToolCall, Transcript.ToolOutput) async throws -> Void
    ) -> some LanguageModelSession.DynamicProfile {
        ConfiguredProfile(content: self) { $0.hooks.toolOutput.append(action) }
    }
}

/// A profile with one setting or callback of a modifier: applies it, then evaluates the profile
/// inside (whose own settings, being inner, win).
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
struct ConfiguredProfile<Content: LanguageModelSession.DynamicProfile>: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile {
    let content: Content
    let configure: (inout ProfileResolution) -> Void

    var body: Never {
        preconditionFailure("A configured profile is evaluated by the session; its body is never read.")
    }

    func resolve(into resolution: inout ProfileResolution) {
        configure(&resolution)
        resolveProfile(content, into: &resolution)
    }
}
#endif
