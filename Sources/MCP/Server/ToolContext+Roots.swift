public import MCPCore

extension ToolContext {
    /// The client's roots: the directories the app lets this server work in.
    ///
    /// ```swift
    /// let roots = try await context.roots()
    /// let confinement = try RootConfinement(roots: roots)
    /// ```
    ///
    /// How the client is asked follows the connection's era:
    /// - **Handshake era** (up to 2025-11-25): the server sends `roots/list` to the client
    ///   over the connection (in process too) and waits at most `timeout` for the answer.
    /// - **2026-07-28**, which has no server-to-client requests: the call ends with an
    ///   `input_required` result asking for `roots/list`; the client sends the call again
    ///   with its roots, and the tool runs again from the start, when this returns them.
    ///   A tool should therefore ask for the roots before it does anything with effects.
    ///
    /// Roots are what the client says; they confine nothing by themselves. Resolve paths
    /// with ``RootConfinement`` to keep a tool inside them.
    ///
    /// - Parameter timeout: How long to wait for the client's answer (handshake era).
    /// - Returns: The roots, in the client's order (possibly none).
    /// - Throws: ``ToolContextError/rootsUnavailable`` when the client did not declare the
    ///   `roots` capability or the call did not come over a connection; the client's
    ///   ``MCPCore/JSONRPCError``; ``ToolContextError/timedOut``,
    ///   ``ToolContextError/connectionClosed``, ``ToolContextError/invalidAnswer``;
    ///   `CancellationError`.
    public func roots(timeout: Duration = .seconds(10)) async throws -> [Root] {
        guard let client, let route = client.route else {
            throw ToolContextError.rootsUnavailable("this call did not come over a connection that can ask the client")
        }
        guard client.rootsDeclared else {
            throw ToolContextError.rootsUnavailable("the client did not declare the roots capability")
        }
        let answer: JSONValue
        switch route {
        case .inputRequired(let responses, let needs):
            guard let given = responses[Self.rootsInputKey] else {
                needs.ask(Self.rootsInputKey, method: MCPMethod.rootsList)
                throw InputRequired()
            }
            answer = given
        case .request(let session, let send, let outgoing):
            answer = try await outgoing.request(MCPMethod.rootsList, params: nil, session: session, timeout: timeout, send: send)
        }
        do {
            return try ListRootsResult(json: answer).roots
        } catch {
            throw ToolContextError.invalidAnswer("the client's roots/list answer is not valid: \(error)")
        }
    }

    /// The key of the roots in a 2026-07-28 `inputRequests` / `inputResponses` map.
    static let rootsInputKey = "roots"
}
