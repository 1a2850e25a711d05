import Foundation
import MCPFoundationModels

/// Whether the per-turn tool selector gives a turn a tool that serves its prompt, on prompts and
/// servers it was not tuned to (`Tests/Fixtures/SelectionEval`, see the README there).
///
/// Two prompt sets, each over two catalogs: `six` (six real servers, 69 tools, one of them a
/// GitLab server whose descriptions run to tens of kilobytes) and `new` (filesystem and time with
/// eight servers written in the style of real ones, none in the project's corpus). The
/// development set is for tuning; the test set is held out: its figures are printed, its
/// individual misses never are.
///
///     swift run -c release MCPBenchmarks selection-eval [--misses] [--leave-one-server-out]
///
/// `--misses` lists the development set's misses; `--leave-one-server-out` adds, for each server,
/// the hit rate of the prompts that need it (both sets), with the package's defaults and with a
/// setting chosen (from ``grid``) on the other servers' development prompts only.
enum SelectionEvaluation {
    /// The budget a turn's tools get: at most 5 tools (TN3193) and 1,600 tokens of definitions.
    static let maximumTools = 5
    static let tokenBudget = 1600

    /// What a strategy chose for one turn.
    struct Choice: Sendable {
        /// The tools the turn gets.
        var selected: [ToolCandidate]
        /// Every other candidate, with why.
        var excluded: [ToolSelection.Exclusion]
        /// The tokens of the selected definitions.
        var tokens: Int
        /// Model names in order of relevance to the prompt, best first (tools the strategy does
        /// not rank at all left out): for the rank of the first needed tool.
        var ranking: [String]
    }

    /// A way of choosing a turn's tools: prepared once per catalog from its candidates, then
    /// asked for each prompt with the model names of the tools the conversation used recently,
    /// most recent last.
    struct Strategy: Sendable {
        typealias Chooser = @Sendable (_ prompt: String, _ recentlyUsed: [String]) -> Choice

        var name: String
        var prepare: @Sendable (_ candidates: [ToolCandidate]) -> Chooser
    }

    /// Makes the strategy for one fold of the leave-one-server-out run: given the development
    /// prompts that need no tool of the held-out server, and that server, returns what is then
    /// evaluated on the prompts that do need it. Never given a test prompt.
    typealias Tuning = @Sendable (_ training: [Prompt], _ heldOutServer: String) -> Strategy

    /// The package's selector as it is: `ToolRelevance` and
    /// `ToolSelector(maximumTools: 5, tokenBudget: 1600)` with its default relative cut.
    static let current = Strategy(name: "ToolSelector(maximumTools: \(maximumTools), tokenBudget: \(tokenBudget)) over ToolRelevance") {
        candidates in
        let relevance = ToolRelevance(candidates)
        let selector = ToolSelector(maximumTools: maximumTools, tokenBudget: tokenBudget)
        return { prompt, recentlyUsed in
            let selection = selector.select(from: relevance, prompt: prompt, recentlyUsed: recentlyUsed)
            let ranking = relevance.ranking(for: prompt, recentlyUsed: recentlyUsed).map { candidates[$0.index].name }
            return Choice(selected: selection.selected, excluded: selection.excluded, tokens: selection.tokens, ranking: ranking)
        }
    }

    /// The ranking has no training: every fold gets ``current``.
    static let untuned: Tuning = { _, _ in current }

    /// What a strategy gave one prompt.
    struct Outcome: Sendable {
        var prompt: Prompt
        var choice: Choice
        /// The model names of the tools the prompt needs that the catalog offers.
        var neededNames: [ToolReference: String]

        /// Whether the turn got a tool the prompt needs.
        var hit: Bool { choice.selected.contains { neededNames.values.contains($0.name) } }

        /// Whether the turn got a tool of `server` that the prompt needs.
        func hit(onServer server: String) -> Bool {
            let names = neededNames.filter { $0.key.server == server }.values
            return choice.selected.contains { names.contains($0.name) }
        }

        /// The 1-based place of the best-ranked needed tool in the strategy's ranking; `nil`
        /// when the strategy ranks none of them.
        var rankOfFirstNeeded: Int? {
            choice.ranking.firstIndex { neededNames.values.contains($0) }.map { $0 + 1 }
        }
    }

    // MARK: Running

    static func run(arguments: [String]) async throws {
        let misses = arguments.contains("--misses")
        let leaveOneServerOut = arguments.contains("--leave-one-server-out")
        let heldOutByServer = arguments.contains("--held-out-by-server")
        let fixtures = try await Fixtures.load()
        let strategy = current
        print("## Tool selection on prompts and servers nobody tuned on (Tests/Fixtures/SelectionEval)")
        print("")
        print("strategy: \(strategy.name); a hit: the turn gets a tool the prompt needs (any one of its `needs`)")
        print("tool tokens: as `ondevice-mcp tools --for-prompt` counts them (an MCPToolbox's availableCandidates)")
        print("")
        describeCatalogs(fixtures.catalogs)
        let outcomes = evaluate(fixtures.prompts, catalogs: fixtures.catalogs, strategy: strategy)
        report(outcomes, catalogs: fixtures.catalogs, heldOutByServer: heldOutByServer)
        if misses {
            listMisses(outcomes.filter { $0.prompt.set == .dev })
        }
        if leaveOneServerOut {
            print("The package's defaults, the same in every fold:")
            print("")
            reportLeaveOneServerOut(fixtures, tuning: untuned)
            print(
                "Each fold tuned without the held-out server (the best of \(grid.count) settings on the other servers' development prompts):"
            )
            print("")
            reportLeaveOneServerOut(fixtures, tuning: gridTuned(catalogs: fixtures.catalogs))
        }
        if !misses {
            print("(--misses lists the development set's misses; the test set's are never listed)")
            print("")
        }
    }

    /// Runs `strategy` on every prompt, each against its catalog.
    static func evaluate(_ prompts: [Prompt], catalogs: [Catalog], strategy: Strategy) -> [Outcome] {
        var choosers: [String: Strategy.Chooser] = [:]
        for catalog in catalogs { choosers[catalog.name] = strategy.prepare(catalog.candidates) }
        return prompts.compactMap { prompt in
            guard let catalog = catalogs.first(where: { $0.name == prompt.catalog }), let choose = choosers[prompt.catalog] else {
                return nil
            }
            var names: [ToolReference: String] = [:]
            for need in prompt.needs {
                if let candidate = catalog.candidate(for: need) { names[need] = candidate.name }
            }
            let recent = prompt.recentlyUsed.compactMap { catalog.candidate(for: $0)?.name }
            return Outcome(prompt: prompt, choice: choose(prompt.text, recent), neededNames: names)
        }
    }

    // MARK: Leave one server out

    /// For each server, the prompts of both sets that need one of its tools, chosen by the
    /// strategy `tuning` makes without that server's development prompts; a hit is a needed tool
    /// of that server selected. Prints each server's rate and the lowest.
    static func reportLeaveOneServerOut(_ fixtures: Fixtures, tuning: Tuning) {
        print("### Leave one server out (dev + test; a hit: a needed tool of the held-out server selected)")
        print("")
        print(Stats.row([("held-out server", 18), ("prompts", 9), ("hits", 6), ("hit rate", 10)]))
        var servers: [String] = []
        for catalog in fixtures.catalogs {
            for server in catalog.servers where !servers.contains(server) { servers.append(server) }
        }
        var lowest: (server: String, rate: Double)?
        var strategies: Set<String> = []
        for server in servers {
            let heldOut = fixtures.prompts.filter { $0.servers.contains(server) }
            guard !heldOut.isEmpty else { continue }
            let training = fixtures.prompts.filter { $0.set == .dev && !$0.servers.contains(server) }
            let strategy = tuning(training, server)
            strategies.insert(strategy.name)
            let outcomes = evaluate(heldOut, catalogs: fixtures.catalogs, strategy: strategy)
            let hits = outcomes.filter { $0.hit(onServer: server) }.count
            let rate = Double(hits) / Double(outcomes.count)
            if lowest.map({ rate < $0.rate }) ?? true { lowest = (server, rate) }
            print(Stats.row([(server, 18), ("\(outcomes.count)", 9), ("\(hits)", 6), (percent(rate), 10)]))
        }
        if let lowest {
            print("")
            print("lowest: \(percent(lowest.rate)) (\(lowest.server)); strategies used: \(strategies.sorted().joined(separator: "; "))")
        }
        print("")
    }

    // MARK: Formatting

    /// `rate` as a percentage with one decimal.
    static func percent(_ rate: Double) -> String {
        let tenths = Int((rate * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10) %"
    }

    /// `value` with one decimal.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `value` with thousands separated by commas.
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (offset, digit) in digits.reversed().enumerated() {
            if offset > 0 && offset % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return String(result.reversed())
    }
}
