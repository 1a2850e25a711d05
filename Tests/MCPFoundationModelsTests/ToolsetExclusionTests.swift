import MCP
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

@Suite("Toolset exclusions")
struct ToolsetExclusionTests {
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A listed entry that is not a valid tool is an exclusion with its reason; the others are bridged")
    func malformedEntryIsExcluded() async throws {
        let server = MCPServer(name: "one", version: "1")
        try await server.register(name: "good", description: "Fine") { _, _ in .text("") }
        try await MCPClient.withConnection(to: server) { client in
            let listing = ToolListing(
                tools: try await client.listTools().tools,
                skipped: [SkippedTool(position: 1, name: "broken", reason: "/tools/1/inputSchema: expected an object, found null")])
            let toolset = try BridgedToolset(listing: listing, client: client, configuration: MCPSessionProvider.Configuration())
            #expect(toolset.tools.map(\.name) == ["good"])
            let exclusion = try #require(toolset.excluded.first)
            #expect(exclusion.toolNameOnServer == "broken")
            #expect(exclusion.reason.contains("inputSchema"))
        }
    }
}
