/// The event loop's timers: jobs due at a time, in the order they fall due, and how long the
/// loop may wait before the first of them.
///
/// Times are durations since the loop's clock started (``DeadlineClock``), so the state is
/// tested with plain values. A loop keeps only a few timers at once (one per busy connection),
/// so they live in an array kept in deadline order.
package struct EventLoopTimers<Job> {
    /// A timer's identity, for cancelling it.
    package struct ID: Hashable, Sendable {
        let value: UInt64
    }

    private struct Entry {
        let deadline: Duration
        let id: ID
        let job: Job
    }

    /// Pending timers, earliest deadline first (equal deadlines in the order they were added).
    private var entries: [Entry] = []
    private var nextID: UInt64 = 1

    package init() {}

    /// The number of pending timers.
    package var count: Int { entries.count }

    /// Whether no timer is pending.
    package var isEmpty: Bool { entries.isEmpty }

    /// The earliest pending deadline, or `nil` when none is pending.
    package var nextDeadline: Duration? { entries.first?.deadline }

    /// Adds `job`, due at `deadline`; returns its identity and whether it is now the earliest
    /// (a loop already waiting for a later deadline, or for none, must be woken to wait less).
    package mutating func add(_ job: Job, at deadline: Duration) -> (id: ID, isEarliest: Bool) {
        let id = ID(value: nextID)
        nextID += 1
        // After every entry due at or before it: equal deadlines keep their order.
        let position = entries.lastIndex { $0.deadline <= deadline }.map { $0 + 1 } ?? 0
        entries.insert(Entry(deadline: deadline, id: id, job: job), at: position)
        return (id, position == 0)
    }

    /// Removes the timer `id`; returns whether it was pending (it had not fallen due).
    @discardableResult
    package mutating func cancel(_ id: ID) -> Bool {
        guard let position = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: position)
        return true
    }

    /// Removes and returns the jobs due at `now`, earliest first.
    package mutating func takeDue(at now: Duration) -> [Job] {
        let due = entries.prefix { $0.deadline <= now }.count
        guard due > 0 else { return [] }
        defer { entries.removeFirst(due) }
        return entries[0..<due].map(\.job)
    }

    /// How long a wait that starts at `now` may last, in whole milliseconds rounded up (what
    /// `epoll_wait` and `kevent` take): `nil` when no timer is pending, 0 when one is due.
    package func waitMilliseconds(at now: Duration) -> Int32? {
        guard let deadline = nextDeadline else { return nil }
        guard deadline > now else { return 0 }
        let left = deadline - now
        let (seconds, attoseconds) = left.components
        let wholeMilliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        let roundedUp = attoseconds % 1_000_000_000_000_000 == 0 ? wholeMilliseconds : wholeMilliseconds + 1
        return Int32(clamping: max(1, roundedUp))
    }
}
