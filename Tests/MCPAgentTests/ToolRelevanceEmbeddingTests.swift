import Testing

@testable import MCPAgent

/// An embedding by hand: each text's vector counts the words of a few topics it has.
private struct TopicEmbedding: SentenceEmbedding {
    static let topics: [Set<String>] = [
        ["rain", "raining", "forecast", "weather", "sunny", "umbrella", "raincoat"],
        ["note", "notes", "remember", "jot"],
        ["time", "clock", "hour"],
    ]

    func vector(for text: String) -> [Double]? {
        let words = ToolRelevance.words(in: text)
        let vector = Self.topics.map { topic in Double(words.filter(topic.contains).count) }
        return vector.contains { $0 > 0 } ? vector : [0.01, 0.01, 0.01]
    }
}

/// An embedding that has no vector for anything.
private struct MuteEmbedding: SentenceEmbedding {
    func vector(for text: String) -> [Double]? { nil }
}

private func candidate(_ name: String, _ description: String, server: String? = nil) -> ToolCandidate {
    ToolCandidate(name: name, server: server, description: description, tokens: 10)
}

@Suite("Tool relevance: the embedding signal")
struct ToolRelevanceEmbeddingTests {
    static let tools = [
        candidate("get_forecast", "Returns the weather forecast for a city."),
        candidate("add_note", "Saves a note."),
        candidate("current_time", "The time now in a time zone."),
    ]

    @Test("A prompt that shares no word with a tool still ranks it first when the embedding relates them")
    func semanticOnlyMatch() throws {
        let prompt = "should I take a raincoat to Porto?"
        let lexical = ToolRelevance(Self.tools, embedding: nil)
        #expect(lexical.scores(for: prompt).allSatisfy { $0 == 0 })
        let hybrid = ToolRelevance(Self.tools, embedding: TopicEmbedding())
        let first = try #require(hybrid.ranking(for: prompt).first)
        #expect(first.index == 0 && first.score == 1)
    }

    @Test("Without an embedding, or with one that has no vectors, the ranking is the lexical one")
    func lexicalAlone() {
        let prompts = ["save a note about the tram", "what time is it", "forecast for Lisbon", "nothing at all"]
        let lexical = ToolRelevance(Self.tools, embedding: nil)
        let mute = ToolRelevance(Self.tools, embedding: MuteEmbedding())
        for prompt in prompts {
            #expect(lexical.ranking(for: prompt) == mute.ranking(for: prompt))
        }
    }

    @Test("A strong word match outranks a tool the embedding merely likes")
    func lexicalStillLeads() throws {
        let hybrid = ToolRelevance(Self.tools, embedding: TopicEmbedding())
        // "note" is the add_note tool's own word; the weather words pull toward get_forecast.
        let ranking = hybrid.ranking(for: "note: rain tomorrow")
        #expect(ranking.first?.index == 1)
    }

    @Test("Similarities run from 0 at the candidates' average or below to 1 for the most similar")
    func similarityScale() {
        let hybrid = ToolRelevance(Self.tools, embedding: TopicEmbedding())
        let similarity = hybrid.similarities(for: "umbrella weather")
        #expect(similarity[0] == 1)
        #expect(similarity[1] == 0 && similarity[2] == 0)
        #expect(ToolRelevance(Self.tools, embedding: nil).similarities(for: "umbrella weather") == [0, 0, 0])
    }
}

@Suite("Tool selector: one server's share")
struct ToolSelectorServerShareTests {
    /// What the verbose server's tools say.
    static let verbose = "Reads and shows a file of a project, its contents and its history, file by file."

    /// Six verbose tools of one server that all mention files, and two of another: one that
    /// says the same, and a terse one.
    static let tools: [ToolCandidate] =
        (1...6).map { number in candidate("hub_file_op\(number)", verbose, server: "hub") } + [
            candidate("mirror_file_op", verbose, server: "store"),
            candidate("list_directory", "Lists a directory's files.", server: "store"),
        ]

    @Test("A server takes at most its share of places while another server's as relevant tools wait")
    func shareCapped() throws {
        let selector = ToolSelector(maximumTools: 5, tokenBudget: 1000, minimumRelevance: 0)
        #expect(selector.maximumToolsPerServer == 3)
        let prompt = "show me the contents of the file"
        let scores = Dictionary(
            ToolRelevance(Self.tools).ranking(for: prompt).map { (Self.tools[$0.index].name, $0.score) }, uniquingKeysWith: max)
        // The premise: the other server's tool is as relevant as the verbose server's, which
        // come first in the candidates' order.
        try #require(scores["mirror_file_op"] == scores["hub_file_op1"], "\(scores)")
        let selection = selector.select(Self.tools, prompt: prompt)
        let servers = selection.selected.map { $0.server ?? "" }
        #expect(servers.filter { $0 == "hub" }.count == 3)
        #expect(selection.selected.contains { $0.name == "mirror_file_op" })
        #expect(selection.selected.count == 5)
    }

    @Test("Places no other server wants go to the server's next tools")
    func leftoverPlaces() throws {
        let onlyHub = Array(Self.tools.prefix(6))
        let selector = ToolSelector(maximumTools: 5, tokenBudget: 1000, minimumRelevance: 0)
        let selection = selector.select(onlyHub, prompt: "show me the contents of the file")
        #expect(selection.selected.count == 5)
        // The one left out ranked too low; no other server took a place from it.
        let reason = try #require(selection.excluded.first?.reason)
        #expect(reason.hasPrefix("not among the 5 most relevant tools"), "\(reason)")
    }

    @Test("A tool over its server's share goes before another server's clearly less relevant tool")
    func shareYieldsToFaintMatches() throws {
        let tools = [
            candidate("read_table_rows", "Reads rows of a database table.", server: "db"),
            candidate("list_tables", "Lists the tables of the database.", server: "db"),
            candidate("describe_table", "Describes the columns of a database table.", server: "db"),
            candidate("delete_table_rows", "Deletes rows of a database table.", server: "db"),
            candidate("search_mail", "Searches mail. Results list each message with its sender and its rows of text.", server: "mail"),
        ]
        let selector = ToolSelector(maximumTools: 4, tokenBudget: 1000, minimumRelevance: 0)
        let prompt = "delete the rows of the users table in the database"
        let ranking = ToolRelevance(tools).ranking(for: prompt)
        let scores = Dictionary(uniqueKeysWithValues: ranking.map { (tools[$0.index].name, $0.score) })
        let writeRows = try #require(scores["delete_table_rows"])
        let searchMail = try #require(scores["search_mail"])
        // The premise: the mail tool is less relevant than the database's fourth by more than a tenth.
        try #require(searchMail > 0 && searchMail < writeRows * ToolSelector.serverShareYield, "\(scores)")
        let selection = selector.select(tools, prompt: prompt)
        #expect(selection.selected.map(\.name).contains("delete_table_rows"))
        #expect(!selection.selected.map(\.name).contains("search_mail"))
    }

    @Test("A tool left out for its server's share says so")
    func shareReason() throws {
        let selector = ToolSelector(maximumTools: 4, tokenBudget: 1000, minimumRelevance: 0, maximumToolsPerServer: 2)
        let selection = selector.select(Self.tools, prompt: "show me the contents of the file")
        #expect(selection.selected.filter { $0.server == "hub" }.count == 2)
        let reason = try #require(selection.excluded.first { $0.name.hasPrefix("hub_") }?.reason)
        #expect(reason.hasPrefix("its server (hub) already has 2 places of this turn's"))
    }
}
