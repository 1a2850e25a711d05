import MCP
import Testing

/// Typed tools registered without an `inputSchema`, called through an in-process client.
@Suite("Typed tools with derived schemas")
struct DerivedSchemaToolTests {
    static func server(calls: LockedList<String>) async throws -> MCPServer {
        let server = MCPServer(name: "typed", version: "1")
        try await server.register(name: "notes_search", title: "Search notes", description: "Search the notes") {
            (search: SearchArguments, _) in
            calls.append(search.query)
            return Found(query: search.query, folder: search.filter.folder, titles: (0..<(search.limit ?? 2)).map { "note \($0)" })
        }
        try await server.register(
            try MCPTool(name: "sort_notes", description: "Sorts notes", concurrency: .serialized) { (arguments: EnumArguments, _) in
                calls.append(arguments.sort.rawValue)
                return arguments.sort.rawValue
            })
        return server
    }

    @Test("the listed schema is the derived one, and a call decodes and answers")
    func listAndCall() async throws {
        let calls = LockedList<String>()
        let client = try await MCPClient.connect(to: try await Self.server(calls: calls))
        let tools = try await client.listTools()
        let search = try #require(tools.first { $0.name == "notes_search" })
        #expect(search.inputSchema == (try ToolArgumentsSchema(for: SearchArguments.self).json))
        #expect(search.title == "Search notes")
        #expect(search.inputSchema["properties"]?["query"]?["description"] == "Words to look for")
        let sort = try #require(tools.first { $0.name == "sort_notes" })
        #expect(sort.inputSchema == (try ToolArgumentsSchema(for: EnumArguments.self).json))

        let result = try await client.callTool(
            name: "notes_search", arguments: ["query": "trip", "filter": ["folder": "Travel"], "limit": 1, "changedAfter": nil])
        #expect(!result.isError)
        #expect(result.structuredContent == ["query": "trip", "folder": "Travel", "titles": ["note 0"]])
        #expect(try await client.callTool(name: "sort_notes", arguments: ["sort": "oldest", "also": []]) == .text("oldest"))
        #expect(calls.values == ["trip", "oldest"])
        await client.close()
    }

    struct BadCall: Sendable, CustomTestStringConvertible {
        let name: String
        let tool: String
        let arguments: JSONObject
        /// What the error text holds: the argument, and the schema keyword that refused it.
        let names: [String]
        var testDescription: String { name }
    }

    static let badCalls: [BadCall] = [
        BadCall(
            name: "a string for an integer", tool: "notes_search", arguments: ["query": "trip", "filter": ["folder": "x"], "limit": "3"],
            names: ["/limit: ", "(schema: /properties/limit/type)"]),
        BadCall(
            name: "a missing member", tool: "notes_search", arguments: ["filter": ["folder": "x"]],
            names: ["missing required property \"query\"", "(schema: /required)"]),
        BadCall(
            name: "a nested member of the wrong type", tool: "notes_search", arguments: ["query": "q", "filter": ["folder": 7]],
            names: ["/filter/folder: ", "(schema: /properties/filter/properties/folder/type)"]),
        BadCall(
            name: "a value outside an enum", tool: "sort_notes", arguments: ["sort": "random", "also": []],
            names: ["/sort: ", "(schema: /properties/sort/enum)"]),
        BadCall(
            name: "an array element outside an enum", tool: "sort_notes", arguments: ["sort": "newest", "also": ["newest", "sideways"]],
            names: ["/also/1: ", "(schema: /properties/also/items/enum)"]),
    ]

    @Test("wrong arguments are refused by the derived schema before the handler runs, naming the argument", arguments: badCalls)
    func badArguments(_ test: BadCall) async throws {
        let calls = LockedList<String>()
        let client = try await MCPClient.connect(to: try await Self.server(calls: calls))
        let result = try await client.callTool(name: test.tool, arguments: test.arguments)
        #expect(result.isError)
        #expect(result.text.hasPrefix("Invalid arguments for tool \(test.tool): "), "\(result.text)")
        for name in test.names {
            #expect(result.text.contains(name), "\(result.text)")
        }
        #expect(calls.values.isEmpty)
        await client.close()
    }

    @Test("a type with no derivable schema is refused at registration, and the tool list is unchanged")
    func refusedAtRegistration() async throws {
        let server = MCPServer(name: "typed", version: "1")
        let error = await #expect(throws: ToolArgumentsSchemaError.dependsOnValues) {
            try await server.register(name: "draw", description: "Draws") { (_: DrawingArguments, _) in "drawn" }
        }
        #expect(error?.description.contains("DrawingArguments at /shape") == true)
        #expect(await server.tools.isEmpty)
        #expect(throws: ToolArgumentsSchemaError.dependsOnValues) {
            try MCPTool(name: "mode", description: "Mode") { (_: ModeArguments, _) in "mode" }
        }
    }

    @Test("the same type with an explicit inputSchema is still accepted")
    func explicitSchemaStillWorks() async throws {
        let server = MCPServer(name: "typed", version: "1")
        try await server.register(
            name: "draw", description: "Draws",
            inputSchema: ["type": "object", "properties": ["shape": ["type": "object"]], "required": ["shape"]]
        ) { (arguments: DrawingArguments, _) in
            switch arguments.shape {
            case .circle(let radius): "circle \(radius)"
            case .square(let side): "square \(side)"
            }
        }
        let client = try await MCPClient.connect(to: server)
        let result = try await client.callTool(name: "draw", arguments: ["shape": ["circle": ["radius": 2]]])
        #expect(result == .text("circle 2.0"))
        await client.close()
    }
}
