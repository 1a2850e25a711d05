internal import MCPCore
internal import MCPPlatform

/// A channel to a server over a ``Transport``: requests out, replies matched by id.
///
/// One reader task, owned by the channel, reads the transport until it ends; ``close()``
/// closes the transport and waits for the reader. When the transport ends, every pending
/// request fails at once with ``MCPClientError/connectionClosed``, saying why when the
/// transport knows (a child process's exit status and the tail of its standard error). One
/// more task watches the requests' deadlines (on the configured ``DeadlineClock``): a request that times out
/// fails with ``MCPClientError/timedOut`` and the server gets `notifications/cancelled`.
///
/// What the server sends that is not a valid message fails the request it answers at once
/// when its id can be read (``MCPClientError/invalidResponse``, naming what was wrong: its
/// size, its depth, the JSON error); otherwise it is noted (``ClientConnection/note(_:)``) and a later
/// timeout says what was seen.
///
/// The channel is the I/O shell of a ``ClientConnection``, held in one lock: every event (a
/// request registered, a reply, a deadline, a cancellation, the end) is one step of it, and
/// what it returns (a caller to resume, a cancellation to send) is done outside the lock.
///
/// Neither task holds the channel: a client dropped without ``close()`` calls ``abandon()``
/// from its `deinit`, which ends them and closes the transport in the background.
final class TransportChannel: ClientChannel, Sendable {
    let connection: any Transport
    let streams: NotificationStreams
    /// The connection's state: requests, deadlines, progress handlers, how it ended.
    private let state = LockedValue(ChannelConnection())
    /// The clock the requests' deadlines are measured on.
    private let clock: DeadlineClock
    /// Answers the server's requests (`ping`, `roots/list`).
    let responder: ServerRequestResponder
    /// The reader and the deadline watcher, once started.
    private let tasks = LockedValue<(reader: Task<Void, Never>, watcher: Task<Void, Never>)?>(nil)

    /// The transport, for ``MCPClient/withConnectionThread(isolation:_:)``.
    var transport: (any Transport)? { connection }

    init(
        transport: any Transport, streams: NotificationStreams, responder: ServerRequestResponder = ServerRequestResponder(),
        clock: DeadlineClock = .continuous
    ) {
        self.connection = transport
        self.streams = streams
        self.responder = responder
        self.clock = clock
    }

    /// Starts reading the connection.
    func start() {
        let limits = connection.resultLimits
        let task = startReader { [state, streams, connection, responder] in
            var failure: (any Error)?
            var messages = InboundMessages(of: connection)
            do {
                while let inbound = try await messages.next() {
                    await Self.dispatch(
                        inbound, state: state, streams: streams, transport: connection, limits: limits, responder: responder)
                }
            } catch {
                failure = error
            }
            let detail: String
            if state.withLock({ $0.isClosedByClient }) {
                detail = "the client closed the connection"
            } else {
                let reason = await connection.connectionEndReason()
                if let failure {
                    detail = "the connection to the server broke: \(failure)" + (reason.map { "; \($0)" } ?? "")
                } else {
                    detail = reason ?? "the server closed the connection"
                }
            }
            Self.end(state, with: MCPClientError.connectionClosed(detail))
            streams.finish()
        }
        let watcher = Task { [state, clock, connection] in
            await Self.watchDeadlines(state, clock: clock, transport: connection)
        }
        tasks.withLock { $0 = (task, watcher) }
    }

    /// Ends the connection's state: every waiting caller fails with `error`.
    private static func end(_ state: LockedValue<ChannelConnection>, with error: MCPClientError) {
        let waiting = state.withLock { $0.end(with: error) }
        for waiter in waiting { waiter.resume(throwing: error) }
    }

    /// Runs until the calling task is cancelled, failing every request whose deadline passes
    /// and telling the server (best effort); sleeps until the earliest deadline, or until a
    /// request due earlier (or the first after an idle spell) wakes it.
    private static func watchDeadlines(_ state: LockedValue<ChannelConnection>, clock: DeadlineClock, transport: any Transport) async {
        while !Task.isCancelled {
            let now = clock.now
            let (due, next) = state.withLock { $0.expire(now: now) }
            for expiry in due {
                expiry.waiter?.resume(throwing: expiry.error)
                // The caller has its error; tell the server to stop. Best effort.
                try? await transport.send(.notification(expiry.cancellation))
            }
            if !due.isEmpty { continue }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await waitForEarlierDeadline(state, than: next) }
                if let next {
                    group.addTask { try? await clock.sleep(until: next) }
                }
                _ = await group.next()
                group.cancelAll()
            }
        }
    }

    /// Returns when a request due before `target` is registered (at once if one already is),
    /// or when the calling task is cancelled.
    private static func waitForEarlierDeadline(_ state: LockedValue<ChannelConnection>, than target: Duration?) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let parked = state.withLock { Task.isCancelled ? false : $0.park(continuation, until: target) }
                if !parked { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.unpark() }?.resume()
        }
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
        _ inbound: InboundMessage, state: LockedValue<ChannelConnection>, streams: NotificationStreams,
        transport: (any Transport)?, limits: ResultLimits?, responder: ServerRequestResponder
    ) async {
        switch inbound {
        case .message(.response(let response)):
            let result = Result<JSONValue, any Error>.success(response.result)
            let waiter = state.withLock {
                $0.deliver(result, to: response.id, unanswered: "a response to request \(response.id), which was not waiting for one")
            }
            waiter?.resume(with: result)
        case .message(.errorResponse(let response)):
            let waiter = state.withLock {
                $0.deliver(
                    .failure(response.error), to: response.id,
                    unanswered: "an error response (\(response.error)) that answers no waiting request")
            }
            waiter?.resume(throwing: response.error)
        case .message(.notification(let notification)):
            streams.deliver(notification) { token in state.withLock { $0.progressHandler(for: token) } }
        case .message(.request(let request)):
            // Server-to-client requests: ping, and roots/list when the app gave roots.
            try? await transport?.send(responder.answer(request))
        case .message(.batch):
            state.withLock { $0.note("a JSON-RPC batch, which this client never asks for") }
        case .invalid(let invalid):
            // A client does not answer malformed server output; it fails the request the
            // message was meant to answer, when that can be told.
            let what = Self.describe(invalid.error)
            var error = MCPClientError.invalidResponse
            if let id = invalid.apparentID {
                if let limit = limits?.takeExceeded(id) {
                    error = MCPClientError.resultTooLarge(
                        "the server's reply to request \(id) is longer than the limit of \(limit) bytes for this call; it was cut off while it was read"
                    )
                } else {
                    error = MCPClientError.invalidResponse("the server's reply to request \(id) is not valid: \(what)")
                }
            }
            let waiter = state.withLock {
                $0.deliver(.failure(error), to: invalid.apparentID, unanswered: "a message that is not valid: \(what)")
            }
            waiter?.resume(throwing: error)
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
        _ method: String, params: JSONValue?, progress: ProgressHandler?, timeout: Duration?, resultLimit: Int?
    ) async throws -> JSONValue {
        let now = clock.now
        let started = try state.withLock { try $0.start(method, params: params, timeout: timeout, progress: progress, now: now) }
        started.wake?.resume()
        let id = started.id
        defer { state.withLock { $0.finish(id) } }
        // The reading thread cuts a reply over the limit while it reads (when the transport
        // has one); otherwise the reply is measured when it arrives.
        let limits = resultLimit == nil ? nil : connection.resultLimits
        if let resultLimit, let limits { limits.register(resultLimit, for: id) }
        defer { limits?.remove(id) }
        do {
            try await connection.send(.request(JSONRPCRequest(id: id, method: method, params: started.params)))
        } catch {
            throw Self.sendFailure(error, sending: method)
        }
        do {
            let result = try await wait(for: id)
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

    /// Waits for the reply to a registered request; the caller's cancellation ends the wait.
    private func wait(for id: RequestID) async throws -> JSONValue {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { $0.wait(for: id, waiter: continuation) }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
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
        state.withLock { $0.closeByClient() }
        await connection.close()
        Self.end(state, with: MCPClientError.connectionClosed("the client closed the connection"))
        let started = tasks.withLock { $0 }
        let task = started?.reader
        let watcher = started?.watcher
        watcher?.cancel()
        task?.cancel()
        await task?.value
        await watcher?.value
    }

    func abandon() {
        state.withLock { $0.closeByClient() }
        Self.end(state, with: MCPClientError.connectionClosed("the client was released without being closed"))
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
