#if !canImport(FoundationModels)
// A third-party model for the 27 tests: a `LanguageModel` whose executor plays a script, one step
// per model request, and records every request it gets. Everything runs in process.
import Foundation
import PortableFoundationModels
import Testing

typealias Channel = LanguageModelExecutorGenerationChannel
typealias ExecutorRequest = LanguageModelExecutorGenerationRequest

/// What the executor does for one model request.
struct Step: Sendable {
    let run: @Sendable (ExecutorRequest, Channel) async throws -> Void

    init(_ run: @escaping @Sendable (ExecutorRequest, Channel) async throws -> Void) {
        self.run = run
    }

    /// Sends these events, in order.
    static func events(_ events: [Channel.Event]) -> Step {
        Step { _, channel in
            for event in events { await channel.send(event) }
        }
    }

    /// Answers with text, one delta per piece (a token each).
    static func text(_ pieces: String...) -> Step {
        .events(pieces.map { .response(action: .appendText($0, tokenCount: 1)) })
    }

    /// Calls one tool with arguments written as JSON.
    static func call(_ tool: String, _ json: String = "{}", id: String = "call-1") -> Step {
        .events([.toolCalls(action: .toolCall(id: id, name: tool, action: .appendArguments(json, tokenCount: 1)))])
    }

    /// Fails the request.
    static func fail(_ error: any Error) -> Step {
        Step { _, _ in throw error }
    }
}

/// A script of steps, and the requests the executor got.
final class ProviderScript: @unchecked Sendable {
    // Safety: `steps`, `next` and `recorded` are touched only with `lock` held.
    private let lock = NSLock()
    private let steps: [Step]
    private var next = 0
    private var recorded: [ExecutorRequest] = []

    init(_ steps: [Step]) {
        self.steps = steps
    }

    /// The requests the executor got, oldest first.
    var requests: [ExecutorRequest] { lock.withLock { recorded } }

    func respond(to request: ExecutorRequest, into channel: Channel) async throws {
        let step: Step? = lock.withLock {
            recorded.append(request)
            defer { next += 1 }
            return next < steps.count ? steps[next] : nil
        }
        guard let step else { throw ScriptEnded(request: requests.count) }
        try await step.run(request, channel)
    }

    struct ScriptEnded: Error, Equatable {
        var request: Int
    }
}

/// The executors a model's configurations made, and what they were asked to prewarm.
final class ExecutorLog: @unchecked Sendable, Hashable {
    // Safety: the lists are touched only with `lock` held.
    private let lock = NSLock()
    private var made: [(name: String, executor: Weak)] = []
    private var prewarmed: [Int] = []

    struct Weak {
        weak var executor: ProviderExecutor?
    }

    func record(_ executor: ProviderExecutor, name: String) {
        lock.withLock { made.append((name, Weak(executor: executor))) }
    }

    func recordPrewarm(transcriptCount: Int) {
        lock.withLock { prewarmed.append(transcriptCount) }
    }

    /// The configuration names of the executors made, in order.
    var names: [String] { lock.withLock { made.map(\.name) } }
    /// How many executors made are still alive.
    var alive: Int { lock.withLock { made.filter { $0.executor.executor != nil }.count } }
    /// The transcript sizes of the prewarm calls.
    var prewarms: [Int] { lock.withLock { prewarmed } }

    static func == (lhs: ExecutorLog, rhs: ExecutorLog) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A third-party model: its capabilities, a configuration name, and the script its executor
/// plays.
struct ProviderModel: LanguageModel {
    typealias Executor = ProviderExecutor

    var name = "provider"
    var capabilities = LanguageModelCapabilities([.toolCalling, .guidedGeneration, .reasoning])
    let script: ProviderScript
    let log: ExecutorLog

    init(
        name: String = "provider", capabilities: [LanguageModelCapabilities.Capability] = [.toolCalling, .guidedGeneration, .reasoning],
        script: ProviderScript, log: ExecutorLog = ExecutorLog()
    ) {
        self.name = name
        self.capabilities = LanguageModelCapabilities(capabilities)
        self.script = script
        self.log = log
    }

    init(_ steps: [Step], capabilities: [LanguageModelCapabilities.Capability] = [.toolCalling, .guidedGeneration, .reasoning]) {
        self.init(capabilities: capabilities, script: ProviderScript(steps))
    }

    var executorConfiguration: ProviderExecutor.Configuration {
        ProviderExecutor.Configuration(name: name, log: log)
    }

    var requests: [ExecutorRequest] { script.requests }
}

/// The executor of ``ProviderModel``: a class, so that a test can see when it is released.
final class ProviderExecutor: LanguageModelExecutor {
    typealias Model = ProviderModel

    struct Configuration: Hashable, Sendable {
        var name: String
        var log: ExecutorLog
    }

    struct Refused: Error {}

    let configuration: Configuration

    init(configuration: Configuration) throws {
        if configuration.name == "refuses-to-start" { throw Refused() }
        self.configuration = configuration
        configuration.log.record(self, name: configuration.name)
    }

    func prewarm(model: ProviderModel, transcript: Transcript) {
        configuration.log.recordPrewarm(transcriptCount: transcript.count)
    }

    func respond(to request: ExecutorRequest, model: ProviderModel, streamingInto channel: Channel) async throws {
        try await model.script.respond(to: request, into: channel)
    }
}

// MARK: - Reading transcripts

extension Transcript.Entry {
    /// The entry's kind, for comparing transcripts in expectations.
    var kind: String {
        switch self {
        case .instructions: "instructions"
        case .prompt: "prompt"
        case .toolCalls: "toolCalls"
        case .toolOutput: "toolOutput"
        case .response: "response"
        case .reasoning: "reasoning"
        }
    }

    /// The entry's text: its segments' text, or its calls as `name(arguments)`.
    var text: String {
        func join(_ segments: [Transcript.Segment]) -> String {
            segments.map { segment in
                switch segment {
                case .text(let text): text.content
                case .structure(let structure): structure.content.jsonString
                case .attachment(let attachment): "[\(attachment.label ?? "attachment")]"
                }
            }.joined(separator: "|")
        }
        return switch self {
        case .instructions(let value): join(value.segments)
        case .prompt(let value): join(value.segments)
        case .toolCalls(let value): value.map { "\($0.toolName)(\($0.arguments.jsonString))" }.joined(separator: ",")
        case .toolOutput(let value): join(value.segments)
        case .response(let value): join(value.segments)
        case .reasoning(let value): join(value.segments)
        }
    }
}

extension Transcript {
    var kinds: [String] { map(\.kind) }
}

/// The names of the tools a request enabled.
func toolNames(_ request: ExecutorRequest) -> [String] {
    request.enabledToolDefinitions.map(\.name)
}

/// A tool that answers with a fixed text and counts its calls.
struct EchoTool: Tool {
    let name: String
    let description: String
    let parameters: GenerationSchema
    let answer: @Sendable (GeneratedContent) async throws -> String

    init(_ name: String, answer: @escaping @Sendable (GeneratedContent) async throws -> String = { _ in "done" }) {
        self.name = name
        self.description = "The \(name) tool"
        self.parameters = GeneratedContent.generationSchema
        self.answer = answer
    }

    func call(arguments: GeneratedContent) async throws -> String {
        try await answer(arguments)
    }
}

/// Things that happened, in order, for checking the order of callbacks and calls.
final class EventLog: @unchecked Sendable {
    // Safety: `recorded` is touched only with `lock` held.
    private let lock = NSLock()
    private var recorded: [String] = []

    func add(_ event: String) { lock.withLock { recorded.append(event) } }
    var events: [String] { lock.withLock { recorded } }
}

/// A value the app changes and the session's bodies read.
final class AppState: @unchecked Sendable {
    // Safety: `values` is touched only with `lock` held.
    private let lock = NSLock()
    private var values: [String: Int] = [:]

    subscript(key: String) -> Int {
        get { lock.withLock { values[key] ?? 0 } }
        set { lock.withLock { values[key] = newValue } }
    }
}
#endif
