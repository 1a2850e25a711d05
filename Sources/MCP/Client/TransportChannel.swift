internal import MCPCore
internal import MCPPlatform

/// A channel to a server over a ``Transport``: requests out, replies matched by id.
///
/// One reader task, owned by the channel, reads the transport until it ends; ``close()``
/// closes the transport and waits for the reader. When the transport ends, every pending
/// request fails at once with ``MCPClientError/connectionClosed``, saying why when the
/// transport knows (a child process's exit status and the tail of its standard error). One
/// more task watches the requests' deadlines (``RequestDeadlines``): a request that times out
/// fails with ``MCPClientError/timedOut`` and the server gets `notifications/cancelled`.
///
/// What the server sends that is not a valid message fails the request it answers at once
/// when its id can be read (``MCPClientError/invalidResponse``, naming what was wrong: its
/// size, its depth, the JSON error); otherwise it is noted (``ProtocolNotes``) and a later
/// timeout says what was seen.
///
/// Neither task holds the channel: a client dropped without ``close()`` calls ``abandon()``
/// from its `deinit`, which ends them and closes the transport in the background.
final class TransportChannel: ClientChannel, Sendable {
    let connection: any Transport
    let router: ProgressRouter
    private let pending = PendingRequests()
    private let ids = RequestIDs()
    private let deadlines = RequestDeadlines()
    private let notes = ProtocolNotes()
    /// Answers the server's requests (`ping`, `roots/list`).
    let responder: ServerRequestResponder
    /// The reader and the deadline watcher, once started.
    private let tasks = LockedValue<(reader: Task<Void, Never>, watcher: Task<Void, Never>)?>(nil)

    /// The transport, for ``MCPClient/withConnectionThread(isolation:_:)``.
    var transport: (any Transport)? { connection }

    init(transport: any Transport, router: ProgressRouter, responder: ServerRequestResponder = ServerRequestResponder()) {
        self.connection = transport
        self.router = router
        self.responder = responder
    }

    /// Starts reading the connection.
    func start() {
        let stream = connection.receive()
        let limits = connection.resultLimits
        let task = startReader { [pending, router, notes, ids, connection, responder] in
            var failure: (any Error)?
            do {
                for try await inbound in stream {
                    await Self.dispatch(
                        inbound, pending: pending, router: router, notes: notes, transport: connection, limits: limits,
                        responder: responder)
                }
            } catch {
                failure = error
            }
            let detail: String
            if ids.isClosed {
                detail = "the client closed the connection"
            } else {
                let reason = await connection.connectionEndReason()
                if let failure {
                    detail = "the connection to the server broke: \(failure)" + (reason.map { "; \($0)" } ?? "")
                } else {
                    detail = reason ?? "the server closed the connection"
                }
            }
            pending.failAll(MCPClientError.connectionClosed(detail))
            router.finish()
        }
        let watcher = Task { [pending, deadlines, notes, connection] in
            await deadlines.watch { expired in
                let error = MCPClientError.timedOut("\(expired.method) got no reply within \(expired.timeout)" + notes.summary)
                guard pending.resolve(expired.id, with: .failure(error)) else { return }
                // The caller has its error; tell the server to stop. Best effort.
                let cancelled = CancelledNotification(requestID: expired.id, reason: "The request timed out after \(expired.timeout).")
                try? await connection.send(.notification(JSONRPCNotification(method: MCPMethod.cancelled, params: cancelled.params)))
            }
        }
        tasks.withLock { $0 = (task, watcher) }
    }

    /// Starts the reader task on the transport's reading thread when it has one, so that a
    /// reply resumes its caller straight from the thread that read it.
    private func startReader(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
            return Task(executorPreference: connection.connectionTaskExecutor, operation: operation)
        }
        return Task(operation: operation)
    }

    private static func dispatch(
        _ inbound: InboundMessage, pending: PendingRequests, router: ProgressRouter, notes: ProtocolNotes,
        transport: (any Transport)?, limits: ResultLimits?, responder: ServerRequestResponder
    ) async {
        switch inbound {
        case .message(.response(let response)):
            if !pending.resolve(response.id, with: .success(response.result)) {
                notes.record("a response to request \(response.id), which was not waiting for one")
            }
        case .message(.errorResponse(let response)):
            if let id = response.id, pending.resolve(id, with: .failure(response.error)) { return }
            notes.record("an error response (\(response.error)) that answers no waiting request")
        case .message(.notification(let notification)):
            router.deliver(notification)
        case .message(.request(let request)):
            // Server-to-client requests: ping, and roots/list when the app gave roots.
            try? await transport?.send(responder.answer(request))
        case .message(.batch):
            notes.record("a JSON-RPC batch, which this client never asks for")
        case .invalid(let invalid):
            // A client does not answer malformed server output; it fails the request the
            // message was meant to answer, when that can be told.
            let what = Self.describe(invalid.error)
            if let id = invalid.apparentID, let limit = limits?.takeExceeded(id),
                pending.resolve(
                    id,
                    with: .failure(
                        MCPClientError.resultTooLarge(
                            "the server's reply to request \(id) is longer than the limit of \(limit) bytes for this call; it was cut off while it was read"
                        )))
            {
                return
            }
            if let id = invalid.apparentID,
                pending.resolve(
                    id, with: .failure(MCPClientError.invalidResponse("the server's reply to request \(id) is not valid: \(what)")))
            {
                return
            }
            notes.record("a message that is not valid: \(what)")
        }
    }

    /// What was wrong with an invalid message, without the JSON-RPC error's prefix (which is
    /// written for a reply to the sender, not for this side's caller).
    static func describe(_ error: JSONRPCError) -> String {
        var text = Substring(error.message)
        for prefix in ["Parse error: ", "Invalid Request: "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        return String(text)
    }

    func request(
        _ method: String, params: JSONValue?, progress: ProgressRouter.Handler?, timeout: Duration?, resultLimit: Int?
    ) async throws -> JSONValue {
        let (id, params) = try router.start(params, ids: ids, progress: progress)
        defer { if progress != nil { router.unregister(id.json) } }
        try pending.prepare(id)
        // The reading thread cuts a reply over the limit while it reads (when the transport
        // has one); otherwise the reply is measured when it arrives.
        let limits = resultLimit == nil ? nil : connection.resultLimits
        if let resultLimit, let limits { limits.register(resultLimit, for: id) }
        defer { limits?.remove(id) }
        if let timeout { deadlines.add(id, method: method, timeout: timeout) }
        defer { if timeout != nil { deadlines.remove(id) } }
        do {
            try await connection.send(.request(JSONRPCRequest(id: id, method: method, params: params)))
        } catch {
            pending.discard(id)
            throw Self.sendFailure(error, sending: method)
        }
        do {
            let result = try await pending.wait(for: id)
            if let resultLimit, limits == nil, result.estimatedByteCount(upTo: resultLimit) > resultLimit {
                throw MCPClientError.resultTooLarge(
                    "the result of \(method) is larger than the limit of \(resultLimit) bytes for this call; it was not read")
            }
            return result
        } catch is CancellationError {
            // Tell the server to stop; it will not answer. Best effort: the connection may be gone.
            let cancelled = CancelledNotification(requestID: id, reason: "The client cancelled the request.")
            try? await connection.send(.notification(JSONRPCNotification(method: MCPMethod.cancelled, params: cancelled.params)))
            throw CancellationError()
        }
    }

    /// The error a caller gets when its message could not be sent, keeping the reasons apart:
    /// the connection is gone, the message is too large, it cannot be encoded, or the caller
    /// was cancelled while the connection's output was backed up. A ``TransportMessageError``
    /// (an HTTP status, say) reaches the caller as it is.
    static func sendFailure(_ error: any Error, sending method: String) -> any Error {
        if error is CancellationError || error is any TransportMessageError { return error }
        if error is JSONWriteError { return MCPClientError.encodingFailed("could not send \(method): \(error)") }
        switch error as? TransportError {
        case let failure? where failure == .frameTooLarge(""):
            return MCPClientError.requestTooLarge("could not send \(method): \(failure)")
        case let failure? where failure == .encodingFailure(""):
            return MCPClientError.encodingFailed("could not send \(method): \(failure)")
        default:
            return MCPClientError.connectionClosed("could not send \(method): \(error)")
        }
    }

    func notify(_ notification: JSONRPCNotification) async throws {
        do {
            try await connection.send(.notification(notification))
        } catch {
            throw Self.sendFailure(error, sending: notification.method)
        }
    }

    func close() async {
        ids.close()
        await connection.close()
        pending.failAll(MCPClientError.connectionClosed("the client closed the connection"))
        let started = tasks.withLock { $0 }
        let task = started?.reader
        let watcher = started?.watcher
        watcher?.cancel()
        task?.cancel()
        await task?.value
        await watcher?.value
    }

    func abandon() {
        ids.close()
        pending.failAll(MCPClientError.connectionClosed("the client was released without being closed"))
        let started = tasks.withLock { $0 }
        let task = started?.reader
        let watcher = started?.watcher
        watcher?.cancel()
        task?.cancel()
        // The transport's own shutdown (a child's stdio shutdown sequence) runs on its own;
        // this task is its owner and ends with it.
        Task { [connection] in await connection.close() }
    }
}

/// Where ``ProcessTransport`` keeps why its peer went away (a child process's exit status and
/// the tail of its standard error); it reaches the client through
/// ``Transport/connectionEndReason()``, not through this protocol (no cast looks for it).
protocol TransportEndReporting: Sendable {
    /// Why the inbound stream ended, in a clause such as "the server process exited with
    /// status 3; its standard error ended with: …"; `nil` when there is nothing to add.
    func endDescription() async -> String?
}
