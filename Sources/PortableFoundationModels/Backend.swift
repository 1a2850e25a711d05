// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// Portable only: the pluggable model behind `SystemLanguageModel` on platforms without
// FoundationModels. Nothing in this file exists in Apple's framework.

/// Portable only: a language model behind `SystemLanguageModel(backend:)`, the 26 way to plug a
/// model into the portable session.
///
/// Apple's framework has no such protocol. Since 27 the way to bring a model is a
/// ``LanguageModel`` with its ``LanguageModelExecutor``, which compiles against Apple's framework
/// too; write one for new code. This seam stays for code written against it: the system model's
/// executor (`SystemLanguageModel.Executor`) drives the backend, one backend turn per model
/// request, and translates each turn into channel events (text, structured content as JSON,
/// tool calls with their arguments). The session runs the tool loop around it as for any model:
/// it sends a request, runs the tools the backend asks for, appends the calls and outputs to the
/// transcript and asks again until the backend answers.
public protocol LanguageModelBackend: Sendable {
    /// Whether the model can answer now. Defaults to `.available`.
    var availability: SystemLanguageModel.Availability { get }

    /// The most tokens a session's context can hold. Defaults to 4096, the on-device model's size.
    ///
    /// A session counts every request before it sends it (instructions, tool definitions, the
    /// whole transcript and the response schema) and fails with
    /// `LanguageModelSession.GenerationError.exceededContextWindowSize` when the request, or the
    /// request and the answer, pass this size.
    var contextSize: Int { get }

    /// How many tokens the model's tokenizer makes of `text`.
    ///
    /// Defaults to `TokenEstimator.tokenCount(for:)`, a portable estimate; a backend for a real
    /// model should count with its tokenizer. The session adds the chat template's framing
    /// around each piece of a request itself, so count only the text.
    func tokenCount(for text: String) async throws -> Int

    /// One turn of the model: text, structured content, or tool calls.
    ///
    /// To fail as Apple's model does, throw `LanguageModelSession.GenerationError`:
    /// `.exceededContextWindowSize` when the model rejects the request as too long (with a
    /// `debugDescription` of the backend's own), `.refusal` with
    /// `Refusal(transcriptEntries:explanation:)` when it refuses, `.rateLimited`,
    /// `.guardrailViolation`, `.assetsUnavailable`. The session throws whatever a backend
    /// throws unchanged (it wraps only the errors of tools, in `ToolCallError`), so code that
    /// recovers from an overflow on Apple's platforms recovers from a real model's here.
    /// Read the request's sampling mode with `options.samplingMode?.strategy`.
    func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn

    /// One turn of the model, reporting its answer as it is generated.
    ///
    /// `streamResponse` calls this instead of ``respond(to:)``. Call `partialAnswer` each time
    /// the answer grows, with the whole answer so far: text as a string, structured content as
    /// the incomplete content parsed so far (`GeneratedContent(json:)` of the prefix, whose
    /// `isComplete` is `false`). Call it before returning, never for tool calls, and never after
    /// returning. The default calls ``respond(to:)`` and reports nothing, so a stream yields the
    /// complete answer only.
    func respond(
        to request: LanguageModelRequest, partialAnswer: @escaping @Sendable (GeneratedContent) -> Void
    ) async throws -> LanguageModelTurn
}

extension LanguageModelBackend {
    public var availability: SystemLanguageModel.Availability { .available }

    public var contextSize: Int { SystemLanguageModel.onDeviceContextSize }

    public func tokenCount(for text: String) async throws -> Int {
        TokenEstimator.tokenCount(for: text)
    }

    public func respond(
        to request: LanguageModelRequest, partialAnswer: @escaping @Sendable (GeneratedContent) -> Void
    ) async throws -> LanguageModelTurn {
        try await respond(to: request)
    }
}

/// Portable only: a tool as a ``LanguageModelBackend`` sees it (a 27 executor reads
/// `Transcript.ToolDefinition`s instead).
public struct LanguageModelToolDescription: Sendable {
    public var name: String
    public var description: String
    public var parameters: GenerationSchema
    public var includesSchemaInInstructions: Bool

    public init(name: String, description: String, parameters: GenerationSchema, includesSchemaInInstructions: Bool = true) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.includesSchemaInInstructions = includesSchemaInInstructions
    }

    public init(tool: any Tool) {
        self.init(
            name: tool.name, description: tool.description, parameters: tool.parameters,
            includesSchemaInInstructions: tool.includesSchemaInInstructions)
    }
}

/// Portable only: what a session asks a ``LanguageModelBackend`` (a 27 executor gets a
/// `LanguageModelExecutorGenerationRequest`).
public struct LanguageModelRequest: Sendable {
    /// The session's transcript so far, ending with this request's prompt and any tool calls and
    /// outputs that followed it.
    public var transcript: Transcript
    /// The tools the model may call.
    public var tools: [LanguageModelToolDescription]
    /// The prompt this request answers.
    public var prompt: Transcript.Prompt
    /// The schema the answer must follow (`respond(to:schema:)`, `respond(to:generating:)`), if any.
    public var schema: GenerationSchema?
    public var options: GenerationOptions

    public init(
        transcript: Transcript, tools: [LanguageModelToolDescription], prompt: Transcript.Prompt,
        schema: GenerationSchema? = nil, options: GenerationOptions = GenerationOptions()
    ) {
        self.transcript = transcript
        self.tools = tools
        self.prompt = prompt
        self.schema = schema
        self.options = options
    }

    /// The session's instructions entry, if it has one.
    public var instructions: Transcript.Instructions? {
        for entry in transcript { if case .instructions(let value) = entry { return value } }
        return nil
    }

    /// The instructions as text (structured segments as JSON); `nil` without instructions.
    public var instructionsText: String? { instructions.map { $0.segments.plainText } }

    /// The prompt as text (structured segments as JSON).
    public var promptText: String { prompt.segments.plainText }

    /// What a tool returned.
    public struct ToolResult: Sendable, Equatable {
        public var callID: String
        public var toolName: String
        public var text: String
    }

    /// The outputs of the tools called since this request's prompt, in transcript order.
    public var toolResults: [ToolResult] {
        var results: [ToolResult] = []
        for entry in transcript.reversed() {
            if case .prompt(let prompt) = entry, prompt.id == self.prompt.id { break }
            if case .toolOutput(let output) = entry {
                results.insert(ToolResult(callID: output.id, toolName: output.toolName, text: output.segments.plainText), at: 0)
            }
        }
        return results
    }

    /// The text of the latest output of the named tool since this request's prompt.
    public func toolOutput(_ toolName: String) -> String? {
        toolResults.last { $0.toolName == toolName }?.text
    }
}

/// Portable only: a call a ``LanguageModelBackend`` asks for (a 27 executor streams tool calls
/// into its channel).
public struct LanguageModelToolCall: Sendable, Equatable {
    public var id: String
    public var toolName: String
    public var arguments: GeneratedContent

    public init(id: String = UUID().uuidString, toolName: String, arguments: GeneratedContent) {
        self.id = id
        self.toolName = toolName
        self.arguments = arguments
    }
}

/// Portable only: one turn of a ``LanguageModelBackend``; the system model's executor translates
/// it into channel events.
public enum LanguageModelTurn: Sendable, Equatable {
    /// The model answers with text.
    case text(String)
    /// The model answers with structured content (for requests that carry a schema).
    case content(GeneratedContent)
    /// The model asks for these tools to run (concurrently) before it answers.
    case toolCalls([LanguageModelToolCall])
}

// MARK: - Scripted model

/// Portable only: a ``LanguageModelBackend`` that plays a script, for tests, examples and demos.
///
/// ```swift
/// let script = ScriptedLanguageModel([
///     .callTool("get_weather", arguments: GeneratedContent(properties: ["city": "Paris"])),
///     .reply { request in "It is \(request.toolOutput("get_weather") ?? "unknown") in Paris." },
/// ])
/// let session = LanguageModelSession(model: SystemLanguageModel(backend: script), tools: [weather])
/// let answer = try await session.respond(to: "Weather in Paris?").content
/// ```
///
/// Each request consumes the next step; a request after the last step fails with
/// `ScriptedLanguageModel.ScriptError.exhausted`. `requests` records what the model was asked.
///
/// The model's context holds `contextSize` tokens (4096 unless given), counted with
/// `TokenEstimator` unless a `tokenCounter` is given: a session fails with
/// `GenerationError.exceededContextWindowSize` when a request or its answer does not fit.
public struct ScriptedLanguageModel: LanguageModelBackend {
    public enum Step: Sendable {
        /// Ask for these tool calls (run concurrently).
        case toolCalls([LanguageModelToolCall])
        /// Answer with this text.
        case text(String)
        /// Answer with this structured content.
        case content(GeneratedContent)
        /// Decide the turn from the request.
        case turn(@Sendable (LanguageModelRequest) async throws -> LanguageModelTurn)
        /// Fail the request with this error.
        case failure(any Error)
        /// Answer with the text of `pieces` joined, reported to a stream piece by piece (each
        /// report the text so far), as a model generating tokens would.
        case streamedText([String])
        /// Answer with the structured content of the JSON of `pieces` joined, reported to a
        /// stream piece by piece (each report the incomplete content parsed so far).
        case streamedJSON([String])

        /// Ask for one tool call.
        public static func callTool(_ name: String, arguments: GeneratedContent = GeneratedContent(properties: [:])) -> Step {
            .toolCalls([LanguageModelToolCall(toolName: name, arguments: arguments)])
        }

        /// Ask for one tool call with arguments written as JSON (which must be valid).
        public static func callTool(_ name: String, json: String) -> Step {
            do {
                return .callTool(name, arguments: try GeneratedContent(json: json))
            } catch {
                return .failure(error)
            }
        }

        /// Answer with text computed from the request (e.g. from `request.toolResults`).
        public static func reply(_ text: @escaping @Sendable (LanguageModelRequest) throws -> String) -> Step {
            .turn { request in .text(try text(request)) }
        }
    }

    public enum ScriptError: Error, Equatable, CustomStringConvertible {
        /// The script has no step for request number `request` (1-based).
        case exhausted(request: Int)
        public var description: String {
            switch self {
            case .exhausted(let request): "the scripted model has no step for request \(request)"
            }
        }
    }

    struct State {
        var next = 0
        var requests: [LanguageModelRequest] = []
    }

    let steps: [Step]
    let state = LockedValue(State())
    public let availability: SystemLanguageModel.Availability
    /// The most tokens a session's context can hold.
    public let contextSize: Int
    /// Counts the tokens of a text in place of `TokenEstimator`, when given.
    let tokenCounter: (@Sendable (String) -> Int)?

    /// A model that plays `steps`, one per request.
    ///
    /// `contextSize` is the most tokens a session's context can hold; `tokenCounter`, when given,
    /// counts the tokens of a text in place of `TokenEstimator`.
    public init(
        _ steps: [Step], availability: SystemLanguageModel.Availability = .available,
        contextSize: Int = 4096, tokenCounter: (@Sendable (String) -> Int)? = nil
    ) {
        self.steps = steps
        self.availability = availability
        self.contextSize = contextSize
        self.tokenCounter = tokenCounter
    }

    /// A model that answers every request with `respond`.
    ///
    /// `contextSize` and `tokenCounter` are as in `init(_:availability:contextSize:tokenCounter:)`.
    public init(
        availability: SystemLanguageModel.Availability = .available,
        contextSize: Int = 4096, tokenCounter: (@Sendable (String) -> Int)? = nil,
        respond: @escaping @Sendable (LanguageModelRequest) async throws -> LanguageModelTurn
    ) {
        self.steps = []
        self.availability = availability
        self.contextSize = contextSize
        self.tokenCounter = tokenCounter
        self.handler = respond
    }

    var handler: (@Sendable (LanguageModelRequest) async throws -> LanguageModelTurn)?

    /// The tokens of `text`, as `tokenCounter` counts them or else as `TokenEstimator` estimates.
    public func tokenCount(for text: String) async throws -> Int {
        tokenCounter?(text) ?? TokenEstimator.tokenCount(for: text)
    }

    /// The requests the model has received, oldest first.
    public var requests: [LanguageModelRequest] {
        state.withLock { $0.requests }
    }

    /// A `SystemLanguageModel` answered by this script.
    public var model: SystemLanguageModel { SystemLanguageModel(backend: self) }

    public func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
        try await respond(to: request) { _ in }
    }

    public func respond(
        to request: LanguageModelRequest, partialAnswer: @escaping @Sendable (GeneratedContent) -> Void
    ) async throws -> LanguageModelTurn {
        let index: Int = state.withLock { state in
            state.requests.append(request)
            defer { state.next += 1 }
            return state.next
        }
        if let handler { return try await handler(request) }
        guard index < steps.count else { throw ScriptError.exhausted(request: index + 1) }
        switch steps[index] {
        case .toolCalls(let calls): return .toolCalls(calls)
        case .text(let text): return .text(text)
        case .content(let content): return .content(content)
        case .turn(let decide): return try await decide(request)
        case .failure(let error): throw error
        case .streamedText(let pieces):
            var text = ""
            for piece in pieces {
                try Task.checkCancellation()
                text += piece
                partialAnswer(GeneratedContent(text))
                await Task.yield()
            }
            return .text(text)
        case .streamedJSON(let pieces):
            var json = ""
            for piece in pieces {
                try Task.checkCancellation()
                json += piece
                if let partial = try? GeneratedContent(json: json) { partialAnswer(partial) }
                await Task.yield()
            }
            return .content(try GeneratedContent(json: json))
        }
    }
}
#endif
