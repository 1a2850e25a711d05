internal import MCPPlatform

/// When a watched operation last made progress, so that it can fail after a quiet spell.
package final class IdleWatch: @unchecked Sendable {
    // Safety: `last` and `holds` are used with `lock` held.
    private let lock = Lock()
    private var last = ContinuousClock.now
    /// How many waits of this side are in progress: no quiet spell runs meanwhile.
    private var holds = 0
    let limit: Duration

    init(limit: Duration) {
        self.limit = limit
    }

    /// Notes progress: the quiet spell starts again.
    package func touch() {
        let now = ContinuousClock.now
        lock.withLock { last = now }
    }

    /// Notes that this side waits (for room in the inbound queue): the server is not silent
    /// meanwhile. Each call is balanced by ``release()``.
    func hold() {
        lock.withLock { holds += 1 }
    }

    /// Ends a wait of ``hold()``: the quiet spell starts again.
    func release() {
        let now = ContinuousClock.now
        lock.withLock {
            holds -= 1
            last = now
        }
    }

    /// Returns once there has been no progress for ``limit`` (not counting the time this
    /// side waited, ``hold()``); throws `CancellationError` when cancelled first. Wakes at most
    /// once per quiet spell, at its deadline (once per ``limit`` while held).
    func expiry() async throws {
        while true {
            let deadline = lock.withLock { holds > 0 ? ContinuousClock.now : last } + limit
            try await Task.sleep(until: deadline, clock: .continuous)
            let expired = lock.withLock { holds == 0 && last + limit <= ContinuousClock.now }
            if expired { return }
        }
    }
}

/// Runs `body`, failing with `timeout()` when it makes no progress (``IdleWatch/touch()``)
/// for `limit`; `body` is then cancelled, and this returns once it has ended.
package func withIdleTimeout<T: Sendable>(
    _ limit: Duration, timeout: @escaping @Sendable () -> any Error, _ body: @escaping @Sendable (IdleWatch) async throws -> T
) async throws -> T {
    let watch = IdleWatch(limit: limit)
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

/// Which of ``withIdleTimeout(_:timeout:_:)``'s two tasks finished first.
private enum IdleRace<T: Sendable>: Sendable {
    case done(T)
    case idle
}
