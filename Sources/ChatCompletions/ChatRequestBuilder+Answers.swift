// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import JSONCore

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// Reading the model's answer back into a turn.
#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
extension ChatRequestBuilder {
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
