#if !canImport(FoundationModels)
import ChatCompletions
import Foundation
import JSONCore
import MCP
import MCPFoundationModels
import OnDeviceMCPExamples
import PortableFoundationModels

/// What the model did in one step of a turn (one request to its backend).
enum ModelStep: Sendable {
    /// It asked for tool calls: each tool's name and its arguments as JSON text.
    case toolCalls([(name: String, arguments: String)])
    /// It answered (text, or structured content as JSON).
    case answer(String)
    /// The step failed (the backend threw): why.
    case failed(String)
}

/// What one real turn cost, piece by piece.
struct TurnTiming: Sendable {
    /// From `MCPSessionProvider.respond(to:)` to its answer (or its error).
    var total: Duration = .zero
    /// Each chat-completions request's metrics, in order (from `requestMetrics`).
    var requests: [ChatCompletionsRequestMetrics] = []
    /// The time in the backend's `tokenCount(for:)` (llama.cpp's `/tokenize` over HTTP, or its cache).
    var tokenCounting: Duration = .zero
    /// How many counts the session and the provider asked for.
    var tokenCounts = 0
    /// Each tool call's duration as its `toolCallFinished` event reports it (the bridged call:
    /// argument conversion, policy, the MCP `tools/call`, rendering its output).
    var toolCalls: [Duration] = []

    /// The time of the requests on the wire: the server's and the network's.
    var exchange: Duration { requests.reduce(.zero) { $0 + $1.exchange } }
    /// The model's time as llama.cpp reports it (evaluating prompts and generating).
    var model: Duration { requests.reduce(.zero) { $0 + ($1.server?.model ?? .zero) } }
    /// Whether every request carried the server's timings.
    var hasServerTimings: Bool { requests.allSatisfy { $0.server != nil } }
    /// Building the requests' bodies (messages, schemas, JSON).
    var building: Duration { requests.reduce(.zero) { $0 + $1.building } }
    /// Reading the answers into turns.
    var decoding: Duration { requests.reduce(.zero) { $0 + $1.decoding } }
    /// The MCP tool calls, as the bridge timed them.
    var toolTime: Duration { toolCalls.reduce(.zero, +) }
    /// Everything in Swift, this process: the turn less the requests on the wire and the token counting.
    var bridge: Duration { total - exchange - tokenCounting }
    /// The server's time outside the model, and loopback HTTP: the exchange less the model's time.
    var serverOther: Duration { exchange - model }
}

/// Collects, for the turn in progress, what the backend and its requests report.
final class TurnRecorder: @unchecked Sendable {
    // Safety: every stored property is only touched with `lock` held.
    private let lock = NSLock()
    private var timing = TurnTiming()
    private var steps: [ModelStep] = []

    func reset() {
        lock.withLock {
            timing = TurnTiming()
            steps = []
        }
    }

    func request(_ metrics: ChatCompletionsRequestMetrics) {
        lock.withLock { timing.requests.append(metrics) }
    }

    func counted(_ duration: Duration) {
        lock.withLock {
            timing.tokenCounting += duration
            timing.tokenCounts += 1
        }
    }

    func step(_ step: ModelStep) {
        lock.withLock { steps.append(step) }
    }

    /// The turn's record so far.
    var taken: (timing: TurnTiming, steps: [ModelStep]) {
        lock.withLock { (timing, steps) }
    }
}

/// The model behind the sessions, timed: each `tokenCount(for:)` and what each `respond(to:)`
/// came to go to the recorder.
struct TimedBackend: LanguageModelBackend {
    let model: ChatCompletionsModel
    let recorder: TurnRecorder

    var contextSize: Int { model.contextSize }

    func tokenCount(for text: String) async throws -> Int {
        let clock = ContinuousClock()
        let start = clock.now
        let count = try await model.tokenCount(for: text)
        recorder.counted(clock.now - start)
        return count
    }

    func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
        do {
            let turn = try await model.respond(to: request)
            switch turn {
            case .text(let text): recorder.step(.answer(text))
            case .content(let content): recorder.step(.answer(content.jsonString))
            case .toolCalls(let calls): recorder.step(.toolCalls(calls.map { ($0.toolName, $0.arguments.jsonString) }))
            }
            return turn
        } catch {
            recorder.step(.failed(ModelRun.describe(error)))
            throw error
        }
    }
}

/// One real turn's outcome.
struct TurnRecord: Sendable {
    var prompt: String
    var steps: [ModelStep]
    var timing: TurnTiming
    /// The answer, or why the turn failed.
    var outcome: Result<String, ModelRun.Failure>
    /// Whether it was the first turn of its conversation (the provider lists and bridges the tools).
    var firstTurn: Bool
}

/// The example MCP server (clock and notes) with four notes of known ids, a client in process,
/// and a model backend connected to a llama.cpp server, for real turns.
enum ModelRun {
    struct Failure: Error, Sendable {
        var description: String
    }

    /// The notes every evaluation's store starts with: ids the prompts can name.
    static let seededNotes: [(id: String, title: String, body: String)] = [
        ("n-4821", "Dentist", "Dentist appointment on Tuesday at 10:00."),
        ("n-7305", "Groceries", "Buy milk, eggs and bread."),
        ("n-1958", "Meeting", "Project meeting with Ana on Friday at 3 pm."),
        ("n-6640", "Car", "The car needs a service in March."),
    ]

    /// The error's text, short.
    static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    /// The generation options of every request: greedy, and short.
    static func configuration(
        toolCalling: ChatCompletionsConfiguration.ToolCalling, recorder: TurnRecorder, responseTokens: Int
    )
        -> ChatCompletionsConfiguration
    {
        ChatCompletionsConfiguration(
            toolCalling: toolCalling, defaultOptions: GenerationOptions(temperature: 0, maximumResponseTokens: responseTokens),
            maximumToolRounds: 1, idleTimeout: .seconds(900), requestMetrics: { recorder.request($0) })
    }

    /// Runs `body` with a client of a fresh example server whose store holds ``seededNotes``.
    static func withExampleClient<T>(_ body: (MCPClient) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mcpbench-notes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes: [JSONValue] = seededNotes.map { note in
            ["id": .string(note.id), "title": .string(note.title), "body": .string(note.body), "createdAt": "2026-12-01T09:00:00Z"]
        }
        let document: JSONValue = ["version": 1, "notes": .array(notes)]
        try Data(try document.jsonBytes()).write(to: directory.appendingPathComponent("notes.json"))
        let server = MCPServer(name: "ondevice-mcp", version: "1.0")
        try await registerExampleTools(on: server, dataDirectory: directory, roots: []) { _ in }
        let client = try await MCPClient.connect(to: server)
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }

    /// One turn of `provider`, timed, with what the model did in each step.
    static func turn(_ prompt: String, provider: MCPSessionProvider, recorder: TurnRecorder, firstTurn: Bool) async -> TurnRecord {
        recorder.reset()
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: Result<String, Failure>
        do {
            outcome = .success(try await provider.respond(to: prompt))
        } catch {
            outcome = .failure(Failure(description: describe(error)))
        }
        let total = clock.now - start
        var (timing, steps) = recorder.taken
        timing.total = total
        return TurnRecord(prompt: prompt, steps: steps, timing: timing, outcome: outcome, firstTurn: firstTurn)
    }

    /// The provider's tool-call durations, read from its events until it closes.
    static func toolCallDurations(of provider: MCPSessionProvider) -> Task<[Duration], Never> {
        let events = provider.events
        return Task {
            var durations: [Duration] = []
            for await event in events {
                if case .toolCallFinished(let finish) = event { durations.append(finish.duration) }
            }
            return durations
        }
    }

    /// Runs each of `conversations` (lists of prompts) in a provider of its own over a fresh
    /// example server, and returns every turn. A conversation during which the server stopped
    /// (it crashed, or something killed it) runs again, once, on a restarted server.
    static func run(conversations: [[String]], host: ModelHost, progress: String) async throws -> [TurnRecord] {
        var records: [TurnRecord] = []
        for (index, prompts) in conversations.enumerated() {
            var turns = try await conversation(prompts, model: host.model, recorder: host.recorder)
            if turns.contains(where: { if case .failure = $0.outcome { true } else { false } }), await !host.isAlive {
                try await host.restart(during: prompts[0])
                turns = try await conversation(prompts, model: host.model, recorder: host.recorder)
            }
            records += turns
            if !progress.isEmpty {
                FileHandle.standardError.write(Data("\r\(progress): \(index + 1)/\(conversations.count) conversations".utf8))
            }
        }
        if !progress.isEmpty { FileHandle.standardError.write(Data("\n".utf8)) }
        return records
    }

    /// One conversation of `prompts` in a new provider over a fresh example server.
    static func conversation(_ prompts: [String], model: ChatCompletionsModel, recorder: TurnRecorder) async throws -> [TurnRecord] {
        let backend = TimedBackend(model: model, recorder: recorder)
        return try await withExampleClient { client in
            // The notes tools write and delete: this app allows them.
            let provider = MCPSessionProvider(
                client: client, model: SystemLanguageModel(backend: backend), configuration: .init(policy: .allowAll))
            let durations = toolCallDurations(of: provider)
            var turns: [TurnRecord] = []
            for (position, prompt) in prompts.enumerated() {
                turns.append(await turn(prompt, provider: provider, recorder: recorder, firstTurn: position == 0))
            }
            await provider.close()
            // Each turn's tool calls, in order: a turn's calls are the next ones reported.
            var remaining = await durations.value[...]
            for index in turns.indices {
                // Calls ran when the session went on to another step (a call the session
                // rejects ends the turn before it runs).
                let steps = turns[index].steps
                let executed = steps.indices.dropLast().reduce(0) { count, position in
                    if case .toolCalls(let calls) = steps[position] { count + calls.count } else { count }
                }
                let mine = remaining.prefix(executed)
                turns[index].timing.toolCalls = Array(mine)
                remaining = remaining.dropFirst(mine.count)
            }
            return turns
        }
    }
}

/// A llama.cpp server and the model connected to it, started again when the server stops.
final class ModelHost {
    let evaluated: EvaluatedModel
    let jinja: Bool
    let extra: [String]
    let label: String
    let configuration: ChatCompletionsConfiguration
    /// Receives the requests' metrics and the backend's steps.
    let recorder: TurnRecorder
    private(set) var server: LlamaServer
    private(set) var model: ChatCompletionsModel
    /// The first prompt of each conversation the server stopped during.
    private(set) var restarts: [String] = []

    private init(
        evaluated: EvaluatedModel, jinja: Bool, extra: [String], label: String, configuration: ChatCompletionsConfiguration,
        recorder: TurnRecorder, server: LlamaServer, model: ChatCompletionsModel
    ) {
        self.evaluated = evaluated
        self.jinja = jinja
        self.extra = extra
        self.label = label
        self.configuration = configuration
        self.recorder = recorder
        self.server = server
        self.model = model
    }

    /// Starts a server with `evaluated` and connects a model with `configuration` (whose
    /// `requestMetrics` should feed `recorder`).
    static func start(
        evaluated: EvaluatedModel = .smollm2, jinja: Bool, extra: [String] = [], label: String, recorder: TurnRecorder,
        configuration: ChatCompletionsConfiguration
    ) async throws -> ModelHost {
        let server = try await LlamaServer.start(model: evaluated, jinja: jinja, extra: extra, label: label)
        do {
            let model = try await ChatCompletionsModel.connect(to: server.root, configuration: configuration)
            return ModelHost(
                evaluated: evaluated, jinja: jinja, extra: extra, label: label, configuration: configuration, recorder: recorder,
                server: server, model: model)
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Whether the server answers `/health`.
    var isAlive: Bool {
        get async { await server.json("/health") != nil }
    }

    /// Stops what is left of the server and starts a new one.
    func restart(during prompt: String) async throws {
        restarts.append(prompt)
        await server.stop()
        server = try await LlamaServer.start(model: evaluated, jinja: jinja, extra: extra, label: "\(label)-\(restarts.count)")
        model = try await ChatCompletionsModel.connect(to: server.root, configuration: configuration)
    }

    func stop() async {
        await server.stop()
    }

    /// Runs `body` with a host, stopping its server after whether `body` throws or not.
    static func with<T>(
        evaluated: EvaluatedModel = .smollm2, jinja: Bool, extra: [String] = [], label: String, recorder: TurnRecorder,
        configuration: ChatCompletionsConfiguration, _ body: (ModelHost) async throws -> T
    ) async throws -> T {
        let host = try await start(
            evaluated: evaluated, jinja: jinja, extra: extra, label: label, recorder: recorder, configuration: configuration)
        do {
            let result = try await body(host)
            await host.stop()
            return result
        } catch {
            await host.stop()
            throw error
        }
    }
}

// MARK: Reporting the overhead

/// The bridge's own time per real turn, against the model's.
enum OverheadReport {
    /// Prints one row per kind of turn (medians over the turns of that kind).
    static func print(_ rows: [(label: String, turns: [TurnRecord])]) {
        let header: [(String, Int)] = [
            ("turns", 40), ("n", 3), ("turn", 9), ("model", 9), ("server+HTTP", 11), ("tokenize", 9), ("bridge", 9),
            ("MCP call", 9), ("build", 8), ("decode", 8), ("rest", 9), ("bridge %", 9),
        ]
        Swift.print(Stats.row(header))
        for (label, turns) in rows where !turns.isEmpty {
            let timings = turns.map(\.timing)
            func median(_ value: (TurnTiming) -> Duration) -> Double { Stats.median(timings.map { value($0).nanoseconds }) }
            let bridge = median(\.bridge)
            let share = Stats.median(timings.map { $0.bridge.nanoseconds / max(1, $0.total.nanoseconds) })
            let rest = median { $0.bridge - $0.toolTime - $0.building - $0.decoding }
            Swift.print(
                Stats.row([
                    (label, 40), (String(turns.count), 3), (milliseconds(median(\.total)), 9), (milliseconds(median(\.model)), 9),
                    (milliseconds(median(\.serverOther)), 11), (milliseconds(median(\.tokenCounting)), 9), (microseconds(bridge), 9),
                    (microseconds(median(\.toolTime)), 9), (microseconds(median(\.building)), 8), (microseconds(median(\.decoding)), 8),
                    (microseconds(rest), 9), (String(format: "%.3f", share * 100), 9),
                ]))
        }
    }

    static func milliseconds(_ nanoseconds: Double) -> String {
        nanoseconds.isFinite ? String(format: "%.0f ms", nanoseconds / 1e6) : "n/a"
    }

    static func microseconds(_ nanoseconds: Double) -> String {
        nanoseconds.isFinite ? String(format: "%.0f µs", nanoseconds / 1e3) : "n/a"
    }

    /// The machine's load averages (`/proc/loadavg`), to print beside figures a busy machine moves.
    static var loadAverage: String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "n/a" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The number of tool calls a turn ran.
    static func toolCalls(_ record: TurnRecord) -> Int { record.timing.toolCalls.count }
}
#endif
