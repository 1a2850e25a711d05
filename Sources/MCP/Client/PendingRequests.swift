internal import MCPCore
internal import MCPPlatform

/// The requests a client has sent and not yet had answered: a small state machine per
/// request, in which each continuation is resumed exactly once.
///
/// A request is registered *before* it is sent (``prepare(_:)``), so a reply that comes
/// back before the caller starts waiting is kept (``State/answered``) rather than lost;
/// a cancellation that comes before the wait begins is kept too (``State/cancelled``).
/// When the connection ends, ``failAll(_:)`` answers every request with the error and
/// every later request fails at once.
final class PendingRequests: @unchecked Sendable {
    enum State {
        /// Sent; nobody is waiting yet.
        case sent
        /// The caller is waiting.
        case waiting(CheckedContinuation<JSONValue, any Error>)
        /// The reply came before the caller started waiting.
        case answered(Result<JSONValue, any Error>)
        /// The caller was cancelled before it started waiting.
        case cancelled
    }

    private let lock = Lock()
    private var states: [RequestID: State] = [:]
    private var closedError: (any Error)?

    /// Registers a request about to be sent; throws when the connection has ended.
    func prepare(_ id: RequestID) throws {
        lock.lock()
        defer { lock.unlock() }
        if let closedError { throw closedError }
        states[id] = .sent
    }

    /// Forgets a request whose send failed.
    func discard(_ id: RequestID) {
        lock.lock()
        states[id] = nil
        lock.unlock()
    }

    /// Waits for the reply to a prepared request.
    func wait(for id: RequestID) async throws -> JSONValue {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                let state = states[id]
                switch state {
                case .sent?:
                    states[id] = .waiting(continuation)
                    lock.unlock()
                case .answered(let result)?:
                    states[id] = nil
                    lock.unlock()
                    continuation.resume(with: result)
                case .cancelled?:
                    states[id] = nil
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                case .waiting?, nil:
                    let error = closedError ?? MCPClientError.connectionClosed
                    lock.unlock()
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            lock.lock()
            let state = states[id]
            switch state {
            case .waiting(let continuation)?:
                states[id] = nil
                lock.unlock()
                continuation.resume(throwing: CancellationError())
            case .sent?:
                states[id] = .cancelled
                lock.unlock()
            default:
                lock.unlock()
            }
        }
    }

    /// Delivers a reply; returns whether a request was waiting for it.
    @discardableResult
    func resolve(_ id: RequestID, with result: Result<JSONValue, any Error>) -> Bool {
        lock.lock()
        let state = states[id]
        switch state {
        case .waiting(let continuation)?:
            states[id] = nil
            lock.unlock()
            continuation.resume(with: result)
            return true
        case .sent?:
            states[id] = .answered(result)
            lock.unlock()
            return true
        case .cancelled?:
            states[id] = nil
            lock.unlock()
            return false
        case .answered?, nil:
            lock.unlock()
            return false
        }
    }

    /// Ends the connection: every pending request fails with `error`, and so will later ones.
    func failAll(_ error: any Error) {
        lock.lock()
        if closedError == nil { closedError = error }
        var waiting: [CheckedContinuation<JSONValue, any Error>] = []
        for (id, state) in states {
            switch state {
            case .waiting(let continuation):
                waiting.append(continuation)
                states[id] = nil
            case .sent:
                states[id] = .answered(.failure(error))
            case .answered, .cancelled:
                continue
            }
        }
        lock.unlock()
        for continuation in waiting {
            continuation.resume(throwing: error)
        }
    }

    /// How many requests are waiting or unanswered.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return states.count
    }
}
