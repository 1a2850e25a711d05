internal import MCPPlatform

/// Lets one caller at a time through, in the order they came: the lock behind
/// ``MCPTool/Concurrency/serialized``.
///
/// Waiting suspends (no thread blocks). A caller cancelled while it waits leaves the line
/// at once with `CancellationError`; the gate then passes to the next one.
final class SerialGate: @unchecked Sendable {
    // Safety: every stored property below is read and written with `lock` held.
    private let lock = Lock()
    private var busy = false
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    /// Waits for the gate; the caller must ``leave()`` once done.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before its turn.
    func enter() async throws {
        let id: UInt64? = lock.withLock {
            if !busy {
                busy = true
                return nil
            }
            nextID += 1
            return nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if !busy {
                    busy = true
                    lock.unlock()
                    continuation.resume()
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Void, any Error>? = lock.withLock {
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Passes the gate to the next waiter, or opens it.
    func leave() {
        let next: CheckedContinuation<Void, any Error>? = lock.withLock {
            guard !waiters.isEmpty else {
                busy = false
                return nil
            }
            return waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
