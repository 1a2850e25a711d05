// The runtime re-exports the protocol values, so `import MCP` is all an app needs.
@_exported public import MCPCore
