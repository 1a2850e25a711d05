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

/// Connects to a model on an OpenAI-compatible chat-completions server: the server's URL
/// (`--model-url`, `ONDEVICE_MCP_MODEL_URL`) and the model's name (`--model`,
/// `ONDEVICE_MCP_MODEL`; `nil`: the server's first model).
///
/// Returns a ``ConnectedModel`` (any 27 `LanguageModel` and its token counter) or a
/// `SystemLanguageModel`, as `any Sendable` so that this type needs no availability on Apple
/// platforms. `ondevice-mcp-http` supplies a ``ConnectedModel`` of
/// `ChatCompletionsModel.connect(to:model:configuration:)` where Apple's FoundationModels is
/// missing; `ondevice-mcp` has none (the HTTP client would load Foundation),
/// so it hands a command with a model server over to `ondevice-mcp-http`, as it does remote
/// MCP servers. Errors it throws are reported in one line (`error: …`, exit status 3).
public typealias ModelConnector = @Sendable (_ url: String, _ model: String?) async throws -> any Sendable

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
    /// when that is impossible, with the reason. `needs` says what needs the helper
    /// ("remote servers need"), for the message.
    static func handOver(_ needs: String = "remote servers need") -> String {
        guard let path = helperPath else {
            return "\(needs) \(helperName), which is built beside ondevice-mcp (swift build --product \(helperName)); "
                + "ondevice-mcp keeps the HTTP client out so that serve never loads Foundation"
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
        case .start(let options): options.server
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

    /// The language model the command chats with, if it chats.
    var model: ModelChoice? {
        switch self {
        case .start(let options): options.model
        case .chat(let options): options.model
        case .help, .version, .serve, .tools, .call, .schema: nil
        }
    }

    /// The URL of the model server the command talks to, if it talks to one.
    var modelServerURL: String? {
        if case .server(let url, _)? = model { url } else { nil }
    }

    /// Whether a process with the given connectors hands this command over to
    /// `ondevice-mcp-http`, and why: `ondevice-mcp` has neither connector, so a command that
    /// reaches a remote MCP server or a model server runs in `ondevice-mcp-http`.
    /// `nil`: the command runs here.
    func handOverReason(remote: RemoteConnector?, model: ModelConnector?) -> String? {
        // ondevice-mcp-http has connectors (on Apple platforms, no model connector): it never
        // hands over, which would start itself again.
        guard remote == nil, model == nil else { return nil }
        if reachesRemoteServer { return "remote servers need" }
        if modelServerURL != nil { return "a model server (--model-url, \(CommandLineParser.modelURLVariable)) needs" }
        return nil
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
