public import MCPCore

/// A server's whole tool list, as ``MCPClient/toolListing(timeout:)`` reads it.
public struct ToolListing: Hashable, Sendable {
    /// The valid tools, in the server's order.
    public var tools: [ToolDefinition]
    /// The entries that were not valid tools, with the reason each was left out (their
    /// positions are within their page).
    public var skipped: [SkippedTool]

    public init(tools: [ToolDefinition] = [], skipped: [SkippedTool] = []) {
        self.tools = tools
        self.skipped = skipped
    }
}
