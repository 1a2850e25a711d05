// The runtime re-exports the protocol values, so `import MCP` is all an app needs.
@_exported public import MCPCore
// The box (Sandbox, RootConfinement) lives in MCPSandbox, below MCP: MCP depends on it (the
// process transport boxes through its launch hook) and re-exports it, so an app's `import MCP`
// and `.process(…, sandbox:)` stay as they were.
@_exported public import MCPSandbox
