// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

// Apple's 27 additions to GenerationOptions: the sampling mode's kind and the tool-calling mode.

extension GenerationOptions.SamplingMode {
    /// How a sampling mode picks tokens, as an executor reads it.
    @available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
    @available(tvOS, unavailable)
    public enum Kind: Sendable, Equatable {
        /// Always the most likely token.
        case greedy
        /// At random among the `k` most likely tokens; a seed makes the choice repeatable.
        case randomTopK(Int, seed: UInt64?)
        /// At random among the most likely tokens whose probabilities add up to the threshold.
        case randomProbabilityThreshold(Double, seed: UInt64?)
    }

    /// The mode's kind and parameters.
    @available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
    @available(tvOS, unavailable)
    public var kind: GenerationOptions.SamplingMode.Kind {
        switch strategy {
        case .greedy: .greedy
        case .randomTopK(let k, let seed): .randomTopK(k, seed: seed)
        case .randomProbabilityThreshold(let threshold, let seed): .randomProbabilityThreshold(threshold, seed: seed)
        }
    }
}

/// What a request says about tool calls, without availability: the session's own record of
/// `GenerationOptions.ToolCallingMode`.
enum ToolCallingModeCore: Sendable, Hashable {
    case allowed, required, disallowed
}

extension GenerationOptions {
    /// A value that describes how the model uses tools.
    ///
    /// `.allowed` (and a `nil` mode) lets the model decide; `.required` makes it call a tool before
    /// it answers; `.disallowed` enables no tool for the request. A session honours the mode:
    /// with `.disallowed` the executor's request has no enabled tools; with `.required` a model
    /// that answers without calling a tool ends the response with
    /// ``LanguageModelSession/ToolCallingModeViolation`` (portable; see its documentation). A
    /// `.required` session keeps asking for tool calls until a tool throws or the mode changes, so
    /// pair it with an exit condition, such as
    /// `.toolCallingMode(called ? .disallowed : .required)` with an `onToolCall` hook.
    @available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
    @available(tvOS, unavailable)
    public struct ToolCallingMode: Sendable, Equatable {
        /// The mode's kind.
        public enum Kind: Sendable, Hashable {
            case allowed, required, disallowed
        }

        /// The mode's kind.
        public var kind: GenerationOptions.ToolCallingMode.Kind

        init(kind: GenerationOptions.ToolCallingMode.Kind) {
            self.kind = kind
        }

        /// The model may call tools or answer directly.
        public static let allowed = GenerationOptions.ToolCallingMode(kind: .allowed)
        /// The model must call a tool before it answers.
        public static let required = GenerationOptions.ToolCallingMode(kind: .required)
        /// The model must not call tools.
        public static let disallowed = GenerationOptions.ToolCallingMode(kind: .disallowed)

        init(_ core: ToolCallingModeCore) {
            switch core {
            case .allowed: self.init(kind: .allowed)
            case .required: self.init(kind: .required)
            case .disallowed: self.init(kind: .disallowed)
            }
        }

        var core: ToolCallingModeCore {
            switch kind {
            case .allowed: .allowed
            case .required: .required
            case .disallowed: .disallowed
            }
        }
    }

    /// The tool calling requirements; `nil` lets the model decide.
    @available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
    @available(tvOS, unavailable)
    public var toolCallingMode: GenerationOptions.ToolCallingMode? {
        get { toolCalling.map(ToolCallingMode.init) }
        set { toolCalling = newValue?.core }
    }

    /// Options with a sampling mode, a temperature, a response length and a tool-calling mode.
    ///
    /// Unlike `init(samplingMode:temperature:maximumResponseTokens:)`, `toolCallingMode` has no
    /// default, as in Apple's SDK.
    @available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
    @available(tvOS, unavailable)
    public init(
        samplingMode: GenerationOptions.SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
        toolCallingMode: GenerationOptions.ToolCallingMode?
    ) {
        self.init(samplingMode: samplingMode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
        self.toolCalling = toolCallingMode?.core
    }
}
#endif
