internal import MCPCore
internal import MCPPlatform

/// The requests a server has sent to its clients (`roots/list`) and not yet had answered,
/// per connection: replies are matched by connection and id, each waiter is resumed exactly
/// once, and a connection that closes fails its waiters at once.
final class OutgoingRequests: Sendable {
    private struct State {
        var next = 1
        var connections: [Int: PendingRequests] = [:]
    }

    private let state = LockedValue(State())

    /// The pending requests of a connection, made on first use, and a new request id.
    private func prepare(for session: Int) -> (PendingRequests, RequestID) {
        state.withLock { state in
            defer { state.next += 1 }
            if let existing = state.connections[session] { return (existing, .int(state.next)) }
            let made = PendingRequests()
            state.connections[session] = made
            return (made, .int(state.next))
        }
    }

    /// Sends a request to the client of `session` and returns its result.
    ///
    /// - Throws: The client's ``JSONRPCError``; ``ToolContextError/timedOut`` after
    ///   `timeout`; ``ToolContextError/connectionClosed`` when the connection ends first;
    ///   `CancellationError`.
    func request(
        _ method: String, params: JSONValue?, session: Int, timeout: Duration,
        send: @escaping @Sendable (JSONRPCMessage) async -> Void
    ) async throws -> JSONValue {
        let (pending, id) = prepare(for: session)
        try pending.prepare(id)
        await send(.request(JSONRPCRequest(id: id, method: method, params: params)))
        return try await withDeadline(
            after: timeout, timeout: { ToolContextError.timedOut("the client did not answer \(method) within \(timeout)") }
        ) {
            try await pending.wait(for: id)
        }
    }

    /// Delivers a client's reply; returns whether a request of that connection was waiting for it.
    @discardableResult
    func resolve(_ reply: JSONRPCMessage, session: Int) -> Bool {
        let pending = state.withLock { $0.connections[session] }
        guard let pending else { return false }
        switch reply {
        case .response(let response):
            return pending.resolve(response.id, with: .success(response.result))
        case .errorResponse(let response):
            guard let id = response.id else { return false }
            return pending.resolve(id, with: .failure(response.error))
        default:
            return false
        }
    }

    /// Fails every request of a connection that ended.
    func close(_ session: Int) {
        let pending = state.withLock { $0.connections.removeValue(forKey: session) }
        pending?.failAll(ToolContextError.connectionClosed("the connection to the client closed"))
    }
}
