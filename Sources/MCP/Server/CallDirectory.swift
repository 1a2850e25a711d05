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
final class CallDirectory: Sendable {
    /// A connection as the quick path sees it: a snapshot the actor publishes anew whenever
    /// the session changes (a class, so a look-up copies one reference).
    final class Connection: Sendable {
        let era: ServerSession.Era
        let clientInfo: SharedClientInfo?
        /// The connection's sender of messages, for notifications, made once, for the tools'
        /// contexts.
        let notifyNotification: (@Sendable (JSONRPCNotification) async -> Void)?
        /// How a tool of a handshake-era call reaches the client (the client's capabilities and
        /// the connection's sender), made once: it is the same for every call of the connection.
        let handshakeClient: ClientAccess

        init(
            era: ServerSession.Era, session: Int, outgoing: OutgoingRequests, clientInfo: SharedClientInfo? = nil,
            clientCapabilities: ClientCapabilities = ClientCapabilities(), notify: (@Sendable (JSONRPCMessage) async -> Void)? = nil
        ) {
            self.era = era
            self.clientInfo = clientInfo
            notifyNotification = notify.map(Self.notifications(through:))
            handshakeClient = ClientAccess.handshake(capabilities: clientCapabilities, session: session, send: notify, outgoing: outgoing)
        }

        /// A sender of notifications through a connection's sender of messages.
        static func notifications(
            through send: @escaping @Sendable (JSONRPCMessage) async -> Void
        ) -> @Sendable (JSONRPCNotification) async -> Void {
            { notification in await send(.notification(notification)) }
        }
    }

    private struct State {
        var tools: [String: RegisteredTool] = [:]
        var connections: [Int: Connection] = [:]
    }

    private let state = LockedValue(State())

    func setTool(_ entry: RegisteredTool, named name: String) {
        state.withLock { $0.tools[name] = entry }
    }

    /// Removes a tool; returns it, or `nil` when there was none of that name.
    func removeTool(named name: String) -> RegisteredTool? {
        state.withLock { $0.tools.removeValue(forKey: name) }
    }

    func tool(named name: String) -> RegisteredTool? {
        state.withLock { $0.tools[name] }
    }

    /// The tools of these names that exist, in the order given.
    func tools(named names: some Sequence<String>) -> [RegisteredTool] {
        state.withLock { state in names.compactMap { state.tools[$0] } }
    }

    func setConnection(_ connection: Connection?, for session: Int) {
        state.withLock { $0.connections[session] = connection }
    }

    /// The connection, and the tool named `name` (when a name is given).
    func look(up session: Int, tool name: String?) -> (connection: Connection, tool: RegisteredTool?)? {
        state.withLock { state in
            guard let connection = state.connections[session] else { return nil }
            return (connection, name.flatMap { state.tools[$0] })
        }
    }
}
