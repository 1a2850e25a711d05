// ChatCompletions: an OpenAI-compatible model behind PortableFoundationModels.
#if !canImport(FoundationModels)
import Foundation
import JSONCore
import PortableFoundationModels

/// Turns a session's request into a chat-completions request body, and the model's answer
/// back into a turn. Pure functions, tested without a server.
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
    static func build(
        _ request: LanguageModelRequest, model: String, configuration: ChatCompletionsConfiguration, stream: Bool
    ) throws -> Built {
        let rounds = toolRounds(in: request)
        let offersTools = !request.tools.isEmpty && rounds < configuration.maximumToolRounds
        let shape: AnswerShape
        switch (offersTools, configuration.toolCalling, request.schema != nil) {
        case (true, .native, false): shape = .native
        case (true, _, let structured): shape = .guided(structured: structured)
        case (false, _, true): shape = .content
        case (false, _, false): shape = .text
        }
        var body = JSONObject()
        body["model"] = .string(model)
        body["messages"] = .array(try messages(for: request, shape: shape, offersTools: offersTools))
        body["stream"] = .bool(stream)
        options(merging: request.options, over: configuration.defaultOptions, into: &body)
        switch shape {
        case .text:
            break
        case .content:
            if let schema = request.schema {
                body["response_format"] = responseFormat(try schemaJSON(schema))
            }
        case .guided(let structured):
            body["response_format"] = responseFormat(try guidedSchema(tools: request.tools, answer: structured ? request.schema : nil))
        case .native:
            body["tools"] = .array(try request.tools.map { tool in
                var function = JSONObject()
                function["name"] = .string(tool.name)
                function["description"] = .string(tool.description)
                function["parameters"] = try inlined(schemaJSON(tool.parameters))
                return .object(["type": .string("function"), "function": .object(function)])
            })
            body["tool_choice"] = .string("auto")
        }
        return Built(body: .object(body), shape: shape)
    }

    /// How many rounds of tool calls followed the request's prompt.
    static func toolRounds(in request: LanguageModelRequest) -> Int {
        var rounds = 0
        for entry in request.transcript.reversed() {
            if case .prompt(let prompt) = entry, prompt.id == request.prompt.id { break }
            if case .toolCalls = entry { rounds += 1 }
        }
        return rounds
    }

    // MARK: Messages

    static func messages(for request: LanguageModelRequest, shape: AnswerShape, offersTools: Bool) throws -> [JSONValue] {
        var messages: [JSONValue] = []
        var system = request.instructions.map { text(of: $0.segments) } ?? ""
        if case .guided = shape {
            let guide = try guidedInstructions(tools: request.tools)
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
    static func guidedInstructions(tools: [LanguageModelToolDescription]) throws -> String {
        var lines = [
            "You can call one of these tools, or answer. Reply with JSON only:",
            #"{"tool": "<tool name>", "arguments": {…}} calls a tool; {"answer": …} answers the user."#,
            "After a tool's output, answer with it.",
            "Tools:",
        ]
        for tool in tools {
            var line = "- \(tool.name): \(tool.description)"
            if tool.includesSchemaInInstructions {
                line += " Arguments: " + (try inlined(schemaJSON(tool.parameters)).jsonString())
            }
            lines.append(line)
        }
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
            @unknown default: ""
            }
        }.joined(separator: "\n")
    }

    static func quoted(_ text: String) -> String {
        (try? JSONValue.string(text).jsonString()) ?? "\"\""
    }

    // MARK: Options

    static func options(merging options: GenerationOptions, over defaults: GenerationOptions, into body: inout JSONObject) {
        if let temperature = options.temperature ?? defaults.temperature { body["temperature"] = .double(temperature) }
        if let tokens = options.maximumResponseTokens ?? defaults.maximumResponseTokens { body["max_tokens"] = .int(tokens) }
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
    static func schemaJSON(_ schema: GenerationSchema) throws -> JSONValue {
        try JSONValueEncoder().encode(schema)
    }

    /// The schema of a guided step: an answer, or one call of one of `tools`.
    static func guidedSchema(tools: [LanguageModelToolDescription], answer: GenerationSchema?) throws -> JSONValue {
        var definitions = JSONObject()
        var choices: [JSONValue] = []
        let answerSchema: JSONValue = try answer.map { try hoisting(schemaJSON($0), prefix: "answer_", into: &definitions) } ?? .object(["type": .string("string")])
        choices.append(.object([
            "type": .string("object"), "properties": .object(["answer": answerSchema]),
            "required": .array([.string("answer")]), "additionalProperties": .bool(false),
        ]))
        for (index, tool) in tools.enumerated() {
            let arguments = try hoisting(schemaJSON(tool.parameters), prefix: "tool\(index)_", into: &definitions)
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

    /// The turn the model's answer makes.
    static func turn(content: String, toolCalls: [(id: String?, name: String, arguments: String)], shape: AnswerShape) throws(Unreadable) -> LanguageModelTurn {
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
            var calls: [LanguageModelToolCall] = []
            for call in toolCalls {
                let arguments: GeneratedContent
                do {
                    arguments = try GeneratedContent(json: call.arguments.isEmpty ? "{}" : call.arguments)
                } catch {
                    throw Unreadable(reason: "the arguments of the call of \(call.name) are not JSON: \(call.arguments.prefix(200))")
                }
                calls.append(call.id.map { LanguageModelToolCall(id: $0, toolName: call.name, arguments: arguments) }
                    ?? LanguageModelToolCall(toolName: call.name, arguments: arguments))
            }
            return .toolCalls(calls)
        case .guided(let structured):
            let value: JSONValue
            do {
                value = try JSONValue(parsing: content)
            } catch {
                throw Unreadable(reason: "the guided answer is not JSON: \(content.prefix(200))")
            }
            guard case .object(let object) = value else { throw Unreadable(reason: "the guided answer is not a JSON object") }
            if case .string(let name)? = object["tool"] {
                let arguments = object["arguments"] ?? .object(JSONObject())
                do {
                    let generated = try GeneratedContent(json: try arguments.jsonString())
                    return .toolCalls([LanguageModelToolCall(toolName: name, arguments: generated)])
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
}
#endif
