import Foundation
import MCP
import Testing

/// The tool selection evaluation's data (`Tests/Fixtures/SelectionEval`, see its README): the
/// servers' tool lists, the catalogs, and the development and held-out test prompts.
enum SelectionEvalFixtures {
    static let folder = Paths.tests.deletingLastPathComponent().appendingPathComponent("Fixtures/SelectionEval")

    /// The two prompt sets.
    static let sets = ["dev", "test"]

    /// One prompt as the files give it.
    struct Prompt: Sendable, CustomTestStringConvertible {
        let set: String
        let text: String
        let catalog: String
        let needs: [String]
        let recentlyUsed: [String]
        var testDescription: String { "\(set): \"\(text)\"" }

        /// The servers of the tools it needs.
        var servers: Set<String> { Set(needs.compactMap { $0.split(separator: "/", maxSplits: 1).first.map(String.init) }) }
    }

    static func read(_ path: String) throws -> JSONValue {
        let url = folder.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MissingFixture(path: url.path)
        }
        return try readJSON(url)
    }

    /// `catalogs.json`: each catalog's server file names.
    static func catalogs() throws -> [String: [String]] {
        let object = try #require(try read("catalogs.json").objectValue, "catalogs.json is not an object")
        var catalogs: [String: [String]] = [:]
        for (name, servers) in object {
            catalogs[name] = (servers.arrayValue ?? []).compactMap(\.stringValue)
        }
        return catalogs
    }

    /// The tools of `servers/NAME.json`.
    static func tools(of server: String) throws -> [MCPCore.ToolDefinition] {
        let entries = try #require(try read("servers/\(server).json")["tools"]?.arrayValue, "servers/\(server).json has no tools array")
        return try entries.map { try MCPCore.ToolDefinition(json: $0) }
    }

    /// Whether `servers/NAME.json` was written for the evaluation in the style of a real server
    /// (its `_meta.source` says so), not captured from one.
    static func isWrittenForEvaluation(_ server: String) throws -> Bool {
        let source = try read("servers/\(server).json")["_meta"]?["source"]?.stringValue ?? ""
        return source.hasPrefix("written for this evaluation in the style of ")
    }

    /// The tool names of `servers/NAME.json` that the project's corpus of captured tool lists
    /// (`Tests/Fixtures/ToolSchemas`) also has.
    static func toolNamesInCorpus(of server: String) throws -> Set<String> {
        Set(try tools(of: server).map(\.name)).intersection(ListedTool.all.map(\.tool.name))
    }

    /// The prompts of `dev.json` or `test.json`.
    static func prompts(_ set: String) throws -> [Prompt] {
        let entries = try #require(try read("\(set).json")["prompts"]?.arrayValue, "\(set).json has no prompts array")
        return try entries.map { entry in
            Prompt(
                set: set, text: try #require(entry["prompt"]?.stringValue, "a prompt without text in \(set).json"),
                catalog: try #require(entry["catalog"]?.stringValue, "a prompt without a catalog in \(set).json"),
                needs: (entry["needs"]?.arrayValue ?? []).compactMap(\.stringValue),
                recentlyUsed: (entry["recentlyUsed"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
    }

    /// A fixture file is not there (a broken checkout): the test fails naming it.
    struct MissingFixture: Error, CustomStringConvertible {
        let path: String
        var description: String { "missing fixture \(path)" }
    }
}

@Suite("The selection evaluation's fixtures are well formed")
struct SelectionEvalFixtureTests {
    @Test("Each catalog names server files that hold valid tool lists, each with its source and unique tool names")
    func catalogsNameServerFiles() throws {
        let catalogs = try SelectionEvalFixtures.catalogs()
        #expect(Set(catalogs.keys) == ["six", "new", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"])
        for (catalog, servers) in catalogs {
            #expect(!servers.isEmpty, "catalog \(catalog)")
            #expect(Set(servers).count == servers.count, "catalog \(catalog) names a server twice")
            for server in servers {
                let tools = try SelectionEvalFixtures.tools(of: server)
                #expect(!tools.isEmpty, "\(server) lists no tool")
                #expect(Set(tools.map(\.name)).count == tools.count, "\(server) lists a tool name twice")
                let source = try SelectionEvalFixtures.read("servers/\(server).json")["_meta"]?["source"]?.stringValue
                #expect(source?.isEmpty == false, "\(server) does not say where its tools come from")
            }
        }
    }

    @Test("Catalog six is six real servers with 69 tools; catalog new adds at least six servers written for the evaluation")
    func catalogContents() throws {
        let catalogs = try SelectionEvalFixtures.catalogs()
        let six = try #require(catalogs["six"])
        #expect(Set(six) == ["filesystem", "sqlite", "calculator", "time", "git", "gitlab"])
        #expect(try six.reduce(0) { $0 + (try SelectionEvalFixtures.tools(of: $1).count) } == 69)
        let new = try #require(catalogs["new"])
        #expect(new.contains("filesystem") && new.contains("time"))
        let written = try new.filter(SelectionEvalFixtures.isWrittenForEvaluation)
        #expect(written.count >= 6)
        // None of the written servers is in the project's corpus of captured tool lists.
        for server in written {
            let shared = try SelectionEvalFixtures.toolNamesInCorpus(of: server)
            #expect(shared.isEmpty, "\(server) shares tool names with Tests/Fixtures/ToolSchemas: \(shared.sorted())")
        }
    }

    @Test(
        "Catalogs third to ninth each add four servers written for the evaluation, unlike anything in the corpus but GitHub and fetch",
        arguments: [
            ("third", ["six", "new"], ["github", "notion", "spotify", "homeassistant"]),
            ("fourth", ["six", "new", "third"], ["jira", "drive", "todoist", "docker"]),
            ("fifth", ["six", "new", "third", "fourth"], ["kubernetes", "sentry", "maps", "obsidian"]),
            ("sixth", ["six", "new", "third", "fourth", "fifth"], ["stripe", "brave", "hubspot", "trello"]),
            ("seventh", ["six", "new", "third", "fourth", "fifth", "sixth"], ["apple", "deepl", "airtable", "finance"]),
            ("eighth", ["six", "new", "third", "fourth", "fifth", "sixth", "seventh"], ["shopify", "zoom", "health", "flights"]),
            (
                "ninth", ["six", "new", "third", "fourth", "fifth", "sixth", "seventh", "eighth"],
                ["discord", "pagerduty", "figma", "youtube"]
            ),
        ])
    func laterCatalogContents(_ name: String, _ before: [String], _ expected: [String]) throws {
        let catalogs = try SelectionEvalFixtures.catalogs()
        let catalog = try #require(catalogs[name])
        // Its own: written servers that no earlier catalog has.
        let earlier = Set(before.flatMap { catalogs[$0] ?? [] })
        let own = Set(try catalog.filter(SelectionEvalFixtures.isWrittenForEvaluation)).subtracting(earlier)
        #expect(own == Set(expected))
        // The GitHub server imitates one the corpus captured (its tool names are GitHub's), and
        // the web search server carries the reference fetch server's one tool; the rest is new.
        for server in own.subtracting(["github"]) {
            let shared = try SelectionEvalFixtures.toolNamesInCorpus(of: server).subtracting(server == "brave" ? ["fetch"] : [])
            #expect(shared.isEmpty, "\(server) shares tool names with Tests/Fixtures/ToolSchemas: \(shared.sorted())")
        }
    }

    @Test("Every needed and recently used tool exists in its prompt's catalog", arguments: SelectionEvalFixtures.sets)
    func referencesExist(_ set: String) throws {
        let catalogs = try SelectionEvalFixtures.catalogs()
        var toolsByServer: [String: Set<String>] = [:]
        for server in Set(catalogs.values.flatMap { $0 }) {
            toolsByServer[server] = Set(try SelectionEvalFixtures.tools(of: server).map(\.name))
        }
        for prompt in try SelectionEvalFixtures.prompts(set) {
            let servers = try #require(catalogs[prompt.catalog], "\(prompt.testDescription) names catalog \(prompt.catalog)")
            #expect(!prompt.needs.isEmpty, "\(prompt.testDescription) needs no tool")
            #expect(Set(prompt.needs).count == prompt.needs.count, "\(prompt.testDescription) names a needed tool twice")
            for reference in prompt.needs + prompt.recentlyUsed {
                let parts = reference.split(separator: "/", maxSplits: 1).map(String.init)
                try #require(parts.count == 2, "\(prompt.testDescription): \(reference) is not server/tool")
                #expect(servers.contains(parts[0]), "\(prompt.testDescription): \(parts[0]) is not in catalog \(prompt.catalog)")
                #expect(
                    toolsByServer[parts[0]]?.contains(parts[1]) == true, "\(prompt.testDescription): \(parts[0]) has no tool \(parts[1])")
            }
        }
    }

    @Test(
        "Each set has at least 50 prompts on catalog six and 40 on new; only the development set uses the later catalogs",
        arguments: SelectionEvalFixtures.sets)
    func sizes(_ set: String) throws {
        let prompts = try SelectionEvalFixtures.prompts(set)
        #expect(prompts.filter { $0.catalog == "six" }.count >= 50)
        #expect(prompts.filter { $0.catalog == "new" }.count >= 40)
        // Catalog third came after the test set was written: the test set cannot have it.
        let catalogs: Set<String> =
            set == "dev" ? ["six", "new", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"] : ["six", "new"]
        #expect(prompts.allSatisfy { catalogs.contains($0.catalog) })
        if set == "dev" {
            #expect(prompts.filter { $0.catalog == "third" }.count >= 100)
            #expect(prompts.filter { $0.catalog == "fourth" }.count >= 100)
            #expect(prompts.filter { $0.catalog == "fifth" }.count >= 100)
            #expect(prompts.filter { $0.catalog == "sixth" }.count >= 100)
            #expect(prompts.filter { $0.catalog == "seventh" }.count >= 100)
            #expect(prompts.filter { $0.catalog == "eighth" }.count >= 100)
            #expect(prompts.filter { $0.catalog == "ninth" }.count >= 100)
        }
    }

    @Test("No prompt is in both sets, nor twice in one")
    func setsAreDisjoint() throws {
        func normalized(_ text: String) -> String {
            text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let dev = try SelectionEvalFixtures.prompts("dev").map { normalized($0.text) }
        let test = try SelectionEvalFixtures.prompts("test").map { normalized($0.text) }
        #expect(Set(dev).count == dev.count)
        #expect(Set(test).count == test.count)
        #expect(Set(dev).isDisjoint(with: test), "in both: \(Set(dev).intersection(test).sorted())")
    }

    @Test("Each set needs every server of its catalogs and has follow-ups after other tools", arguments: SelectionEvalFixtures.sets)
    func coverage(_ set: String) throws {
        let catalogs = try SelectionEvalFixtures.catalogs()
        let prompts = try SelectionEvalFixtures.prompts(set)
        for (catalog, servers) in catalogs where prompts.contains(where: { $0.catalog == catalog }) {
            let needed = prompts.filter { $0.catalog == catalog }.reduce(into: Set<String>()) { $0.formUnion($1.servers) }
            #expect(needed == Set(servers), "catalog \(catalog): no prompt needs \(Set(servers).subtracting(needed).sorted())")
        }
        let followUps = prompts.filter { !$0.recentlyUsed.isEmpty }
        #expect(followUps.count >= 15)
        #expect(followUps.contains { !Set($0.recentlyUsed).isDisjoint(with: $0.needs) }, "a follow-up on the same tool")
        #expect(followUps.contains { Set($0.recentlyUsed).isDisjoint(with: $0.needs) }, "a change of subject")
    }
}
