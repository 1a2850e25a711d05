internal import MCP

#if canImport(FoundationModels)
internal import FoundationModels
#else
internal import PortableFoundationModels
#endif

/// Every tool of a provider's servers, bridged, named uniquely and priced in tokens: what
/// each turn chooses from.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct ToolCatalog: Sendable {
    /// A tool of one server, identified across servers.
    struct Key: Hashable, Sendable {
        var server: String
        var tool: String
    }

    struct Entry: Sendable {
        var key: Key
        var tool: MCPBridgedTool
        var candidate: ToolCandidate
    }

    /// The bridged tools, server by server in the provider's order, each in listing order.
    private(set) var entries: [Entry] = []
    /// Listed tools that cannot be offered at all, with the reason.
    private(set) var excluded: [ToolSelection.Exclusion] = []
    /// The model name of every tool, kept from one catalog to the next.
    private(set) var names: [Key: String] = [:]
    /// The candidates indexed for ranking, once per catalog.
    private(set) var relevance = ToolRelevance([])
    /// The servers in naming order: in-process servers first, then the provider's order.
    private(set) var priority: [String] = []

    init() {}

    /// The candidates, in catalog order.
    var candidates: [ToolCandidate] { entries.map(\.candidate) }

    /// The model names of the tools `pins` names: by model name, or by the server's name for
    /// the tool — of the first server in ``priority`` that has it, so a later or untrusted
    /// server's tool of the same name is not pinned with it.
    func pinned(_ pins: Set<String>) -> Set<String> {
        var result = Set(candidates.filter { pins.contains($0.name) }.map(\.name))
        for pin in pins {
            let matches = candidates.filter { $0.toolNameOnServer == pin }
            let rank = { (server: String?) in server.flatMap { self.priority.firstIndex(of: $0) } ?? Int.max }
            if let first = matches.min(by: { rank($0.server) < rank($1.server) }) { result.insert(first.name) }
        }
        return result
    }

    /// The bridged tool the model calls `name`.
    func tool(named name: String) -> MCPBridgedTool? {
        entries.first { $0.candidate.name == name }?.tool
    }

    /// Bridges the listings of `servers`, naming tools as `previous` did where it can.
    ///
    /// - Parameters:
    ///   - listings: Each server's label, client and listing, in the provider's order.
    ///   - cost: The tokens of one bridged tool's definition.
    init(
        listings: [(server: String, client: MCPClient, listing: ToolListing)], previous: ToolCatalog?,
        configuration: MCPSessionProvider.Configuration, dataFlowGuard: DataFlowGuard, monitor: ToolCallMonitor?,
        cost: (MCPBridgedTool) async -> Int
    ) async {
        var offered: [(server: String, client: MCPClient, tool: MCPCore.ToolDefinition)] = []
        for (server, client, listing) in listings {
            for skipped in listing.skipped {
                excluded.append(
                    ToolSelection.Exclusion(
                        name: skipped.name ?? "entry \(skipped.position)", toolNameOnServer: skipped.name ?? "entry \(skipped.position)",
                        reason: "its definition on \(server) is not valid: \(skipped.reason)"))
            }
            for tool in listing.tools {
                guard configuration.includesTool(tool) else {
                    excluded.append(ToolSelection.Exclusion(name: tool.name, toolNameOnServer: tool.name, reason: "not chosen by the app"))
                    continue
                }
                offered.append((server, client, tool))
            }
        }
        // Servers the app trusts (in process) name their tools first, then the others in the provider's order.
        let trust = configuration.defences.trust
        let priority = listings.enumerated().sorted { first, second in
            let ranks = [first, second].map {
                trust.origin(ofServer: $0.element.server, connectedInProcess: $0.element.client.isInProcess) == .inProcess ? 0 : 1
            }
            return (ranks[0], first.offset) < (ranks[1], second.offset)
        }.map(\.element.server)
        self.priority = priority
        names = Self.names(
            for: offered.map { Key(server: $0.server, tool: $0.tool.name) }, priority: priority, previous: previous?.names ?? [:])
        // Each server's tools by every name they go by, so a definition that names another server's tool is caught.
        var namesByServer: [String: Set<String>] = [:]
        for (key, name) in names { namesByServer[key.server, default: []].formUnion([key.tool, name]) }
        for (server, client, definition) in offered {
            let key = Key(server: server, tool: definition.name)
            let modelName = names[key] ?? ToolNameMap.sanitized(definition.name)
            let own = namesByServer[server] ?? []
            let otherTools = namesByServer.filter { $0.key != server }.values.reduce(into: Set<String>()) { $0.formUnion($1) }.subtracting(
                own)
            let bridged: MCPBridgedTool
            do {
                bridged = try MCPBridgedTool(
                    tool: definition, client: client, name: modelName, policy: configuration.policy, budget: configuration.budget,
                    timeout: configuration.toolTimeout, defences: configuration.defences, dataFlowGuard: dataFlowGuard,
                    server: server, monitor: monitor, otherTools: otherTools)
            } catch let error as UntrustedDefinitionError {
                excluded.append(ToolSelection.Exclusion(name: modelName, toolNameOnServer: definition.name, reason: error.reason))
                continue
            } catch {
                excluded.append(
                    ToolSelection.Exclusion(
                        name: modelName, toolNameOnServer: definition.name, reason: "its input schema cannot be bridged: \(error)"))
                continue
            }
            let properties = definition.inputSchema["properties"]?.objectValue ?? [:]
            let candidate = ToolCandidate(
                name: modelName, toolNameOnServer: definition.name, server: server, title: definition.title,
                // Ranked on the server's whole text (cleaned), though the model reads it compacted.
                description: UntrustedText.cleaned(definition.description ?? bridged.description), parameterNames: properties.keys.sorted(),
                parameterDescriptions: properties.keys.sorted().compactMap { properties[$0]?["description"]?.stringValue },
                tokens: await cost(bridged))
            entries.append(Entry(key: key, tool: bridged, candidate: candidate))
        }
        relevance = ToolRelevance(entries.map(\.candidate))
    }

    /// A unique model name for every key, stable across catalogs, that never shadows another
    /// server's tool.
    ///
    /// Servers are named in `priority` order (the app's in-process servers first, then the
    /// others in the provider's order), so a later or untrusted server never takes a name
    /// before the server it imitates. A name the previous catalog gave keeps it. Within a
    /// server, names are made valid as ``ToolNameMap`` does. A name two servers share, or one
    /// that starts with another server's label (`notes_…` beside a server labelled `notes`), is
    /// prefixed with its own server's label (`notes_search`, `mail_search`,
    /// `mail_notes_search`); any remaining clash gets `_2`, `_3`, …. Names are compared
    /// ignoring case, so `Notes_Search` cannot pose as `notes_search`.
    static func names(for keys: [Key], priority: [String], previous: [Key: String]) -> [Key: String] {
        let rank = Dictionary(priority.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let ordered = keys.enumerated().sorted { first, second in
            (rank[first.element.server] ?? Int.max, first.offset) < (rank[second.element.server] ?? Int.max, second.offset)
        }.map(\.element)
        var result: [Key: String] = [:]
        var taken: Set<String> = []
        for key in ordered {
            if let name = previous[key], !taken.contains(name.lowercased()) {
                result[key] = name
                taken.insert(name.lowercased())
            }
        }
        var servers: [String] = []
        var toolsByServer: [String: [String]] = [:]
        for key in ordered {
            if toolsByServer[key.server] == nil { servers.append(key.server) }
            toolsByServer[key.server, default: []].append(key.tool)
        }
        var local: [Key: String] = [:]
        var owners: [String: Set<String>] = [:]
        for server in servers {
            let map = ToolNameMap(serverNames: toolsByServer[server] ?? [])
            for tool in toolsByServer[server] ?? [] {
                let name = map.modelName(for: tool) ?? ToolNameMap.sanitized(tool)
                local[Key(server: server, tool: tool)] = name
                owners[name.lowercased(), default: []].insert(server)
            }
        }
        let prefixes = Dictionary(
            servers.map { ($0, ToolNameMap.sanitized($0).lowercased() + "_") }, uniquingKeysWith: { first, _ in first })
        for key in ordered where result[key] == nil {
            guard let name = local[key] else { continue }
            let lowered = name.lowercased()
            let shared = (owners[lowered]?.count ?? 0) > 1
            let claimsAnother = prefixes.contains { $0.key != key.server && lowered.hasPrefix($0.value) }
            let base = shared || claimsAnother ? ToolNameMap.sanitized("\(key.server)_\(name)") : name
            var candidate = base
            var suffix = 2
            while taken.contains(candidate.lowercased()) {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            result[key] = candidate
            taken.insert(candidate.lowercased())
        }
        return result
    }
}
