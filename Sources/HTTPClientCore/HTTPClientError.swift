/// A failure of the HTTP client itself: the server could not be reached, or a response
/// outran its reader by more than may wait in memory.
///
/// Its users turn it into their own errors (``kind`` says which): MCPHTTP into
/// `HTTPTransportError`, ChatCompletions into `ChatCompletionsError`.
package struct HTTPClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: Hashable, Sendable {
        /// The server could not be reached, the connection failed, or its bytes are not HTTP.
        case network
        /// More of one response waited unread than the exchanger's limit; the response was cut.
        case messageTooLarge
    }

    /// What went wrong.
    package let kind: Kind
    /// What happened, in a sentence.
    package let detail: String

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    package var description: String { detail }
}
