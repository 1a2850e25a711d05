// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import JSONCore

/// How long one chat-completions request of a ``ChatCompletionsModel`` took, from the client's
/// side and, where the server says, from the server's.
///
/// Set ``ChatCompletionsConfiguration/requestMetrics`` to receive one per answered request, to
/// tell the model's time from everything else a turn costs:
///
/// ```swift
/// var configuration = ChatCompletionsConfiguration()
/// configuration.requestMetrics = { metrics in
///     print("model \(metrics.server?.model ?? .zero), request \(metrics.exchange), building \(metrics.building)")
/// }
/// ```
///
/// ``building``, ``exchange`` and ``decoding`` follow one another: together they are the
/// whole of the backend's `respond(to:)`.
public struct ChatCompletionsRequestMetrics: Sendable, Equatable {
    /// Building the request: the session's request as messages, tools and schemas, encoded as
    /// JSON, with the headers (and the API key asked for).
    public var building: Duration
    /// From sending the request to the response's headers.
    public var timeToHeaders: Duration
    /// From sending the request to the answer's last byte: the server's time and the network's.
    public var exchange: Duration
    /// Reading the answer into the session's turn: text, content or tool calls.
    public var decoding: Duration
    /// The request body's size in bytes.
    public var requestBytes: Int
    /// The server's own account of its time, when it gives one (llama.cpp's `timings`); `nil`
    /// otherwise.
    public var server: ServerTimings?
    /// What the model did when its first answer was cut as degenerate and the request was sent
    /// again with ``RepetitionControls/retryRepeatPenalty``; `nil` when it was answered the
    /// first time. After a retry, ``exchange`` runs from the first request to the retry's last
    /// byte, ``requestBytes`` counts both bodies, and the rest is the retry's.
    public var retriedAfter: DegenerateOutput?

    /// What the server says it spent on a request (llama.cpp's `timings` object).
    public struct ServerTimings: Sendable, Equatable {
        /// The prompt's tokens the model evaluated.
        public var promptTokens: Int
        /// The prompt's tokens reused from the server's cache (not evaluated again).
        public var cachedTokens: Int
        /// The time evaluating the prompt.
        public var prompt: Duration
        /// The tokens the model generated.
        public var predictedTokens: Int
        /// The time generating.
        public var predicted: Duration

        /// The model's time: evaluating the prompt and generating.
        public var model: Duration { prompt + predicted }

        /// The timings of a `timings` object; `nil` when it has neither time.
        init?(_ json: JSONValue) {
            let promptMilliseconds = json["prompt_ms"]?.doubleValue
            let predictedMilliseconds = json["predicted_ms"]?.doubleValue
            guard promptMilliseconds != nil || predictedMilliseconds != nil else { return nil }
            promptTokens = json["prompt_n"]?.intValue ?? 0
            cachedTokens = json["cache_n"]?.intValue ?? 0
            prompt = Self.duration(milliseconds: promptMilliseconds)
            predictedTokens = json["predicted_n"]?.intValue ?? 0
            predicted = Self.duration(milliseconds: predictedMilliseconds)
        }

        /// A server's milliseconds as a duration (zero for none, or for a value that is not a time).
        static func duration(milliseconds: Double?) -> Duration {
            guard let milliseconds, milliseconds.isFinite, milliseconds > 0, milliseconds < 1e12 else { return .zero }
            return .nanoseconds(Int64((milliseconds * 1e6).rounded()))
        }
    }
}
