import MCP
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// The app's own tools, served in process, are its code: trusted by default. A server in
/// another process, or one the app names so, is not.
@Suite("The app's own in-process tools are trusted by default")
struct InProcessTrustTests {
    /// The README's example tool, exactly as the README registers it: no annotations.
    static func readmeServer() async throws -> MCPServer {
        let notes = ["Lisbon trip: book the tram tour", "Dentist on Tuesday"]
        let server = MCPServer(name: "Notes", version: "1.0")
        try await server.register(
            name: "notes_search",
            description: "Search the user's notes",
            inputSchema: ["type": "object", "properties": ["query": ["type": "string"]], "required": ["query"]]
        ) { arguments, _ in
            let query = arguments["query"]?.stringValue ?? ""
            return .text(notes.filter { $0.contains(query) }.joined(separator: "\n"))
        }
        return server
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("The README's unannotated notes_search runs with the default policy and defences")
    func readmeToolRuns() async throws {
        let client = try await MCPClient.connect(to: try await Self.readmeServer())
        let toolset = try BridgedToolset(listing: try await client.listTools(), client: client, configuration: .init())
        let tool = try #require(toolset.tools.first)
        #expect(tool.origin == .inProcess)
        #expect(tool.effects.isEmpty)
        let answer = try await tool.call(arguments: GeneratedContent(properties: ["query": "Lisbon"]))
        #expect(answer.contains("Lisbon trip: book the tram tour"), "\(answer)")
        await client.close()
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("The same tool, from a server the app names out of process, is declined by the default policy")
    func outOfProcessToolDeclined() async throws {
        let client = try await MCPClient.connect(to: try await Self.readmeServer())
        let configuration = MCPSessionProvider.Configuration(defences: Defences(trust: ToolTrust(origin: .outOfProcess)))
        let toolset = try BridgedToolset(listing: try await client.listTools(), client: client, configuration: configuration)
        let tool = try #require(toolset.tools.first)
        #expect(tool.origin == .outOfProcess)
        #expect(tool.effects == [.writes, .destroys, .reachesOpenWorld])
        let answer = try await tool.call(arguments: GeneratedContent(properties: ["query": "Lisbon"]))
        #expect(answer.contains("the tool did not run: declined"), "\(answer)")
        await client.close()
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("An in-process tool that declares effects is still asked about")
    func declaredEffectsStillAsked() async throws {
        let server = MCPServer(name: "Notes", version: "1.0")
        try await server.register(
            MCPTool(
                name: "notes_delete", description: "Deletes a note",
                annotations: ToolAnnotations(readOnlyHint: false, destructiveHint: true, openWorldHint: false)
            ) { _ in .text("deleted") })
        let client = try await MCPClient.connect(to: server)
        let toolset = try BridgedToolset(listing: try await client.listTools(), client: client, configuration: .init())
        let tool = try #require(toolset.tools.first)
        #expect(tool.effects == [.writes, .destroys])
        let answer = try await tool.call(arguments: GeneratedContent(properties: [:]))
        #expect(answer.contains("the tool did not run: declined"), "\(answer)")
        await client.close()
    }
}
