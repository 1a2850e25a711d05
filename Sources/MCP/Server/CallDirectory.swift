internal import MCPCore
internal import MCPPlatform

/// The server's registered tools and, per connection, what a steady-state request needs to
/// know without entering the server's actor: its era, its client and where its
/// notifications go.
///
/// The tools live here only (the actor keeps their order); the connections are copies of
/// the actor's sessions. ``MCPServer`` writes both on the actor; requests read them under a
/// lock. A `tools/call` or `ping` on a connection whose era is settled is then answered
/// without an actor hop (see `MCPServer.quickAnswer(for:session:)`); everything else, and
/// every request that would be an error of the era, still goes through the actor.
final class CallDirectory: @unchecked Sendable {
    /// A connection as the quick path sees it.
    struct Connection: Sendable {
        var era: ServerSession.Era
        var clientInfo: Implementation?
        var clientCapabilities = ClientCapabilities()
        var notify: (@Sendable (JSONRPCMessage) async -> Void)?
    }

    // Safety: `tools` and `connections` are read and written with `lock` held.
    private let lock = Lock()
    private var tools: [String: RegisteredTool] = [:]
    private var connections: [Int: Connection] = [:]

    func setTool(_ entry: RegisteredTool, named name: String) {
        lock.withLock { tools[name] = entry }
    }

    /// Removes a tool; returns it, or `nil` when there was none of that name.
    func removeTool(named name: String) -> RegisteredTool? {
        lock.withLock { tools.removeValue(forKey: name) }
    }

    func tool(named name: String) -> RegisteredTool? {
        lock.withLock { tools[name] }
    }

    /// The tools of these names that exist, in the order given.
    func tools(named names: some Sequence<String>) -> [RegisteredTool] {
        lock.withLock { names.compactMap { tools[$0] } }
    }

    func setConnection(_ connection: Connection?, for session: Int) {
        lock.withLock { connections[session] = connection }
    }

    /// The connection, and the tool named `name` (when a name is given).
    func look(up session: Int, tool name: String?) -> (connection: Connection, tool: RegisteredTool?)? {
        lock.withLock {
            guard let connection = connections[session] else { return nil }
            return (connection, name.flatMap { tools[$0] })
        }
    }
}
