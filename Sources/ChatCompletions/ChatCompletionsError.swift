// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
public import JSONCore

/// A failure to reach or use a chat-completions server.
///
/// What every model can report is reported in FoundationModels' terms, not with this type. As
/// a `LanguageModel` (27): a request over the model's context is
/// `LanguageModelError.contextSizeExceeded`, a `429` `.rateLimited`, a refusal `.refusal`, a
/// content filter `.guardrailViolation`, a server that goes quiet `.timeout`. As a 26
/// `LanguageModelBackend`: `LanguageModelSession.GenerationError.exceededContextWindowSize`,
/// `.rateLimited`, `.refusal`, and `.decodingFailure` for an answer that does not parse (a
/// quiet server is ``timedOut`` there).
/// Match with `==` against the static members (`catch ChatCompletionsError.unknownModel`);
/// the detail is in ``detail`` and ``status``. New kinds may be added (``JSONCore/KindedError``).
public struct ChatCompletionsError: KindedError {
    public let kind: ErrorKind
    /// What happened, in a sentence.
    public let detail: String
    /// The HTTP status the server answered with, when it answered.
    public let status: Int?
    /// What the model repeated, for a ``degenerateOutput`` error; `nil` for the others.
    public let degeneration: DegenerateOutput?

    private init(_ kind: ErrorKind, _ detail: String, status: Int? = nil, degeneration: DegenerateOutput? = nil) {
        self.kind = kind
        self.detail = detail
        self.status = status
        self.degeneration = degeneration
    }

    /// The server could not be reached (no connection, a name that does not resolve).
    public static let unreachable = ChatCompletionsError("unreachable", "the model server could not be reached")
    /// The server does not serve the model asked for.
    public static let unknownModel = ChatCompletionsError("unknownModel", "the server has no such model")
    /// The server refused the credentials (`401` or `403`).
    public static let unauthorized = ChatCompletionsError("unauthorized", "the server refused the credentials")
    /// The server answered with another error status.
    public static let httpStatus = ChatCompletionsError("httpStatus", "the server answered with an HTTP error status")
    /// The server's answer is not a chat completion (not JSON, no choices, too large), or, as a
    /// `LanguageModel`, a guided step that is neither an answer nor a call (a server that did
    /// not constrain the answer to the step's schema).
    public static let invalidResponse = ChatCompletionsError("invalidResponse", "the server's answer is not a chat completion")
    /// The server sent nothing for the idle timeout, or the request passed its deadline (as a
    /// `LanguageModel`, reported as `LanguageModelError.timeout`).
    public static let timedOut = ChatCompletionsError("timedOut", "the model server did not answer in time")
    /// An API key would go over plain `http://` to another machine.
    public static let insecureCredentials = ChatCompletionsError("insecureCredentials", "refusing to send the API key over plain http://")
    /// The URL or a limit is not usable.
    public static let invalidConfiguration = ChatCompletionsError("invalidConfiguration", "the model configuration is not usable")
    /// The app's API key provider threw.
    public static let apiKeyFailed = ChatCompletionsError("apiKeyFailed", "the API key provider failed")
    /// The model's output was cut while it streamed because it was degenerate: it repeated the
    /// same text over and over, or wrote a long run without a letter or digit (see
    /// ``DegenerateOutput``). The request was stopped as soon as that was visible; what the
    /// model wrote is not an answer. ``degeneration`` says what it repeated; the ``detail``
    /// reads `the model's answer was cut after 212 characters: it repeated "[aesbw]; " 8 times
    /// in a row`.
    public static let degenerateOutput = ChatCompletionsError("degenerateOutput", "the model's answer was cut: it repeated itself")

    static func make(_ kind: ChatCompletionsError, _ detail: String, status: Int? = nil) -> ChatCompletionsError {
        ChatCompletionsError(kind.kind, detail, status: status)
    }

    /// A ``degenerateOutput`` error for `output`.
    static func degenerate(_ output: DegenerateOutput) -> ChatCompletionsError {
        ChatCompletionsError(degenerateOutput.kind, output.sentence, degeneration: output)
    }
}
