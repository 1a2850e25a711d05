// The seed's sketch ("Map MCP tools into Foundation Models") as it compiles against
// OnDeviceMCP, and a run of it. The same source builds against Apple's FoundationModels
// (macOS 26, iOS 26) and, elsewhere, against PortableFoundationModels, where a scripted
// model stands in for the on-device one.

import MCP
import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

// MARK: The sketch

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
func makeSession(client: MCPClient, model: SystemLanguageModel) async throws -> LanguageModelSession {
    let listed = try await client.listTools()
    let tools: [any Tool] = try listed.map { item in
        MCPBridgedTool(
            name: item.name,
            description: item.description ?? "",
            client: client,
            parameters: try SchemaConversion.schema(from: item.inputSchema)
        )
    }
    return LanguageModelSession(
        model: model,
        tools: tools,
        instructions: "Use tools when you need live app data. Do not invent tool names."
    )
}

// MARK: A run

/// A server with one tool, `notes_search`, that finds the Lisbon flight.
func notesServer() async throws -> MCPServer {
    let server = MCPServer(name: "Notes", version: "1.0")
    try await server.register(
        name: "notes_search",
        description: "Search the user's notes",
        inputSchema: ["type": "object", "properties": ["query": ["type": "string"]], "required": ["query"]]
    ) { arguments, _ in
        .text("Note 1: \(arguments["query"]?.stringValue ?? ""): flight TP 1234 leaves at 09:40.")
    }
    return server
}

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
func run() async throws {
    let server = try await notesServer()
    let client = try await MCPClient.connect(to: server)

    #if canImport(FoundationModels)
    let model = SystemLanguageModel.default
    guard model.isAvailable else {
        print("The on-device model is not available here: \(model.availability)")
        return
    }
    #else
    // No on-device model on this platform: a scripted one calls the tool, then answers with its output.
    let script = ScriptedLanguageModel([
        .callTool("notes_search", arguments: GeneratedContent(properties: ["query": "Lisbon"])),
        .reply { request in "From your notes: \(request.toolOutput("notes_search") ?? "nothing")" },
    ])
    let model = script.model
    #endif

    let session = try await makeSession(client: client, model: model)
    let answer = try await session.respond(to: "When does my Lisbon flight leave?")
    print(answer.content)
    await client.close()
}

if #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) {
    try await run()
    if #available(iOS 27.0, macOS 27.0, visionOS 27.0, *) {
        try await runDynamic()
    }
} else {
    print("FoundationModels needs macOS 26 or iOS 26.")
}
