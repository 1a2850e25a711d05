internal import MCPPlatform

/// When a watched operation last made progress, so that it can fail after a quiet spell.
package final class IdleWatch: @unchecked Sendable {
    // Safety: `last` is used with `lock` held.
    private let lock = Lock()
    private var last = ContinuousClock.now
    let limit: Duration

    init(limit: Duration) {
        self.limit = limit
    }

    /// Notes progress: the quiet spell starts again.
    package func touch() {
        let now = ContinuousClock.now
        lock.withLock { last = now }
    }

    /// Returns once there has been no progress for ``limit``; throws `CancellationError`
    /// when cancelled first. Wakes at most once per quiet spell, at its deadline.
    func expiry() async throws {
        while true {
            let deadline = lock.withLock { last } + limit
            try await Task.sleep(until: deadline, clock: .continuous)
            if lock.withLock({ last }) + limit <= ContinuousClock.now { return }
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
