// ondevice-mcp-http: ondevice-mcp with MCP's Streamable HTTP transport, for remote servers
// (`--url URL`, `url` entries of `--config`). ondevice-mcp hands such commands over to it, so
// that ondevice-mcp itself (and `serve`) never loads Foundation; it runs every other command
// the same way.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import MCP
import MCPCommandLine
import MCPHTTP

SandboxLauncher.runIfRequested()

exit(
    await OnDeviceMCPCommand.main(CommandLine.arguments) { url, headers, configuration in
        guard let address = URL(string: url) else {
            throw TransportError.invalidConfiguration("'\(url)' is not a URL")
        }
        return try await MCPClient.connect(to: .http(address, configuration: HTTPTransportConfiguration(headers: headers)), configuration: configuration)
    })
