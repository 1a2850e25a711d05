// Recording which untrusted tool definitions a session's model reads.

extension DataFlowGuard {
    /// Records that the model reads the definitions of `tools`: for every server among them
    /// in another process, its definitions are untrusted content (see
    /// ``recordDefinitions(server:revision:)``).
    package func recordDefinitions(of tools: [ToolCallMonitor.Offer]) {
        var revisions: [String: Hasher] = [:]
        var order: [String] = []
        for tool in tools where tool.origin == .outOfProcess {
            if revisions[tool.server] == nil { order.append(tool.server) }
            revisions[tool.server, default: Hasher()].combine(tool.definition)
        }
        for server in order {
            guard let hasher = revisions[server] else { continue }
            recordDefinitions(server: server, revision: hasher.finalize())
        }
    }
}
