internal import MCPCore
internal import MCPPlatform

/// What a steady-state request needs to know without entering the server's actor: the
/// registered tools and, per connection, its era, its client and where its notifications go.
///
/// ``MCPServer`` writes it (on the actor) whenever these change; requests read it under a
/// lock. A `tools/call` or `ping` on a connection whose era is settled is then answered
/// without an actor hop (see `MCPServer.quickAnswer(for:session:)`); everything else, and
/// every request that would be an error of the era, still goes through the actor.
final class CallDirectory: @unchecked Sendable {
    /// A connection as the quick path sees it.
    struct Connection: Sendable {
        var era: ServerSession.Era
        var clientInfo: Implementation?
        var notify: (@Sendable (JSONRPCMessage) async -> Void)?
    }

    // Safety: `tools` and `connections` are read and written with `lock` held.
    private let lock = Lock()
    private var tools: [String: RegisteredTool] = [:]
    private var connections: [Int: Connection] = [:]

    func setTool(_ entry: RegisteredTool?, named name: String) {
        lock.withLock { tools[name] = entry }
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
