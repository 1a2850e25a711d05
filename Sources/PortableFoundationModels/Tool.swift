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
public struct GenerationOptions: Sendable, Equatable {
    public struct SamplingMode: Sendable, Equatable {
        enum Mode: Sendable, Equatable {
            case greedy
            case top(Int, seed: UInt64?)
            case threshold(Double, seed: UInt64?)
        }
        let mode: Mode

        public static var greedy: GenerationOptions.SamplingMode { .init(mode: .greedy) }
        public static func random(top k: Int, seed: UInt64? = nil) -> GenerationOptions.SamplingMode {
            .init(mode: .top(k, seed: seed))
        }
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> GenerationOptions.SamplingMode {
            .init(mode: .threshold(probabilityThreshold, seed: seed))
        }
    }

    public var sampling: GenerationOptions.SamplingMode?
    public var temperature: Double?
    public var maximumResponseTokens: Int?

    public init(sampling: GenerationOptions.SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
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
