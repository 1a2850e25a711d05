// ChatCompletions: an OpenAI-compatible model behind PortableFoundationModels.
#if !canImport(FoundationModels)
import JSONCore

/// Gathers a streamed chat completion from its events (`data:` chunks of deltas, then
/// `[DONE]`): the text, a refusal, tool calls assembled from their fragments, the finish
/// reason. A synchronous state machine, fed event by event.
struct StreamedCompletion {
    private(set) var completion = ChatCompletionsModel.Completion()
    /// Tool calls by their `index`, as their fragments arrive.
    private var calls: [Int: (id: String?, name: String, arguments: String)] = [:]

    /// Whether fragments of a tool call have arrived.
    var callsStarted: Bool { !calls.isEmpty }

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
            throw ChatCompletionsError.make(.invalidResponse, "an event of the answer is not JSON: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        if let error = chunk["error"] {
            throw ChatCompletionsModel.failure(status: error["code"]?.intValue ?? 500, body: (try? JSONValue.object(["error": error]).jsonBytes()) ?? [])
        }
        // llama.cpp's account of the request's time: on the last chunk (or the whole answer).
        if let timings = chunk["timings"].flatMap(ChatCompletionsRequestMetrics.ServerTimings.init) { completion.timings = timings }
        guard case .array(let choices)? = chunk["choices"], let choice = choices.first else { return false }
        let delta = choice["delta"] ?? choice["message"]
        if let text = delta?["content"]?.stringValue { completion.content += text }
        if let refusal = delta?["refusal"]?.stringValue { completion.refusal = (completion.refusal ?? "") + refusal }
        if case .array(let fragments)? = delta?["tool_calls"] {
            for (position, fragment) in fragments.enumerated() {
                let index = fragment["index"]?.intValue ?? position
                var call = calls[index] ?? (id: nil, name: "", arguments: "")
                if let id = fragment["id"]?.stringValue { call.id = id }
                if let name = fragment["function"]?["name"]?.stringValue { call.name += name }
                if let arguments = fragment["function"]?["arguments"]?.stringValue { call.arguments += arguments }
                calls[index] = call
            }
        }
        if let reason = choice["finish_reason"]?.stringValue {
            completion.finishReason = reason
            finishCalls()
        }
        return false
    }

    private mutating func finishCalls() {
        completion.toolCalls = calls.keys.sorted().compactMap { calls[$0] }.filter { !$0.name.isEmpty }
    }

    /// A completion answered as one JSON body (a server that does not stream).
    static func whole(_ bytes: [UInt8]) throws -> ChatCompletionsModel.Completion {
        var stream = StreamedCompletion()
        _ = try stream.take(bytes)
        stream.finishCalls()
        guard stream.completion.finishReason != nil || !stream.completion.content.isEmpty || !stream.completion.toolCalls.isEmpty else {
            throw ChatCompletionsError.make(.invalidResponse, "the server's answer has no choices: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        return stream.completion
    }
}
#endif
