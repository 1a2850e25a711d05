#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import MCP
internal import MCPPlatform

/// Connects to a remote MCP server: its URL, the headers to send, the client's configuration.
///
/// `ondevice-mcp-http` supplies one built on the Streamable HTTP transport (`MCPHTTP`).
/// `ondevice-mcp` has none: linking URLSession would load Foundation (and ICU) into every
/// command, `serve` included (its idle memory would go from about 16 to 28 MiB), so it
/// hands remote commands over to `ondevice-mcp-http`, installed beside it.
public typealias RemoteConnector =
    @Sendable (_ url: String, _ headers: [String: String], _ configuration: MCPClient.Configuration) async throws -> MCPClient

/// The executable `ondevice-mcp` hands remote commands to.
enum RemoteHandOver {
    static let helperName = "ondevice-mcp-http"

    /// The helper beside the running executable, if there is one.
    static var helperPath: String? {
        guard let executable = POSIX.currentExecutablePath() else { return nil }
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let path = directory + "/" + helperName
        return POSIX.exists(path) ? path : nil
    }

    /// Replaces this process with the helper running the same command line; returns only
    /// when that is impossible, with the reason.
    static func handOver() -> String {
        guard let path = helperPath else {
            return "remote servers need \(helperName), which is built beside ondevice-mcp (swift build --product \(helperName)); "
                + "ondevice-mcp keeps the HTTP transport out so that serve never loads Foundation"
        }
        let arguments = [helperName] + CommandLine.arguments.dropFirst()
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let error = POSIX.PreparedExec(path: path, arguments: arguments, environment: environment).run()
        return "cannot start \(path): \(error)"
    }
}

extension ParsedCommand {
    /// The servers the command talks to, if it talks to any.
    var server: ServerChoice? {
        switch self {
        case .start(let server): server
        case .tools(let options): options.server
        case .call(let options): options.server
        case .chat(let options): options.server
        case .help, .version, .serve, .schema: nil
        }
    }

    /// Whether the command reaches a remote server: `--url`, or a `url` entry of `--config`
    /// (a file that cannot be read is left to the command, which reports it).
    var reachesRemoteServer: Bool {
        switch server {
        case .remote?:
            return true
        case .configuration(let file, _)?:
            return (try? ServerConfiguration(contentsOfFile: file))?.servers.contains { $0.url != nil } ?? false
        default:
            return false
        }
    }
}

extension Runner {
    /// Connects to a remote server with ``remote``; without one (in `ondevice-mcp`), hands the
    /// whole command line over to `ondevice-mcp-http` and never returns, or fails saying why.
    func connectRemote(_ url: String, headers: [String: String], configuration: MCPClient.Configuration) async throws -> MCPClient {
        guard let remote else {
            throw Abort(code: fail(RemoteHandOver.handOver()))
        }
        return try await remote(url, headers, configuration)
    }
}
