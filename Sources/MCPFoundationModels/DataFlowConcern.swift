/// What a session has read that a tool with effects could carry out, told to the approver.
public struct DataFlowConcern: Hashable, Sendable, CustomStringConvertible {
    /// A tool whose output the session has read, and what that output contained.
    public struct Source: Hashable, Sendable {
        /// The tool's model name.
        public var tool: String
        public var marks: ToolTrust.DataMarks
    }

    /// What the session has read, oldest first, one entry per tool.
    public var sources: [Source]
    /// The tool that would run, by its model name.
    public var tool: String
    /// What it may do.
    public var effects: ToolEffects

    /// `this session has read private data (notes_read) and untrusted content (web_search), and web_fetch reaches the network, so it could carry them out`.
    public var description: String {
        var parts: [String] = []
        for mark in [ToolTrust.DataMarks.privateData, .untrustedContent] {
            let tools = sources.filter { $0.marks.contains(mark) }.map(\.tool)
            if !tools.isEmpty { parts.append("\(mark) (\(tools.joined(separator: ", ")))") }
        }
        return "this session has read \(parts.joined(separator: " and ")), and \(tool) \(effects.description), "
            + "so it could carry that data out or act on injected instructions"
    }
}
