import Foundation
import MCP
import Testing

@_spi(Tuning) @testable import MCPAgent

/// A candidate with a small cost, for hand-made sets.
private func tool(
    _ name: String, _ description: String, parameters: [String] = [], tokens: Int = 10, server: String? = nil,
    toolNameOnServer: String? = nil
) -> ToolCandidate {
    ToolCandidate(
        name: name, toolNameOnServer: toolNameOnServer, server: server, description: description, parameterNames: parameters, tokens: tokens
    )
}

@Suite("Tool relevance: words and stems")
struct ToolTermTests {
    struct WordCase: Sendable, CustomTestStringConvertible {
        let text: String
        let words: [String]
        var testDescription: String { text }
    }

    static let wordCases: [WordCase] = [
        WordCase(text: "get_current_time", words: ["get", "current", "time"]),
        WordCase(text: "git-diff-staged", words: ["git", "diff", "staged"]),
        WordCase(text: "admin.tools.list", words: ["admin", "tools", "list"]),
        WordCase(text: "repo/path", words: ["repo", "path"]),
        WordCase(text: "pullNumber", words: ["pull", "number"]),
        WordCase(text: "getUserIDs", words: ["get", "user", "ids"]),
        WordCase(text: "HTTPServer", words: ["http", "server"]),
        WordCase(text: "MCP-Param-Region", words: ["mcp", "param", "region"]),
        WordCase(text: "sha256 of utf-8", words: ["sha", "256", "of", "utf"]),
        WordCase(text: "Add a b to x", words: ["add", "to"]),
        WordCase(text: "Where's the README?", words: ["where", "the", "readme"]),
        WordCase(text: "Café NAÏVE", words: ["café", "naïve"]),
        WordCase(text: "Cafe\u{301}s", words: ["cafe\u{301}s"]),
        WordCase(text: "🌟 漢字 and emoji 🎉", words: ["漢字", "and", "emoji"]),
        WordCase(text: "", words: []),
    ]

    @Test("Text splits into lowercased words at separators, camelCase humps and digits", arguments: wordCases)
    func words(_ wordCase: WordCase) {
        #expect(ToolRelevance.words(in: wordCase.text) == wordCase.words)
    }

    static let sameStems: [(String, String)] = [
        ("notes", "note"), ("searching", "search"), ("searched", "search"), ("searches", "search"),
        ("branches", "branch"), ("entries", "entry"), ("cities", "city"), ("classes", "class"), ("boxes", "box"),
        ("created", "create"), ("creating", "create"), ("creates", "create"), ("staged", "stage"), ("changes", "change"),
        ("changed", "changing"), ("mapping", "map"), ("running", "run"), ("committed", "commit"), ("copied", "copy"),
        ("copying", "copy"), ("filled", "fill"), ("passes", "pass"), ("timezones", "timezone"), ("fetches", "fetch"),
        ("securely", "secure"), ("settings", "set"), ("encoded", "encoding"),
    ]

    @Test("Inflections of a word have one stem", arguments: sameStems)
    func sameStem(_ pair: (String, String)) {
        #expect(ToolRelevance.stem(pair.0) == ToolRelevance.stem(pair.1))
    }

    static let keptWords = [
        "status", "address", "analysis", "string", "speed", "seed", "bus", "only", "apply", "sha256", "café", "git",
    ]

    @Test("Words a suffix rule would spoil keep their form", arguments: keptWords)
    func keptWord(_ word: String) {
        #expect(ToolRelevance.stem(word) == word)
    }

    @Test(
        "Different words keep different stems",
        arguments: [("status", "state"), ("string", "strong"), ("list", "last"), ("note", "nothing")])
    func differentStems(_ pair: (String, String)) {
        #expect(ToolRelevance.stem(pair.0) != ToolRelevance.stem(pair.1))
    }

    @Test("Terms leave out stop words and are stemmed")
    func terms() {
        #expect(
            ToolRelevance.terms(in: "Could you search my notes for the groceries?")
                == ["search", ToolRelevance.stem("notes"), ToolRelevance.stem("groceries")])
        #expect(ToolRelevance.terms(in: "what is it") == [])
    }

    @Test("A prompt implies its verbs' synonyms and its joined word pairs at half weight")
    func queryTerms() {
        let terms = ToolRelevance.queryTerms(in: "fetch the time zone")
        let weights = Dictionary(uniqueKeysWithValues: terms.map { ($0.term, $0.weight) })
        #expect(terms.first?.term == "fetch")
        #expect(weights["fetch"] == 1)
        #expect(weights["get"] == 0.5)
        #expect(weights[ToolRelevance.stem("list")] == 0.5)
        #expect(weights[ToolRelevance.stem("timezone")] == 0.5)
        #expect(weights[ToolRelevance.stem("time")] == 1)
        #expect(weights[ToolRelevance.stem("delete")] == nil)
        // A word the prompt says keeps its full weight when a synonym also implies it.
        let both = Dictionary(uniqueKeysWithValues: ToolRelevance.queryTerms(in: "get or show").map { ($0.term, $0.weight) })
        #expect(both["get"] == 1 && both["show"] == 1 && both["fetch"] == 0.5)
    }

    @Test("Every synonym group's words have distinct stems, and no word is in two groups")
    func synonymTable() {
        let stems = ToolRelevance.synonymGroups.flatMap { $0.map(ToolRelevance.stem) }
        #expect(Set(stems).count == stems.count)
    }

    @Test("The logarithm matches Foundation's", arguments: [1.0, 1.5, 2, 2.718281828459045, 10, 106.7, 1e-3, 12345.678, 1e300])
    func logarithm(_ x: Double) {
        #expect(abs(ToolRelevance.logarithm(x) - log(x)) < 1e-12 * max(1, abs(log(x))))
    }
}

@Suite("Tool relevance: scores")
struct ToolRelevanceTests {
    @Test("A word in the name counts more than the same word in the description")
    func nameOutweighsDescription() {
        let relevance = ToolRelevance([
            tool("list_notes", "Lists notes; can search them by title."),
            tool("search_notes", "Finds notes by their words."),
        ])
        #expect(relevance.ranking(for: "search").map(\.index) == [1, 0])
    }

    @Test("A title counts only the words the name does not already have")
    func titleAddsOnlyNewWords() {
        let titled = ToolCandidate(name: "pdf_save", title: "Save as PDF", description: "Saves the page.", tokens: 10)
        let untitled = ToolCandidate(name: "pdf_save", description: "Saves the page.", tokens: 10)
        let other = tool("notes_list", "Lists notes.")
        let withTitle = ToolRelevance([titled, other], embedding: nil).scores(for: "save it")
        let withoutTitle = ToolRelevance([untitled, other], embedding: nil).scores(for: "save it")
        #expect(withTitle[0] == withoutTitle[0])
        let newWords = ToolCandidate(name: "pdf_save", title: "Export page", description: "Saves the page.", tokens: 10)
        #expect(ToolRelevance([newWords, other], embedding: nil).scores(for: "export")[0] > 0)
    }

    @Test("A tool that matches only the prompt's actions, not what it acts on, keeps four fifths of its score")
    func actionOnlyMatches() {
        let candidates = [tool("add_reaction", "Adds a reaction to a message."), tool("notes_append", "Adds a line to the notes.")]
        var flat = ToolRelevance.Tuning()
        flat.actionOnlyShare = 1
        let standard = ToolRelevance(candidates, embedding: nil).scores(for: "add this to my notes")
        let unweighted = ToolRelevance(candidates, embedding: nil, tuning: flat).scores(for: "add this to my notes")
        #expect(standard[0] > 0)
        #expect(abs(standard[0] - 0.8 * unweighted[0]) < 1e-12)
        // The notes tool matches `notes` too: its score is whole.
        #expect(standard[1] == unweighted[1])
    }

    @Test("A word few tools have counts more than words every tool has")
    func rareWordsCountMore() {
        let relevance = ToolRelevance([
            tool("gitlab_issue_list", "List GitLab issues of a project."),
            tool("gitlab_branch_list", "List GitLab branches of a project."),
            tool("gitlab_job_list", "List GitLab jobs of a project."),
            tool("gitlab_pipeline_run", "Run a pipeline."),
            tool("gitlab_user_list", "List GitLab users."),
        ])
        #expect(relevance.ranking(for: "list gitlab pipelines").first?.index == 3)
    }

    @Test("Parameter names count, less than the description")
    func parameters() {
        let relevance = ToolRelevance([
            tool("lookup", "Looks a thing up.", parameters: ["city"]),
            tool("forecast", "The forecast for a city."),
            tool("clock", "The time."),
        ])
        #expect(relevance.ranking(for: "city").prefix(2).map(\.index) == [1, 0])
        #expect(relevance.scores(for: "city")[2] == 0)
    }

    @Test("A verb finds its synonyms, below the word itself")
    func synonyms() {
        let relevance = ToolRelevance([
            tool("delete_note", "Deletes a note."),
            tool("get_note", "Returns a note."),
            tool("fetch_note", "Fetches a note."),
        ])
        #expect(relevance.ranking(for: "fetch my note").map(\.index) == [2, 1, 0])
        #expect(relevance.ranking(for: "remove the note").first?.index == 0)
    }

    @Test("Two words of the prompt match a tool's one word")
    func joinedWords() {
        let relevance = ToolRelevance([
            tool("stopwatch", "Measures elapsed time."),
            tool("zone_clock", "The current time in a timezone."),
        ])
        #expect(relevance.ranking(for: "time zone of Paris").first?.index == 1)
    }

    @Test("Ranked scores are relative: the best match scores 1")
    func relativeScores() throws {
        let relevance = ToolRelevance([tool("alpha", "First."), tool("beta", "Second beta."), tool("gamma", "Third.")])
        let ranking = relevance.ranking(for: "beta")
        let first = try #require(ranking.first)
        #expect(first.index == 1 && first.score == 1)
        #expect(ranking.dropFirst().allSatisfy { $0.score == 0 })
    }

    @Test("Equal scores keep the candidates' order")
    func tiesKeepOrder() {
        let relevance = ToolRelevance([tool("a_one", "Same."), tool("a_two", "Same."), tool("a_three", "Same.")])
        #expect(relevance.ranking(for: "same").map(\.index) == [0, 1, 2])
        #expect(relevance.ranking(for: "nothing matches").map(\.index) == [0, 1, 2])
    }

    @Test("Recently used tools gain a boost that halves for each older one, over four tools")
    func recency() {
        let relevance = ToolRelevance((1...6).map { tool("tool_\($0)", "Does thing \($0).") })
        let ranking = relevance.ranking(for: "and now?", recentlyUsed: ["tool_1", "tool_2", "tool_3", "tool_4", "tool_5", "tool_5"])
        #expect(ranking.map(\.index) == [4, 3, 2, 1, 0, 5])
        #expect(ranking.map(\.score) == [1, 0.5, 0.25, 0.125, 0, 0])
    }

    @Test("The most recently used tool ranks with the best lexical match, ahead of other matches")
    func recencyWithMatches() {
        let relevance = ToolRelevance([
            tool("weather", "The weather in a city."),
            tool("city_info", "Facts about a city."),
            tool("clock", "The time in a city."),
            tool("translate", "Translates text."),
        ])
        let ranking = relevance.ranking(for: "and what about the city of Lisbon", recentlyUsed: ["weather"])
        #expect(ranking.first?.index == 0)
        #expect(ranking.last?.index == 3)
    }

    @Test("A prompt with words of its own ranks the tool they name ahead of the recently used one")
    func changeOfSubject() {
        let relevance = ToolRelevance([
            tool("weather", "The weather in a city."),
            tool("clock", "The time in a city."),
            tool("milestones", "Lists the milestones of a project."),
            tool("translate", "Translates text."),
        ])
        let ranking = relevance.ranking(for: "list the milestones of project 3", recentlyUsed: ["clock", "weather"])
        #expect(ranking.map(\.index) == [2, 0, 1, 3])
    }

    @Test("A candidate made from a listed tool has its title, description and parameters")
    func candidateFromDefinition() {
        let definition = MCPCore.ToolDefinition(
            name: "notes.search", title: "Search notes", description: "Finds notes.",
            inputSchema: [
                "type": "object",
                "properties": ["query": ["type": "string", "description": "Words to find"], "limit": ["type": "integer"]],
            ])
        let candidate = ToolCandidate(tool: definition, name: "notes_search", server: "notes", tokens: 42)
        #expect(candidate.name == "notes_search")
        #expect(candidate.toolNameOnServer == "notes.search")
        #expect(candidate.server == "notes")
        #expect(candidate.title == "Search notes")
        #expect(candidate.description == "Finds notes.")
        #expect(candidate.parameterNames == ["query", "limit"])
        #expect(candidate.parameterDescriptions == ["Words to find"])
        #expect(candidate.tokens == 42)
    }
}

@Suite("Tool selector")
struct ToolSelectorTests {
    static let tools = [
        tool("get_weather", "The current weather for a city.", parameters: ["city"], tokens: 40),
        tool("get_time", "The current time in a timezone.", parameters: ["timezone"], tokens: 30),
        tool("search_notes", "Finds notes that contain words.", parameters: ["query"], tokens: 50),
        tool("create_note", "Creates a note.", parameters: ["title", "body"], tokens: 60),
        tool("git_log", "Shows the commit log.", parameters: ["repo_path"], tokens: 45),
        tool("git_status", "Shows the working tree status.", parameters: ["repo_path"], tokens: 35),
    ]

    @Test("When every candidate fits, all are selected in their given order")
    func allFit() {
        let selector = ToolSelector(maximumTools: 6, tokenBudget: 260, pinned: ["git_status"])
        let selection = selector.select(Self.tools, prompt: "unrelated words", recentlyUsed: ["git_log"])
        #expect(selection.selected == Self.tools)
        #expect(selection.excluded.isEmpty)
        #expect(selection.tokens == 260)
    }

    @Test("Otherwise the most relevant tools are selected, in order of relevance")
    func byRelevance() {
        let selector = ToolSelector(maximumTools: 2, tokenBudget: 1000)
        let selection = selector.select(Self.tools, prompt: "show me the git log")
        #expect(selection.selected.map(\.name) == ["git_log", "git_status"])
        #expect(selection.tokens == 80)
        #expect(selection.excluded.map(\.name) == ["get_weather", "get_time", "search_notes", "create_note"])
    }

    @Test("Pinned tools come first, in their given order, then the most relevant")
    func pinnedFirst() {
        let selector = ToolSelector(maximumTools: 3, tokenBudget: 1000, pinned: ["search_notes", "get_weather"])
        let selection = selector.select(Self.tools, prompt: "what time is it in Tokyo?")
        #expect(selection.selected.map(\.name) == ["get_weather", "search_notes", "get_time"])
    }

    @Test("A pinned tool is selected even when nothing in the prompt matches it")
    func pinnedWithoutMatch() {
        let selector = ToolSelector(maximumTools: 2, tokenBudget: 1000, pinned: ["create_note"])
        let selection = selector.select(Self.tools, prompt: "git status please")
        #expect(selection.selected.map(\.name) == ["create_note", "git_status"])
    }

    @Test("Every exclusion says why, specifically")
    func reasons() throws {
        let tools = Self.tools + [tool("big_notes_export", "Exports notes in bulk.", tokens: 900)]
        let selector = ToolSelector(maximumTools: 2, tokenBudget: 100, minimumRelevance: 0)
        let selection = selector.select(tools, prompt: "find my notes about the weather")
        let reasons = Dictionary(uniqueKeysWithValues: selection.excluded.map { ($0.name, $0.reason) })
        #expect(selection.selected.map(\.name) == ["search_notes", "get_weather"])
        #expect(
            reasons["big_notes_export"]
                == "its definition (about 900 tokens) alone exceeds the 100-token tool budget (rank 4 of 7 for this prompt)")
        #expect(reasons["create_note"] == "not among the 2 most relevant tools to this prompt that fit (rank 3 of 7 for this prompt)")
        #expect(reasons["git_log"] == "nothing in this prompt matches it, and the conversation has not used it recently")
        #expect(selection.excluded.count == 5)
    }

    @Test("A tool that does not fit the tokens left is skipped for smaller, less relevant ones")
    func tokensLeft() {
        let tools = [
            tool("notes_search", "Searches notes.", tokens: 60),
            tool("notes_search_all", "Searches notes in every notebook.", tokens: 70),
            tool("notes_list", "Lists notes.", tokens: 30),
        ]
        let selection = ToolSelector(maximumTools: 3, tokenBudget: 100, minimumRelevance: 0).select(tools, prompt: "search notes")
        #expect(selection.selected.map(\.name) == ["notes_search", "notes_list"])
        #expect(
            selection.excluded.first?.reason
                == "its definition (about 70 tokens) does not fit the 40 tokens left of the 100-token tool budget (rank 2 of 3 for this prompt)"
        )
    }

    @Test("A tool far less relevant than the best match is left out even when there is room")
    func minimumRelevance() throws {
        let tools = [
            tool("weather_alerts", "Active weather alerts for a region: storms, floods, heat.", tokens: 40),
            tool("region_list", "Lists regions.", tokens: 40),
            tool("clock", "The time.", tokens: 40),
        ]
        let query = "weather alerts for my region"
        let strict = ToolSelector(maximumTools: 2, tokenBudget: 100, minimumRelevance: 0.5).select(tools, prompt: query)
        #expect(strict.selected.map(\.name) == ["weather_alerts"])
        let reason = try #require(strict.excluded.first { $0.name == "region_list" }?.reason)
        #expect(reason.hasPrefix("it is much less related to this prompt than the best match ("))
        #expect(reason.hasSuffix(" of its relevance, under the 50 % needed; rank 2 of 3 for this prompt)"))
        let filling = ToolSelector(maximumTools: 2, tokenBudget: 100, minimumRelevance: 0).select(tools, prompt: query)
        #expect(filling.selected.map(\.name) == ["weather_alerts", "region_list"])
    }

    @Test("Pinned tools that cannot fit are excluded with the reason")
    func pinnedThatCannotFit() {
        let tools = [
            tool("huge", "Huge.", tokens: 500),
            tool("first", "First.", tokens: 60),
            tool("second", "Second.", tokens: 60),
            tool("third", "Third.", tokens: 10),
            tool("other", "Other.", tokens: 10),
        ]
        let selector = ToolSelector(maximumTools: 2, tokenBudget: 100, pinned: ["huge", "first", "second", "third"])
        let selection = selector.select(tools, prompt: "other")
        #expect(selection.selected.map(\.name) == ["first", "third"])
        let reasons = Dictionary(uniqueKeysWithValues: selection.excluded.map { ($0.name, $0.reason) })
        #expect(reasons["huge"] == "pinned, but its definition (about 500 tokens) alone exceeds the 100-token tool budget")
        #expect(
            reasons["second"]
                == "pinned, but its definition (about 60 tokens) does not fit the 40 tokens left of the 100-token tool budget after the other pinned tools"
        )
        #expect(reasons["other"] == "pinned tools take the 2 places (rank 1 of 5 for this prompt)")

        let crowded = ToolSelector(maximumTools: 1, tokenBudget: 100, pinned: ["first", "third"]).select(tools, prompt: "")
        #expect(crowded.selected.map(\.name) == ["first"])
        #expect(crowded.excluded.first { $0.name == "third" }?.reason == "pinned, but other pinned tools already take the 1 place")
    }

    @Test("Pinned places are counted in the other tools' reasons")
    func pinnedNote() {
        let selector = ToolSelector(maximumTools: 2, tokenBudget: 1000, pinned: ["create_note"])
        let selection = selector.select(Self.tools, prompt: "git log and git status")
        #expect(selection.selected.map(\.name) == ["create_note", "git_log"])
        #expect(
            selection.excluded.first { $0.name == "git_status" }?.reason
                == "not the most relevant tool to this prompt that fits (rank 2 of 6 for this prompt); pinned tools take 1 of the 2 places")
    }

    @Test("A follow-up that matches nothing gets the tools the conversation used last")
    func followUp() {
        let selector = ToolSelector(maximumTools: 3, tokenBudget: 1000)
        let selection = selector.select(Self.tools, prompt: "and in Paris?", recentlyUsed: ["get_weather", "get_time"])
        #expect(selection.selected.map(\.name) == ["get_time", "get_weather"])
        #expect(selection.excluded.count == 4)
    }

    @Test("With no places or no budget nothing is selected, and each tool says why")
    func nothingAllowed() {
        let none = ToolSelector(maximumTools: 0, tokenBudget: 1000, pinned: ["get_time"]).select(Self.tools, prompt: "git log")
        #expect(none.selected.isEmpty)
        #expect(none.excluded.first { $0.name == "git_log" }?.reason == "a turn gets no tools (the maximum is 0)")
        #expect(none.excluded.first { $0.name == "get_time" }?.reason == "a turn gets no tools (the maximum is 0)")
        let broke = ToolSelector(maximumTools: 5, tokenBudget: 0).select(Self.tools, prompt: "git log")
        #expect(broke.selected.isEmpty && broke.tokens == 0)
        #expect(broke.excluded.count == Self.tools.count)
    }

    @Test("No candidates, no selection")
    func empty() {
        let selection = ToolSelector(tokenBudget: 100).select([], prompt: "anything")
        #expect(selection == ToolSelection(selected: [], excluded: [], tokens: 0))
    }

    @Test("Tools of several servers with the same server name are told apart by their model names")
    func sameServerNames() {
        let tools = [
            tool("docs_search", "Searches the documentation.", tokens: 40, server: "docs", toolNameOnServer: "search"),
            tool("mail_search", "Searches your mail.", tokens: 40, server: "mail", toolNameOnServer: "search"),
            tool("calendar_search", "Searches calendar events.", tokens: 40, server: "calendar", toolNameOnServer: "search"),
        ]
        let selector = ToolSelector(maximumTools: 2, tokenBudget: 1000, pinned: ["calendar_search"])
        let selection = selector.select(tools, prompt: "search my mail for the invoice")
        #expect(selection.selected.map(\.name) == ["calendar_search", "mail_search"])
        #expect(selection.excluded.map(\.name) == ["docs_search"])
        #expect(selection.excluded.map(\.toolNameOnServer) == ["search"])

        let followUp = ToolSelector(maximumTools: 1, tokenBudget: 1000)
            .select(tools, prompt: "and from last week?", recentlyUsed: ["docs_search"])
        #expect(followUp.selected.map(\.name) == ["docs_search"])
        #expect(Set(followUp.excluded.map(\.name)) == ["mail_search", "calendar_search"])
    }
}
