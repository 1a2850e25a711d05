// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.

/// Watches a streamed answer grow: the 27 executor forwards it into the session's channel, the
/// 26 backend reports the answer so far to `partialAnswer`.
///
/// The request's exchange calls ``observe(_:)`` after every event of the stream (the
/// `[DONE]` marker aside), with everything gathered so far; an observer keeps what it already
/// passed on and works out what is new.
protocol CompletionObserver: Sendable {
    /// The answer after one more event of the stream.
    mutating func observe(_ stream: StreamedCompletion) async throws

    /// Gets ready for the retry of a request whose answer was cut as degenerate: what was passed
    /// on of the cut answer is to be replaced by the retry's answer. Returns `false` when that
    /// cannot be done (something was passed on that cannot be taken back); the cut then stands.
    mutating func restart() async -> Bool
}
