// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.

/// The sampling settings that keep a model from repeating itself, sent with every request
/// (``ChatCompletionsConfiguration/repetitionControls``).
///
/// A small model left to itself falls into loops (`[aesbw]; [aesbw]; …`) that run to the
/// response token limit; these settings make a loop less likely, and the model's degenerate
/// output detector cuts the ones that still happen
/// (``ChatCompletionsConfiguration/detectsDegenerateOutput``).
///
/// | Setting | Field | What it does | Servers that read it |
/// |---|---|---|---|
/// | ``repeatPenalty`` | `repeat_penalty` | Divides the score of every token already among the last ``repeatLastN`` tokens (the prompt's included) by the penalty. Not sent by default; ``retryRepeatPenalty`` on the retry of a cut answer. | llama.cpp |
/// | ``repeatLastN`` | `repeat_last_n` | How many tokens back ``repeatPenalty`` looks. | llama.cpp |
/// | ``dryMultiplier`` | `dry_multiplier` | DRY ("don't repeat yourself"): a token that would extend a sequence already in the context beyond two tokens is penalized, exponentially in the sequence's length. | llama.cpp |
/// | ``frequencyPenalty`` | `frequency_penalty` | Lowers a token's score in proportion to how often it has been generated. | OpenAI, llama.cpp, vLLM, Ollama |
/// | ``presencePenalty`` | `presence_penalty` | Lowers the score of any token already generated. | OpenAI, llama.cpp, vLLM, Ollama |
/// | ``stop`` | `stop` | Ends the answer where one of the strings would begin (at most 4, OpenAI's limit). | OpenAI, llama.cpp, vLLM, Ollama |
///
/// (From llama.cpp's server documentation and OpenAI's and Ollama's lists of request fields;
/// only llama.cpp was tried.) Which server gets them is ``recipients``: by default only llama.cpp's `llama-server`
/// (recognized when connecting, by its `/props`), the server this library runs small models
/// on. OpenAI rejects a request with a field it does not know (`Unrecognized request argument
/// supplied: repeat_penalty`, HTTP 400) and its reasoning models reject `stop` and the
/// penalties, so nothing changes for a hosted API unless the app says so.
///
/// **The repeat penalty is for the retry.** `repeat_penalty` lowers every token already among
/// the last ``repeatLastN``, the prompt's included: right after a tool's output, that is the
/// output itself, so a model answering with a value the tool returned is pushed off it. With
/// 1.1 on every request, SmolLM2-135M answered "What time is it in Tokyo?" with `clock_now`'s
/// time garbled in 4 of 4 chats (`2026-12-03T16:13:52.48ZBWDYMUA` for `…16:13:52+00:00`) and
/// copied it exactly in 4 of 4 without; but without it, 28 of 41 held-out turns looped and
/// were cut (with it, none). So the first request goes without it, and an answer cut as
/// degenerate is asked once more with ``retryRepeatPenalty`` (the default 1.1): see
/// ``ChatCompletionsConfiguration/detectsDegenerateOutput``.
public struct RepetitionControls: Sendable, Equatable {
    /// Which servers get the settings.
    public enum Recipients: Sendable, Equatable {
        /// Only a server recognized as llama.cpp when connecting (it answers `/props` with its
        /// generation settings). The default.
        case llamaCpp
        /// OpenAI's standard fields (``frequencyPenalty``, ``presencePenalty``, ``stop``) to every
        /// server; llama.cpp's own (``repeatPenalty``, ``repeatLastN``, ``dryMultiplier``) only to
        /// llama.cpp.
        case standardFieldsToEveryServer
        /// Every field to every server: for llama.cpp behind a proxy that hides `/props`, or a
        /// server that reads llama.cpp's names and ignores fields it does not know.
        case everyServer
    }

    /// `repeat_penalty` for every request; default `nil`, not sent (llama.cpp's own default
    /// is 1.0, off): it pushes a model off copying a tool's output (see above).
    public var repeatPenalty: Double?
    /// `repeat_penalty` for the one retry of a request whose answer was cut as degenerate;
    /// default 1.1. `nil`, or the same as ``repeatPenalty``, makes no retry: the cut fails the
    /// turn at once. Sent where ``repeatPenalty`` would be (llama.cpp, by default).
    public var retryRepeatPenalty: Double?
    /// `repeat_last_n`; default 64 (llama.cpp's default). `nil` sends nothing.
    public var repeatLastN: Int?
    /// `dry_multiplier`; default 0.8 (the value DRY's author recommends; llama.cpp's default is
    /// 0, off), the server's defaults for the rest of DRY (base 1.75, allowed length 2, the last
    /// 64 tokens, breakers `\n`, `:`, `"` and `*`). Sent for free-text answers, and for guided
    /// steps only with ``appliesDRYToGuidedSteps``. `nil` sends nothing.
    public var dryMultiplier: Double?
    /// Whether ``dryMultiplier`` is sent for guided steps too (default `false`): DRY penalizes
    /// any sequence of more than two tokens that is already in the context, prompt included,
    /// which is what a tool call's arguments often are (a file name or a place the user wrote).
    public var appliesDRYToGuidedSteps: Bool
    /// `frequency_penalty` (OpenAI's range, -2 to 2); default `nil`, not sent.
    public var frequencyPenalty: Double?
    /// `presence_penalty` (OpenAI's range, -2 to 2); default `nil`, not sent.
    public var presencePenalty: Double?
    /// `stop`: strings that end the answer. Default: the turn markers of the ChatML and Gemma
    /// chat templates written as text (`<|im_start|>`, `<|im_end|>`, `<start_of_turn>`,
    /// `<end_of_turn>`), where a small model that goes on past its answer starts to write the
    /// next turn itself. Empty sends nothing.
    public var stop: [String]
    /// Which servers get the settings (default ``Recipients/llamaCpp``).
    public var recipients: Recipients

    /// Settings; every parameter has the default described on its property.
    public init(
        repeatPenalty: Double? = nil, retryRepeatPenalty: Double? = 1.1, repeatLastN: Int? = 64, dryMultiplier: Double? = 0.8,
        appliesDRYToGuidedSteps: Bool = false, frequencyPenalty: Double? = nil, presencePenalty: Double? = nil,
        stop: [String] = ["<|im_start|>", "<|im_end|>", "<start_of_turn>", "<end_of_turn>"], recipients: Recipients = .llamaCpp
    ) {
        self.repeatPenalty = repeatPenalty
        self.retryRepeatPenalty = retryRepeatPenalty
        self.repeatLastN = repeatLastN
        self.dryMultiplier = dryMultiplier
        self.appliesDRYToGuidedSteps = appliesDRYToGuidedSteps
        self.frequencyPenalty = frequencyPenalty
        self.presencePenalty = presencePenalty
        self.stop = stop
        self.recipients = recipients
    }

    /// No settings: every request leaves repetition to the server's defaults.
    public static let none = RepetitionControls(repeatPenalty: nil, retryRepeatPenalty: nil, repeatLastN: nil, dryMultiplier: nil, stop: [])

    /// The controls of the retry of a cut answer: ``retryRepeatPenalty`` as the repeat penalty;
    /// `nil` when the retry would send the same as the first request.
    var retry: RepetitionControls? {
        guard let penalty = retryRepeatPenalty, penalty != repeatPenalty else { return nil }
        var retry = self
        retry.repeatPenalty = penalty
        return retry
    }
}
