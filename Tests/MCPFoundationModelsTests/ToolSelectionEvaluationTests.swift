import MCP
import MCPFoundationModels
import Testing

/// Every tool of the schema corpus as a selection candidate, one server per file.
enum SelectionCorpus {
    /// The candidates, in file and listing order; a tool whose name another server also has
    /// gets its server's label before its name, as a caller with several servers would do.
    static let candidates: [ToolCandidate] = {
        let tools = ListedTool.all
        var nameCounts: [String: Int] = [:]
        for listed in tools {
            nameCounts[listed.tool.name, default: 0] += 1
        }
        return tools.map { listed in
            let shared = (nameCounts[listed.tool.name] ?? 0) > 1
            let name = shared ? modelName(listed.file + "_" + listed.tool.name) : modelName(listed.tool.name)
            return ToolCandidate(tool: listed.tool, name: name, server: listed.file, tokens: estimatedTokens(of: listed.tool))
        }
    }()

    /// The candidates, indexed once for every prompt.
    static let relevance = ToolRelevance(candidates)

    /// The candidate for a corpus tool.
    static func candidate(for reference: CorpusToolReference) -> ToolCandidate? {
        candidates.first { $0.server == reference.server && $0.toolNameOnServer == reference.tool }
    }

    /// A stand-in for the real counter: the characters of the name, description and encoded
    /// input schema, four to a token, rounded up.
    static func estimatedTokens(of tool: MCPCore.ToolDefinition) -> Int {
        let schema = (try? JSONWriter().string(from: tool.inputSchema)) ?? ""
        let characters = tool.name.count + (tool.description ?? "").count + schema.count
        return (characters + 3) / 4
    }

    /// `text` with every character outside `[A-Za-z0-9_]` made `_`.
    static func modelName(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }
}

@Suite("Tool selection over the schema corpus")
struct ToolSelectionEvaluationTests {
    static let selector = ToolSelector(maximumTools: 5, tokenBudget: 1536)

    /// What the selector gives one prompt, and whether it has the tool the prompt needs.
    struct Outcome {
        let prompt: SelectionPrompt
        let selection: ToolSelection
        let hit: Bool
        let rank: Int?
    }

    static func outcome(_ prompt: SelectionPrompt) throws -> Outcome {
        let candidates = SelectionCorpus.candidates
        let needed = try #require(SelectionCorpus.candidate(for: prompt.needs), "\(prompt.needs) is not in the corpus")
        let recent = try prompt.recentlyUsed.map { reference in
            try #require(SelectionCorpus.candidate(for: reference), "\(reference) is not in the corpus").name
        }
        let selection = selector.select(from: SelectionCorpus.relevance, prompt: prompt.prompt, recentlyUsed: recent)
        let ranking = SelectionCorpus.relevance.ranking(for: prompt.prompt, recentlyUsed: recent)
        let rank = ranking.firstIndex { candidates[$0.index].name == needed.name }.map { $0 + 1 }
        return Outcome(prompt: prompt, selection: selection, hit: selection.selected.contains(needed), rank: rank)
    }

    @Test("The corpus has the 17 servers and 159 tools, with unique model names")
    func corpus() {
        let candidates = SelectionCorpus.candidates
        #expect(candidates.count == 159)
        #expect(Set(candidates.compactMap(\.server)).count == 17)
        #expect(Set(candidates.map(\.name)).count == candidates.count)
        #expect(Set(candidates.map(\.toolNameOnServer)).count < candidates.count, "some names are shared by several servers")
    }

    @Test("The prompts are many, spread over the servers, and name corpus tools")
    func prompts() throws {
        let prompts = SelectionPrompts.all
        #expect(prompts.count >= 60)
        #expect(Set(prompts.map(\.needs.server)).count >= 12)
        #expect(prompts.filter { $0.needs.server == "gitlab-mcp-server.individual-sample" }.count >= 20)
        let followUps = prompts.filter { $0.recentlyUsed.contains($0.needs) }
        let changesOfSubject = prompts.filter { !$0.recentlyUsed.isEmpty && !$0.recentlyUsed.contains($0.needs) }
        #expect(followUps.count >= 8)
        #expect(changesOfSubject.count >= 8)
        for prompt in prompts {
            _ = try #require(SelectionCorpus.candidate(for: prompt.needs), "\(prompt.needs)")
        }
    }

    @Test(
        "Each prompt's selection fits: at most 5 tools, within 1536 tokens, every other tool excluded with a reason",
        arguments: SelectionPrompts.all)
    func selectionFits(_ prompt: SelectionPrompt) throws {
        let candidates = SelectionCorpus.candidates
        let selection = try Self.outcome(prompt).selection
        #expect(selection.selected.count <= 5)
        #expect(selection.tokens <= 1536)
        #expect(selection.tokens == selection.selected.reduce(0) { $0 + $1.tokens })
        #expect(selection.selected.count + selection.excluded.count == candidates.count)
        let names = Set(selection.selected.map(\.name)).union(selection.excluded.map(\.name))
        #expect(names == Set(candidates.map(\.name)))
        #expect(selection.excluded.allSatisfy { !$0.reason.isEmpty })
    }

    @Test("At least 90 % of the prompts get the tool they need")
    func hitRate() throws {
        let outcomes = try SelectionPrompts.all.map(Self.outcome)
        let hits = outcomes.filter(\.hit).count
        let tokens = outcomes.map(\.selection.tokens)
        let rate = Double(hits) / Double(outcomes.count)
        let mean = Double(tokens.reduce(0, +)) / Double(tokens.count)
        let misses = outcomes.filter { !$0.hit }.map { outcome in
            let reason = outcome.selection.excluded.first { $0.toolNameOnServer == outcome.prompt.needs.tool }?.reason ?? "?"
            return "\(outcome.prompt.testDescription) [rank \(outcome.rank.map(String.init) ?? "-"): \(reason)]"
        }
        let meanTools = Double(outcomes.map(\.selection.selected.count).reduce(0, +)) / Double(outcomes.count)
        print(
            "Tool selection: \(hits) of \(outcomes.count) prompts (\(Self.oneDecimal(rate * 100)) %) got the tool they need "
                + "from the 159 tools of 17 servers, at most 5 tools and 1536 tokens a turn: "
                + "mean \(Int(mean.rounded())), max \(tokens.max() ?? 0) tokens and \(Self.oneDecimal(meanTools)) tools a turn")
        for miss in misses {
            print("  missed: \(miss)")
        }
        #expect(rate >= 0.9, "misses: \(misses)")
    }

    @Test("When every tool of a server fits, all are selected in their listed order")
    func everyToolFits() throws {
        let git = SelectionCorpus.candidates.filter { $0.server == "mcp-server-git" }
        try #require(git.count == 12)
        let tokens = git.reduce(0) { $0 + $1.tokens }
        let selector = ToolSelector(maximumTools: git.count, tokenBudget: tokens, pinned: ["git_log"])
        for prompt in ["what time is it in Tokyo?", "show me the diff of my staged changes", ""] {
            let selection = selector.select(git, prompt: prompt, recentlyUsed: ["git_status"])
            #expect(selection.selected == git)
            #expect(selection.excluded.isEmpty)
            #expect(selection.tokens == tokens)
        }
        // One token less, and the selection is by relevance.
        let tight = ToolSelector(maximumTools: git.count, tokenBudget: tokens - 1).select(git, prompt: "show me the git log")
        #expect(tight.selected.first?.toolNameOnServer == "git_log")
    }

    @Test("Pinned tools come first in every prompt's selection", arguments: SelectionPrompts.all)
    func pinnedFirst(_ prompt: SelectionPrompt) throws {
        let pinned = ["get_current_time", "git_status"]
        let selector = ToolSelector(maximumTools: 5, tokenBudget: 1536, pinned: Set(pinned))
        let recent = prompt.recentlyUsed.compactMap { SelectionCorpus.candidate(for: $0)?.name }
        let selection = selector.select(from: SelectionCorpus.relevance, prompt: prompt.prompt, recentlyUsed: recent)
        // In the candidates' order: mcp-server-git's file comes before mcp-server-time's.
        #expect(selection.selected.prefix(2).map(\.name) == ["git_status", "get_current_time"])
        #expect(selection.selected.count <= 5 && selection.tokens <= 1536)
    }

    @Test("Tools that several servers name alike are told apart by the names the caller gives them")
    func sharedServerNames() throws {
        let weather = SelectionCorpus.candidates.filter { $0.toolNameOnServer == "get_weather" }
        try #require(weather.count == 4)
        #expect(Set(weather.map(\.name)).count == 4)
        let selection = Self.selector.select(
            from: SelectionCorpus.relevance, prompt: "brief weather summary for Madrid",
            recentlyUsed: [weather[2].name])
        let chosen = selection.selected.filter { $0.toolNameOnServer == "get_weather" }
        let left = selection.excluded.filter { $0.toolNameOnServer == "get_weather" }
        #expect(chosen.contains(weather[2]), "the one the conversation used")
        #expect(chosen.count + left.count == 4)
        #expect(Set(chosen.map(\.name) + left.map(\.name)) == Set(weather.map(\.name)))
        let pinned = ToolSelector(maximumTools: 5, tokenBudget: 1536, pinned: [weather[3].name])
            .select(from: SelectionCorpus.relevance, prompt: "what time is it in Tokyo?")
        #expect(pinned.selected.first == weather[3])
        #expect(pinned.selected.filter { $0.toolNameOnServer == "get_weather" }.count == 1)
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
