// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// What a model can do: call tools, follow a response schema, reason, read images.
///
/// A session checks a request against its model's capabilities before it calls the model's
/// executor, and fails with `LanguageModelError.unsupportedCapability(_:)` when the request
/// enables tools for a model without `.toolCalling`, carries a response schema for a model
/// without `.guidedGeneration`, or asks for a reasoning level of a model without `.reasoning`.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public struct LanguageModelCapabilities: Sendable {
    /// One thing a model can do.
    public struct Capability: Sendable, Equatable, Hashable {
        let core: CapabilityCore

        /// The model follows a response schema (`respond(to:schema:)`, `respond(to:generating:)`).
        public static var guidedGeneration: LanguageModelCapabilities.Capability { .init(core: .guidedGeneration) }
        /// The model reasons before it answers, and takes a `ContextOptions.reasoningLevel`.
        public static var reasoning: LanguageModelCapabilities.Capability { .init(core: .reasoning) }
        /// The model calls tools.
        public static var toolCalling: LanguageModelCapabilities.Capability { .init(core: .toolCalling) }
        /// The model accepts image inputs in prompts.
        public static var vision: LanguageModelCapabilities.Capability { .init(core: .vision) }
    }

    let cores: Set<CapabilityCore>

    /// Capabilities made of `capabilities`.
    public init(_ capabilities: [LanguageModelCapabilities.Capability]) {
        cores = Set(capabilities.map(\.core))
    }

    init(cores: Set<CapabilityCore>) {
        self.cores = cores
    }

    /// Whether the model has `capability`.
    public func contains(_ capability: LanguageModelCapabilities.Capability) -> Bool {
        cores.contains(capability.core)
    }
}

/// The session's own record of a capability, without availability.
enum CapabilityCore: Sendable, Hashable, CustomStringConvertible {
    case guidedGeneration, reasoning, toolCalling, vision

    var description: String {
        switch self {
        case .guidedGeneration: "guided generation"
        case .reasoning: "reasoning"
        case .toolCalling: "tool calling"
        case .vision: "vision"
        }
    }
}
#endif
