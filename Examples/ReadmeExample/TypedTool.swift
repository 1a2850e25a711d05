import MCP

func typedToolExample() async throws {
    let server = MCPServer(name: "Notes", version: "1.0")
    // README: typed
    // Typed arguments and results: decoded from (and encoded to) JSON for you.
    struct Search: Decodable, Sendable { var query: String; var limit: Int? }
    struct Found: Encodable, Sendable { var titles: [String] }

    try await server.register(
        name: "notes_find", description: "Find notes by words in their title",
        inputSchema: ["type": "object", "properties": ["query": ["type": "string"], "limit": ["type": "integer"]], "required": ["query"]]
    ) { (search: Search, _) in
        Found(titles: ["Lisbon trip", "Lisbon tram"].filter { $0.contains(search.query) }.prefix(search.limit ?? 10).map { $0 })
    }
    // README: end
    let client = try await MCPClient.connect(to: server)
    print(try await client.callTool(name: "notes_find", arguments: ["query": "Lisbon", "limit": 1]).text)
    await client.close()
}
