internal import MCPCore
internal import MCPPlatform

/// How a running tool can ask its client for something (its roots), as each era allows.
///
/// - Handshake era: the server sends the client a `roots/list` request over the connection
///   and waits for the reply (``OutgoingRequests``).
/// - 2026-07-28 era, which has no server-to-client requests: the answer comes in the call's
///   own `inputResponses` when the client sent the call again; otherwise the tool's need is
///   recorded (``InputNeeds``) and the call ends with an `input_required` result asking for
///   it, so that the client sends the call again with the answer and the tool runs again.
struct ClientAccess: Sendable {
    enum Route: Sendable {
        /// Ask with a request on the connection of `session`.
        case request(session: Int, send: @Sendable (JSONRPCMessage) async -> Void, outgoing: OutgoingRequests)
        /// Read the call's `inputResponses`, or record what is needed.
        case inputRequired(responses: JSONObject, needs: InputNeeds)
    }

    /// Whether the client declared the `roots` capability (for this request, in 2026-07-28).
    let rootsDeclared: Bool
    /// How to ask; `nil` when the call came with no way to reach the client.
    let route: Route?

    /// Access in the handshake era, over a connection's notification path.
    static func handshake(
        capabilities: ClientCapabilities, session: Int, send: (@Sendable (JSONRPCMessage) async -> Void)?,
        outgoing: OutgoingRequests
    ) -> ClientAccess {
        ClientAccess(
            rootsDeclared: capabilities.supportsRoots,
            route: send.map { .request(session: session, send: $0, outgoing: outgoing) })
    }

    /// Access in the 2026-07-28 era, from the request's envelope and params.
    static func modern(envelope: JSONObject, params: JSONValue?) -> ClientAccess {
        let capabilities = ClientCapabilities(json: envelope[MCPMetaKey.clientCapabilities] ?? .null)
        let responses = params?["inputResponses"]?.objectValue ?? JSONObject()
        return ClientAccess(rootsDeclared: capabilities.supportsRoots, route: .inputRequired(responses: responses, needs: InputNeeds()))
    }

    /// The input requests a 2026-07-28 call must end with, if the tool asked for any.
    var pendingInputRequests: JSONObject? {
        guard case .inputRequired(_, let needs)? = route else { return nil }
        return needs.requests
    }
}

/// The input a 2026-07-28 tool call asked for that its request did not carry.
final class InputNeeds: Sendable {
    private let asked = LockedValue(JSONObject())

    /// Records an input request under `key`.
    func ask(_ key: String, method: String) {
        asked.withLock { $0[key] = ["method": .string(method), "params": .object([:])] }
    }

    /// The input requests recorded, `nil` when none.
    var requests: JSONObject? {
        asked.withLock { $0.isEmpty ? nil : $0 }
    }
}

/// Thrown by ``ToolContext/roots(timeout:)`` in the 2026-07-28 era when the client must be
/// asked first: the call then ends with an `input_required` result (whatever the tool does
/// with this error), and runs again once the client answers.
struct InputRequired: Error, CustomStringConvertible {
    var description: String { "the client must first give its roots; the call will be made again with them" }
}
