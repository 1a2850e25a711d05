/// The clock a deadline is measured on: the continuous clock in production, a manual one in
/// tests.
///
/// Any `Clock` whose durations are `Duration` can stand behind it. Instants are the time since
/// the clock was wrapped, so one value type serves every clock, and types that keep deadlines
/// (``IdleWatch``, a table of request deadlines) need no generic parameter. Tests pass a
/// ``ManualClock`` and advance it, instead of racing real milliseconds.
package struct DeadlineClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`; its current time becomes this clock's zero.
    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { instant in try await clock.sleep(until: origin.advanced(by: instant), tolerance: nil) }
    }

    /// The system's continuous clock (it keeps counting while the machine sleeps).
    package static var continuous: DeadlineClock { DeadlineClock(ContinuousClock()) }

    /// The time now, as the time since this clock was made.
    package var now: Duration { elapsed() }

    /// Suspends until the clock reaches `instant` (a time since this clock was made).
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    package func sleep(until instant: Duration) async throws {
        try await sleeper(instant)
    }
}
