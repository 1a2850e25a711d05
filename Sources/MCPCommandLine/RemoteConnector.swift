import MCP
import MCPHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Connects to a remote MCP server: its URL, the headers to send, the client's configuration.
///
/// The program connects over the Streamable HTTP transport (``http``); tests put their own in
/// its place.
typealias RemoteConnector =
    @Sendable (_ url: String, _ headers: [String: String], _ configuration: MCPClient.Configuration) async throws -> MCPClient

/// The program's remote connections.
enum RemoteConnection {
    /// Connects over MCP's Streamable HTTP transport (`MCPHTTP`).
    static let http: RemoteConnector = { url, headers, configuration in
        guard let address = URL(string: url) else {
            throw TransportError.invalidConfiguration("'\(url)' is not a URL")
        }
        return try await MCPClient.connect(
            to: .http(address, configuration: HTTPTransportConfiguration(headers: headers)), configuration: configuration)
    }
}
