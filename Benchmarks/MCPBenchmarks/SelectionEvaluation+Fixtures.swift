import Foundation
import MCP
import MCPFoundationModels

extension SelectionEvaluation {
    /// A tool of a catalog, as the fixtures name it: `server/tool`.
    struct ToolReference: Hashable, Comparable, CustomStringConvertible, Sendable {
        var server: String
        var tool: String

        /// Parses `server/tool`.
        init?(_ text: String) {
            guard let slash = text.firstIndex(of: "/") else { return nil }
            server = String(text[..<slash])
            tool = String(text[text.index(after: slash)...])
            guard !server.isEmpty, !tool.isEmpty else { return nil }
        }

        init(server: String, tool: String) {
            self.server = server
            self.tool = tool
        }

        var description: String { "\(server)/\(tool)" }

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }
    }

    /// The two prompt sets: the development set (tune on it) and the held-out test set.
    enum PromptSet: String, CaseIterable, Sendable {
        case dev
        case test
    }

    /// One prompt of a set: what the user typed, the catalog its turn chooses from, the tools
    /// that would serve it (any one is a hit) and the tools the conversation used before.
    struct Prompt: Sendable {
        var text: String
        var catalog: String
        var needs: [ToolReference]
        var recentlyUsed: [ToolReference]
        var set: PromptSet

        /// The servers of the tools it needs, each once, in the order first named.
        var servers: [String] {
            var seen: [String] = []
            for need in needs where !seen.contains(need.server) { seen.append(need.server) }
            return seen
        }
    }

    /// The tools one turn chooses from: every tool of the catalog's servers, as candidates with
    /// names unique in the catalog and the product's token counts.
    struct Catalog: Sendable {
        var name: String
        var servers: [String]
        var candidates: [ToolCandidate]
        /// Tools the product does not offer at all (its defences or the bridge refuse them), with why.
        var notOffered: [(tool: ToolReference, reason: String)]

        /// The candidate for a fixture's tool, if the catalog offers it.
        func candidate(for reference: ToolReference) -> ToolCandidate? {
            candidates.first { $0.server == reference.server && $0.toolNameOnServer == reference.tool }
        }
    }

    /// Everything under `Tests/Fixtures/SelectionEval`.
    struct Fixtures: Sendable {
        var catalogs: [Catalog]
        var prompts: [Prompt]

        static let folder = URL(fileURLWithPath: #filePath)  // Benchmarks/MCPBenchmarks/SelectionEvaluation+Fixtures.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures/SelectionEval")

        /// Reads the catalogs, the servers' tool lists and both prompt sets, and prices each
        /// catalog's tools as the product does.
        static func load() async throws -> Fixtures {
            let index = try read("catalogs.json")
            guard let entries = index.objectValue, !entries.isEmpty else {
                throw FixtureError("catalogs.json is not an object of catalogs")
            }
            var catalogs: [Catalog] = []
            for (name, value) in entries {  // in the file's order: six, new, third
                let servers = (value.arrayValue ?? []).compactMap(\.stringValue)
                guard !servers.isEmpty else { throw FixtureError("catalog \(name) names no server") }
                var listings: [(server: String, tools: [ToolDefinition])] = []
                for server in servers {
                    let tools = try read("servers/\(server).json")["tools"]?.arrayValue ?? []
                    listings.append((server, try tools.map { try ToolDefinition(json: $0) }))
                }
                catalogs.append(try await catalog(name, listings: listings))
            }
            var prompts: [Prompt] = []
            for set in PromptSet.allCases {
                prompts += try read("\(set.rawValue).json")["prompts"]?.arrayValue?.map { try prompt($0, set: set) } ?? []
            }
            for prompt in prompts {
                guard let catalog = catalogs.first(where: { $0.name == prompt.catalog }) else {
                    throw FixtureError("\(prompt.set.rawValue): \"\(prompt.text)\" names no catalog of catalogs.json")
                }
                for need in prompt.needs + prompt.recentlyUsed where !catalog.servers.contains(need.server) {
                    throw FixtureError("\(prompt.set.rawValue): \"\(prompt.text)\" names \(need), not in catalog \(catalog.name)")
                }
            }
            return Fixtures(catalogs: catalogs, prompts: prompts)
        }

        static func read(_ path: String) throws -> JSONValue {
            let url = folder.appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: url.path) else { throw FixtureError("cannot read \(url.path)") }
            return try JSONValue(parsing: data)
        }

        static func prompt(_ value: JSONValue, set: PromptSet) throws -> Prompt {
            func references(_ key: String) throws -> [ToolReference] {
                try (value[key]?.arrayValue ?? []).map { entry in
                    guard let text = entry.stringValue, let reference = ToolReference(text) else {
                        throw FixtureError("\(set.rawValue): \(key) entry \(entry) is not \"server/tool\"")
                    }
                    return reference
                }
            }
            guard let text = value["prompt"]?.stringValue, let catalog = value["catalog"]?.stringValue else {
                throw FixtureError("\(set.rawValue): a prompt without prompt or catalog: \(value)")
            }
            return Prompt(
                text: text, catalog: catalog, needs: try references("needs"), recentlyUsed: try references("recentlyUsed"), set: set)
        }

        /// The catalog's candidates, in server and listing order, named as
        /// `Tests/MCPFoundationModelsTests`' `SelectionCorpus` names them: the tool's name made
        /// a valid model name, with the server's label before it where two servers' tools would
        /// share a name (the calendar's `get-current-time` and the time server's
        /// `get_current_time`).
        static func catalog(_ name: String, listings: [(server: String, tools: [ToolDefinition])]) async throws -> Catalog {
            let priced = try await ProductTokens.count(listings)
            var counts: [String: Int] = [:]
            for listing in listings {
                for tool in listing.tools { counts[modelName(tool.name), default: 0] += 1 }
            }
            var candidates: [ToolCandidate] = []
            for listing in listings {
                for tool in listing.tools {
                    guard let tokens = priced.tokens[ToolReference(server: listing.server, tool: tool.name)] else { continue }
                    let plain = modelName(tool.name)
                    let name = (counts[plain] ?? 0) > 1 ? modelName(listing.server + "_" + tool.name) : plain
                    candidates.append(ToolCandidate(tool: tool, name: name, server: listing.server, tokens: tokens))
                }
            }
            guard Set(candidates.map(\.name)).count == candidates.count else { throw FixtureError("catalog \(name): model names clash") }
            return Catalog(name: name, servers: listings.map(\.server), candidates: candidates, notOffered: priced.notOffered)
        }

        /// `text` with every character outside `[A-Za-z0-9_]` made `_`.
        static func modelName(_ text: String) -> String {
            String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// What each tool definition costs in the context, counted the way `ondevice-mcp tools
/// --for-prompt` counts it.
///
/// Each listing is served by an in-process ``MCP/MCPServer`` and offered through an
/// ``MCPFoundationModels/MCPToolbox`` configured as the command's provider is (the on-device
/// budget, the read-only policy, the servers out of process as a stdio server is), and the
/// toolbox's ``MCPFoundationModels/MCPToolbox/availableCandidates`` give each bridged tool's
/// tokens: its name, compacted description and parameter schema as the system model counts them
/// (on Linux, PortableFoundationModels' estimate of the rendered definition). A tool the
/// toolbox does not offer (a definition its defences refuse, a schema it cannot bridge) is
/// reported with the toolbox's reason.
enum ProductTokens {
    static func count(
        _ listings: [(server: String, tools: [ToolDefinition])]
    ) async throws -> (
        tokens: [SelectionEvaluation.ToolReference: Int], notOffered: [(tool: SelectionEvaluation.ToolReference, reason: String)]
    ) {
        var servers: [MCPToolbox.Server] = []
        var clients: [MCPClient] = []
        var refused: [(tool: SelectionEvaluation.ToolReference, reason: String)] = []
        for listing in listings {
            let server = MCPServer(name: listing.server, version: "1.0")
            for tool in listing.tools {
                do {
                    try await server.register(MCPTool(definition: tool) { _, _ in .text("") })
                } catch {
                    refused.append(
                        (
                            SelectionEvaluation.ToolReference(server: listing.server, tool: tool.name),
                            "its input schema is refused: \(error)"
                        ))
                }
            }
            let client = try await MCPClient.connect(to: server)
            clients.append(client)
            servers.append(MCPToolbox.Server(name: listing.server, client: client))
        }
        var configuration = MCPToolbox.Configuration()
        configuration.defences.trust = ToolTrust(origin: .outOfProcess)
        let toolbox = MCPToolbox(servers: servers, configuration: configuration)
        defer { toolbox.close() }
        try await toolbox.refresh()
        var tokens: [SelectionEvaluation.ToolReference: Int] = [:]
        for candidate in toolbox.availableCandidates {
            guard let server = candidate.server else { continue }
            tokens[SelectionEvaluation.ToolReference(server: server, tool: candidate.toolNameOnServer)] = candidate.tokens
        }
        let exclusions = try await toolbox.selection(for: "").excluded
        for listing in listings {
            for tool in listing.tools {
                let reference = SelectionEvaluation.ToolReference(server: listing.server, tool: tool.name)
                guard tokens[reference] == nil, !refused.contains(where: { $0.tool == reference }) else { continue }
                let reason = exclusions.first { $0.toolNameOnServer == tool.name }?.reason ?? "not offered"
                refused.append((reference, reason))
            }
        }
        for client in clients { await client.close() }
        return (tokens, refused)
    }
}
