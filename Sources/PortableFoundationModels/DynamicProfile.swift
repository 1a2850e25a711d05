// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// A session's configuration, declared: a body that resolves to exactly one `Profile` —
    /// dynamic instructions bound to a model, generation options, a history transform, an
    /// error policy and lifecycle callbacks.
    ///
    /// A session made with `LanguageModelSession(profile:history:)` evaluates the body before
    /// every model request (including the follow-up after each round of tool outputs) and
    /// adopts the resolved profile's model and options for that request. Choose between
    /// profiles with `if`/`else` or `switch`:
    ///
    /// ```swift
    /// struct Assistant: LanguageModelSession.DynamicProfile {
    ///     @SessionProperty(\.history) var history
    ///     var body: some LanguageModelSession.DynamicProfile {
    ///         if history.count < 10 {
    ///             Profile { Instructions("Chat.") }.temperature(0.8)
    ///         } else {
    ///             Profile { Instructions("Summarize.") }.model(largeModel)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Modifier precedence: options passed to `respond` win over the innermost modifier (the one
    /// closest to `Profile`), which wins over the modifiers outside it; a modifier given `nil`
    /// leaves the value to the modifiers outside it. Callbacks accumulate: every `onPrompt`,
    /// `onResponse`, … of the resolved profile runs, innermost first. History transforms chain,
    /// innermost first.
    public protocol DynamicProfile {
        /// The type of the body.
        associatedtype Body: LanguageModelSession.DynamicProfile

        /// The profile, evaluated before every model request.
        @LanguageModelSession.DynamicProfileBuilder var body: Self.Body { get }
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession.DynamicProfile {
    /// The profile a body resolves to.
    public typealias Profile = LanguageModelSession.Profile
    /// A dynamic profile.
    public typealias DynamicProfile = LanguageModelSession.DynamicProfile
    /// A property wrapper that provides access to a session property from a profile.
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension Never: LanguageModelSession.DynamicProfile {}  // `body` is declared with the DynamicInstructions conformance.

// MARK: - Evaluation

/// A profile's settings, as the session applies them to a request.
struct ProfileSettings {
    var temperature: Double?
    var samplingMode: GenerationOptions.SamplingMode?
    var maximumResponseTokens: Int?
    var toolCalling: ToolCallingModeCore?
    var reasoningLevel: ReasoningLevelCore?
    var errorPolicy: ErrorPolicyCore?

    /// `callSite` with each option it leaves `nil` taken from the profile.
    func options(under callSite: GenerationOptions) -> GenerationOptions {
        var options = callSite
        if options.sampling == nil { options.sampling = samplingMode }
        if options.temperature == nil { options.temperature = temperature }
        if options.maximumResponseTokens == nil { options.maximumResponseTokens = maximumResponseTokens }
        if options.toolCalling == nil { options.toolCalling = toolCalling }
        return options
    }

    /// `callSite` with its reasoning level taken from the profile when it has none.
    func contextOptions(under callSite: ContextOptionsCore) -> ContextOptionsCore {
        var options = callSite
        if options.reasoningLevel == nil { options.reasoningLevel = reasoningLevel }
        return options
    }
}

/// What evaluating a dynamic profile gives.
struct ProfileResolution {
    var model: (any ModelDriver)?
    var settings = ProfileSettings()
    /// Outermost first.
    var historyTransforms: [HistoryTransform] = []
    /// Outermost first.
    var hooks = SessionHooks()
    var instructions: InstructionsResolution?
    /// What identifies the resolved profile: the types and branches the evaluation went through.
    var path: [String] = []
}

/// A dynamic profile that the session evaluates itself instead of reading a body.
protocol PrimitiveDynamicProfile {
    func resolve(into resolution: inout ProfileResolution)
}

/// Evaluates `profile` (and every body it leads to) into `resolution`.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
func resolveProfile<P: LanguageModelSession.DynamicProfile>(_ profile: P, into resolution: inout ProfileResolution) {
    if let primitive = profile as? any PrimitiveDynamicProfile {
        primitive.resolve(into: &resolution)
        return
    }
    resolution.path.append(String(describing: P.self))
    resolveProfile(profile.body, into: &resolution)
}
#endif
