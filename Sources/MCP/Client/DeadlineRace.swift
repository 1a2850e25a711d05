internal import MCPPlatform

/// Runs an operation against a deadline, and gives the caller its answer at the deadline
/// whether or not the operation cooperates.
///
/// A task group would wait for its children before returning, so a timeout built from one
/// only fires when the timed-out work reacts to cancellation. Here the operation runs in a
/// task of its own and the caller waits on a single continuation that the first of three
/// events settles: the operation's result, the deadline, or the caller's cancellation. The
/// operation is then cancelled (it may still run to its end if it ignores cancellation,
/// but nobody waits for it), and so is the timer.
enum DeadlineRace {
    /// Runs `operation`; throws `timeout()` once `duration` has passed without a result, and
    /// `CancellationError` when the calling task is cancelled first.
    static func run<T: Sendable>(
        within duration: Duration,
        timeout: @escaping @Sendable () -> any Error,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        let work = Task {
            do {
                outcome.settle(.success(try await operation()))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        let timer = Task {
            // A deadline, not a wait for an event: cancelled as soon as the race is settled.
            do {
                try await Task.sleep(for: duration)
            } catch {
                return
            }
            outcome.settle(.failure(timeout()))
        }
        defer {
            work.cancel()
            timer.cancel()
        }
        return try await outcome.value()
    }

    /// The first result of the race, which one waiter collects.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        // Safety: `result` and `waiter` are read and written with `lock` held.
        private let lock = Lock()
        private var result: Result<T, any Error>?
        private var waiter: CheckedContinuation<T, any Error>?

        /// Records the first result and hands it to the waiter; later results are dropped.
        func settle(_ newResult: Result<T, any Error>) {
            lock.lock()
            guard result == nil else {
                lock.unlock()
                return
            }
            result = newResult
            let waiting = waiter
            waiter = nil
            lock.unlock()
            waiting?.resume(with: newResult)
        }

        func value() async throws -> T {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                    lock.lock()
                    if let result {
                        lock.unlock()
                        continuation.resume(with: result)
                    } else if Task.isCancelled {
                        result = .failure(CancellationError())
                        lock.unlock()
                        continuation.resume(throwing: CancellationError())
                    } else {
                        waiter = continuation
                        lock.unlock()
                    }
                }
            } onCancel: {
                settle(.failure(CancellationError()))
            }
        }
    }
}
