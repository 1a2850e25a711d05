import MCP
import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

// `tools` over several servers (`--config`), `tools --schemas` and `tools --for-prompt`: the
// tools as the model gets them, from one MCPSessionProvider over every server.

extension ServerChoice {
    /// Whether this names the servers of a configuration file.
    var isConfiguration: Bool {
        if case .configuration = self { true } else { false }
    }
}

/// A server's tools as it listed them.
struct ListedServer: Sendable {
    let label: String
    let tools: [MCPCore.ToolDefinition]
}

extension Runner {
    /// `server "git": ` for a server of a configuration file, else nothing.
    static func prefix(for server: ConnectedServer, grouped: Bool) -> String {
        grouped ? "server \"\(server.label)\": " : ""
    }

    /// Lists each server's tools, in order; an entry the server listed badly is warned about.
    func list(_ servers: [ConnectedServer], timeout: Double, grouped: Bool) async throws(Abort) -> [ListedServer] {
        var listed: [ListedServer] = []
        for server in servers {
            let prefix = Self.prefix(for: server, grouped: grouped)
            do {
                let listing = try await server.client.listTools()
                // A malformed entry is left out, never silently: say which and why.
                for skipped in listing.skipped { errors.write("warning: \(prefix)\(skipped)\n") }
                listed.append(ListedServer(label: server.label, tools: listing.tools))
            } catch {
                throw Abort(code: fail(prefix + failureMessage(error, during: "tools/list", timeout: timeout)))
            }
        }
        return listed
    }

    /// Connects the servers `options` name, runs `body` with them, and closes them whether
    /// `body` throws or not.
    func withToolsServers<Result>(
        _ options: ToolsOptions, _ body: ([ConnectedServer]) async throws(Abort) -> Result
    ) async throws(Abort) -> Result {
        let servers = try await connectServers(options.server, timeout: options.timeoutSeconds, command: .tools)
        let result: Result
        do {
            result = try await body(servers)
        } catch {
            await Self.close(servers)
            throw error
        }
        await Self.close(servers)
        return result
    }

    // MARK: tools --config

    /// Every server's tools, grouped per server, with the model names a chat gives them.
    func toolsOfServers(_ options: ToolsOptions) async -> ExitCode {
        let listed: [ListedServer]
        let modelNames: [String: [String: String]]
        do {
            (listed, modelNames) = try await withToolsServers(options) { servers throws(Abort) in
                let listed = try await list(servers, timeout: options.timeoutSeconds, grouped: true)
                var modelNames: [String: [String: String]] = [:]
                if #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) {
                    let bridged = try await bridge(servers, prompt: "", timeout: options.timeoutSeconds)
                    for tool in bridged.tools { modelNames[tool.server, default: [:]][tool.toolNameOnServer] = tool.name }
                }
                return (listed, modelNames)
            }
        } catch {
            return error.code
        }
        if options.json {
            let groups: [JSONValue] = listed.map { server in
                let tools: [JSONValue] = server.tools.map { tool in
                    var object = tool.json.objectValue ?? [:]
                    if let name = modelNames[server.label]?[tool.name] { object["modelName"] = .string(name) }
                    return .object(object.reordered(first: ["name", "modelName"]))
                }
                return ["server": .string(server.label), "tools": .array(tools)]
            }
            output.write(Formatting.prettyJSON(.array(groups)) + "\n")
            return .success
        }
        var blocks: [String] = []
        for server in listed {
            let count = server.tools.count == 1 ? "1 tool" : "\(server.tools.count) tools"
            blocks.append("== \(server.label): \(count) ==\n")
            for tool in server.tools {
                var block = Formatting.describe(tool)
                if let name = modelNames[server.label]?[tool.name] {
                    block += "  model name: \(name)\n"
                }
                blocks.append(block)
            }
        }
        output.write(blocks.joined(separator: "\n"))
        return .success
    }

    // MARK: Bridging

    /// Bridges the servers' tools through one ``MCPSessionProvider``, as a chat would, and
    /// chooses them for `prompt`.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func bridge(_ servers: [ConnectedServer], prompt: String, timeout: Double) async throws(Abort) -> BridgedServers {
        let model = models.systemModel
        let budget = ContextBudget.onDevice
        let provider = MCPSessionProvider(
            servers: servers.map { MCPSessionProvider.Server(name: $0.label, client: $0.client) }, model: model,
            configuration: MCPSessionProvider.Configuration(budget: budget, policy: .readOnly))
        let selection: ToolSelection
        do {
            selection = try await provider.selection(for: prompt)
        } catch {
            await provider.close()
            throw Abort(code: failure(error, during: "tools/list", timeout: timeout))
        }
        let tools = await provider.availableTools
        // The provider counted each definition when it listed them; the same counts here.
        let tokens = Dictionary(await provider.availableCandidates.map { ($0.name, $0.tokens) }) { first, _ in first }
        await provider.close()
        return BridgedServers(
            tools: tools, selection: selection, tokens: tokens, budget: budget,
            contextSize: BridgedToolset.contextSize(of: model, budget: budget),
            counting: await TokenCounting.of(model, budget: budget, probe: tools.first),
            singleServer: servers.count == 1 ? servers.first?.label : nil)
    }

    // MARK: tools --schemas

    func toolSchemas(_ options: ToolsOptions) async -> ExitCode {
        guard #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) else {
            return fail(Self.needsNewerSystem)
        }
        let report: BridgeReport
        do {
            report = try await withToolsServers(options) { servers throws(Abort) in
                try await bridgeReport(servers, timeout: options.timeoutSeconds, grouped: options.server.isConfiguration)
            }
        } catch {
            return error.code
        }
        if options.json {
            output.write(Formatting.prettyJSON(report.json) + "\n")
        } else {
            output.write(report.describe())
        }
        return .success
    }

    /// Lists the servers' tools and bridges them as a chat would, with their costs.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func bridgeReport(_ servers: [ConnectedServer], timeout: Double, grouped: Bool) async throws(Abort) -> BridgeReport {
        let listed = try await list(servers, timeout: timeout, grouped: grouped)
        let bridged = try await bridge(servers, prompt: "", timeout: timeout)
        return BridgeReport(servers: listed, bridged: bridged, grouped: grouped)
    }

    // MARK: tools --for-prompt

    /// What a chat turn with `prompt` would get: the chosen tools and the others with why.
    func toolsForPrompt(_ prompt: String, _ options: ToolsOptions) async -> ExitCode {
        guard #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) else {
            return fail(Self.needsNewerSystem)
        }
        let bridged: BridgedServers
        do {
            bridged = try await withToolsServers(options) { servers throws(Abort) in
                // Listed first, so that a server that fails is named and bad entries are warned about.
                _ = try await list(servers, timeout: options.timeoutSeconds, grouped: options.server.isConfiguration)
                return try await bridge(servers, prompt: prompt, timeout: options.timeoutSeconds)
            }
        } catch {
            return error.code
        }
        let report = PromptReport(prompt: prompt, bridged: bridged)
        output.write(options.json ? Formatting.prettyJSON(report.json) + "\n" : report.describe())
        return .success
    }
}
