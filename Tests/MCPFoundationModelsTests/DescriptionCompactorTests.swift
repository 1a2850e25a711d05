import MCP
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

/// A description as a server wrote it and what the model must read of it.
struct CompactionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let limit: Int
    let expected: String
    var testDescription: String { name }

    init(_ name: String, _ input: String, limit: Int = 300, _ expected: String) {
        self.name = name
        self.input = input
        self.limit = limit
        self.expected = expected
    }

    static let docstrings: [CompactionCase] = [
        CompactionCase(
            "Google-style sections after the summary",
            """
            Get the forecast for a city.

                Args:
                    city: The city, e.g. Paris.
                    days: How many days.

                Returns:
                    The forecast as JSON.

                Raises:
                    ValueError: for an unknown city.
            """,
            "Get the forecast for a city."),
        CompactionCase(
            "a section's continuation lines at its own indentation, then prose after a blank line",
            """
            Convert a number.
                Example: convert("255", "hex") -> result
                "0xff"

                Works for any size.
            """,
            "Convert a number. Works for any size."),
        CompactionCase(
            "NumPy-style underlined sections",
            """
            Sum two numbers.

            Parameters
            ----------
            a : int
                The first.
            b : int
                The second.

            Returns
            -------
            int
            """,
            "Sum two numbers."),
        CompactionCase(
            "Examples, Notes and Usage blocks, bold labels too",
            "List files.\n\nExamples:\n    list_files(\"/tmp\")\n\n**Note:** hidden files are skipped.\n\nUsage: list_files PATH",
            "List files."),
        CompactionCase(
            "a label inside a paragraph drops its sentence only",
            "Create a mirror. Destructive: the host gets the repository. Returns: the created mirror. See also: list_mirrors, edit_mirror.",
            "Create a mirror. Destructive: the host gets the repository."),
        CompactionCase(
            "a note inside a paragraph is a caveat and stays; a note section goes",
            "Deletes a file. Note: this cannot be undone.\n\nNote:\n    Uses unlink(2).",
            "Deletes a file. Note: this cannot be undone."),
        CompactionCase(
            "a paragraph that is only a label line is dropped with the lines under it",
            "List tokens. Filter by state.\n\nSee also: other_list\n\nReturns: JSON array of tokens.",
            "List tokens. Filter by state."),
        CompactionCase(
            "a description that is only sections keeps them, cleaned",
            "Args:\n    query: what to search for",
            "Args: query: what to search for"),
        CompactionCase(
            "a wrapped line that starts like a numbered list item is prose",
            "Draw random bytes of a given size (default\n    32) from the system generator.",
            "Draw random bytes of a given size (default 32) from the system generator."),
    ]

    static let markdown: [CompactionCase] = [
        CompactionCase(
            "headings are dropped; a section heading drops its section",
            "# Weather\n\nGets the **current** weather.\n\n## Parameters\n\n- city: a city\n\n## Details\n\nUses a public API.",
            "Gets the current weather. Uses a public API."),
        CompactionCase(
            "bullets become sentences",
            "Edits a buffer. Actions:\n- pad: widen it\n- trim: strip bytes\n* slice it\n1. first\n2) second",
            "Edits a buffer. Actions: pad: widen it. trim: strip bytes. slice it. first. second"),
        CompactionCase(
            "backticks, bold, links and images become their text",
            "Reads `path` with **care**; see [the docs](https://example.com/docs) and ![a chart](chart.png).",
            "Reads path with care; see the docs and a chart."),
        CompactionCase(
            "fenced code blocks are dropped",
            "Runs a query.\n\n```sql\nSELECT *\nFROM t;\n```\n\n~~~\nmore code\n~~~\nReturns rows.",
            "Runs a query. Returns rows."),
        CompactionCase(
            "glob stars and snake_case survive",
            "Hashes with xxh* or fnv1a_* (see __init__ and a*b).",
            "Hashes with xxh* or fnv1a_* (see __init__ and a*b)."),
        CompactionCase(
            "quotes and rules are dropped",
            "Fetches a page.\n\n> Beware of large pages.\n\n---\n\nFollows redirects.",
            "Fetches a page. Beware of large pages. Follows redirects."),
        CompactionCase(
            "blank lines, indentation and repeated spaces collapse",
            "  Search   the\tnotes\n\n\n\n   for a   word.  ",
            "Search the notes. for a word."),
    ]

    static let sentences: [CompactionCase] = [
        CompactionCase(
            "whole sentences while they fit",
            "First sentence here. Second sentence here. Third sentence is longer than what is left.",
            limit: 50,
            "First sentence here. Second sentence here."),
        CompactionCase(
            "a first sentence over the limit is cut at a word with an ellipsis",
            "This single sentence is much too long to fit into the tiny limit given to it.",
            limit: 30,
            "This single sentence is much…"),
        CompactionCase(
            "a cut does not leave punctuation before the ellipsis",
            "Alpha beta, gamma delta epsilon zeta eta theta.",
            limit: 13,
            "Alpha beta…"),
        CompactionCase(
            "a word longer than half the limit is cut inside",
            "Supercalifragilisticexpialidocious words",
            limit: 12,
            "Supercalifr…"),
        CompactionCase(
            "abbreviations and decimals do not end a sentence",
            "Sets the zone, e.g. Europe/Paris, i.e. an IANA name (v1.5 and up). Then more.",
            limit: 70,
            "Sets the zone, e.g. Europe/Paris, i.e. an IANA name (v1.5 and up)."),
        CompactionCase(
            "an abbreviation before a capital ends a sentence",
            "Reads files, logs, etc. Then it answers.",
            limit: 24,
            "Reads files, logs, etc."),
        CompactionCase(
            "questions and exclamations end sentences",
            "Is it late? It is! Yes.",
            limit: 18,
            "Is it late? It is!"),
        CompactionCase(
            "a paragraph without a full stop gets one before the next",
            "Shows the status\n\nOnly for git repositories.",
            "Shows the status. Only for git repositories."),
        CompactionCase("text that fits is kept whole", "Adds two numbers.", "Adds two numbers."),
        CompactionCase("empty text stays empty", "  \n\n ", ""),
        CompactionCase("markup alone leaves nothing", "```\ncode\n```\n---", ""),
    ]

    static let unicode: [CompactionCase] = [
        CompactionCase(
            "emoji and accents count as one character each and are never split",
            "🌟 Größe ändern für café 👩‍👩‍👧‍👦 familien überall und immer wieder",
            limit: 24,
            "🌟 Größe ändern für café…"),
        CompactionCase(
            "Chinese full stops end sentences without a space",
            "查询天气。返回温度和湿度。这是一个很长的句子需要被省略掉的内容",
            limit: 14,
            "查询天气。返回温度和湿度。"),
        CompactionCase(
            "text with no spaces is cut at a character",
            "查询天气返回温度和湿度这是一个很长的句子",
            limit: 8,
            "查询天气返回温…"),
        CompactionCase(
            "combining marks stay on their letters",
            "Cafe\u{301} cafe\u{301} cafe\u{301} cafe\u{301}",
            limit: 10,
            "Cafe\u{301} cafe\u{301}…"),
    ]
}

@Suite("Description compaction")
struct DescriptionCompactorTests {
    @Test("Docstring sections are dropped", arguments: CompactionCase.docstrings)
    func docstrings(_ testCase: CompactionCase) {
        #expect(DescriptionCompactor.compacted(testCase.input, maximumCharacters: testCase.limit) == testCase.expected)
    }

    @Test("Markdown is reduced to its text", arguments: CompactionCase.markdown)
    func markdown(_ testCase: CompactionCase) {
        #expect(DescriptionCompactor.compacted(testCase.input, maximumCharacters: testCase.limit) == testCase.expected)
    }

    @Test("Whole leading sentences are kept within the limit", arguments: CompactionCase.sentences)
    func sentences(_ testCase: CompactionCase) {
        #expect(DescriptionCompactor.compacted(testCase.input, maximumCharacters: testCase.limit) == testCase.expected)
    }

    @Test("Unicode text is measured and cut in characters", arguments: CompactionCase.unicode)
    func unicode(_ testCase: CompactionCase) {
        let compact = DescriptionCompactor.compacted(testCase.input, maximumCharacters: testCase.limit)
        #expect(compact == testCase.expected)
        #expect(compact.count <= testCase.limit)
    }

    @Test("The result never exceeds the limit", arguments: [0, 1, 2, 5, 40, 100, 300])
    func limits(_ limit: Int) {
        let texts = ListedTool.all.compactMap(\.tool.description) + CompactionCase.docstrings.map(\.input)
        for text in texts {
            let compact = DescriptionCompactor.compacted(text, maximumCharacters: limit)
            #expect(compact.count <= limit, "\(limit): \(compact)")
            #expect(compact.first?.isWhitespace != true && compact.last?.isWhitespace != true, "outer whitespace: \(compact)")
            #expect(!compact.contains("\n") && !compact.contains("  ") && !compact.contains("`"))
        }
    }

    @Test("Compacting a large adversarial text stays linear: brackets without ends, labels, abbreviations, markers")
    func boundedWork() {
        let unit = "[a ![b (c ** ` e.g. x. Returns: y\n- z\n# h\n    Args: q\n1) r\n```\n"
        let text = String(repeating: unit, count: 1_000) + String(repeating: "[", count: 20_000)
        let compact = DescriptionCompactor.compacted(text, maximumCharacters: 30_000)
        #expect(!compact.isEmpty && compact.count <= 30_000)
    }

    @Test("Only the start of a huge description is read")
    func boundedRead() {
        // Sections to drop and no sentence end before the limit: only what is read counts.
        let huge = "Args:\n" + String(repeating: "    x: y\n", count: 1_000) + "\n" + String(repeating: "word ", count: 100_000)
        let start = String(huge.prefix(DescriptionCompactor.minimumRead))
        #expect(
            DescriptionCompactor.compacted(huge, maximumCharacters: 100) == DescriptionCompactor.compacted(start, maximumCharacters: 100))
        #expect(DescriptionCompactor.compacted(huge, maximumCharacters: 100).hasPrefix("word word"))
        let wide = DescriptionCompactor.compacted(huge, maximumCharacters: 10_000)
        #expect(wide.count <= 10_000 && wide.count > 9_000)
    }

    @Test("maximumSentences keeps only the leading sentences")
    func sentenceCount() {
        let text = "One. Two. Three."
        #expect(DescriptionCompactor.compacted(text, maximumCharacters: 100, maximumSentences: 1) == "One.")
        #expect(DescriptionCompactor.compacted(text, maximumCharacters: 100, maximumSentences: 2) == "One. Two.")
        #expect(DescriptionCompactor.compacted(text, maximumCharacters: 100, maximumSentences: 0) == "")
    }

    struct NameCase: Sendable, CustomTestStringConvertible {
        let text: String
        let name: String
        let repeats: Bool
        var testDescription: String { "\(name): \(text)" }
    }

    @Test(
        "A description that only repeats its name is recognised",
        arguments: [
            NameCase(text: "The path", name: "path", repeats: true),
            NameCase(text: "Path.", name: "path", repeats: true),
            NameCase(text: "Extra Names", name: "extra_names", repeats: true),
            NameCase(text: "A file path", name: "filePath", repeats: true),
            NameCase(text: "get_weatherArguments", name: "get_weather_arguments", repeats: true),
            NameCase(text: "Città", name: "città", repeats: true),
            NameCase(text: "The path to the file", name: "path", repeats: false),
            NameCase(text: "Repository owner", name: "owner", repeats: false),
            NameCase(text: "The", name: "the", repeats: true),
            NameCase(text: "A", name: "b", repeats: false),
            NameCase(text: "…", name: "x", repeats: false),
            NameCase(text: "名前を入力", name: "名前", repeats: false),
        ])
    func repeatsName(_ testCase: NameCase) {
        #expect(DescriptionCompactor.repeatsName(testCase.text, testCase.name) == testCase.repeats)
    }

    @Test("A parameter description is its first sentence within 100 characters, or nothing when it repeats the name")
    func parameterDescriptions() throws {
        #expect(DescriptionCompactor.parameterDescription("The path", name: "path") == nil)
        #expect(DescriptionCompactor.parameterDescription("**Path**", name: "path") == nil)
        #expect(DescriptionCompactor.parameterDescription("   ", name: "path") == nil)
        #expect(
            DescriptionCompactor.parameterDescription("Base of `value`: hex or dec. Default 'hex'.", name: "from_base")
                == "Base of value: hex or dec.")
        let long = try #require(DescriptionCompactor.parameterDescription(String(repeating: "very ", count: 40) + "long.", name: "x"))
        #expect(long.count <= DescriptionCompactor.parameterCharacters && long.hasSuffix("…"))
        // A description that is only an example keeps it: it is all there is.
        #expect(DescriptionCompactor.parameterDescription("Example: 'Europe/Paris'", name: "zone") == "Example: 'Europe/Paris'")
    }

    @Test("A tool's model description: compacted, cleaned, with fallbacks; the old form cuts the raw text")
    func modelDescriptions() {
        let budget = ContextBudget.onDevice
        let docstring = MCPCore.ToolDefinition(
            name: "get_weather", description: "Get the\u{200B} weather.\n\n    Args:\n        city: The city.", inputSchema: [:])
        #expect(DescriptionCompactor.modelDescription(of: docstring, budget: budget, cleans: true) == "Get the weather.")
        #expect(DescriptionCompactor.modelDescription(of: docstring, budget: budget, cleans: false) == "Get the\u{200B} weather.")
        #expect(
            DescriptionCompactor.modelDescription(of: docstring, budget: budget, cleans: true, compacts: false)
                == "Get the weather.\n\n    Args:\n        city: The city.")

        let titled = MCPCore.ToolDefinition(name: "t", title: "Weather **now**", description: "```\ncode\n```", inputSchema: [:])
        #expect(DescriptionCompactor.modelDescription(of: titled, budget: budget, cleans: true) == "Weather now")
        let bare = MCPCore.ToolDefinition(name: "t", inputSchema: [:])
        #expect(DescriptionCompactor.modelDescription(of: bare, budget: budget, cleans: true) == "Calls the tool t.")

        let long = MCPCore.ToolDefinition(name: "t", description: String(repeating: "Word word word. ", count: 40), inputSchema: [:])
        let compact = DescriptionCompactor.modelDescription(of: long, budget: budget, cleans: true)
        #expect(compact.count <= budget.descriptionCharacters && compact.hasSuffix("word."))
        #expect(DescriptionCompactor.modelDescription(of: long, budget: ContextBudget(descriptionCharacters: 40), cleans: true).count <= 40)
    }
}
