// README: remote
import Foundation
import MCP
import MCPHTTP

// A remote server over MCP's Streamable HTTP (the way an iOS app reaches one).
func remoteTools(at url: URL, token: String) async throws -> [String] {
    let endpoint = ServerEndpoint.http(url, configuration: HTTPTransportConfiguration(headers: ["Authorization": "Bearer \(token)"]))
    return try await MCPClient.withConnection(to: endpoint) { remote in
        try await remote.listTools().map(\.name)
    }
}
// README: end
