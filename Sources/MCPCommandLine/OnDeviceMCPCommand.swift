import MCP
internal import MCPPlatform
internal import OnDeviceMCPExamples

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `ondevice-mcp` command: parses arguments, runs the command, returns the exit status.
///
/// `main.swift` is one line: `exit(await OnDeviceMCPCommand.main(CommandLine.arguments))`.
/// Tests and embedders call ``run(_:standardOutput:standardError:)`` with their own outputs.
package enum OnDeviceMCPCommand {
    /// Runs the command line of this process (program name first) on the standard streams.
    ///
    /// The model server's API key (`ONDEVICE_MCP_MODEL_API_KEY`) is taken out of this
    /// process's environment before anything starts, so that no MCP server started from here
    /// (boxed or not) inherits it.
    ///
    /// - Returns: The exit status, for `exit`.
    package static func main(_ commandLine: [String]) async -> Int32 {
        let name = CommandLineParser.modelAPIKeyVariable
        let apiKey = ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
        POSIX.unsetEnvironment(name)
        return await run(
            Array(commandLine.dropFirst()), standardOutput: StandardStream.output, standardError: StandardStream.error,
            builtInServer: nil, models: StandardModelSource(apiKey: apiKey), environment: ProcessInfo.processInfo.environment
        ).rawValue
    }

    /// Runs a command line (without the program name), writing to the given outputs.
    ///
    /// As the program does, `chat` and the main job read `ONDEVICE_MCP_MODEL_URL`,
    /// `ONDEVICE_MCP_MODEL` and `ONDEVICE_MCP_MODEL_API_KEY` from this process's environment
    /// when `--model-url` and `--model` are absent.
    ///
    /// - Returns: The exit status; see ``ExitCode`` for the rule.
    package static func run(_ arguments: [String], standardOutput: any CommandOutput, standardError: any CommandOutput) async -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let apiKey = environment[CommandLineParser.modelAPIKeyVariable].flatMap { $0.isEmpty ? nil : $0 }
        return await run(
            arguments, standardOutput: standardOutput, standardError: standardError, builtInServer: nil,
            models: StandardModelSource(apiKey: apiKey), environment: environment)
    }

    /// Runs a command line with test doubles: another server in the built-in server's place,
    /// another standard input, other models (a scripted system model, a model server's),
    /// another remote connection, and the environment the model options fall back on.
    static func run(
        _ arguments: [String], standardOutput: any CommandOutput, standardError: any CommandOutput,
        builtInServer: (@Sendable (_ dataDirectory: String?) async throws -> MCPServer)?,
        standardInput: CommandInput = .standard, models: any ModelSource = StandardModelSource(apiKey: nil),
        remote: @escaping RemoteConnector = RemoteConnection.http, environment: [String: String] = [:]
    ) async -> ExitCode {
        let command: ParsedCommand
        do {
            command = try CommandLineParser.parse(arguments, environment: environment)
        } catch {
            standardError.write("\(error)\n\(HelpText.usage(for: error.command))\n")
            return .usageError
        }
        let runner = Runner(
            output: standardOutput, errors: standardError, builtInServer: builtInServer, input: standardInput, models: models,
            remote: remote)
        let status = await runner.run(command)
        // Servers of a configuration file that failed while the others were used.
        if status == .success, let summary = runner.serverFailures.summary {
            standardError.write("error: \(summary)\n")
            return .failure
        }
        return status
    }
}

extension Runner {
    /// Runs one parsed command.
    func run(_ command: ParsedCommand) async -> ExitCode {
        let runner = self
        let standardOutput = output
        switch command {
        case .start(let options):
            return await runner.start(options)
        case .help(nil):
            standardOutput.write(HelpText.overview + "\n")
            return .success
        case .help(let name?):
            standardOutput.write(HelpText.help(for: name) + "\n")
            return .success
        case .version:
            standardOutput.write("ondevice-mcp \(OnDeviceMCPVersion.string)\n")
            return .success
        case .serve(let dataDirectory, let roots):
            return await runner.serve(dataDirectory: dataDirectory, roots: roots)
        case .tools(let options):
            return await runner.tools(options)
        case .call(let options):
            return await runner.call(options)
        case .schema(let options):
            return await runner.schema(options)
        case .chat(let options):
            return await runner.chat(options)
        }
    }
}

/// Runs one parsed command against its outputs.
struct Runner {
    let output: any CommandOutput
    let errors: any CommandOutput
    /// Makes the built-in server in place of the example server, when set.
    let builtInServer: (@Sendable (_ dataDirectory: String?) async throws -> MCPServer)?
    /// Where `schema` and `chat` read.
    var input: CommandInput = .standard
    /// Where `chat` and the main job get their model.
    var models: any ModelSource = StandardModelSource(apiKey: nil)
    /// Connects to remote servers (`--url`, `url` entries of `--config`).
    var remote: RemoteConnector = RemoteConnection.http
    /// Servers of a configuration file that failed while the command used the others.
    let serverFailures = ServerFailures()

    func fail(_ message: String, _ code: ExitCode = .failure) -> ExitCode {
        errors.write("error: \(message)\n")
        return code
    }

    // MARK: serve

    func serve(dataDirectory: String?, roots: [String] = []) async -> ExitCode {
        let server: MCPServer
        let transport: StdioTransport
        do {
            server = try await makeExampleServer(dataDirectory: dataDirectory, roots: roots)
            transport = try StdioTransport()
        } catch {
            return fail("\(error)")
        }
        do {
            try await server.run(on: transport)
        } catch {
            return fail("the connection failed: \(error)")
        }
        return .success
    }

    func makeExampleServer(dataDirectory: String?, roots: [String] = []) async throws -> MCPServer {
        if let builtInServer { return try await builtInServer(dataDirectory) }
        let errors = errors
        return try await ExampleServer.make(
            dataDirectory: dataDirectory, roots: roots, onToolFailure: { errors.write("error: \($0)\n") },
            warnings: { errors.write("warning: \($0)\n") })
    }

    // MARK: Connecting

    /// What went wrong while talking to the server, as an exit status and a message.
    func failure(_ error: any Error, during step: String, timeout: Double) -> ExitCode {
        fail(failureMessage(error, during: step, timeout: timeout))
    }

    /// What went wrong while talking to the server, in a sentence.
    func failureMessage(_ error: any Error, during step: String, timeout: Double) -> String {
        switch error {
        case let error as MCPClientError where error == .timedOut:
            // Keep what the library adds after the first clause: what the server sent instead.
            let reason = error.detail.firstRange(of: "; ").map { String(error.detail[$0.lowerBound...]) } ?? ""
            return "\(step) timed out after \(Self.seconds(timeout)) s\(reason)"
        case let error as JSONRPCError:
            return "the server answered \(step) with JSON-RPC error \(error.code.rawValue): \(error.message)"
        case let error as MCPClientError:
            return "\(step) failed: \(error.detail)"
        default:
            return "\(step) failed: \(error)"
        }
    }

    /// A failure already reported on standard error, with the status to exit with.
    struct Abort: Error {
        let code: ExitCode
    }

    /// Connects to the chosen server; a failure is reported (with a hint, for a boxed server
    /// its box may have stopped) and thrown as ``Abort``.
    func connect(_ choice: ServerChoice, timeout: Double) async throws(Abort) -> ConnectedServer {
        let configuration = Self.clientConfiguration(timeout: timeout)
        switch choice {
        case .builtIn(let dataDirectory):
            let server: MCPServer
            do {
                server = try await makeExampleServer(dataDirectory: dataDirectory)
            } catch {
                throw Abort(code: fail("cannot start the built-in server: \(error)"))
            }
            do {
                let client = try await MCPClient.connect(to: server, configuration: configuration)
                return ConnectedServer(label: client.serverInfo.name, client: client)
            } catch {
                throw Abort(code: failure(error, during: "connecting to the built-in server", timeout: timeout))
            }
        case .command(let executable, let arguments, let sandbox):
            do {
                return try await Self.connect(
                    process: ServerLaunch(executable: executable, arguments: arguments, sandbox: sandbox), configuration: configuration)
            } catch let error as TransportError {
                throw Abort(code: fail("\(error)"))
            } catch let error as LaunchFailure {
                let message = failureMessage(error.underlying, during: "connecting to '\(executable)'", timeout: timeout)
                throw Abort(code: fail(message + (error.hint.map { "\n" + $0 } ?? "")))
            } catch {
                throw Abort(code: failure(error, during: "connecting to '\(executable)'", timeout: timeout))
            }
        case .configuration(let file, _):
            throw Abort(code: fail("this command talks to one server; '\(file)' names several"))
        case .remote(let text, let headers):
            do {
                let client = try await remote(text, headers, configuration)
                return ConnectedServer(label: client.serverInfo.name, client: client)
            } catch {
                throw Abort(code: failure(error, during: "connecting to \(text)", timeout: timeout))
            }
        }
    }

    /// A usage error found while running: the message and the command's usage (the
    /// program's for `nil`); status 2.
    ///
    /// These are problems with what a command was given (a file that cannot be read or is not
    /// a configuration), not with its syntax: the command's usage is not repeated after them,
    /// as it is after an unknown option.
    func usageError(_ message: String, command: CommandName?) -> ExitCode {
        errors.write("\(UsageError(message, command: command))\n")
        return .usageError
    }

    // MARK: tools

    func tools(_ options: ToolsOptions) async -> ExitCode {
        if let prompt = options.forPrompt {
            return await toolsForPrompt(prompt, options)
        }
        if options.schemas {
            return await toolSchemas(options)
        }
        if case .configuration = options.server {
            return await toolsOfServers(options)
        }
        let client: MCPClient
        do {
            client = try await connect(options.server, timeout: options.timeoutSeconds).client
        } catch {
            return error.code
        }
        let tools: [MCPCore.ToolDefinition]
        do {
            let listing = try await client.listTools()
            tools = listing.tools
            // A malformed entry is left out, never silently: say which and why.
            for skipped in listing.skipped { errors.write("warning: \(skipped)\n") }
        } catch {
            await client.close()
            return failure(error, during: "tools/list", timeout: options.timeoutSeconds)
        }
        await client.close()
        if options.json {
            output.write(Formatting.prettyJSON(.array(tools.map(\.json))) + "\n")
        } else {
            output.write(Formatting.describe(tools))
        }
        return .success
    }

    // MARK: call

    func call(_ options: CallOptions) async -> ExitCode {
        let chosen: (server: ConnectedServer, tool: String)
        do {
            chosen = try await serverForCall(options)
        } catch {
            return error.code
        }
        let (server, tool) = chosen
        let client = server.client
        let result: CallToolResult
        do {
            result = try await client.callTool(name: tool, arguments: options.arguments, timeout: .seconds(options.timeoutSeconds))
        } catch let error as JSONRPCError where error.code == .invalidParams && error.message.hasPrefix("Unknown tool") {
            let known = (try? await client.listTools().map(\.name)) ?? []
            await client.close()
            let suggestion = Self.closest(to: tool, in: known).map { "; did you mean \($0)?" } ?? ""
            return fail("the server has no tool '\(tool)'\(suggestion) ('ondevice-mcp tools' lists them)")
        } catch {
            await client.close()
            return failure(error, during: "tools/call", timeout: options.timeoutSeconds)
        }
        if result.isError, let hint = server.boxHint(for: result.text) {
            errors.write(hint + "\n")
        }
        await client.close()
        if options.json {
            output.write(Formatting.prettyJSON(result.json) + "\n")
        } else {
            output.write(Formatting.describe(result))
        }
        return result.isError ? .toolError : .success
    }

    /// The server a call goes to, and the tool's name there: the one server of `-- CMD`, the
    /// built-in one, a remote one; with `--config`, the server `SERVER/TOOL` names, or the one
    /// server of the file that has the tool.
    func serverForCall(_ options: CallOptions) async throws(Abort) -> (ConnectedServer, String) {
        guard case .configuration(let file, let sandbox) = options.server else {
            return (try await connect(options.server, timeout: options.timeoutSeconds), options.tool)
        }
        let configuration = try readConfiguration(file, command: .call)
        let clientConfiguration = Self.clientConfiguration(timeout: options.timeoutSeconds)
        if let slash = options.tool.firstIndex(of: "/") {
            let label = String(options.tool[..<slash])
            let tool = String(options.tool[options.tool.index(after: slash)...])
            guard let entry = configuration.servers.first(where: { $0.name == label }) else {
                let names = configuration.servers.map(\.name)
                let suggestion = Self.closest(to: label, in: names).map { "; did you mean \($0)?" } ?? ""
                throw Abort(
                    code: usageError(
                        "'\(file)' has no server \"\(label)\"\(suggestion) (servers: \(names.joined(separator: ", ")))", command: .call))
            }
            let launch = ServerLaunch(entry: entry, sandbox: sandbox, inherited: ProcessInfo.processInfo.environment)
            do {
                return (try await connect(launch, label: label, configuration: clientConfiguration), tool)
            } catch let error as LaunchFailure {
                let message = failureMessage(error.underlying, during: "connecting to server \"\(label)\"", timeout: options.timeoutSeconds)
                throw Abort(code: fail(message + (error.hint.map { "\n" + $0 } ?? "")))
            } catch {
                throw Abort(code: failure(error, during: "connecting to server \"\(label)\"", timeout: options.timeoutSeconds))
            }
        }
        // No server named: the one whose tools include it.
        let servers = try await connectServers(options.server, timeout: options.timeoutSeconds, command: .call)
        var having: [ConnectedServer] = []
        var every: [String] = []
        for server in servers {
            let names = (try? await server.client.listTools().map(\.name)) ?? []
            every += names
            if names.contains(options.tool) { having.append(server) }
        }
        for server in servers where !having.contains(where: { $0.label == server.label }) || having.count > 1 {
            await server.client.close()
        }
        if having.count == 1, let server = having.first { return (server, options.tool) }
        if having.isEmpty {
            let suggestion = Self.closest(to: options.tool, in: every).map { "; did you mean \($0)?" } ?? ""
            throw Abort(code: fail("no server of '\(file)' has a tool '\(options.tool)'\(suggestion)"))
        }
        let choices = having.map { "\($0.label)/\(options.tool)" }.joined(separator: ", ")
        throw Abort(code: usageError("several servers of '\(file)' have a tool '\(options.tool)'; name one: \(choices)", command: .call))
    }

    /// The name in `names` nearest to `name` (by edit distance, within a third of its length),
    /// for a "did you mean"; `nil` when none is near.
    static func closest(to name: String, in names: [String]) -> String? {
        let target = Array(name.lowercased())
        func distance(_ other: [Character]) -> Int {
            var previous = Array(0...other.count)
            for (i, a) in target.enumerated() {
                var current = [i + 1]
                for (j, b) in other.enumerated() {
                    current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a == b ? 0 : 1)))
                }
                previous = current
            }
            return previous[other.count]
        }
        let scored = names.map { ($0, distance(Array($0.lowercased()))) }.filter { $0.1 > 0 && $0.1 <= max(2, target.count / 3) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// `60`, `0.5`: seconds without a needless fraction.
    static func seconds(_ value: Double) -> String {
        if value == value.rounded(), let whole = Int(exactly: value) { return String(whole) }
        return String(value)
    }
}
