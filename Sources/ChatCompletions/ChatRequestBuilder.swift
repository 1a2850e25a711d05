// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import Foundation
import JSONCore

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// Turns a model request into a chat-completions request body, and the model's answer back
/// into a turn. Pure functions, tested without a server; the 27 executor and the 26 backend
/// both use them.
#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
enum ChatRequestBuilder {
    /// What the answer must look like, which decides how it is read.
    enum AnswerShape: Equatable {
        /// Free text.
        case text
        /// JSON of the request's schema.
        case content
        /// JSON choosing between an answer (text, or of the request's schema when
        /// `structured`) and one call of a listed tool.
        case guided(structured: Bool)
        /// The server's function calling: `tool_calls`, or text.
        case native
    }

    /// What kind of server the request goes to, as far as connecting found out.
    enum Server: Sendable, Equatable {
        /// llama.cpp's `llama-server` (it answered `/props` with its generation settings):
        /// it takes llama.cpp's sampling fields and enforces `maxLength` in its grammars.
        case llamaCpp
        /// Any other server.
        case other
    }

    /// A request body and how to read its answer.
    struct Built {
        var body: JSONValue
        var shape: AnswerShape
        /// The body of the one retry of an answer cut as degenerate: the same request with the
        /// retry's repetition controls (``RepetitionControls/retryRepeatPenalty``); `nil` when
        /// it would send the same bytes, so a retry could only cut again.
        var retryBody: JSONValue? = nil
    }

    /// The request body for `request`.
    ///
    /// Tools are offered while the prompt has had fewer than the configuration's
    /// ``ChatCompletionsConfiguration/maximumToolRounds`` rounds of calls, or always when the
    /// request requires a call. Keys are written in the same order every time, so the same
    /// request is the same bytes (a server's prompt cache depends on it). The configuration's
    /// ``ChatCompletionsConfiguration/repetitionControls`` and the guided answer's bound
    /// (``ChatCompletionsConfiguration/maximumGuidedAnswerLength``) depend on `server`.
    static func build(
        _ request: ChatRequest, model: String, configuration: ChatCompletionsConfiguration, stream: Bool, server: Server = .other
    ) throws -> Built {
        let all = configuration.sendsEveryPattern
        let required = request.toolChoice == .required
        // Tools are offered until the rounds run out or the model repeats itself (then it answers).
        let offersTools =
            !request.tools.isEmpty && (required || (request.toolRounds < configuration.maximumToolRounds && !request.repeatsToolCalls))
        let shape: AnswerShape
        switch (request.tools.isEmpty, configuration.toolCalling, request.schema != nil) {
        case (false, .native, false): shape = offersTools ? .native : .text
        // Guided steps keep their format (and so the same system message, which the server's
        // prompt cache then reuses) after the last round: only the answer is offered.
        case (false, _, let structured): shape = .guided(structured: structured)
        case (true, _, true): shape = .content
        case (true, _, false): shape = .text
        }
        var body = JSONObject()
        body["model"] = .string(model)
        body["messages"] = .array(try messages(for: request, shape: shape, offersTools: offersTools, allPatterns: all))
        body["stream"] = .bool(stream)
        options(of: request, into: &body)
        repetitionControls(configuration.repetitionControls, server: server, freeText: shape == .text, into: &body)
        switch shape {
        case .text:
            break
        case .content:
            if let schema = request.schema {
                body["response_format"] = responseFormat(try schemaJSON(schema, allPatterns: all))
            }
        case .guided(let structured):
            let allowsAnswer = !(offersTools && required)
            // A text answer's bound, where the server enforces it (maxLength), and the step's with it.
            let answerLength = server == .llamaCpp && !structured && allowsAnswer ? configuration.maximumGuidedAnswerLength : nil
            body["response_format"] = responseFormat(
                try guidedSchema(
                    tools: offersTools ? request.tools : [], answer: structured ? request.schema : nil, allowsAnswer: allowsAnswer,
                    answerLength: answerLength, allPatterns: all))
            if let answerLength {
                let bound = guidedStepTokens(answerLength: answerLength)
                body["max_tokens"] = .int(min(body["max_tokens"]?.intValue ?? bound, bound))
            }
            // A call is cut by no answer length: its JSON must end for the call to be read.
            if offersTools, let limit = body["max_tokens"]?.intValue, limit < minimumGuidedStepTokens {
                body["max_tokens"] = .int(minimumGuidedStepTokens)
            }
        case .native:
            body["tools"] = .array(
                try request.tools.map { tool in
                    var function = JSONObject()
                    function["name"] = .string(tool.name)
                    function["description"] = .string(tool.description)
                    function["parameters"] = try inlined(schemaJSON(tool.parameters, allPatterns: all))
                    return .object(["type": .string("function"), "function": .object(function)])
                })
            body["tool_choice"] = .string(required ? "required" : "auto")
        }
        if let effort = request.reasoningEffort { body["reasoning_effort"] = .string(effort) }
        if stream, request.includesUsage { body["stream_options"] = .object(["include_usage": .bool(true)]) }
        var retryBody: JSONValue?
        if let retry = configuration.repetitionControls.retry {
            var retried = body
            repetitionControls(retry, server: server, freeText: shape == .text, into: &retried)
            if retried != body { retryBody = .object(retried) }
        }
        return Built(body: .object(body), shape: shape, retryBody: retryBody)
    }

    /// The fewest tokens a guided step that offers tools may generate, whatever the answer's
    /// limit: enough for a call's JSON.
    static let minimumGuidedStepTokens = 256

    /// The most tokens a guided step whose text answer is at most `answerLength` characters
    /// may generate: a third of the characters (English runs at about four characters a token,
    /// a loop of short words at two to three) and 64 tokens for the JSON around the answer. A
    /// step that offers tools is raised to ``minimumGuidedStepTokens`` after.
    static func guidedStepTokens(answerLength: Int) -> Int {
        max(1, answerLength / 3 + 64)
    }

    // MARK: Messages

    /// The conversation as chat messages: the system message (the instructions, and with
    /// guided generation what its format means), then each entry of the transcript. Reasoning
    /// entries are not sent back (DeepSeek refuses them; others ignore them).
    static func messages(for request: ChatRequest, shape: AnswerShape, offersTools: Bool, allPatterns: Bool = false) throws -> [JSONValue] {
        var messages: [JSONValue] = []
        var system = request.instructions.map { text(of: $0.segments) } ?? ""
        if case .guided = shape {
            let guide = try guidedInstructions(tools: request.tools, allPatterns: allPatterns)
            system = system.isEmpty ? guide : system + "\n\n" + guide
        }
        if !system.isEmpty { messages.append(message("system", system)) }
        let native = shape == .native
        for entry in request.transcript {
            switch entry {
            case .instructions:
                continue
            case .prompt(let prompt):
                messages.append(message("user", text(of: prompt.segments)))
            case .response(let response):
                messages.append(message("assistant", text(of: response.segments)))
            case .toolCalls(let calls):
                if native {
                    var assistant = JSONObject()
                    assistant["role"] = .string("assistant")
                    assistant["content"] = .null
                    // Text the model wrote before its calls (a 27 transcript keeps it as a
                    // response entry right before them) goes with them, as the model wrote it.
                    if case .object(let previous)? = messages.last, previous["role"]?.stringValue == "assistant",
                        previous["tool_calls"] == nil, let text = previous["content"]
                    {
                        messages.removeLast()
                        assistant["content"] = text
                    }
                    assistant["tool_calls"] = .array(
                        calls.map { call in
                            .object([
                                "id": .string(call.id), "type": .string("function"),
                                "function": .object(["name": .string(call.toolName), "arguments": .string(call.arguments.jsonString)]),
                            ])
                        })
                    messages.append(.object(assistant))
                } else {
                    for call in calls {
                        messages.append(
                            message("assistant", #"{"tool":\#(quoted(call.toolName)),"arguments":\#(call.arguments.jsonString)}"#))
                    }
                }
            case .toolOutput(let output):
                if native {
                    messages.append(
                        .object([
                            "role": .string("tool"), "tool_call_id": .string(output.id), "content": .string(text(of: output.segments)),
                        ]))
                } else {
                    messages.append(message("user", "Output of the tool \(output.toolName):\n\(text(of: output.segments))"))
                }
            default:
                continue
            }
        }
        return messages
    }

    /// What guided generation tells the model (the schema constrains it; this says why).
    static func guidedInstructions(tools: [ChatRequest.Tool], allPatterns: Bool = false) throws -> String {
        var lines = ["Tools:"]
        for tool in tools {
            var line = "- \(tool.name): \(tool.description)"
            if tool.includesSchemaInInstructions {
                line += " Arguments: " + (try inlined(schemaJSON(tool.parameters, allPatterns: allPatterns)).jsonString())
            }
            lines.append(line)
        }
        lines += [
            "Reply with JSON only. To use a tool: {\"tool\": \"<tool name>\", \"arguments\": {…}}, choosing the tool whose description matches the user's request.",
            "When no tool fits, or after a tool's output: {\"answer\": \"<your reply>\"}.",
        ]
        return lines.joined(separator: "\n")
    }

    static func message(_ role: String, _ content: String) -> JSONValue {
        .object(["role": .string(role), "content": .string(content)])
    }

    static func text(of segments: [Transcript.Segment]) -> String {
        segments.map { segment in
            switch segment {
            case .text(let text): text.content
            case .structure(let structure): structure.content.jsonString
            case .attachment: ""
            @unknown default: ""
            }
        }.joined(separator: "\n")
    }

    static func quoted(_ text: String) -> String {
        (try? JSONValue.string(text).jsonString()) ?? "\"\""
    }

    // MARK: Options

    /// The configuration's repetition controls, for the servers ``RepetitionControls/recipients``
    /// names: OpenAI's standard fields and llama.cpp's own. DRY only for a `freeText` answer
    /// unless ``RepetitionControls/appliesDRYToGuidedSteps``: it penalizes copying the prompt,
    /// which constrained JSON (a call's arguments, a structured answer) does.
    static func repetitionControls(_ controls: RepetitionControls, server: Server, freeText: Bool, into body: inout JSONObject) {
        let standard: Bool
        let llamaCppFields: Bool
        switch controls.recipients {
        case .llamaCpp:
            standard = server == .llamaCpp
            llamaCppFields = standard
        case .standardFieldsToEveryServer:
            standard = true
            llamaCppFields = server == .llamaCpp
        case .everyServer:
            standard = true
            llamaCppFields = true
        }
        if llamaCppFields {
            if let penalty = controls.repeatPenalty { body["repeat_penalty"] = .double(penalty) }
            if let last = controls.repeatLastN { body["repeat_last_n"] = .int(last) }
            if let multiplier = controls.dryMultiplier, freeText || controls.appliesDRYToGuidedSteps {
                body["dry_multiplier"] = .double(multiplier)
            }
        }
        if standard {
            if let penalty = controls.frequencyPenalty { body["frequency_penalty"] = .double(penalty) }
            if let penalty = controls.presencePenalty { body["presence_penalty"] = .double(penalty) }
            // OpenAI takes at most 4.
            if !controls.stop.isEmpty { body["stop"] = .array(controls.stop.prefix(4).map { .string($0) }) }
        }
    }

    /// The request's temperature, length and sampling: greedy as temperature 0 and top-k 1;
    /// top-k and probability thresholds (`top_p`) with their seeds. `top_k` is not OpenAI's,
    /// but llama.cpp, vLLM and Ollama read it; others ignore it.
    static func options(of request: ChatRequest, into body: inout JSONObject) {
        if let temperature = request.temperature { body["temperature"] = .double(temperature) }
        if let tokens = request.maximumResponseTokens { body["max_tokens"] = .int(tokens) }
        switch request.sampling {
        case .greedy?:
            body["temperature"] = .double(0)
            body["top_k"] = .int(1)
        case .topK(let k, let seed)?:
            body["top_k"] = .int(k)
            if let seed { body["seed"] = .int(Int(truncatingIfNeeded: seed)) }
        case .probabilityThreshold(let threshold, let seed)?:
            body["top_p"] = .double(threshold)
            if let seed { body["seed"] = .int(Int(truncatingIfNeeded: seed)) }
        case nil:
            break
        }
    }
}
