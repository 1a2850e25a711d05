public import MCP

#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif

// A session with every tool a server lists: the seed sketch's `makeSession`, done by the bridge.

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension MCPBridgedTool {
    /// Makes a session whose tools are every tool the server lists (within the budget), as
    /// the seed sketch's `makeSession` does.
    ///
    /// ```swift
    /// let session = try await MCPBridgedTool.session(client: client)
    /// let answer = try await session.respond(to: "What did I note about the trip?")
    /// ```
    ///
    /// The session does not pass its prompts through the bridge, so the data-flow guard cannot
    /// classify them: to have a private prompt count, pass a `dataFlowGuard` and call its
    /// ``DataFlowGuard/recordPrompt(marks:)`` before each `respond`. For a conversation that
    /// should follow tool list changes and classify its prompts, use ``MCPSessionProvider``.
    ///
    /// - Parameter monitor: Receives the calls' and the defences' events (``AgentEvent``).
    public static func session(
        client: MCPClient, model: SystemLanguageModel = .default,
        configuration: MCPSessionProvider.Configuration = MCPSessionProvider.Configuration(), dataFlowGuard: DataFlowGuard? = nil,
        monitor: ToolCallMonitor? = nil
    ) async throws -> LanguageModelSession {
        let state = dataFlowGuard ?? DataFlowGuard()
        let toolset = try BridgedToolset(
            listing: try await client.listTools(), client: client, configuration: configuration, dataFlowGuard: state, monitor: monitor)
        await state.recordDefinitions(of: toolset.tools)
        return LanguageModelSession(model: model, tools: toolset.tools, instructions: configuration.instructions)
    }
}
