internal import MCPCore
internal import MCPPlatform

/// How an ``MCPClient`` reaches its server: directly in process, or over a transport.
protocol ClientChannel: Sendable {
    /// Sends a request and returns its result; throws the server's ``JSONRPCError``, a
    /// ``MCPClientError`` (``MCPClientError/timedOut`` once `timeout` has passed, when one is
    /// given), or `CancellationError`.
    ///
    /// With a `resultLimit`, a reply larger than that many bytes (as compact JSON) fails
    /// with ``MCPClientError/resultTooLarge``; over a stream transport it is cut while it is
    /// read, not after it has arrived whole.
    func request(
        _ method: String, params: JSONValue?, progress: ProgressRouter.Handler?, timeout: Duration?, resultLimit: Int?
    ) async throws -> JSONValue
    /// Sends a notification.
    func notify(_ notification: JSONRPCNotification) async throws
    /// Ends the connection; pending requests fail.
    func close() async
    /// Ends the connection without waiting (for a client dropped without ``close()``):
    /// pending requests fail, and whatever the channel owns is shut down in the background.
    func abandon()
    /// The transport the channel talks over; `nil` in process.
    var transport: (any Transport)? { get }
}

extension ClientChannel {
    /// Sends a request with no limit on the size of its result.
    func request(
        _ method: String, params: JSONValue?, progress: ProgressRouter.Handler?, timeout: Duration?
    ) async throws -> JSONValue {
        try await request(method, params: params, progress: progress, timeout: timeout, resultLimit: nil)
    }
}

/// A request id source shared by a channel's callers, which also knows when the channel
/// is closed (one lock for both, on the hot path of every call).
final class RequestIDs: Sendable {
    private struct State {
        var next = 1
        var closed = false
    }

    private let state = LockedValue(State())

    /// The next id, or `nil` once the channel is closed.
    func make() -> RequestID? {
        state.withLock { state in
            guard !state.closed else { return nil }
            defer { state.next += 1 }
            return .int(state.next)
        }
    }

    func close() {
        state.withLock { $0.closed = true }
    }

    var isClosed: Bool {
        state.withLock { $0.closed }
    }
}

// MARK: - In process

/// A channel straight into an ``MCPServer`` in the same process: no transport, no encoding.
final class DirectChannel: ClientChannel {
    let server: MCPServer
    let session: Int
    let router: ProgressRouter
    private let ids = RequestIDs()

    private init(server: MCPServer, session: Int, router: ProgressRouter) {
        self.server = server
        self.session = session
        self.router = router
    }

    static func open(to server: MCPServer, router: ProgressRouter, responder: ServerRequestResponder) async -> DirectChannel {
        let session = await server.openNumberedSession({ session in
            { [weak server] message in
                switch message {
                case .notification(let notification):
                    router.deliver(notification)
                case .request(let request):
                    // The server asks (roots/list): answered at once, straight back.
                    server?.receiveReply(responder.answer(request), session: session)
                default:
                    break
                }
            }
        })
        return DirectChannel(server: server, session: session, router: router)
    }

    func request(
        _ method: String, params: JSONValue?, progress: ProgressRouter.Handler?, timeout: Duration?, resultLimit: Int?
    ) async throws -> JSONValue {
        // In process, the call runs in the caller's task: a timeout needs a task to cancel.
        guard let timeout else { return try await request(method, params: params, progress: progress, resultLimit: resultLimit) }
        return try await withDeadline(after: timeout, timeout: { MCPClientError.timedOut("\(method) got no reply within \(timeout)") }) {
            try await self.request(method, params: params, progress: progress, resultLimit: resultLimit)
        }
    }

    private func request(
        _ method: String, params: JSONValue?, progress: ProgressRouter.Handler?, resultLimit: Int?
    ) async throws -> JSONValue {
        let (id, params) = try router.start(params, ids: ids, progress: progress)
        defer { if progress != nil { router.unregister(id.json) } }
        let reply = await server.handle(.request(JSONRPCRequest(id: id, method: method, params: params)), session: session)
        try Task.checkCancellation()
        let result = try ClientRequests.result(of: reply, for: id)
        if let resultLimit {
            // Nothing was encoded in process: the estimate stands in for the encoded size,
            // and stops counting once it passes the limit.
            let size = result.estimatedByteCount(upTo: resultLimit)
            if size > resultLimit {
                throw MCPClientError.resultTooLarge(
                    "the result of \(method) is larger than the limit of \(resultLimit) bytes for this call; it was not read")
            }
        }
        return result
    }

    func notify(_ notification: JSONRPCNotification) async throws {
        guard !ids.isClosed else {
            throw MCPClientError.connectionClosed("the client closed the connection")
        }
        _ = await server.handle(.notification(notification), session: session)
    }

    func close() async {
        ids.close()
        await server.closeSession(session)
        router.finish()
    }

    func abandon() {
        ids.close()
        router.finish()
        Task { [server, session] in await server.closeSession(session) }
    }

    var transport: (any Transport)? { nil }
}

enum ClientRequests {
    /// The result of a request from its reply, or the error the reply carries.
    static func result(of reply: JSONRPCMessage?, for id: RequestID) throws -> JSONValue {
        switch reply {
        case .response(let response)?:
            return response.result
        case .errorResponse(let response)?:
            throw response.error
        default:
            throw MCPClientError.invalidResponse("the server sent no response to request \(id)")
        }
    }

    /// `params` with `_meta.progressToken` set.
    static func attachProgressToken(_ token: JSONValue, to params: JSONValue?) -> JSONValue {
        var params = params ?? .object([:])
        var meta = params["_meta"] ?? .object([:])
        meta[MCPMetaKey.progressToken] = token
        params["_meta"] = meta
        return params
    }
}
