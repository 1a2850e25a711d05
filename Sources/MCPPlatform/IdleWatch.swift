/// When a watched operation last made progress, so that it can fail after a quiet spell: the
/// idle form of ``withDeadline(after:clock:timeout:_:)``.
package final class IdleWatch: Sendable {
    private struct State {
        /// When the quiet spell began.
        var last: Duration
        /// How many waits of this side are in progress: no quiet spell runs meanwhile.
        var holds = 0
    }

    /// The longest quiet spell allowed.
    package let limit: Duration
    private let clock: DeadlineClock
    private let state: LockedValue<State>

    /// A watch whose quiet spell starts now.
    package init(limit: Duration, clock: DeadlineClock = .continuous) {
        self.limit = limit
        self.clock = clock
        state = LockedValue(State(last: clock.now))
    }

    /// Notes progress: the quiet spell starts again.
    package func touch() {
        let now = clock.now
        state.withLock { $0.last = now }
    }

    /// Notes that this side waits (for room in a queue, say): the peer is not silent
    /// meanwhile. Each call is balanced by ``release()``.
    package func hold() {
        state.withLock { $0.holds += 1 }
    }

    /// Ends a wait of ``hold()``: the quiet spell starts again.
    package func release() {
        let now = clock.now
        state.withLock { state in
            state.holds -= 1
            state.last = now
        }
    }

    /// Returns once there has been no progress for ``limit`` (not counting the time this
    /// side waited, ``hold()``); throws `CancellationError` when cancelled first. Wakes at most
    /// once per quiet spell, at its deadline (once per ``limit`` while held).
    package func expiry() async throws {
        while true {
            let now = clock.now
            let deadline = state.withLock { $0.holds > 0 ? now : $0.last } + limit
            try await clock.sleep(until: deadline)
            let woke = clock.now
            let expired = state.withLock { $0.holds == 0 && $0.last + limit <= woke }
            if expired { return }
        }
    }
}

/// Runs `body`, failing with `timeout()` when it makes no progress (``IdleWatch/touch()``)
/// for `limit` on `clock`; `body` is then cancelled, and this returns once it has ended.
package func withIdleTimeout<T: Sendable>(
    _ limit: Duration, clock: DeadlineClock = .continuous, timeout: @escaping @Sendable () -> any Error,
    _ body: @escaping @Sendable (IdleWatch) async throws -> T
) async throws -> T {
    let watch = IdleWatch(limit: limit, clock: clock)
    return try await withThrowingTaskGroup(of: IdleRace<T>.self) { group in
        group.addTask { .done(try await body(watch)) }
        group.addTask {
            try await watch.expiry()
            return .idle
        }
        defer { group.cancelAll() }
        switch try await group.next() {
        case .done(let value)?: return value
        case .idle?: throw timeout()
        case nil: throw CancellationError()
        }
    }
}

/// Which of ``withIdleTimeout(_:clock:timeout:_:)``'s two tasks finished first.
private enum IdleRace<T: Sendable>: Sendable {
    case done(T)
    case idle
}
