internal import MCPCore
internal import MCPPlatform

/// The requests a server has sent to one client session and not yet had answered
/// (``OutgoingRequests``): a small state machine per request, in which each continuation is
/// resumed exactly once.
///
/// The client's own requests are in its ``ClientConnection``, which has the same rules. This
/// type stays here until the server's side moves too (it is outside the client's files).
///
/// A request is registered *before* it is sent (``prepare(_:)``), so a reply that comes
/// back before the caller starts waiting is kept (``State/answered``) rather than lost;
/// a cancellation that comes before the wait begins is kept too (``State/cancelled``).
/// When the connection ends, ``failAll(_:)`` answers every request with the error and
/// every later request fails at once.
final class PendingRequests: Sendable {
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

    private struct Table {
        var states: [RequestID: State] = [:]
        var closedError: (any Error)?
    }

    private let table = LockedValue(Table())

    /// Registers a request about to be sent; throws when the connection has ended.
    func prepare(_ id: RequestID) throws {
        try table.withLock { table in
            if let closedError = table.closedError { throw closedError }
            table.states[id] = .sent
        }
    }

    /// Forgets a request whose send failed.
    func discard(_ id: RequestID) {
        table.withLock { $0.states[id] = nil }
    }

    /// Waits for the reply to a prepared request.
    func wait(for id: RequestID) async throws -> JSONValue {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome: Result<JSONValue, any Error>? = table.withLock { table in
                    switch table.states[id] {
                    case .sent?:
                        table.states[id] = .waiting(continuation)
                        return nil
                    case .answered(let result)?:
                        table.states[id] = nil
                        return result
                    case .cancelled?:
                        table.states[id] = nil
                        return .failure(CancellationError())
                    case .waiting?, nil:
                        return .failure(table.closedError ?? MCPClientError.connectionClosed)
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiting: CheckedContinuation<JSONValue, any Error>? = table.withLock { table in
                switch table.states[id] {
                case .waiting(let continuation)?:
                    table.states[id] = nil
                    return continuation
                case .sent?:
                    table.states[id] = .cancelled
                    return nil
                default:
                    return nil
                }
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Delivers a reply; returns whether a request was waiting for it.
    @discardableResult
    func resolve(_ id: RequestID, with result: Result<JSONValue, any Error>) -> Bool {
        let (taken, waiting): (Bool, CheckedContinuation<JSONValue, any Error>?) = table.withLock { table in
            switch table.states[id] {
            case .waiting(let continuation)?:
                table.states[id] = nil
                return (true, continuation)
            case .sent?:
                table.states[id] = .answered(result)
                return (true, nil)
            case .cancelled?:
                table.states[id] = nil
                return (false, nil)
            case .answered?, nil:
                return (false, nil)
            }
        }
        waiting?.resume(with: result)
        return taken
    }

    /// Ends the connection: every pending request fails with `error`, and so will later ones.
    func failAll(_ error: any Error) {
        let waiting: [CheckedContinuation<JSONValue, any Error>] = table.withLock { table in
            if table.closedError == nil { table.closedError = error }
            var waiting: [CheckedContinuation<JSONValue, any Error>] = []
            for (id, state) in table.states {
                switch state {
                case .waiting(let continuation):
                    waiting.append(continuation)
                    table.states[id] = nil
                case .sent:
                    table.states[id] = .answered(.failure(error))
                case .answered, .cancelled:
                    continue
                }
            }
            return waiting
        }
        for continuation in waiting {
            continuation.resume(throwing: error)
        }
    }

    /// How many requests are waiting or unanswered.
    var count: Int {
        table.withLock { $0.states.count }
    }
}
