internal import MCPPlatform

/// Lets one caller at a time through, in the order they came: the lock behind
/// ``MCPTool/Concurrency/serialized``.
///
/// Waiting suspends (no thread blocks). A caller cancelled while it waits leaves the line
/// at once with `CancellationError`; the gate then passes to the next one.
final class SerialGate: Sendable {
    private struct State {
        var busy = false
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state = LockedValue(State())

    /// Waits for the gate; the caller must ``leave()`` once done.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before its turn.
    func enter() async throws {
        let id: UInt64? = state.withLock { state in
            if !state.busy {
                state.busy = true
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if !state.busy {
                        state.busy = true
                        return .success(())
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Void, any Error>? = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Passes the gate to the next waiter, or opens it.
    func leave() {
        let next: CheckedContinuation<Void, any Error>? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
