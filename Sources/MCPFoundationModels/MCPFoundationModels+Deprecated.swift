public import MCP

#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif

// The spellings from before issue #21, kept for source compatibility.

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension MCPBridgedTool {
    /// The tool's name on its server.
    @available(*, deprecated, renamed: "toolNameOnServer")
    public var serverName: String { toolNameOnServer }
}

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension BridgedToolset.Exclusion {
    /// The tool's name on its server.
    @available(*, deprecated, renamed: "toolNameOnServer")
    public var serverName: String { toolNameOnServer }
}

/// Makes a session whose tools are every tool the server lists.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(*, deprecated, renamed: "MCPBridgedTool.session(client:model:configuration:dataFlowGuard:)")
public func makeSession(
    client: MCPClient, model: SystemLanguageModel = .default,
    configuration: MCPSessionProvider.Configuration = MCPSessionProvider.Configuration(), dataFlowGuard: DataFlowGuard? = nil
) async throws -> LanguageModelSession {
    try await MCPBridgedTool.session(client: client, model: model, configuration: configuration, dataFlowGuard: dataFlowGuard)
}

/// Converts a tool's input schema to a `GenerationSchema`.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(*, deprecated, renamed: "SchemaConversion.schema(from:name:)")
public func schema(from inputSchema: JSONValue?, name: String = "tool") throws -> GenerationSchema {
    try SchemaConversion.schema(from: inputSchema, name: name)
}

/// Runs a chat over the provider's turns.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(*, deprecated, renamed: "MCPSessionProvider.runChat(input:isolation:partial:output:)")
public func runChat<Input: AsyncSequence>(
    provider: MCPSessionProvider, input: Input, isolation: isolated (any Actor)? = #isolation,
    partial: ((String) -> Void)? = nil, output: (String) -> Void
) async throws where Input.Element == String {
    try await provider.runChat(input: input, isolation: isolation, partial: partial, output: output)
}
