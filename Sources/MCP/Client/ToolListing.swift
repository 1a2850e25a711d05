public import MCPCore

/// A server's whole tool list, as ``MCPClient/listTools(timeout:)`` reads it.
///
/// A collection of the valid tools, in the server's order, so it can be iterated, mapped and
/// indexed like an array; ``skipped`` keeps the entries that were left out and why.
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

extension ToolListing: RandomAccessCollection {
    public var startIndex: Int { tools.startIndex }
    public var endIndex: Int { tools.endIndex }
    public subscript(position: Int) -> ToolDefinition { tools[position] }
}
