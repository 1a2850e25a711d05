/// Thrown by ``withDeadline(after:clock:_:)`` when the deadline passes first.
package struct DeadlineExceeded: Error, Hashable, Sendable {
    /// How long the operation was given.
    package var duration: Duration

    package init(duration: Duration) {
        self.duration = duration
    }
}

/// Runs `operation`, and answers by the deadline whether or not the operation cooperates:
/// `timeout()` is thrown once `duration` has passed on `clock` without a result.
///
/// A task group waits for its children before it returns, so a timeout built from one only
/// fires when the timed-out work reacts to cancellation. Here the operation runs in a task of
/// its own and the caller waits on one continuation, which the first of three events settles:
/// the operation's result, the deadline, or the caller's cancellation (`CancellationError`).
/// The operation and the timer are then cancelled; an operation that ignores cancellation may
/// still run to its end, but nobody waits for it.
package func withDeadline<T: Sendable>(
    after duration: Duration,
    clock: DeadlineClock = .continuous,
    timeout: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    let deadline = clock.now + duration
    let work = Task {
        do {
            race.settle(.success(try await operation()))
        } catch {
            race.settle(.failure(error))
        }
    }
    let timer = Task {
        // A deadline, not a wait for an event: cancelled as soon as the race is settled.
        do {
            try await clock.sleep(until: deadline)
        } catch {
            return
        }
        race.settle(.failure(timeout()))
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await race.value()
}

/// Runs `operation`; throws ``DeadlineExceeded`` once `duration` has passed on `clock`.
package func withDeadline<T: Sendable>(
    after duration: Duration,
    clock: DeadlineClock = .continuous,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withDeadline(after: duration, clock: clock, timeout: { DeadlineExceeded(duration: duration) }, operation)
}

/// The first result of a deadline race, which one waiter collects.
private final class DeadlineRace<T: Sendable>: Sendable {
    private enum State {
        case running(waiter: CheckedContinuation<T, any Error>?)
        case settled(Result<T, any Error>)
    }

    private let state = LockedValue(State.running(waiter: nil))

    /// Records the first result and hands it to the waiter; later results are dropped.
    func settle(_ result: Result<T, any Error>) {
        let waiter: CheckedContinuation<T, any Error>? = state.withLock { state in
            guard case .running(let waiter) = state else { return nil }
            state = .settled(result)
            return waiter
        }
        waiter?.resume(with: result)
    }

    /// Waits for the result; the caller's cancellation settles the race.
    func value() async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let settled: Result<T, any Error>? = state.withLock { state in
                    switch state {
                    case .settled(let result):
                        return result
                    case .running:
                        if Task.isCancelled {
                            state = .settled(.failure(CancellationError()))
                            return .failure(CancellationError())
                        }
                        state = .running(waiter: continuation)
                        return nil
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
        } onCancel: {
            settle(.failure(CancellationError()))
        }
    }
}
