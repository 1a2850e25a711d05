internal import MCPCore
internal import MCPPlatform

/// A channel straight into an ``MCPServer`` in the same process: no transport, no encoding.
///
/// A call runs in the caller's task and its reply is the server's return value, so the
/// channel's ``ClientConnection`` keeps no table of waiting requests here: it gives ids and
/// progress tokens, holds the progress handlers and knows when the client closed. A timeout
/// is a deadline on the caller's task (``withDeadline(after:clock:timeout:_:)``), which
/// answers at the deadline even when the tool ignores cancellation.
final class DirectChannel: ClientChannel {
    let server: MCPServer
    let session: Int
    let streams: NotificationStreams
    private let state: LockedValue<ChannelConnection>
    private let clock: DeadlineClock

    private init(
        server: MCPServer, session: Int, streams: NotificationStreams, state: LockedValue<ChannelConnection>, clock: DeadlineClock
    ) {
        self.server = server
        self.session = session
        self.streams = streams
        self.state = state
        self.clock = clock
    }

    static func open(
        to server: MCPServer, streams: NotificationStreams, responder: ServerRequestResponder, clock: DeadlineClock = .continuous
    ) async -> DirectChannel {
        let state = LockedValue(ChannelConnection())
        let session = await server.openNumberedSession({ session in
            { [weak server] message in
                switch message {
                case .notification(let notification):
                    streams.deliver(notification) { token in state.withLock { $0.progressHandler(for: token) } }
                case .request(let request):
                    // The server asks (roots/list): answered at once, straight back.
                    server?.receiveReply(responder.answer(request), session: session)
                default:
                    break
                }
            }
        })
        return DirectChannel(server: server, session: session, streams: streams, state: state, clock: clock)
    }

    func request(
        _ method: String, params: JSONValue?, progress: ProgressHandler?, timeout: Duration?, resultLimit: Int?
    ) async throws -> JSONValue {
        // In process, the call runs in the caller's task: a timeout needs a task to cancel.
        guard let timeout else { return try await request(method, params: params, progress: progress, resultLimit: resultLimit) }
        return try await withDeadline(
            after: timeout, clock: clock, timeout: { MCPClientError.timedOut("\(method) got no reply within \(timeout)") }
        ) {
            try await self.request(method, params: params, progress: progress, resultLimit: resultLimit)
        }
    }

    private func request(
        _ method: String, params: JSONValue?, progress: ProgressHandler?, resultLimit: Int?
    ) async throws -> JSONValue {
        let started = try state.withLock {
            try $0.start(method, params: params, timeout: nil, progress: progress, now: .zero, awaitsReply: false)
        }
        let id = started.id
        defer { if progress != nil { state.withLock { $0.finish(id) } } }
        let request = JSONRPCRequest(id: id, method: method, params: started.params)
        let reply = await server.handle(.request(request), session: session)
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
        guard !state.withLock({ $0.isClosedByClient }) else {
            throw MCPClientError.connectionClosed("the client closed the connection")
        }
        _ = await server.handle(.notification(notification), session: session)
    }

    func close() async {
        state.withLock { $0.closeByClient() }
        await server.closeSession(session)
        streams.finish()
    }

    func abandon() {
        state.withLock { $0.closeByClient() }
        streams.finish()
        Task { [server, session] in await server.closeSession(session) }
    }

    var transport: (any Transport)? { nil }
}
