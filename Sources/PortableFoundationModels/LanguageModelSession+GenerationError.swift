// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension LanguageModelSession {
    /// A tool failed: `underlyingError` is what its `call(arguments:)` threw.
    public struct ToolCallError: Swift.Error, LocalizedError {
        public var tool: any Tool
        public var underlyingError: any Swift.Error

        public init(tool: any Tool, underlyingError: any Swift.Error) {
            self.tool = tool
            self.underlyingError = underlyingError
        }

        public var errorDescription: String? {
            "Tool '\(tool.name)' failed: \((underlyingError as? any LocalizedError)?.errorDescription ?? String(describing: underlyingError))"
        }
    }

    public enum GenerationError: Swift.Error, LocalizedError {
        public struct Context: Sendable {
            public let debugDescription: String
            public init(debugDescription: String) { self.debugDescription = debugDescription }
        }

        /// The model declined to answer; `explanation` says why.
        public struct Refusal: Sendable {
            let transcriptEntries: [Transcript.Entry]
            /// The model's own explanation, when the backend gave one.
            let explanationText: String?

            public init(transcriptEntries: [Transcript.Entry]) {
                self.transcriptEntries = transcriptEntries
                self.explanationText = nil
            }

            /// Portable only: a refusal with the model's explanation, for a
            /// ``LanguageModelBackend`` to throw in `GenerationError.refusal(_:_:)`.
            ///
            /// Apple's session asks its model for the explanation when `explanation` is read; a
            /// backend for another model (whose API returns the refusal's text with the refusal)
            /// hands the text over here, and `explanation` returns it. Apple's `Refusal` has no
            /// such initializer, so it is SPI (`@_spi(Portable) import PortableFoundationModels`).
            @_spi(Portable) public init(transcriptEntries: [Transcript.Entry], explanation: String) {
                self.transcriptEntries = transcriptEntries
                self.explanationText = explanation
            }
        }

        case exceededContextWindowSize(LanguageModelSession.GenerationError.Context)
        case assetsUnavailable(LanguageModelSession.GenerationError.Context)
        case guardrailViolation(LanguageModelSession.GenerationError.Context)
        case unsupportedGuide(LanguageModelSession.GenerationError.Context)
        case unsupportedLanguageOrLocale(LanguageModelSession.GenerationError.Context)
        case decodingFailure(LanguageModelSession.GenerationError.Context)
        case rateLimited(LanguageModelSession.GenerationError.Context)
        case concurrentRequests(LanguageModelSession.GenerationError.Context)
        case refusal(LanguageModelSession.GenerationError.Refusal, LanguageModelSession.GenerationError.Context)

        var context: Context {
            switch self {
            case .exceededContextWindowSize(let c), .assetsUnavailable(let c), .guardrailViolation(let c),
                .unsupportedGuide(let c), .unsupportedLanguageOrLocale(let c), .decodingFailure(let c),
                .rateLimited(let c), .concurrentRequests(let c), .refusal(_, let c):
                c
            }
        }

        public var errorDescription: String? {
            let summary =
                switch self {
                case .exceededContextWindowSize: "The context window size was exceeded."
                case .assetsUnavailable: "The model's assets are unavailable."
                case .guardrailViolation: "The content was flagged by guardrails."
                case .unsupportedGuide: "A generation guide is not supported."
                case .unsupportedLanguageOrLocale: "The language or locale is not supported."
                case .decodingFailure: "The model's output could not be decoded."
                case .rateLimited: "The session was rate limited."
                case .concurrentRequests: "The session is already responding to a request."
                case .refusal: "The model refused to answer."
                }
            return context.debugDescription.isEmpty ? summary : "\(summary) \(context.debugDescription)"
        }

        public var recoverySuggestion: String? {
            switch self {
            case .exceededContextWindowSize: "Start a new session with a shorter transcript."
            case .concurrentRequests: "Wait for the current response to finish before sending another."
            case .assetsUnavailable: "Check SystemLanguageModel.default.availability before creating a session."
            default: nil
            }
        }

        public var failureReason: String? { context.debugDescription }
    }
}

extension LanguageModelSession.GenerationError.Refusal {
    /// The model's explanation of why it refused.
    ///
    /// Portable: the explanation the backend gave (`init(transcriptEntries:explanation:)`),
    /// else the text of the last response among the refusal's transcript entries; without
    /// either it throws `GenerationError.refusal` again, as there is no model to ask. The
    /// response's `transcriptEntries` hold the explanation as one response entry.
    nonisolated(nonsending) public var explanation: LanguageModelSession.Response<String> {
        get async throws {
            guard let text = explanationText ?? lastResponseText else {
                throw LanguageModelSession.GenerationError.refusal(
                    self, .init(debugDescription: "The model gave no explanation for its refusal."))
            }
            return .refusalExplanation(text)
        }
    }

    /// The model's explanation of why it refused, as a stream (one snapshot: the explanation
    /// is already known when the refusal is thrown).
    public var explanationStream: LanguageModelSession.ResponseStream<String> {
        LanguageModelSession.ResponseStream { _ in try await self.explanation }
    }

    /// The text of the last response entry of the refusal's transcript entries.
    private var lastResponseText: String? {
        for entry in transcriptEntries.reversed() {
            if case .response(let response) = entry { return response.segments.plainText }
        }
        return nil
    }
}
#endif
