// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import JSONCore

/// Gathers a streamed chat completion from its events (`data:` chunks of deltas, then
/// `[DONE]`): the text, reasoning, a refusal, tool calls assembled from their fragments, the
/// finish reason, usage. A synchronous state machine, fed event by event.
///
/// Unless made with `detecting: false`, each part the model writes (the content, the
/// reasoning, the calls' arguments) goes through a ``DegenerateOutputDetector`` as it arrives:
/// ``take(_:)`` throws ``ChatCompletionsError/degenerateOutput`` at the first event that makes a
/// part degenerate, so that the request's reader stops (and closes the connection, which stops
/// the server generating) instead of reading a loop to the response token limit.
struct StreamedCompletion: Sendable {
    /// A tool call of the server's function calling as its fragments arrive.
    struct PartialCall: Sendable, Equatable {
        /// The call's place in the answer (the fragments' `index`).
        var index: Int
        var id: String?
        var name: String
        var arguments: String
    }

    private(set) var completion = ChatCompletion()
    /// Tool calls by their `index`, as their fragments arrive.
    private var calls: [Int: PartialCall] = [:]
    /// How many events added to the answer's text, its reasoning or a call's arguments: a
    /// server streams about one token an event.
    private(set) var deltaEvents = 0
    /// The detectors of the content, the reasoning and the calls' arguments; `nil` when the
    /// completion is not watched.
    private var detectors: Detectors?

    /// One detector for each part the model writes.
    private struct Detectors: Sendable {
        var content = DegenerateOutputDetector()
        var reasoning = DegenerateOutputDetector()
        var arguments = DegenerateOutputDetector()
    }

    /// A completion to gather, watched for degenerate output unless `detecting` is `false`.
    init(detecting: Bool = true) {
        if detecting { detectors = Detectors() }
    }

    /// Whether fragments of a tool call have arrived.
    var callsStarted: Bool { !calls.isEmpty }

    /// The tool calls so far, in their order in the answer (those without a name yet included).
    var partialCalls: [PartialCall] {
        calls.keys.sorted().compactMap { calls[$0] }
    }

    /// Takes one event's data; returns `true` at the end of the stream (`[DONE]`).
    ///
    /// - Throws: ``ChatCompletionsError/degenerateOutput`` when the event makes the output
    ///   degenerate (its text is not added); ``ChatCompletionsError/invalidResponse`` for an
    ///   event that is not JSON; a ``ServerFailure`` for an error event.
    mutating func take(_ data: [UInt8]) throws -> Bool {
        if data == Array("[DONE]".utf8) {
            finishCalls()
            return true
        }
        let chunk: JSONValue
        do {
            chunk = try JSONValue(parsing: data)
        } catch {
            throw ChatCompletionsError.make(
                .invalidResponse, "an event of the answer is not JSON: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        if let error = chunk["error"] {
            throw ServerFailure.classify(
                status: error["code"]?.intValue ?? 500, body: (try? JSONValue.object(["error": error]).jsonBytes()) ?? [])
        }
        // llama.cpp's account of the request's time: on the last chunk (or the whole answer).
        if let timings = chunk["timings"].flatMap(ChatCompletionsRequestMetrics.ServerTimings.init) { completion.timings = timings }
        // OpenAI's usage: on a last chunk of its own (no choices) when asked for, or the whole answer.
        if let usage = chunk["usage"], let prompt = usage["prompt_tokens"]?.intValue, let generated = usage["completion_tokens"]?.intValue {
            completion.usage = ChatCompletion.Usage(
                promptTokens: prompt, completionTokens: generated, cachedTokens: usage["prompt_tokens_details"]?["cached_tokens"]?.intValue,
                reasoningTokens: usage["completion_tokens_details"]?["reasoning_tokens"]?.intValue)
        }
        guard case .array(let choices)? = chunk["choices"], let choice = choices.first else { return false }
        let delta = choice["delta"] ?? choice["message"]
        var added = false
        if let text = delta?["content"]?.stringValue, !text.isEmpty {
            try watch(text, with: \.content, part: .answer)
            completion.content += text
            added = true
        }
        // llama.cpp and DeepSeek stream `reasoning_content`; vLLM and Ollama `reasoning`.
        if let text = delta?["reasoning_content"]?.stringValue ?? delta?["reasoning"]?.stringValue, !text.isEmpty {
            try watch(text, with: \.reasoning, part: .reasoning)
            completion.reasoning += text
            added = true
        }
        if let refusal = delta?["refusal"]?.stringValue { completion.refusal = (completion.refusal ?? "") + refusal }
        if case .array(let fragments)? = delta?["tool_calls"] {
            for (position, fragment) in fragments.enumerated() {
                let index = fragment["index"]?.intValue ?? position
                var call = calls[index] ?? PartialCall(index: index, id: nil, name: "", arguments: "")
                if let id = fragment["id"]?.stringValue, !id.isEmpty { call.id = id }
                if let name = fragment["function"]?["name"]?.stringValue { call.name += name }
                if let arguments = fragment["function"]?["arguments"]?.stringValue {
                    try watch(arguments, with: \.arguments, part: .toolCall)
                    call.arguments += arguments
                    added = added || !arguments.isEmpty
                }
                calls[index] = call
            }
        }
        if added { deltaEvents += 1 }
        if let reason = choice["finish_reason"]?.stringValue {
            completion.finishReason = reason
            finishCalls()
        }
        return false
    }

    /// Feeds `text` to the detector of its part.
    ///
    /// - Throws: ``ChatCompletionsError/degenerateOutput`` when the detector cuts the part.
    private mutating func watch(
        _ text: String,
        with detector: WritableKeyPath<Detectors, DegenerateOutputDetector>, part: DegenerateOutput.Part
    ) throws {
        guard detectors != nil else { return }
        if case .cut(let output)? = detectors?[keyPath: detector].feed(text) {
            throw ChatCompletionsError.degenerate(output.inPart(part))
        }
    }

    private mutating func finishCalls() {
        completion.toolCalls = partialCalls.filter { !$0.name.isEmpty }.map {
            ChatCompletion.ToolCall(id: $0.id, name: $0.name, arguments: $0.arguments)
        }
    }

    /// A completion answered as one JSON body (a server that does not stream), checked for
    /// degenerate output as a stream is unless `detecting` is `false`: the server has generated
    /// it all, but a loop anywhere in it is still not an answer.
    static func whole(_ bytes: [UInt8], detecting: Bool = true) throws -> StreamedCompletion {
        var stream = StreamedCompletion(detecting: detecting)
        _ = try stream.take(bytes)
        stream.finishCalls()
        guard stream.completion.finishReason != nil || !stream.completion.content.isEmpty || !stream.completion.toolCalls.isEmpty else {
            throw ChatCompletionsError.make(
                .invalidResponse, "the server's answer has no choices: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        return stream
    }
}
