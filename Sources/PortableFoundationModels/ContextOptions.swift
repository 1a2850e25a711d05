// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// Options about what the model reads with a request: whether the response schema is described
/// in the prompt, and how much the model reasons before it answers.
///
/// A `nil` field leaves the choice to the model. A session checks the reasoning level against
/// the model's ``LanguageModelCapabilities``: a request with a reasoning level for a model that
/// does not declare `.reasoning` fails with `LanguageModelError.unsupportedCapability(_:)`
/// before its executor is called.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct ContextOptions: Sendable, Equatable {
    /// How much the model reasons before it answers.
    public enum ReasoningLevel: Sendable, Equatable {
        case light
        case moderate
        case deep
        /// A level the model's provider names.
        case custom(String)
    }

    /// Whether the response schema is also described in the prompt; `nil` for the default (the
    /// schema and generating overloads of `respond` treat it as `true`).
    public var includeSchemaInPrompt: Bool?

    /// How much the model reasons; `nil` for the model's default.
    public var reasoningLevel: ContextOptions.ReasoningLevel?

    /// Options with the given schema and reasoning choices.
    public init(includeSchemaInPrompt: Bool? = nil, reasoningLevel: ContextOptions.ReasoningLevel? = nil) {
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.reasoningLevel = reasoningLevel
    }

    init(_ core: ContextOptionsCore) {
        includeSchemaInPrompt = core.includeSchemaInPrompt
        reasoningLevel = core.reasoningLevel.map(ReasoningLevel.init)
    }

    var core: ContextOptionsCore {
        ContextOptionsCore(includeSchemaInPrompt: includeSchemaInPrompt, reasoningLevel: reasoningLevel?.core)
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension ContextOptions.ReasoningLevel {
    init(_ core: ReasoningLevelCore) {
        switch core {
        case .light: self = .light
        case .moderate: self = .moderate
        case .deep: self = .deep
        case .custom(let name): self = .custom(name)
        }
    }

    var core: ReasoningLevelCore {
        switch self {
        case .light: .light
        case .moderate: .moderate
        case .deep: .deep
        case .custom(let name): .custom(name)
        }
    }
}

/// The session's own record of `ContextOptions`, without availability, so that the session's
/// core (which the 26 API runs on too) can carry it.
struct ContextOptionsCore: Sendable, Equatable {
    var includeSchemaInPrompt: Bool?
    var reasoningLevel: ReasoningLevelCore?
}

/// The session's own record of `ContextOptions.ReasoningLevel`.
enum ReasoningLevelCore: Sendable, Equatable {
    case light, moderate, deep
    case custom(String)
}
#endif
