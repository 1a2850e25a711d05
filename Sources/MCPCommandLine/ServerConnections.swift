import MCP
internal import MCPPlatform

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// The server's label in a configuration file; `nil` for `-- CMD`.
    var label: String?

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
        label = entry.name
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
            self.sandbox = entry.box.map { $0.applied(to: box) } ?? box
        }
    }

    /// The command line (or a remote server's URL), for messages.
    var commandLine: String {
        if let remote { return remote.url }
        return ([executable] + arguments).joined(separator: " ")
    }
}

/// A server a command talks to: its label and its client, and for a server process, how it
/// was launched and its transport (whose standard error a hint reads).
struct ConnectedServer: Sendable {
    /// The label: the configuration's key, else the name the server gives itself.
    let label: String
    let client: MCPClient
    var launch: ServerLaunch?
    var transport: ProcessTransport?

    /// The hint for a failure of this server that says `text` (with what it wrote to
    /// standard error); `nil` when it is not a boxed process or nothing points at the box.
    func boxHint(for text: String) -> String? {
        guard let launch else { return nil }
        return BoxHint.line(for: launch, text: text + "\n" + (transport?.capturedStandardError() ?? ""), exited: false)
    }
}

/// A server process that could not be connected to, with the hint its box suggests.
struct LaunchFailure: Error, CustomStringConvertible {
    let underlying: any Error
    let hint: String?

    var description: String { "\(underlying)" }
}

/// The servers of a configuration file that failed while the others were used: the command
/// ends with status 3 after its work (shared by copies of a ``Runner``).
final class ServerFailures: Sendable {
    private let failures = LockedValue<[String]>([])

    func record(_ label: String) { failures.withLock { $0.append(label) } }

    /// `servers "a", "b" failed and were left out`, or `nil` when none did.
    var summary: String? {
        let labels = failures.withLock { $0 }
        return labels.isEmpty
            ? nil
            : "\(labels.count == 1 ? "server" : "servers") \(labels.map { "\"\($0)\"" }.joined(separator: ", ")) failed and \(labels.count == 1 ? "was" : "were") left out"
    }
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
    /// A server of a configuration file that fails is reported (naming it, with a hint when
    /// its box may be why) and left out, the others are used, and the command ends with
    /// status 3 (``ServerFailures``); when every one fails, that is thrown as ``Abort``.
    /// A configuration file already read is passed as `configuration`, so that it is read once.
    func connectServers(
        _ choice: ServerChoice, configuration read: ServerConfiguration? = nil, timeout: Double, command: CommandName?
    ) async throws(Abort) -> [ConnectedServer] {
        guard case .configuration(let file, let sandbox) = choice else {
            return [try await connect(choice, timeout: timeout)]
        }
        let configuration: ServerConfiguration
        if let read {
            configuration = read
        } else {
            configuration = try readConfiguration(file, command: command)
        }
        let inherited = ProcessInfo.processInfo.environment
        let launches = configuration.servers.map {
            (label: $0.name, launch: ServerLaunch(entry: $0, sandbox: sandbox, inherited: inherited))
        }
        let clientConfiguration = Self.clientConfiguration(timeout: timeout)
        var results = [Result<ConnectedServer, any Error>?](repeating: nil, count: launches.count)
        await withTaskGroup(of: (Int, Result<ConnectedServer, any Error>).self) { group in
            for (index, server) in launches.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await connect(server.launch, label: server.label, configuration: clientConfiguration)))
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
        var reasons: [String] = []
        for (index, result) in results.enumerated() {
            guard case .failure(let error)? = result else {
                if case .success(let server)? = result { connected.append(server) }
                continue
            }
            let (label, launch) = launches[index]
            var reason = "server \"\(label)\" of '\(file)' failed: "
            if let error = (error as? LaunchFailure)?.underlying as? TransportError ?? error as? TransportError {
                reason += "\(error)"
            } else {
                reason += failureMessage(error, during: "connecting to '\(launch.commandLine)'", timeout: timeout)
            }
            if let hint = (error as? LaunchFailure)?.hint { reason += "\n" + hint }
            reasons.append(reason)
        }
        guard !connected.isEmpty else {
            throw Abort(code: fail(reasons.joined(separator: "\nerror: ")))
        }
        for (reason, index) in zip(reasons, results.indices.filter { if case .failure? = results[$0] { true } else { false } }) {
            errors.write("warning: \(reason)\n  (it is left out; the other servers are used)\n")
            serverFailures.record(launches[index].label)
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

    /// Starts a server process (or reaches a remote server) and connects to it.
    func connect(_ launch: ServerLaunch, label: String? = nil, configuration: MCPClient.Configuration) async throws -> ConnectedServer {
        if let remote = launch.remote {
            let client = try await self.remote(remote.url, remote.headers, configuration)
            return ConnectedServer(label: label ?? client.serverInfo.name, client: client)
        }
        return try await Self.connect(process: launch, label: label, configuration: configuration)
    }

    /// Starts a server process and connects to it.
    ///
    /// - Throws: ``LaunchFailure``, with the hint its box suggests, when the process started
    ///   but the connection failed; the launch's error when it could not start.
    static func connect(
        process launch: ServerLaunch, label: String? = nil, configuration: MCPClient.Configuration
    ) async throws
        -> ConnectedServer
    {
        #if !MCP_CAN_SPAWN
        // No process can be started here (iOS, visionOS, watchOS, tvOS), so no ProcessTransport.
        throw TransportError.launchFailure("cannot launch '\(launch.commandLine)': this platform cannot start processes")
        #else
        let transport = try ProcessTransport.launch(
            launch.executable, arguments: launch.arguments, environment: launch.environment, currentDirectory: launch.currentDirectory,
            standardError: .forward, sandbox: launch.sandbox)
        do {
            let client = try await MCPClient.connect(over: transport, configuration: configuration)
            return ConnectedServer(label: label ?? client.serverInfo.name, client: client, launch: launch, transport: transport)
        } catch {
            await transport.close()
            let text = await transport.capturedStandardErrorAtEnd()
            // A server that timed out did not end on its own: no hint unless it said something.
            let endedOnItsOwn = (error as? MCPClientError) != .timedOut
            throw LaunchFailure(underlying: error, hint: BoxHint.line(for: launch, text: "\(error)\n" + text, exited: endedOnItsOwn))
        }
        #endif
    }
}
