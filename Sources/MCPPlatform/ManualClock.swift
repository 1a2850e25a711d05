/// A clock that moves only when told to: deadline tests advance it instead of waiting for
/// real time, so what they assert does not depend on how busy the machine is.
///
/// Sleepers wake, in deadline order, when ``advance(by:)`` moves the time to or past their
/// deadline. ``waitForSleepers(_:)`` lets a test wait until a deadline is armed before it
/// advances.
package final class ManualClock: Clock, Sendable {
    /// A point on a manual clock: the time since it started.
    package struct Instant: InstantProtocol {
        package var offset: Duration

        package init(offset: Duration) {
            self.offset = offset
        }

        package func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        package func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        package static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// The waiters of ``waitForSleepers(_:)`` now satisfied, removed.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let count = sleepers.count
            let ready = sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
            sleeperWaiters.removeAll { $0.count <= count }
            return ready
        }
    }

    private let state = LockedValue(State())

    /// A clock at zero.
    package init() {}

    package var now: Instant { state.withLock { $0.now } }

    package var minimumResolution: Duration { .zero }

    /// How many tasks sleep on this clock.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                    if deadline <= state.now { return (.success(()), []) }
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (nil, state.satisfiedWaiters())
                }
                if let result = outcome.0 { continuation.resume(with: result) }
                for waiter in outcome.1 { waiter.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward by `duration`, waking every sleeper whose deadline it reaches.
    package func advance(by duration: Duration) {
        let woken: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
            for (id, _) in due { state.sleepers[id] = nil }
            return due.map(\.value.continuation)
        }
        for sleeper in woken { sleeper.resume() }
    }

    /// Returns once at least `count` tasks sleep on this clock (a deadline is armed).
    package func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
