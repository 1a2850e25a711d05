public import MCP

#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// The bridged tools of one session, chosen within a ``ContextBudget``.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
public struct BridgedToolset: Sendable {
    /// A listed tool the session does not get, and why.
    public struct Exclusion: Hashable, Sendable {
        /// The tool's name on the server.
        public var toolNameOnServer: String
        /// Why it was left out, for a person to read.
        public var reason: String
    }

    /// The tools, in listing order.
    public private(set) var tools: [MCPBridgedTool] = []
    /// The listed tools left out.
    public private(set) var excluded: [Exclusion] = []
    /// Model names for every listed tool.
    public private(set) var names = ToolNameMap(serverNames: [String]())
    /// The estimated tokens of the tools' definitions.
    public private(set) var estimatedTokens = 0

    public init() {}

    /// Bridges a server's listing: its valid tools as ``init(listing:client:configuration:preserving:)``
    /// does, and every entry the server listed that was not a valid tool as an exclusion.
    public init(
        listing: ToolListing, client: MCPClient, configuration: MCPSessionProvider.Configuration,
        preserving previous: ToolNameMap? = nil, dataFlowGuard: DataFlowGuard? = nil, monitor: ToolCallMonitor? = nil
    ) throws {
        try self.init(
            listing: listing.tools, client: client, configuration: configuration, preserving: previous, dataFlowGuard: dataFlowGuard,
            monitor: monitor)
        for skipped in listing.skipped {
            excluded.append(
                Exclusion(
                    toolNameOnServer: skipped.name ?? "entry \(skipped.position)", reason: "its definition is not valid: \(skipped.reason)")
            )
        }
    }

    /// Bridges `listing`, keeping tools in order while they fit the budget.
    ///
    /// A tool whose schema cannot be bridged is left out with the reason, not the whole listing.
    ///
    /// - Parameters:
    ///   - preserving: The previous session's names, so a tool keeps its model name.
    ///   - dataFlowGuard: The conversation's state, shared by the tools; a new one by default.
    public init(
        listing: [MCPCore.ToolDefinition], client: MCPClient, configuration: MCPSessionProvider.Configuration,
        preserving previous: ToolNameMap? = nil, dataFlowGuard: DataFlowGuard? = nil, monitor: ToolCallMonitor? = nil
    ) throws {
        let budget = configuration.budget
        let state = dataFlowGuard ?? DataFlowGuard()
        names = ToolNameMap(serverNames: listing.map(\.name), preserving: previous)
        for tool in listing {
            guard configuration.includesTool(tool) else {
                excluded.append(Exclusion(toolNameOnServer: tool.name, reason: "not chosen by the app"))
                continue
            }
            let bridged: MCPBridgedTool
            do {
                bridged = try MCPBridgedTool(
                    tool: tool, client: client, name: names.modelName(for: tool.name), policy: configuration.policy,
                    budget: budget, timeout: configuration.toolTimeout, defences: configuration.defences, dataFlowGuard: state,
                    monitor: monitor)
            } catch let error as UntrustedDefinitionError {
                excluded.append(Exclusion(toolNameOnServer: tool.name, reason: error.reason))
                continue
            } catch {
                excluded.append(Exclusion(toolNameOnServer: tool.name, reason: "its input schema cannot be bridged: \(error)"))
                continue
            }
            let cost = Self.estimatedTokens(of: bridged, budget: budget)
            if tools.count >= budget.maximumTools {
                excluded.append(Exclusion(toolNameOnServer: tool.name, reason: "the session already has \(budget.maximumTools) tools"))
            } else if estimatedTokens + cost > budget.toolTokens {
                excluded.append(
                    Exclusion(
                        toolNameOnServer: tool.name,
                        reason: "its definition (about \(cost) tokens) does not fit the \(budget.toolTokens)-token tool budget"))
            } else {
                tools.append(bridged)
                estimatedTokens += cost
            }
        }
    }

    /// The tokens of a tool's definition as `model` counts them (`tokenCount(for:)`, 26.4
    /// and later, and the portable backends), or the estimate of
    /// ``estimatedTokens(of:budget:)`` where the model cannot count.
    public static func tokens(of tool: MCPBridgedTool, model: SystemLanguageModel, budget: ContextBudget) async -> Int {
        await ContextMeasure(model: model, budget: budget).tokens(forTools: [tool])
    }

    /// The model's context size, or the budget's where the model does not report one.
    public static func contextSize(of model: SystemLanguageModel, budget: ContextBudget) -> Int {
        ContextMeasure(model: model, budget: budget).contextSize
    }

    /// The estimated tokens of a tool's definition: its name, description and encoded
    /// parameters schema at the budget's characters per token.
    public static func estimatedTokens(of tool: MCPBridgedTool, budget: ContextBudget) -> Int {
        ContextMeasure.estimatedTokens(of: tool, budget: budget)
    }
}
