// README: process
import MCP

// Any other MCP server, in its own process (macOS, Linux), in a box by default: read-only
// system, a private data directory, no network, an environment allowlist, limits; every
// process it starts ends with it. No helper program is needed.
func lisbonTime() async throws -> String {
    try await MCPClient.withConnection(to: .process("mcp-server-time")) { time in
        try await time.callTool(name: "get_current_time", arguments: ["timezone": "Europe/Lisbon"]).text
    }
}
// README: end
