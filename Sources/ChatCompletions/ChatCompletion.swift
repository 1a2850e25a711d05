// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
/// What one chat completion came to, streamed or not: the text, reasoning, a refusal, the tool
/// calls, why it finished, and what the server said about its tokens and time.
///
/// Neutral: neither FoundationModels' nor the portable module's types, so both of the model's
/// front doors (the 27 executor and the 26 backend) read the same record.
struct ChatCompletion: Sendable {
    /// One tool call of the server's function calling, assembled from its fragments.
    struct ToolCall: Sendable, Equatable {
        /// The call's id, when the server gave one.
        var id: String?
        var name: String
        /// The arguments' JSON text, as the server sent it.
        var arguments: String
    }

    /// The server's `usage` object.
    struct Usage: Sendable, Equatable {
        /// Every token of the request (`prompt_tokens`).
        var promptTokens: Int
        /// The generated tokens (`completion_tokens`).
        var completionTokens: Int
        /// The request's tokens served from the server's cache, when it said.
        var cachedTokens: Int?
        /// The generated tokens spent reasoning, when it said.
        var reasoningTokens: Int?
    }

    var content = ""
    /// Reasoning the server streamed apart from the answer (`reasoning_content`, or `reasoning`).
    var reasoning = ""
    var refusal: String?
    var toolCalls: [ToolCall] = []
    var finishReason: String?
    var usage: Usage?
    /// The server's timings, when it sent them.
    var timings: ChatCompletionsRequestMetrics.ServerTimings?
}
