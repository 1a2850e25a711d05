internal import Foundation
internal import MCPCore

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
    /// - Throws: The transport's error when the connection breaks.
    public nonisolated func run(on transport: some Transport) async throws {
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
                        let work = Task { await self.handle(message, session: session) }
                        if let id { inFlight.begin(id, work) }
                        running += 1
                        group.addTask {
                            let response = await withTaskCancellationHandler {
                                await work.value
                            } onCancel: {
                                work.cancel()
                            }
                            let cancelled = id.map { inFlight.finish($0, work) } ?? false
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
/// Shared between the read loop (which registers and cancels) and the request tasks
/// (which finish); a lock guards the table, and no lock is held while calling out.
final class InFlightRequests: @unchecked Sendable {
    private struct Entry {
        let work: Task<JSONRPCMessage?, Never>
        var cancelled: Bool
    }

    private let lock = NSLock()
    private var entries: [RequestID: Entry] = [:]

    func begin(_ id: RequestID, _ work: Task<JSONRPCMessage?, Never>) {
        lock.lock()
        entries[id] = Entry(work: work, cancelled: false)
        lock.unlock()
    }

    /// Cancels the request with `id`, if it is running; its response will not be sent.
    func cancel(_ id: RequestID) {
        lock.lock()
        let work = entries[id]?.work
        entries[id]?.cancelled = true
        lock.unlock()
        work?.cancel()
    }

    /// Removes a finished request; returns whether it was cancelled.
    func finish(_ id: RequestID, _ work: Task<JSONRPCMessage?, Never>) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[id], entry.work == work else { return false }
        entries[id] = nil
        return entry.cancelled
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }
}
