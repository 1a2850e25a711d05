// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A tool that the model can call to gather information or take actions.
///
/// The session may run several calls at once, so `call(arguments:)` must be safe to run concurrently.
public protocol Tool<Arguments, Output>: Sendable {
    associatedtype Output: PromptRepresentable
    associatedtype Arguments: ConvertibleFromGeneratedContent

    var name: String { get }
    var description: String { get }
    var parameters: GenerationSchema { get }
    var includesSchemaInInstructions: Bool { get }

    @concurrent func call(arguments: Self.Arguments) async throws -> Self.Output
}

extension Tool {
    /// The type's name, as in Apple's default.
    public var name: String { String(describing: Self.self) }
    public var includesSchemaInInstructions: Bool { true }
}

extension Tool where Self.Arguments: Generable {
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension Tool where Self.Arguments == String {
    @available(*, unavailable, message: "'Tool' that uses 'String' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Int {
    @available(*, unavailable, message: "'Tool' that uses 'Int' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Double {
    @available(*, unavailable, message: "'Tool' that uses 'Double' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Float {
    @available(*, unavailable, message: "'Tool' that uses 'Float' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Decimal {
    @available(*, unavailable, message: "'Tool' that uses 'Decimal' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

extension Tool where Self.Arguments == Bool {
    @available(*, unavailable, message: "'Tool' that uses 'Bool' as 'Arguments' type is unsupported. Use '@Generable' struct instead.")
    public var parameters: GenerationSchema { fatalError() }
}

/// Options that control how the model generates its response.
///
/// `samplingMode` and `init(samplingMode:temperature:maximumResponseTokens:)` are the 27 SDK's
/// names, back-deployed to 26.0 there; `sampling` and `init(sampling:temperature:maximumResponseTokens:)`
/// are the 26 names (deprecated in the 27 SDK). Both pairs read and write the same value.
public struct GenerationOptions: Sendable, Equatable {
    /// How the model picks each token: greedily, or at random among the most likely ones.
    public struct SamplingMode: Sendable, Equatable {
        /// Portable only: a sampling mode's parameters, for a ``LanguageModelBackend`` to read
        /// (Apple's 27 SDK has a `kind` whose case names are still changing; this is not it).
        public enum Strategy: Sendable, Equatable {
            /// Always the most likely token (`SamplingMode.greedy`).
            case greedy
            /// At random among the `k` most likely tokens (`SamplingMode.random(top:seed:)`).
            case randomTopK(Int, seed: UInt64?)
            /// At random among the most likely tokens whose probabilities add up to `threshold`
            /// (nucleus sampling; `SamplingMode.random(probabilityThreshold:seed:)`).
            case randomProbabilityThreshold(Double, seed: UInt64?)
        }

        /// Portable only: the mode's parameters, for a ``LanguageModelBackend`` to read.
        public let strategy: GenerationOptions.SamplingMode.Strategy

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

    /// Options with the 26 name for the sampling mode.
    ///
    /// As in Apple's 27 SDK, `sampling` has no default here, so `GenerationOptions()` and
    /// `GenerationOptions(temperature:)` use `init(samplingMode:temperature:maximumResponseTokens:)`.
    public init(sampling: GenerationOptions.SamplingMode?, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
    }

    /// Options with the 27 name for the sampling mode (back-deployed to 26.0 in Apple's SDK).
    public init(samplingMode: GenerationOptions.SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.init(sampling: samplingMode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
    }
}

/// The on-device model. On platforms without FoundationModels it is unavailable
/// (`.deviceNotEligible`) unless it is created with a backend: `SystemLanguageModel(backend:)`.
public final class SystemLanguageModel: Sendable {
    public struct UseCase: Sendable, Equatable {
        let name: String
        public static let general = UseCase(name: "general")
        public static let contentTagging = UseCase(name: "contentTagging")
    }

    public struct Guardrails: Sendable {
        let permissive: Bool
        public static let `default` = Guardrails(permissive: false)
        public static let permissiveContentTransformations = Guardrails(permissive: true)
    }

    @frozen public enum Availability: Equatable, Sendable {
        case available
        case unavailable(SystemLanguageModel.Availability.UnavailableReason)

        public enum UnavailableReason: Equatable, Sendable, Hashable {
            case deviceNotEligible
            case appleIntelligenceNotEnabled
            case modelNotReady
        }
    }

    /// The model that answers; `nil` where no model exists.
    public let backend: (any LanguageModelBackend)?
    public let useCase: SystemLanguageModel.UseCase
    public let guardrails: SystemLanguageModel.Guardrails

    /// The default model. Without FoundationModels there is no on-device model, so it is unavailable.
    public static let `default` = SystemLanguageModel()

    public convenience init(useCase: SystemLanguageModel.UseCase = .general, guardrails: SystemLanguageModel.Guardrails = Guardrails.default) {
        self.init(backend: nil, useCase: useCase, guardrails: guardrails)
    }

    /// A model answered by `backend` (portable only: Apple's framework has no such initializer).
    public init(
        backend: (any LanguageModelBackend)?,
        useCase: SystemLanguageModel.UseCase = .general,
        guardrails: SystemLanguageModel.Guardrails = Guardrails.default
    ) {
        self.backend = backend
        self.useCase = useCase
        self.guardrails = guardrails
    }

    public var availability: SystemLanguageModel.Availability {
        guard let backend else { return .unavailable(.deviceNotEligible) }
        return backend.availability
    }

    public var isAvailable: Bool { availability == .available }

    public var supportedLanguages: Set<Locale.Language> {
        [Locale.Language(languageCode: Locale.LanguageCode(Self.supportedLanguageCode), script: nil, region: nil)]
    }

    /// Whether the model understands `locale`'s language: English only.
    ///
    /// The language code is read from the identifier (`en_GB` → `en`) because
    /// FoundationEssentials has no `Locale.Language.languageCode`.
    public func supportsLocale(_ locale: Locale = Locale.current) -> Bool {
        let code = locale.identifier.prefix { $0 != "_" && $0 != "-" && $0 != "@" }
        return code.lowercased() == Self.supportedLanguageCode
    }

    private static let supportedLanguageCode = "en"
}
#endif
