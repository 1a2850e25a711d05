import MCP

func typedToolExample() async throws {
    let server = MCPServer(name: "Notes", version: "1.0")
    // README: typed
    // Typed arguments and results: the input schema is derived from the type, and the
    // arguments are decoded (and the result encoded) for you.
    struct Search: ToolArguments {
        var query: String
        var limit: Int?
        static let argumentDescriptions = ["query": "Words in the note's title", "limit": "At most this many; 10 by default"]
    }
    struct Found: Encodable, Sendable { var titles: [String] }

    try await server.register(name: "notes_find", description: "Find notes by words in their title") { (search: Search, _) in
        Found(titles: ["Lisbon trip", "Lisbon tram"].filter { $0.contains(search.query) }.prefix(search.limit ?? 10).map { $0 })
    }
    print(try ToolArgumentsSchema(for: Search.self).json)  // {"type":"object","properties":{"query":…
    // README: end
    let client = try await MCPClient.connect(to: server)
    print(try await client.callTool(name: "notes_find", arguments: ["query": "Lisbon", "limit": 1]).text)
    await client.close()
}
