// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// Streams a chat completion into a session's generation channel as the server sends it.
///
/// - The answer's text goes as `.response(entryID:action: .appendText(_:tokenCount:))`.
///   With guided tool calling the step's JSON is never sent: while the model writes an
///   `{"answer": …}` step, the answer so far (parsed as a prefix) is sent as it grows — a
///   `.replaceTextSegment` when it does not extend what was sent — and a
///   `{"tool": …, "arguments": …}` step becomes one tool call when the step ends.
/// - Reasoning (`reasoning_content`) goes as `.reasoning(entryID:action: .appendText(…))`.
/// - A call of the server's function calling goes as
///   `.toolCalls(entryID:action: .toolCall(id:name:action: .appendArguments(_:tokenCount:)))`,
///   opened once its name and first arguments arrive, then fragment by fragment.
/// - The server's usage, when it sends one, goes last, on the entry of the turn's outcome (the
///   tool calls, or the response), replacing the totals the deltas credited.
///
/// Each kind has one entry id for the whole stream, as Apple's own provider does, so that
/// reasoning, text and calls that interleave stay one entry each. Every delta credits the
/// server events it stands for as tokens (servers stream about one token an event; never 0).
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
struct ChannelTranslator: CompletionObserver {
    typealias Channel = LanguageModelExecutorGenerationChannel

    /// A call of the server's function calling, once opened in the channel.
    private struct OpenCall: Sendable {
        var id: String
        var name: String
        /// The UTF-8 length of the arguments sent so far.
        var sent: Int
    }

    let channel: Channel
    let shape: ChatRequestBuilder.AnswerShape
    let responseID = UUID().uuidString
    let reasoningID = UUID().uuidString
    let toolCallsID = UUID().uuidString
    /// The UTF-8 length of the reasoning sent so far.
    private var sentReasoning = 0
    /// The UTF-8 length of the server's content sent as answer text so far (every shape but
    /// guided).
    private var sentContent = 0
    /// The answer text sent so far, for a guided step (`nil` before any).
    private var answer: String?
    /// The UTF-8 length of a guided step's content when it was last parsed.
    private var parsed = 0
    /// The stream's delta events that the deltas sent so far stand for.
    private var credited = 0
    /// The calls opened, by their index in the answer.
    private var calls: [Int: OpenCall] = [:]
    /// Whether a response event was sent.
    private var responded = false
    /// Whether the next answer text replaces the response's (a retry's first, after a cut).
    private var replacesResponse = false
    /// Whether a tool call was sent.
    private var called = false
    /// The reasoning deltas sent (for a server that streams reasoning but does not count its
    /// tokens).
    private var reasoningEvents = 0

    init(channel: Channel, shape: ChatRequestBuilder.AnswerShape) {
        self.channel = channel
        self.shape = shape
    }

    mutating func observe(_ stream: StreamedCompletion) async throws {
        try Task.checkCancellation()
        try await forward(stream, final: false)
    }

    /// Gets ready for a retry's answer: its first text replaces the response's. Not when the cut
    /// answer opened a call or sent reasoning, which the channel cannot take back.
    mutating func restart() async -> Bool {
        guard !called, calls.isEmpty, sentReasoning == 0 else { return false }
        replacesResponse = responded
        sentContent = 0
        answer = nil
        parsed = 0
        credited = 0
        return true
    }

    /// Sends what the stream's last events added, and everything that is only known once the
    /// answer ended: a guided step's call or complete answer, the response entry of an empty
    /// answer, the server's usage.
    ///
    /// - Throws: `LanguageModelError.refusal` when the server sent a refusal,
    ///   `.guardrailViolation` when its content filter cut the answer;
    ///   ``ChatCompletionsError/invalidResponse`` for a guided step that is neither an answer
    ///   nor a call.
    mutating func finish(_ stream: StreamedCompletion) async throws {
        let completion = stream.completion
        if let refusal = completion.refusal, !refusal.isEmpty {
            throw ChatCompletionsModel.refusal(refusal)
        }
        if completion.finishReason == "content_filter" {
            throw LanguageModelError.guardrailViolation(.init(debugDescription: "The model server's content filter stopped the answer."))
        }
        try Task.checkCancellation()
        try await forward(stream, final: true)
        if case .guided = shape {
            let turn: ChatRequestBuilder.Turn
            do {
                turn = try ChatRequestBuilder.turn(content: completion.content, toolCalls: [], shape: shape)
            } catch {
                let cut = completion.finishReason == "length" ? " (the answer was cut at the response token limit)" : ""
                throw ChatCompletionsError.make(.invalidResponse, "the model's guided step cannot be read: \(error.reason)\(cut)")
            }
            switch turn {
            case .toolCalls(let requested):
                for call in requested {
                    await sendCall(
                        id: call.id ?? Self.newCallID(), name: call.toolName, arguments: call.arguments.jsonString, tokens: tokens(stream))
                }
            case .text(let text):
                await show(text, tokens: tokens(stream))
            case .content(let content):
                await show(content.jsonString, tokens: tokens(stream))
            }
        }
        if replacesResponse {
            // A retry that showed nothing leaves nothing of the cut answer.
            await channel.send(.response(entryID: responseID, action: .replaceTextSegment("", tokenCount: 1)))
            replacesResponse = false
        }
        if !called, !responded {
            // An empty answer is an answer: the response entry must exist.
            await channel.send(.response(entryID: responseID, action: .appendText("", tokenCount: 0)))
            responded = true
        }
        if let usage = completion.usage {
            let input = Channel.Usage.Input(totalTokenCount: usage.promptTokens, cachedTokenCount: usage.cachedTokens ?? 0)
            let output = Channel.Usage.Output(
                totalTokenCount: usage.completionTokens,
                reasoningTokenCount: usage.reasoningTokens ?? (completion.reasoning.isEmpty ? 0 : reasoningEvents))
            if called {
                await channel.send(.toolCalls(entryID: toolCallsID, action: .updateUsage(input: input, output: output)))
            } else {
                await channel.send(.response(entryID: responseID, action: .updateUsage(input: input, output: output)))
            }
        }
    }

    // MARK: Forwarding

    /// Sends what is new in `stream` since the last call.
    private mutating func forward(_ stream: StreamedCompletion, final: Bool) async throws {
        let completion = stream.completion
        let reasoning = Self.suffix(of: completion.reasoning, after: sentReasoning)
        if !reasoning.isEmpty {
            sentReasoning = completion.reasoning.utf8.count
            reasoningEvents += 1
            await channel.send(.reasoning(entryID: reasoningID, action: .appendText(reasoning, tokenCount: tokens(stream))))
        }
        switch shape {
        case .text, .content, .native:
            let text = Self.suffix(of: completion.content, after: sentContent)
            if !text.isEmpty {
                sentContent = completion.content.utf8.count
                responded = true
                if replacesResponse {
                    replacesResponse = false
                    await channel.send(.response(entryID: responseID, action: .replaceTextSegment(text, tokenCount: tokens(stream))))
                } else {
                    await channel.send(.response(entryID: responseID, action: .appendText(text, tokenCount: tokens(stream))))
                }
            }
            if shape == .native { await forwardCalls(stream, final: final) }
        case .guided(let structured):
            let content = completion.content
            let length = content.utf8.count
            guard !final, ChatCompletionsModel.reportsPartial(length: length, reported: parsed) else { return }
            parsed = length
            guard let partial = ChatRequestBuilder.partialAnswer(content: content, shape: shape, callsStarted: false) else { return }
            if structured {
                await show(partial.jsonString, tokens: tokens(stream))
            } else if case .string(let text) = partial.kind {
                await show(text, tokens: tokens(stream))
            }
        }
    }

    /// Opens the calls whose name and first arguments arrived (at the end, every named call)
    /// and sends the arguments that are new.
    private mutating func forwardCalls(_ stream: StreamedCompletion, final: Bool) async {
        for call in stream.partialCalls where !call.name.isEmpty {
            if var open = calls[call.index] {
                if open.name != call.name {
                    // The name came in pieces and grew after the call was opened: open it again
                    // under its whole name.
                    await channel.send(.toolCalls(entryID: toolCallsID, action: .removeToolCall(id: open.id)))
                    open = OpenCall(id: Self.newCallID(), name: call.name, sent: 0)
                    await sendCall(id: open.id, name: open.name, arguments: call.arguments, tokens: tokens(stream))
                } else {
                    let arguments = Self.suffix(of: call.arguments, after: open.sent)
                    guard !arguments.isEmpty else { continue }
                    await sendCall(id: open.id, name: open.name, arguments: arguments, tokens: tokens(stream))
                }
                open.sent = call.arguments.utf8.count
                calls[call.index] = open
            } else if !call.arguments.isEmpty || final {
                let open = OpenCall(id: call.id ?? Self.newCallID(), name: call.name, sent: call.arguments.utf8.count)
                calls[call.index] = open
                await sendCall(id: open.id, name: open.name, arguments: call.arguments, tokens: tokens(stream))
            }
        }
    }

    /// Sends a fragment of a call's arguments (the first one opens the call).
    private mutating func sendCall(id: String, name: String, arguments: String, tokens: Int) async {
        called = true
        await channel.send(
            .toolCalls(entryID: toolCallsID, action: .toolCall(id: id, name: name, action: .appendArguments(arguments, tokenCount: tokens)))
        )
    }

    /// Shows a guided step's answer so far: appended when it extends what was sent, replacing
    /// it otherwise.
    private mutating func show(_ text: String, tokens: Int) async {
        if let sent = answer {
            guard text != sent else { return }
            if text.hasPrefix(sent) {
                await channel.send(
                    .response(entryID: responseID, action: .appendText(Self.suffix(of: text, after: sent.utf8.count), tokenCount: tokens)))
            } else {
                await channel.send(.response(entryID: responseID, action: .replaceTextSegment(text, tokenCount: tokens)))
            }
        } else if replacesResponse {
            replacesResponse = false
            await channel.send(.response(entryID: responseID, action: .replaceTextSegment(text, tokenCount: tokens)))
        } else {
            await channel.send(.response(entryID: responseID, action: .appendText(text, tokenCount: tokens)))
        }
        answer = text
        responded = true
    }

    // MARK: Helpers

    /// The delta events of `stream` not credited yet, as the token count of the next delta (at
    /// least 1: a count of 0 would hold back the session's snapshots).
    private mutating func tokens(_ stream: StreamedCompletion) -> Int {
        let count = stream.deltaEvents - credited
        credited = stream.deltaEvents
        return max(1, count)
    }

    /// `text` after its first `count` UTF-8 bytes (a boundary between the server's deltas).
    static func suffix(of text: String, after count: Int) -> String {
        let bytes = text.utf8
        guard count < bytes.count else { return "" }
        guard count > 0 else { return text }
        return String(decoding: bytes.dropFirst(count), as: UTF8.self)
    }

    /// An id for a call the server gave none.
    static func newCallID() -> String {
        "call_" + UUID().uuidString
    }
}
