import MCP
import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

// The reports of `tools --schemas` and `tools --for-prompt`, and how their tokens were counted.

// MARK: - Token counts

/// How the tokens of tool definitions were counted.
enum TokenCounting: Hashable, Sendable, CustomStringConvertible {
    /// By the language model's own counter (`SystemLanguageModel.tokenCount(for:)`).
    case model
    /// By the portable FoundationModels module's calibrated estimate: there is no model on
    /// this platform to count.
    case portableEstimate
    /// By the package's token estimate (``MCPAgent/ContextBudget/tokens(for:)``, the portable
    /// module's rule), because the model cannot count (before 26.4, or its count failed).
    case estimate

    /// Works out how `BridgedToolset.tokens(of:model:budget:)` counts with `model`: by the
    /// model when its counter answers, else by the estimate.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    static func of(_ model: SystemLanguageModel, budget: ContextBudget, probe: MCPBridgedTool?) async -> TokenCounting {
        if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *) {
            let counted: Int?
            if let probe {
                counted = try? await model.tokenCount(for: [probe] as [any Tool])
            } else {
                counted = try? await model.tokenCount(for: Prompt("tools"))
            }
            if counted != nil {
                #if !canImport(FoundationModels)
                // The portable module counts with TokenEstimator when no model is plugged in.
                if !model.isAvailable { return .portableEstimate }
                #endif
                return .model
            }
        }
        return .estimate
    }

    /// `counted by the model`, `estimated by the token estimator`.
    var description: String {
        switch self {
        case .model: "counted by the model"
        case .portableEstimate: "estimated by the portable token estimator (no language model here)"
        case .estimate: "estimated by the token estimator (the model cannot count)"
        }
    }

    /// `model`, `portableEstimate` or `characters`, for JSON.
    var name: String {
        switch self {
        case .model: "model"
        case .portableEstimate: "portableEstimate"
        case .estimate: "estimate"
        }
    }
}

// MARK: - Reports

/// Every server's tools bridged as one provider offers them, with their costs.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct BridgedServers {
    /// The bridged tools, server by server, with names unique across servers.
    let tools: [MCPBridgedTool]
    /// The choice for the prompt the tools were bridged for.
    let selection: ToolSelection
    /// Each bridged tool's definition in tokens, by model name.
    let tokens: [String: Int]
    let budget: ContextBudget
    /// The model's context size.
    let contextSize: Int
    let counting: TokenCounting
    /// The label of the only server, when there is one.
    let singleServer: String?

    /// The tool `name` of server `label`, bridged.
    func tool(server label: String, named name: String) -> MCPBridgedTool? {
        tools.first { $0.server == label && $0.toolNameOnServer == name }
    }

    /// Listed tools that cannot be offered at all (their schema cannot be bridged, their
    /// definition is not valid), with the reason.
    var unbridged: [ToolSelection.Exclusion] {
        let names = Set(tools.map(\.name))
        return selection.excluded.filter { !names.contains($0.name) }
    }

    /// The label of the server an excluded tool came from, when it can be told.
    func server(of exclusion: ToolSelection.Exclusion) -> String? {
        tools.first { $0.name == exclusion.name }?.server ?? singleServer
    }

    /// The tokens of every bridged tool's definition together.
    var totalTokens: Int {
        tools.reduce(0) { $0 + (tokens[$1.name] ?? 0) }
    }

    /// Whether every turn gets every tool: they fit the number of tools and the tool budget.
    var allFit: Bool {
        tools.count <= budget.maximumTools && totalTokens <= budget.toolTokens
    }
}

/// `tools --schemas`: each listed tool as the model gets it (model name, generation schema,
/// diagnostics, tokens), then what they cost together.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct BridgeReport {
    struct Entry {
        let server: String
        let tool: MCPCore.ToolDefinition
        let bridged: MCPBridgedTool?
        /// Its definition's tokens; `nil` when it cannot be offered.
        let tokens: Int?
        /// Why it cannot be offered; `nil` when it can.
        let exclusion: String?

        /// Invisible characters and instruction-like phrases in the tool's name, title and description.
        var securityWarnings: [String] {
            UntrustedText.diagnostics(for: ["name": tool.name, "title": tool.title, "description": tool.description])
                + UntrustedText.descriptions(in: tool.inputSchema).flatMap {
                    UntrustedText.diagnostics(for: ["parameter description": $0])
                }
        }
    }

    /// The entries of each server, in order.
    let groups: [(server: String, entries: [Entry])]
    let bridged: BridgedServers
    /// Whether the text has a heading per server (the servers of a configuration file).
    let grouped: Bool

    init(servers: [ListedServer], bridged: BridgedServers, grouped: Bool) {
        var unbridged = bridged.unbridged
        groups = servers.map { server in
            let entries = server.tools.map { tool in
                if let bridgedTool = bridged.tool(server: server.label, named: tool.name) {
                    return Entry(
                        server: server.label, tool: tool, bridged: bridgedTool, tokens: bridged.tokens[bridgedTool.name], exclusion: nil)
                }
                var reason = "it cannot be offered to the model"
                if let index = unbridged.firstIndex(where: { $0.toolNameOnServer == tool.name }) {
                    reason = unbridged.remove(at: index).reason
                }
                return Entry(server: server.label, tool: tool, bridged: nil, tokens: nil, exclusion: reason)
            }
            return (server.label, entries)
        }
        self.bridged = bridged
        self.grouped = grouped
    }

    var entries: [Entry] { groups.flatMap(\.entries) }

    /// One block per tool (under a heading per server when grouped), then the budget.
    func describe() -> String {
        guard !entries.isEmpty else { return grouped ? "(the servers offer no tools)\n" : "(the server offers no tools)\n" }
        var blocks: [String] = []
        for group in groups {
            if grouped {
                let count = group.entries.count == 1 ? "1 tool" : "\(group.entries.count) tools"
                blocks.append("== \(group.server): \(count) ==\n")
            }
            for entry in group.entries {
                var text = Formatting.describe(entry.tool)
                if let bridged = entry.bridged {
                    text += "  model name: \(bridged.name)\n"
                }
                for warning in entry.securityWarnings { text += "  warning: \(warning)\n" }
                if let conversion = entry.bridged?.conversion {
                    text += SchemaReport.describe(conversion, compact: true, indent: "  ")
                }
                if let exclusion = entry.exclusion {
                    text += "  context: left out, \(exclusion)\n"
                } else if let tokens = entry.tokens {
                    text += "  context: \(tokens) tokens\n"
                }
                blocks.append(text)
            }
        }
        return blocks.joined(separator: "\n") + "\n" + budgetSummary + "\n"
    }

    /// `Context budget: 5 tools, 612 tokens in all (counted by the model), …`, whether they
    /// all fit, and the tools left out.
    var budgetSummary: String {
        let budget = bridged.budget
        let count = bridged.tools.count == 1 ? "1 tool" : "\(bridged.tools.count) tools"
        var text =
            "Context budget: \(count), \(bridged.totalTokens) tokens in all, for a \(budget.toolTokens)-token tool budget "
            + "and at most \(budget.maximumTools) tools a turn, in the model's \(bridged.contextSize)-token context. "
            + "Tokens \(bridged.counting).\n"
        if bridged.allFit {
            text += "They all fit: every turn gets every tool."
        } else {
            text +=
                "They do not all fit: each turn gets the tools most relevant to its prompt "
                + "('ondevice-mcp tools --for-prompt TEXT' shows which)."
        }
        let left = entries.filter { $0.exclusion != nil }
        if !left.isEmpty {
            text += "\nLeft out: \(left.map { grouped ? "\($0.tool.name) (\($0.server))" : $0.tool.name }.joined(separator: ", "))."
        }
        return text
    }

    /// `{"tools": [{name, modelName, server, description, schema, diagnostics,
    /// securityWarnings, tokens, exclusionReason?}], "budget": {…}}`.
    var json: JSONValue {
        let tools: [JSONValue] = entries.map { entry in
            var object: JSONObject = ["name": .string(entry.tool.name)]
            if let bridged = entry.bridged {
                object["modelName"] = .string(bridged.name)
            }
            object["server"] = .string(entry.server)
            object["description"] = .string(entry.bridged?.description ?? entry.tool.description ?? "")
            if let conversion = entry.bridged?.conversion {
                object["schema"] = SchemaReport.schemaJSON(conversion)
                object["diagnostics"] = SchemaReport.diagnosticsJSON(conversion.diagnostics)
            }
            object["securityWarnings"] = .array(entry.securityWarnings.map { .string($0) })
            if let tokens = entry.tokens {
                object["tokens"] = .int(tokens)
            }
            if let exclusion = entry.exclusion {
                object["exclusionReason"] = .string(exclusion)
            }
            return .object(object)
        }
        let budget: JSONValue = [
            "tokens": .int(bridged.totalTokens), "counting": .string(bridged.counting.name),
            "toolTokens": .int(bridged.budget.toolTokens), "maximumTools": .int(bridged.budget.maximumTools),
            "contextSize": .int(bridged.contextSize), "allFit": .bool(bridged.allFit),
            "excluded": .array(entries.filter { $0.exclusion != nil }.map { .string($0.tool.name) }),
        ]
        return ["tools": .array(tools), "budget": budget]
    }
}

/// `tools --for-prompt TEXT`: the tools a turn with the prompt gets, in order, and every
/// other tool with the reason it is left out.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct PromptReport {
    let prompt: String
    let bridged: BridgedServers

    var selection: ToolSelection { bridged.selection }

    /// The chosen tools, then the others, then the total.
    func describe() -> String {
        let selected = selection.selected
        let excluded = selection.excluded
        let total = selected.count + excluded.count
        guard total > 0 else { return "(no tools: the servers offer none)\n" }
        let quoted = Formatting.prettyJSON(.string(prompt))
        var text = "A turn with the prompt \(quoted) gets \(selected.count) of \(total) tools"
        text += selected.isEmpty ? ".\n" : ", in this order:\n"
        let names =
            selected.map { Self.named($0.name, toolNameOnServer: $0.toolNameOnServer) }
            + excluded.map { Self.named($0.name, toolNameOnServer: $0.toolNameOnServer) }
        let servers = selected.map { $0.server ?? bridged.singleServer ?? "" } + excluded.map { bridged.server(of: $0) ?? "" }
        let nameWidth = names.map(\.count).max() ?? 0
        let serverWidth = servers.map(\.count).max() ?? 0
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.count))
        }
        let tokenWidth = selected.map { String($0.tokens).count }.max() ?? 0
        for (index, candidate) in selected.enumerated() {
            let tokens = String(candidate.tokens)
            text +=
                "  \(padded(names[index], nameWidth))  \(padded(servers[index], serverWidth))  "
                + "\(String(repeating: " ", count: tokenWidth - tokens.count))\(tokens) tokens\n"
        }
        if !excluded.isEmpty {
            text += "Left out:\n"
            for (offset, exclusion) in excluded.enumerated() {
                let index = selected.count + offset
                text += "  \(padded(names[index], nameWidth))  \(padded(servers[index], serverWidth))  \(exclusion.reason)\n"
            }
        }
        text +=
            "Total: \(selection.tokens) of \(bridged.budget.toolTokens) tool tokens (at most \(bridged.budget.maximumTools) "
            + "tools a turn); the model's context is \(bridged.contextSize) tokens. Tokens \(bridged.counting).\n"
        return text
    }

    /// `a_clock_now`, or `tool_1 (tool.1)` when the server's name differs beyond a prefix.
    static func named(_ modelName: String, toolNameOnServer: String) -> String {
        modelName.hasSuffix(toolNameOnServer) ? modelName : "\(modelName) (\(toolNameOnServer))"
    }

    /// `{"prompt", "selected": [server names], "excluded": [{name, modelName, server, reason}],
    /// "tokens", "toolTokens", "maximumTools", "contextSize", "counting", "selectedTools": [{name,
    /// modelName, server, tokens}]}`.
    var json: JSONValue {
        let selected = selection.selected
        let excluded: [JSONValue] = selection.excluded.map { exclusion in
            [
                "name": .string(exclusion.toolNameOnServer), "modelName": .string(exclusion.name),
                "server": bridged.server(of: exclusion).map { .string($0) } ?? .null, "reason": .string(exclusion.reason),
            ]
        }
        let details: [JSONValue] = selected.map { candidate in
            [
                "name": .string(candidate.toolNameOnServer), "modelName": .string(candidate.name),
                "server": (candidate.server ?? bridged.singleServer).map { .string($0) } ?? .null, "tokens": .int(candidate.tokens),
            ]
        }
        return [
            "prompt": .string(prompt), "selected": .array(selected.map { .string($0.toolNameOnServer) }), "excluded": .array(excluded),
            "tokens": .int(selection.tokens), "toolTokens": .int(bridged.budget.toolTokens),
            "maximumTools": .int(bridged.budget.maximumTools), "contextSize": .int(bridged.contextSize),
            "counting": .string(bridged.counting.name), "selectedTools": .array(details),
        ]
    }
}
