// The only file that names FoundationModels' `Tool`: MCP's `Tool` (the listed definition)
// is not imported here, so the name is not ambiguous.
#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension MCPBridgedTool: Tool {}

/// FoundationModels' `Tool` protocol, for files that also see MCP's `Tool` struct.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
typealias LanguageModelTool = Tool
