public import MCPCore

// The defended path of a bridged call: the call runs through the defences' interceptors
// (`Defences.interceptors`, see `ToolCallChain`) to its server.

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension MCPBridgedTool {
    /// What the tool's output contains, for the data-flow guard.
    public var dataMarks: ToolTrust.DataMarks {
        defences.trust.marks(ofTool: toolNameOnServer, server: server, origin: origin)
    }

    /// The call of this tool with `arguments`, as the interceptors receive it.
    public func toolCall(arguments: JSONObject) -> ToolCall {
        ToolCall(
            tool: name, toolNameOnServer: toolNameOnServer, server: server, origin: origin, effects: effects,
            sendsArgumentsOut: sendsArgumentsOut, identity: identity, client: client, policy: policy,
            timeout: timeout ?? Self.defaultTimeout, maximumResultBytes: maximumResultBytes, defences: defences,
            dataFlowGuard: dataFlowGuard, monitor: monitor, arguments: arguments, outputFormat: outputFormat)
    }

    /// Runs a call whose arguments are valid through the defences' interceptors: they make
    /// the arguments the tool will receive, ask for approval with exactly those, send them,
    /// and return the framed, redacted result.
    func defendedCall(_ arguments: JSONObject) async throws -> String {
        try await defences.interceptors.run(toolCall(arguments: arguments)).text
    }
}
