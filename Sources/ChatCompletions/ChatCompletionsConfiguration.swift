// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif

/// Options for a ``ChatCompletionsModel``.
///
/// ```swift
/// var configuration = ChatCompletionsConfiguration()
/// configuration.apiKey = { ProcessInfo.processInfo.environment["OPENAI_API_KEY"] }
/// let model = try await ChatCompletionsModel.connect(to: url, model: "gpt-4o-mini", configuration: configuration)
/// ```
#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
public struct ChatCompletionsConfiguration: Sendable {
    /// How the model calls tools.
    public enum ToolCalling: Sendable, Equatable {
        /// Guided generation, as Apple's on-device model does it: every step's output is
        /// constrained by a JSON Schema (`response_format: json_schema`) whose choices are
        /// "answer" or "call one of these tools with arguments of its schema", so every call
        /// names a listed tool with arguments that match. Works with any model the server
        /// constrains (llama.cpp, vLLM, Ollama, OpenAI); the default.
        case guided
        /// The server's own function calling (`tools`, `tool_calls`): the model's chat template
        /// decides the format. Arguments are not constrained unless the server does it.
        case native
    }

    /// Whether the model reasons before it answers, and how a request's reasoning level
    /// (`ContextOptions.reasoningLevel`) reaches the server.
    ///
    /// Setting one declares the `.reasoning` capability, without which a session refuses a
    /// request that sets a reasoning level. Reasoning the server streams apart from the answer
    /// (`reasoning_content`, as llama.cpp and DeepSeek send it, or `reasoning`) becomes a
    /// reasoning entry either way.
    public enum Reasoning: Sendable, Equatable {
        /// The model reasons, and the server has no setting for how much: a request's level is
        /// accepted and not sent.
        case fixed
        /// The server takes OpenAI's `reasoning_effort`: `.light` is sent as `"low"`,
        /// `.moderate` as `"medium"`, `.deep` as `"high"`, `.custom(name)` as `name`.
        case reasoningEffort
    }

    /// The API key, asked for before each request (so it can refresh); sent as
    /// `Authorization: Bearer …`. `nil`, or a closure returning `nil`, sends none.
    public var apiKey: (@Sendable () async throws -> String?)?
    /// Headers sent with every request.
    public var headers: [String: String]
    /// How the model calls tools (default ``ToolCalling/guided``).
    public var toolCalling: ToolCalling
    /// The model's context size, when the server does not say (llama.cpp does, through its
    /// `/props`); default 4096, the on-device model's.
    public var contextSize: Int?
    /// Options for requests whose own options leave them unset (temperature, sampling, the
    /// response length; as a `LanguageModel`, the tool-calling mode too).
    public var defaultOptions: GenerationOptions
    /// How many rounds of tool calls one prompt may take before the model must answer
    /// (guided generation then offers only the answer). Default 4: a small model that calls
    /// tools in a loop still answers. A round that only repeats calls an earlier round of the
    /// same prompt made (same tool, same arguments) also ends the rounds: the next step answers. A request whose tool-calling mode is `.required` is
    /// offered its tools whatever the rounds (the app decides when the loop ends).
    public var maximumToolRounds: Int
    /// How long the server may send nothing (no headers, no bytes of the answer) before the
    /// request fails with ``ChatCompletionsError/timedOut`` (`LanguageModelError.timeout` as a
    /// `LanguageModel`; default 120 s: a prompt's
    /// evaluation on a slow machine can take a while before the first token).
    public var idleTimeout: Duration
    /// The most bytes of one answer read (default 4 MiB).
    public var maximumResponseBytes: Int
    /// Whether the API key may go over plain `http://` to another machine (default `false`).
    public var allowsInsecureCredentials: Bool
    /// Whether every guide pattern goes to the server (default `false`: only those of a
    /// portable subset, literals, classes of literal characters and ranges, groups, alternation
    /// and quantifiers; the others are checked when the answer arrives). Set it for a server
    /// whose constrained decoding takes full regular expressions (vLLM's, for one); llama.cpp's
    /// fails requests whose patterns use `.` or negated classes.
    public var sendsEveryPattern: Bool = false
    /// Receives the timings of each answered chat-completions request (default `nil`): the
    /// client's time building, sending and decoding it, and the server's own account of the
    /// model's time where it gives one. Called on the task that made the request, before the
    /// turn is returned; keep it short.
    public var requestMetrics: (@Sendable (ChatCompletionsRequestMetrics) -> Void)?
    /// Whether the model reasons, and how a reasoning level is sent (default `nil`: the model
    /// is not declared to reason). Read by the model as a `LanguageModel` only.
    public var reasoning: Reasoning? = nil
    /// The sampling settings against repetition sent with every request (by default
    /// `repeat_last_n` 64, `dry_multiplier` 0.8 and four turn markers as `stop`, to llama.cpp
    /// only, and `repeat_penalty` 1.1 on the one retry of an answer cut as degenerate; see
    /// ``RepetitionControls``). ``RepetitionControls/none`` leaves repetition to the server.
    public var repetitionControls = RepetitionControls()
    /// Whether every answer is watched for degenerate output as it streams (default `true`):
    /// the same text over and over (`[aesbw]; [aesbw]; …`), or a long run without a letter or
    /// digit. The request is stopped as soon as it is visible and, where the repetition
    /// controls have a retry (``RepetitionControls/retryRepeatPenalty``, on llama.cpp by
    /// default), asked once more with the repeat penalty; a retry's answer replaces what was
    /// streamed of the cut one (``ChatCompletionsRequestMetrics/retriedAfter`` says it
    /// happened). A cut without a retry, or of the retry, fails the turn with
    /// ``ChatCompletionsError/degenerateOutput`` instead of showing the loop as an answer. The
    /// content, the reasoning and the calls' arguments are each watched; see
    /// ``DegenerateOutput`` and the module's documentation for what is cut.
    public var detectsDegenerateOutput = true
    /// The most characters of the text answer of a guided step (default 2,000; `nil`: no bound).
    ///
    /// Sent to llama.cpp as the `maxLength` of the step's `answer` string, which its
    /// constrained decoding enforces (the answer ends there, as a sentence cut short), and it
    /// bounds the step's `max_tokens`: at most a third of it plus 64 tokens for the JSON
    /// around the answer, never under 256 when the step offers tools, never over the request's
    /// own limit. Other servers get neither (OpenAI's strict schemas do not take `maxLength`,
    /// and a request without a limit keeps the server's).
    public var maximumGuidedAnswerLength: Int? = 2000

    /// Creates a configuration; every parameter has a default.
    public init(
        apiKey: (@Sendable () async throws -> String?)? = nil, headers: [String: String] = [:], toolCalling: ToolCalling = .guided,
        contextSize: Int? = nil, defaultOptions: GenerationOptions = GenerationOptions(), maximumToolRounds: Int = 4,
        idleTimeout: Duration = .seconds(120), maximumResponseBytes: Int = 4 << 20, allowsInsecureCredentials: Bool = false,
        requestMetrics: (@Sendable (ChatCompletionsRequestMetrics) -> Void)? = nil
    ) {
        self.apiKey = apiKey
        self.headers = headers
        self.toolCalling = toolCalling
        self.contextSize = contextSize
        self.defaultOptions = defaultOptions
        self.maximumToolRounds = maximumToolRounds
        self.idleTimeout = idleTimeout
        self.maximumResponseBytes = maximumResponseBytes
        self.allowsInsecureCredentials = allowsInsecureCredentials
        self.requestMetrics = requestMetrics
    }
}
