// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// Options that control how the model generates its response.
///
/// `samplingMode` and `init(samplingMode:temperature:maximumResponseTokens:)` are the 27 SDK's
/// names, back-deployed to 26.0 there; `sampling` and `init(sampling:temperature:maximumResponseTokens:)`
/// are the 26 names (deprecated in the 27 SDK). Both pairs read and write the same value.
public struct GenerationOptions: Sendable, Equatable {
    /// How the model picks each token: greedily, or at random among the most likely ones.
    public struct SamplingMode: Sendable, Equatable {
        /// Portable only: a sampling mode's parameters, for a ``LanguageModelBackend`` to read.
        ///
        /// The 26 backend seam's name for what 27 calls ``kind``; the cases are the same. Apple's
        /// `SamplingMode` has neither, so both are SPI: `@_spi(Portable) import PortableFoundationModels`.
        @_spi(Portable) public enum Strategy: Sendable, Equatable {
            /// Always the most likely token (`SamplingMode.greedy`).
            case greedy
            /// At random among the `k` most likely tokens (`SamplingMode.random(top:seed:)`).
            case randomTopK(Int, seed: UInt64?)
            /// At random among the most likely tokens whose probabilities add up to `threshold`
            /// (nucleus sampling; `SamplingMode.random(probabilityThreshold:seed:)`).
            case randomProbabilityThreshold(Double, seed: UInt64?)
        }

        /// Portable only: the mode's parameters, for a ``LanguageModelBackend`` to read.
        @_spi(Portable) public let strategy: GenerationOptions.SamplingMode.Strategy

        init(strategy: GenerationOptions.SamplingMode.Strategy) {
            self.strategy = strategy
        }

        /// Always the most likely token: the same prompt gives the same answer.
        public static var greedy: GenerationOptions.SamplingMode { .init(strategy: .greedy) }

        /// At random among the `k` most likely tokens; a `seed` makes the choice repeatable.
        public static func random(top k: Int, seed: UInt64? = nil) -> GenerationOptions.SamplingMode {
            .init(strategy: .randomTopK(k, seed: seed))
        }

        /// At random among the most likely tokens whose probabilities add up to
        /// `probabilityThreshold`; a `seed` makes the choice repeatable.
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> GenerationOptions.SamplingMode {
            .init(strategy: .randomProbabilityThreshold(probabilityThreshold, seed: seed))
        }
    }

    /// How the model samples tokens; `nil` lets the model choose (the 26 name of `samplingMode`).
    public var sampling: GenerationOptions.SamplingMode?

    /// How the model samples tokens; `nil` lets the model choose (27's name, back-deployed).
    public var samplingMode: GenerationOptions.SamplingMode? {
        get { sampling }
        set { sampling = newValue }
    }

    /// How random the answer is: 0 for the most predictable, higher for more varied; `nil`
    /// for the model's default.
    public var temperature: Double?

    /// The most tokens the answer may have; `nil` for no limit beyond the context.
    public var maximumResponseTokens: Int?

    /// Whether the model may, must or must not call tools (27's `toolCallingMode`); `nil` leaves
    /// it to the model.
    var toolCalling: ToolCallingModeCore?

    /// Options with the 26 name for the sampling mode.
    ///
    /// As in Apple's 27 SDK, `sampling` has no default here, so `GenerationOptions()` and
    /// `GenerationOptions(temperature:)` use `init(samplingMode:temperature:maximumResponseTokens:)`.
    public init(sampling: GenerationOptions.SamplingMode?, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.toolCalling = nil
    }

    /// Options with the 27 name for the sampling mode (back-deployed to 26.0 in Apple's SDK).
    public init(samplingMode: GenerationOptions.SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.init(sampling: samplingMode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
    }
}

#endif
