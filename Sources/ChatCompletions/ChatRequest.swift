// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// One chat-completions request as the request builder needs it, whichever front door of the
/// model it came through: the 27 executor's `LanguageModelExecutorGenerationRequest` or the 26
/// backend's `LanguageModelRequest`.
///
/// It names only what exists alike in Apple's FoundationModels and in the portable module
/// (transcripts, schemas, generated content); each front door fills it from its own API.
#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
struct ChatRequest: Sendable {
    /// A tool the model may call in this request.
    struct Tool: Sendable {
        var name: String
        var description: String
        var parameters: GenerationSchema
        /// Whether guided generation's system message repeats the tool's argument schema.
        var includesSchemaInInstructions: Bool
    }

    /// How the model picks tokens, as the request's sampling mode says.
    enum Sampling: Sendable, Equatable {
        /// Always the most likely token.
        case greedy
        /// At random among the `k` most likely.
        case topK(Int, seed: UInt64?)
        /// At random among the most likely whose probabilities add up to the threshold.
        case probabilityThreshold(Double, seed: UInt64?)
    }

    /// Whether the model may or must call one of the tools.
    enum ToolChoice: Sendable, Equatable {
        /// The model decides: a call or an answer.
        case auto
        /// The model must call a tool.
        case required
    }

    /// The conversation to continue: instructions, prompts, answers, tool calls and outputs.
    var transcript: Transcript
    /// The prompt the request answers (its tool rounds are counted from it); `nil` for the
    /// transcript's last prompt.
    var promptID: String?
    /// The tools the model may call (none when the request disallows tool calls).
    var tools: [Tool]
    /// The schema the answer follows, if any.
    var schema: GenerationSchema?
    var temperature: Double?
    var maximumResponseTokens: Int?
    var sampling: Sampling?
    var toolChoice = ToolChoice.auto
    /// OpenAI's `reasoning_effort`, for a server that takes it.
    var reasoningEffort: String?
    /// Whether a streamed answer ends with the server's usage (`stream_options.include_usage`).
    var includesUsage = false

    /// The transcript's instructions entry, if it has one.
    var instructions: Transcript.Instructions? {
        for entry in transcript {
            if case .instructions(let instructions) = entry { return instructions }
        }
        return nil
    }

    /// Whether the latest round of tool calls after the request's prompt only repeats calls an
    /// earlier round of it made (the same tool with the same arguments): a small model in a
    /// loop, which another round would not get out of.
    var repeatsToolCalls: Bool {
        var rounds: [[String]] = []
        for entry in transcript.reversed() {
            if case .prompt(let prompt) = entry, promptID == nil || prompt.id == promptID { break }
            if case .toolCalls(let calls) = entry { rounds.append(calls.map(\.description)) }
        }
        guard let latest = rounds.first, !latest.isEmpty else { return false }
        let earlier = Set(rounds.dropFirst().joined())
        return latest.allSatisfy(earlier.contains)
    }

    /// How many rounds of tool calls followed the request's prompt.
    var toolRounds: Int {
        var rounds = 0
        for entry in transcript.reversed() {
            if case .prompt(let prompt) = entry, promptID == nil || prompt.id == promptID { break }
            if case .toolCalls = entry { rounds += 1 }
        }
        return rounds
    }
}
