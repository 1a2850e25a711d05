internal import MCPCore
internal import MCPPlatform

extension MCPServer {
    /// The most requests one connection may have in flight; past it, reading pauses
    /// until one finishes (notifications, including cancellations, are still read first).
    public static let maximumConcurrentRequests = 1024

    /// How long requests still running when the peer closes its side may take to answer
    /// before they are cancelled.
    public static let endOfInputGracePeriod: Duration = .milliseconds(500)

    /// Serves a connection until the peer closes it.
    ///
    /// Each request is handled in its own child task, so a slow tool never delays `ping`
    /// or another call; responses go out as they are ready. `notifications/cancelled`
    /// cancels the named request's task, and that request gets no response. A frame that
    /// is not a valid message is answered with the error that says why (`-32700` with
    /// `id: null` for text that is not JSON), and the connection goes on.
    ///
    /// When the peer closes the connection (for stdio, end of input), requests still
    /// running get ``endOfInputGracePeriod`` to answer and are then cancelled; the
    /// transport is closed, and `run` returns.
    ///
    /// On a ``StdioTransport`` or ``FileDescriptorTransport`` (and where the system has task
    /// executors), the loop and the requests' tasks run on the transport's reading thread, so
    /// a request is read, handled and answered with no thread switch. Requests still run
    /// concurrently: whenever one suspends, the others proceed. A tool that does long
    /// synchronous work (seconds of computation without an `await`) holds that thread, and
    /// with it the connection's other requests, until it returns; give such work its own
    /// task (`await Task.detached { … }.value`), as one would to keep any executor responsive.
    ///
    /// - Throws: The transport's error when the connection breaks.
    public nonisolated func run(on transport: some Transport) async throws {
        // On stdio, this loop, each request's task and the actor's own work run on the
        // transport's reading thread: a request is read, handled and answered there.
        try await transport.preferringConnectionThread {
            try await serve(transport)
        }
    }

    private nonisolated func serve(_ transport: some Transport) async throws {
        let inFlight = InFlightRequests()
        let session = await openSession { message in
            // A failed send means the peer is gone; the inbound stream ends soon after.
            try? await transport.send(message)
        }
        var failure: (any Error)?
        // Children report whether they are the end-of-input deadline (true) or a request (false).
        await withTaskGroup(of: Bool.self) { group in
            var running = 0
            do {
                for try await inbound in transport.receive() {
                    switch inbound {
                    case .invalid(let invalid):
                        try? await transport.send(invalid.response)
                    case .message(.notification(let notification)):
                        if notification.method == MCPMethod.cancelled,
                            let cancelled = try? CancelledNotification(params: notification.params)
                        {
                            inFlight.cancel(cancelled.requestID)
                        } else {
                            await receive(notification, session: session)
                        }
                    case .message(.response), .message(.errorResponse):
                        continue
                    case .message(let message):
                        if running >= Self.maximumConcurrentRequests {
                            _ = await group.next()
                            running -= 1
                        }
                        let id = message.id
                        // Registered before the child starts, so a cancellation that arrives
                        // first is not missed.
                        let ticket = id.map { inFlight.expect($0) }
                        running += 1
                        group.addTask {
                            if let id, let ticket {
                                let proceed = withUnsafeCurrentTask { task in
                                    task.map { inFlight.attach(id, ticket: ticket, task: $0) } ?? true
                                }
                                guard proceed else {
                                    _ = inFlight.finish(id, ticket: ticket)
                                    return false
                                }
                            }
                            let response = await self.handle(message, session: session)
                            let cancelled = id.flatMap { id in ticket.map { inFlight.finish(id, ticket: $0) } } ?? false
                            if let response, !cancelled, !Task.isCancelled {
                                try? await transport.send(response)
                            }
                            return false
                        }
                    }
                }
            } catch {
                failure = error
                group.cancelAll()
            }
            // The peer is done sending. Requests still running get a short grace period to
            // answer (so `echo request | ondevice-mcp serve` works), then they are cancelled.
            if running > 0 && failure == nil {
                group.addTask {
                    // A deadline, not a wait for an event: cancelled as soon as the requests end.
                    try? await Task.sleep(for: Self.endOfInputGracePeriod)
                    return true
                }
                while let isDeadline = await group.next() {
                    if isDeadline {
                        group.cancelAll()
                    } else {
                        running -= 1
                        if running == 0 { group.cancelAll() }
                    }
                }
            }
            group.cancelAll()
        }
        await closeSession(session)
        await transport.close()
        if let failure { throw failure }
    }
}

/// The requests of one connection that are running, so that a cancellation can reach them.
///
/// Each request runs in a child task of ``MCPServer/run(on:)``'s task group. To cancel one
/// child (and not the group), the table keeps the child's `UnsafeCurrentTask`, which is
/// safe here because of one rule: a child removes its entry (``finish(_:ticket:)``)
/// before it returns, and ``cancel(_:)`` uses the task only under the lock while the
/// entry exists, so a task is never touched after it has ended. This avoids a second,
/// unstructured task per request just to have something to cancel.
final class InFlightRequests: @unchecked Sendable {
    private struct Entry {
        let ticket: Int
        var task: UnsafeCurrentTask?
        var cancelled: Bool
    }

    private let lock = Lock()
    private var entries: [RequestID: Entry] = [:]
    private var nextTicket = 0

    /// Registers a request about to start; returns its ticket.
    func expect(_ id: RequestID) -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextTicket += 1
        entries[id] = Entry(ticket: nextTicket, task: nil, cancelled: false)
        return nextTicket
    }

    /// Gives a started request's task; returns `false` when it was cancelled before it started.
    func attach(_ id: RequestID, ticket: Int, task: UnsafeCurrentTask) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard var entry = entries[id], entry.ticket == ticket else { return true }
        guard !entry.cancelled else { return false }
        entry.task = task
        entries[id] = entry
        return true
    }

    /// Cancels the request with `id`, if it is running; its response will not be sent.
    func cancel(_ id: RequestID) {
        lock.lock()
        defer { lock.unlock() }
        guard var entry = entries[id] else { return }
        entry.cancelled = true
        entries[id] = entry
        entry.task?.cancel()
    }

    /// Removes a finished request; returns whether it was cancelled.
    func finish(_ id: RequestID, ticket: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[id], entry.ticket == ticket else { return false }
        entries[id] = nil
        return entry.cancelled
    }
}
