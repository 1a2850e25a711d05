// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Errors any model can report, so that an app handles them the same way for every model.
///
/// An executor throws these; a session passes them to the caller unchanged, and throws
/// `.unsupportedCapability(_:)` itself when a request needs a capability its model does not
/// declare. Each payload carries a `debugDescription` and provider `metadata`.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public enum LanguageModelError: Error, LocalizedError, CustomDebugStringConvertible {
    /// The request, or the request and its answer, do not fit the model's context.
    case contextSizeExceeded(LanguageModelError.ContextSizeExceeded)
    /// The provider is limiting requests.
    case rateLimited(LanguageModelError.RateLimited)
    /// A guardrail flagged the prompt or the answer.
    case guardrailViolation(LanguageModelError.GuardrailViolation)
    /// The model declined to answer.
    case refusal(LanguageModelError.Refusal)
    /// The request needs a capability the model does not have.
    case unsupportedCapability(LanguageModelError.UnsupportedCapability)
    /// The transcript holds content the model cannot read.
    case unsupportedTranscriptContent(LanguageModelError.UnsupportedTranscriptContent)
    /// A generation guide of the response schema is not supported.
    case unsupportedGenerationGuide(LanguageModelError.UnsupportedGenerationGuide)
    /// The language or locale is not supported.
    case unsupportedLanguageOrLocale(LanguageModelError.UnsupportedLanguageOrLocale)
    /// The model did not answer in time.
    case timeout(LanguageModelError.Timeout)

    /// The request does not fit the model's context.
    public struct ContextSizeExceeded: Sendable, CustomDebugStringConvertible {
        /// The most tokens the model's context holds.
        public var contextSize: Int
        /// The tokens the request (or the request and its answer) took.
        public var tokenCount: Int
        /// What went wrong, for developers.
        public var debugDescription: String
        /// What the provider said about the failure.
        public var metadata: [String: any Sendable]

        /// A payload with these values.
        public init(contextSize: Int, tokenCount: Int, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.contextSize = contextSize
            self.tokenCount = tokenCount
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The provider is limiting requests.
    public struct RateLimited: Sendable, CustomDebugStringConvertible {
        /// When requests are accepted again, if the provider said.
        public var resetDate: Date?
        /// What went wrong, for developers.
        public var debugDescription: String
        /// What the provider said about the failure.
        public var metadata: [String: any Sendable]

        /// A payload with these values.
        public init(resetDate: Date?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.resetDate = resetDate
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// A guardrail flagged the prompt or the answer.
    public struct GuardrailViolation: Sendable, CustomDebugStringConvertible {
        /// What went wrong, for developers.
        public var debugDescription: String
        /// What the provider said about the failure.
        public var metadata: [String: any Sendable]

        /// A payload with these values.
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The model declined to answer.
    ///
    /// ``explanation`` asks for the reason. Apple's framework runs a second generation for it;
    /// the portable module has no model of its own to ask, so an executor whose provider returns
    /// the refusal's text with the refusal hands it over with the portable
    /// ``init(debugDescription:metadata:explanation:)``.
    public struct Refusal: Sendable, CustomDebugStringConvertible {
        /// What went wrong, for developers.
        public var debugDescription: String
        /// What the provider said about the failure.
        public var metadata: [String: any Sendable]
        /// The provider's explanation, when it gave one (portable).
        let explanationText: String?

        /// A payload with these values.
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
            self.explanationText = nil
        }

        /// A refusal with the provider's explanation of it: the initializer "that accepts the
        /// explanation text" of Apple's 27.0 beta 2 notes, with the labels code written against
        /// the release SDK uses (the reference could not confirm them from Apple's pages).
        public init(explanation: String, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.init(debugDescription: debugDescription, metadata: metadata, explanation: explanation)
        }

        /// Portable only: a refusal with the provider's explanation of it.
        ///
        /// Apple's SDK has an initializer that takes the explanation text, whose labels the
        /// reference does not give; this one is the portable module's own, so it is SPI
        /// (`@_spi(Portable) import PortableFoundationModels`).
        @_spi(Portable) public init(debugDescription: String, metadata: [String: any Sendable] = [:], explanation: String) {
            self.debugDescription = debugDescription
            self.metadata = metadata
            self.explanationText = explanation
        }
    }

    /// The request needs a capability the model does not declare.
    public struct UnsupportedCapability: Sendable, CustomDebugStringConvertible {
        /// The capability the request needs.
        public var capability: LanguageModelCapabilities.Capability
        /// What went wrong, for developers.
        public var debugDescription: String
        /// What the provider said about the failure.
        public var metadata: [String: any Sendable]

        /// A payload with these values.
        public init(capability: LanguageModelCapabilities.Capability, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.capability = capability
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The transcript holds entries the model cannot read.
    public struct UnsupportedTranscriptContent: Sendable, CustomDebugStringConvertible {
        /// The entries the model cannot read.
        public var unsupportedContent: [Transcript.Entry]
        /// What went wrong, for developers.
        public var debugDescription: String
        /// What the provider said about the failure.
        public var metadata: [String: any Sendable]

        /// A payload with these values.
        public init(unsupportedContent: [Transcript.Entry], debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.unsupportedContent = unsupportedContent
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// A generation guide of the response schema is not supported.
    public struct UnsupportedGenerationGuide: Sendable, CustomDebugStringConvertible {
        /// The schema with the guide, if known.
        public var schemaName: String?
        /// What went wrong, for developers.
        public var debugDescription: String
        /// What the provider said about the failure.
        public var metadata: [String: any Sendable]

        /// A payload with these values.
        public init(schemaName: String?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.schemaName = schemaName
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The language or locale is not supported.
    public struct UnsupportedLanguageOrLocale: Sendable, CustomDebugStringConvertible {
        /// The language the model does not support.
        public var languageCode: Locale.LanguageCode
        /// What went wrong, for developers.
        public var debugDescription: String
        /// What the provider said about the failure.
        public var metadata: [String: any Sendable]

        /// A payload with these values.
        public init(languageCode: Locale.LanguageCode, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.languageCode = languageCode
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The model did not answer in time.
    public struct Timeout: Sendable, CustomDebugStringConvertible {
        /// What went wrong, for developers.
        public var debugDescription: String
        /// What the provider said about the failure.
        public var metadata: [String: any Sendable]

        /// A payload with these values.
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// What went wrong, with the payload's description.
    public var errorDescription: String? {
        let summary =
            switch self {
            case .contextSizeExceeded(let payload):
                "The context size of \(payload.contextSize) tokens was exceeded (\(payload.tokenCount) tokens)."
            case .rateLimited: "The model's provider is limiting requests."
            case .guardrailViolation: "The content was flagged by guardrails."
            case .refusal: "The model refused to answer."
            case .unsupportedCapability(let payload): "The model does not support \(payload.capability.core)."
            case .unsupportedTranscriptContent: "The transcript holds content the model cannot read."
            case .unsupportedGenerationGuide: "A generation guide is not supported."
            case .unsupportedLanguageOrLocale: "The language or locale is not supported."
            case .timeout: "The model did not answer in time."
            }
        let detail = payloadDescription
        return detail.isEmpty ? summary : "\(summary) \(detail)"
    }

    /// The case and the payload's description.
    public var debugDescription: String {
        let name =
            switch self {
            case .contextSizeExceeded: "contextSizeExceeded"
            case .rateLimited: "rateLimited"
            case .guardrailViolation: "guardrailViolation"
            case .refusal: "refusal"
            case .unsupportedCapability: "unsupportedCapability"
            case .unsupportedTranscriptContent: "unsupportedTranscriptContent"
            case .unsupportedGenerationGuide: "unsupportedGenerationGuide"
            case .unsupportedLanguageOrLocale: "unsupportedLanguageOrLocale"
            case .timeout: "timeout"
            }
        return "LanguageModelError.\(name): \(payloadDescription)"
    }

    private var payloadDescription: String {
        switch self {
        case .contextSizeExceeded(let payload): payload.debugDescription
        case .rateLimited(let payload): payload.debugDescription
        case .guardrailViolation(let payload): payload.debugDescription
        case .refusal(let payload): payload.debugDescription
        case .unsupportedCapability(let payload): payload.debugDescription
        case .unsupportedTranscriptContent(let payload): payload.debugDescription
        case .unsupportedGenerationGuide(let payload): payload.debugDescription
        case .unsupportedLanguageOrLocale(let payload): payload.debugDescription
        case .timeout(let payload): payload.debugDescription
        }
    }
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelError.Refusal {
    /// The model's explanation of its refusal.
    ///
    /// Portable: the explanation the executor gave with
    /// ``init(debugDescription:metadata:explanation:)``; without one it throws
    /// `LanguageModelError.refusal` with this refusal, as there is no second model to ask. The
    /// response's `transcriptEntries` hold the explanation as one response entry.
    nonisolated(nonsending) public var explanation: LanguageModelSession.Response<String> {
        get async throws {
            guard let text = explanationText else {
                throw LanguageModelError.refusal(self)
            }
            return .refusalExplanation(text)
        }
    }

    /// The model's explanation of its refusal, as a stream (one snapshot: the explanation is
    /// known when the refusal is thrown).
    public var explanationStream: LanguageModelSession.ResponseStream<String> {
        LanguageModelSession.ResponseStream { _ in try await self.explanation }
    }
}
#endif
