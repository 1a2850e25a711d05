// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension GeneratedContent {
    /// The model's output could not be read as the requested content.
    ///
    /// A session created through a 27 initializer throws it when an answer does not parse as
    /// JSON for its schema, does not follow the schema, or cannot make the requested type, and
    /// when a tool call names no enabled tool or its arguments do not fit the tool (a 26 session
    /// throws `GenerationError.decodingFailure` for the same).
    public struct ParsingError: LocalizedError, CustomDebugStringConvertible, Sendable {
        /// The text the model produced.
        public var rawContent: String
        /// What failed underneath, if anything.
        public var underlyingError: (any Error)?
        public var debugDescription: String

        public init(rawContent: String, underlyingError: (any Error)? = nil, debugDescription: String) {
            self.rawContent = rawContent
            self.underlyingError = underlyingError
            self.debugDescription = debugDescription
        }

        public var errorDescription: String? { "The model's output could not be parsed. \(debugDescription)" }
    }
}
#endif
