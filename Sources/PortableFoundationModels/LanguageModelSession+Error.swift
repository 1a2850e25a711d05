// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession {
    /// The session's own errors.
    public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible, Equatable, Hashable {
        /// A request was made while the session was responding to another.
        case concurrentRequests
        /// The transcript was changed while the session was responding; the response ended.
        case transcriptMutationWhileResponding

        /// What happened.
        public var errorDescription: String? {
            switch self {
            case .concurrentRequests: "The session is already responding to a request."
            case .transcriptMutationWhileResponding: "The transcript was changed while the session was responding."
            }
        }

        /// What to do about it.
        public var recoverySuggestion: String? {
            switch self {
            case .concurrentRequests: "Wait for the current response to finish before sending another."
            case .transcriptMutationWhileResponding: "Change the transcript only while isResponding is false."
            }
        }

        /// The case's name.
        public var debugDescription: String {
            switch self {
            case .concurrentRequests: "LanguageModelSession.Error.concurrentRequests"
            case .transcriptMutationWhileResponding: "LanguageModelSession.Error.transcriptMutationWhileResponding"
            }
        }
    }
}

extension LanguageModelSession {
    /// Portable only: the model answered without calling a tool although the request's
    /// `toolCallingMode` was `.required`.
    ///
    /// Apple's framework documents the `.required` mode but not what happens when a model
    /// ignores it; the portable session ends the response with this error. The answer the model
    /// gave is in `response` (and stays in the transcript unless the error policy reverts it).
    public struct ToolCallingModeViolation: Swift.Error, LocalizedError, CustomDebugStringConvertible, Sendable {
        /// The answer the model gave instead of a tool call.
        public var response: Transcript.Response
        /// Details, for developers.
        public var debugDescription: String

        /// What happened.
        public var errorDescription: String? {
            "The model answered without calling a tool, but the tool calling mode requires one. \(debugDescription)"
        }
    }
}
#endif
