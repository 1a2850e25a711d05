// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

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

    /// Portable only: the model that answers; `nil` where no model exists.
    ///
    /// Apple's `SystemLanguageModel` has no such property, so it is SPI:
    /// `@_spi(Portable) import PortableFoundationModels` to read it.
    @_spi(Portable) public let backend: (any LanguageModelBackend)?
    public let useCase: SystemLanguageModel.UseCase
    public let guardrails: SystemLanguageModel.Guardrails

    /// The default model. Without FoundationModels there is no on-device model, so it is unavailable.
    public static let `default` = SystemLanguageModel()

    public convenience init(
        useCase: SystemLanguageModel.UseCase = .general, guardrails: SystemLanguageModel.Guardrails = Guardrails.default
    ) {
        self.init(backend: nil, useCase: useCase, guardrails: guardrails)
    }

    /// Portable only: a model answered by `backend`.
    ///
    /// Apple's framework has no such initializer. It is the 26 way to plug a model in, kept for
    /// code written against it: the model's executor (`SystemLanguageModel.Executor`) drives the
    /// backend. New code should write a ``LanguageModel`` and its ``LanguageModelExecutor``.
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
