import MCP

func annotatedToolExample() async throws {
    let server = MCPServer(name: "Notes", version: "1.0")
    // README: annotations
    // A tool that changes something says so: the default policy then asks a person (or
    // declines) before the model runs it.
    try await server.register(
        name: "notes_add",
        description: "Add a note",
        inputSchema: ["type": "object", "properties": ["text": ["type": "string"]], "required": ["text"]],
        annotations: ToolAnnotations(readOnlyHint: false, destructiveHint: false, openWorldHint: false)
    ) { arguments, _ in
        .text("Added: \(arguments["text"]?.stringValue ?? "")")
    }
    // README: end
    let client = try await MCPClient.connect(to: server)
    print(try await client.callTool(name: "notes_add", arguments: ["text": "Call the bank"]).text)
    await client.close()
}
