#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MCP

// Connecting to the servers a command names: the built-in one, a '-- CMD', or every server
// of a configuration file.

/// How one server process is started: what ``ServerEndpoint/process(_:arguments:environment:currentDirectory:standardError:sandbox:)`` gets.
struct ServerLaunch: Hashable, Sendable {
    var executable: String
    var arguments: [String]
    /// The environment the process starts from (boxed: the one the box's allowlist picks
    /// from); `nil` inherits this process's.
    var environment: [String: String]?
    var currentDirectory: String?
    /// The box; `nil` runs the server unboxed.
    var sandbox: Sandbox?
    /// A remote server's URL and headers, instead of a process.
    var remote: (url: String, headers: [String: String])?

    static func == (lhs: ServerLaunch, rhs: ServerLaunch) -> Bool {
        lhs.executable == rhs.executable && lhs.arguments == rhs.arguments && lhs.environment == rhs.environment
            && lhs.currentDirectory == rhs.currentDirectory && lhs.sandbox == rhs.sandbox && lhs.remote?.url == rhs.remote?.url
            && lhs.remote?.headers == rhs.remote?.headers
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(executable)
        hasher.combine(arguments)
        hasher.combine(remote?.url)
    }

    /// A `-- CMD` server.
    init(executable: String, arguments: [String], sandbox: Sandbox?) {
        self.executable = executable
        self.arguments = arguments
        self.sandbox = sandbox
    }

    /// A server of a configuration file, in `sandbox` (the command line's box options).
    ///
    /// The entry's `env` was named by the user for this server, so it is set in the box
    /// (``Sandbox/environment``, which wins over the allowlist), not merely allowed through;
    /// unboxed, it is laid over `inherited`. Either way the command is looked up in the `PATH`
    /// the server gets.
    init(entry: ServerConfiguration.Entry, sandbox: Sandbox?, inherited: [String: String]) {
        executable = entry.command
        if let url = entry.url {
            remote = (url, entry.headers)
        }
        arguments = entry.arguments
        currentDirectory = entry.currentDirectory
        if !entry.environment.isEmpty {
            environment = inherited.merging(entry.environment) { _, given in given }
        }
        if var box = sandbox {
            box.environment.merge(entry.environment) { _, given in given }
            self.sandbox = box
        }
    }

    /// The command line (or a remote server's URL), for messages.
    var commandLine: String {
        if let remote { return remote.url }
        return ([executable] + arguments).joined(separator: " ")
    }
}

/// A server a command talks to: its label and its client.
struct ConnectedServer: Sendable {
    /// The label: the configuration's key, else the name the server gives itself.
    let label: String
    let client: MCPClient
}

extension Runner {
    /// The configuration file `file`, read; a problem is a usage error of `command`, reported
    /// and thrown as ``Abort``. Keys the file has but this version ignores are warned about.
    func readConfiguration(_ file: String, command: CommandName?) throws(Abort) -> ServerConfiguration {
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration(contentsOfFile: file)
        } catch {
            throw Abort(code: usageError(error.message, command: command))
        }
        for name in configuration.disabled {
            errors.write("warning: server \"\(name)\" is disabled in '\(file)'; left out\n")
        }
        for entry in configuration.servers where !entry.ignoredKeys.isEmpty {
            let keys = entry.ignoredKeys.map { "\"\($0)\"" }.joined(separator: ", ")
            errors.write("warning: server \"\(entry.name)\" in '\(file)': ignoring \(keys) (not used by this version)\n")
        }
        return configuration
    }

    /// Connects to every server `choice` names, in order: one for the built-in server and
    /// `-- CMD`, each of a configuration file's (started together).
    ///
    /// A failure is reported, naming the server, and thrown as ``Abort``; the servers already
    /// connected are closed first.
    func connectServers(_ choice: ServerChoice, timeout: Double, command: CommandName?) async throws(Abort) -> [ConnectedServer] {
        guard case .configuration(let file, let sandbox) = choice else {
            let client = try await connect(choice, timeout: timeout)
            return [ConnectedServer(label: client.serverInfo.name, client: client)]
        }
        let configuration = try readConfiguration(file, command: command)
        let inherited = ProcessInfo.processInfo.environment
        let launches = configuration.servers.map { (label: $0.name, launch: ServerLaunch(entry: $0, sandbox: sandbox, inherited: inherited)) }
        let clientConfiguration = Self.clientConfiguration(timeout: timeout)
        var results = [Result<MCPClient, any Error>?](repeating: nil, count: launches.count)
        await withTaskGroup(of: (Int, Result<MCPClient, any Error>).self) { group in
            for (index, server) in launches.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await connect(server.launch, configuration: clientConfiguration)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            for await (index, result) in group {
                results[index] = result
            }
        }
        var connected: [ConnectedServer] = []
        var firstFailure: (label: String, launch: ServerLaunch, error: any Error)?
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let client)?:
                connected.append(ConnectedServer(label: launches[index].label, client: client))
            case .failure(let error)?:
                if firstFailure == nil { firstFailure = (launches[index].label, launches[index].launch, error) }
            case nil:
                break
            }
        }
        if let failure = firstFailure {
            await Self.close(connected)
            let reason: String
            if let error = failure.error as? TransportError {
                reason = "\(error)"
            } else {
                reason = failureMessage(failure.error, during: "connecting to '\(failure.launch.commandLine)'", timeout: timeout)
            }
            throw Abort(code: fail("server \"\(failure.label)\" of '\(file)': \(reason)"))
        }
        return connected
    }

    /// Closes every server's connection.
    static func close(_ servers: [ConnectedServer]) async {
        for server in servers { await server.client.close() }
    }

    /// The client's timeouts for `timeout` seconds a request.
    static func clientConfiguration(timeout: Double) -> MCPClient.Configuration {
        MCPClient.Configuration(requestTimeout: .seconds(timeout), discoverTimeout: .seconds(min(timeout, 10)))
    }

    /// Starts a server process and connects to it.
    func connect(_ launch: ServerLaunch, configuration: MCPClient.Configuration) async throws -> MCPClient {
        if let remote = launch.remote {
            return try await connectRemote(remote.url, headers: remote.headers, configuration: configuration)
        }
        return try await Self.connect(process: launch, configuration: configuration)
    }

    /// Starts a server process and connects to it.
    static func connect(process launch: ServerLaunch, configuration: MCPClient.Configuration) async throws -> MCPClient {
        #if os(watchOS) || os(tvOS)
        // No posix_spawn here, so no ProcessTransport: a server command cannot be started.
        throw TransportError.launchFailure("cannot launch '\(launch.commandLine)': this platform cannot start processes")
        #else
        let endpoint = ServerEndpoint.process(
            launch.executable, arguments: launch.arguments, environment: launch.environment, currentDirectory: launch.currentDirectory,
            standardError: .forward, sandbox: launch.sandbox)
        return try await MCPClient.connect(to: endpoint, configuration: configuration)
        #endif
    }
}
