// Recording which bridged tools' definitions a session's model reads.

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension DataFlowGuard {
    /// Records that the model reads the definitions of `tools`: for every server among them
    /// in another process, its definitions are untrusted content (see
    /// ``recordDefinitions(server:revision:)``). ``MCPSessionProvider`` and `makeSession`
    /// call it for the tools each session gets; call it when bridging tools by hand.
    public func recordDefinitions(of tools: [MCPBridgedTool]) {
        recordDefinitions(of: tools.map(\.offer))
    }
}

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension MCPBridgedTool {
    /// The tool as the data-flow guard records an offer of it.
    var offer: ToolCallMonitor.Offer {
        ToolCallMonitor.Offer(name: name, server: server, origin: origin, definition: definition)
    }
}
