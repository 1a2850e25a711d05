// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import JSONCore

/// Gathers a streamed chat completion from its events (`data:` chunks of deltas, then
/// `[DONE]`): the text, reasoning, a refusal, tool calls assembled from their fragments, the
/// finish reason, usage. A synchronous state machine, fed event by event.
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

    /// Whether fragments of a tool call have arrived.
    var callsStarted: Bool { !calls.isEmpty }

    /// The tool calls so far, in their order in the answer (those without a name yet included).
    var partialCalls: [PartialCall] {
        calls.keys.sorted().compactMap { calls[$0] }
    }

    /// Takes one event's data; returns `true` at the end of the stream (`[DONE]`).
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
            completion.content += text
            added = true
        }
        // llama.cpp and DeepSeek stream `reasoning_content`; vLLM and Ollama `reasoning`.
        if let text = delta?["reasoning_content"]?.stringValue ?? delta?["reasoning"]?.stringValue, !text.isEmpty {
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

    private mutating func finishCalls() {
        completion.toolCalls = partialCalls.filter { !$0.name.isEmpty }.map {
            ChatCompletion.ToolCall(id: $0.id, name: $0.name, arguments: $0.arguments)
        }
    }

    /// A completion answered as one JSON body (a server that does not stream).
    static func whole(_ bytes: [UInt8]) throws -> StreamedCompletion {
        var stream = StreamedCompletion()
        _ = try stream.take(bytes)
        stream.finishCalls()
        guard stream.completion.finishReason != nil || !stream.completion.content.isEmpty || !stream.completion.toolCalls.isEmpty else {
            throw ChatCompletionsError.make(
                .invalidResponse, "the server's answer has no choices: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        return stream
    }
}
