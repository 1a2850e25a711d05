/// Which flushes of a loop connection's outbound buffer are waiting to run on the loop: the
/// decisions of ``LoopConnection/scheduleFlush(beforeSleeping:)``, without the loop.
///
/// A flush writes everything queued, so one waiting flush of each kind is enough: a request
/// finds one that will run no earlier than it needs and asks for nothing. A flush queued behind
/// the loop's current jobs runs no later than one that waits for the loop to run out of jobs,
/// so it also stands in for that one.
struct FlushSchedule: Equatable, Sendable {
    /// What the caller does next.
    enum Action: Equatable, Sendable {
        /// A waiting flush will write the bytes.
        case none
        /// Queue a flush behind the loop's current jobs (waking the loop if it sleeps).
        case queue
        /// Ask the loop to flush before it next sleeps; if it refuses (it sleeps), call
        /// ``refused()`` and do what it returns.
        case beforeSleeping
    }

    /// A flush is queued behind the loop's jobs.
    private(set) var queued = false
    /// A flush waits for the loop to run out of jobs.
    private(set) var waitsForSleep = false

    /// Bytes were queued: `beforeSleeping` when they may wait for the loop to run out of jobs.
    mutating func request(beforeSleeping: Bool) -> Action {
        if queued { return .none }
        if beforeSleeping {
            if waitsForSleep { return .none }
            waitsForSleep = true
            return .beforeSleeping
        }
        queued = true
        return .queue
    }

    /// The loop refused a flush before sleeping (its thread sleeps): queue one instead.
    mutating func refused() -> Action {
        waitsForSleep = false
        return request(beforeSleeping: false)
    }

    /// A flush starts on the loop (before it writes, so that bytes queued from now on ask again).
    mutating func started(beforeSleeping: Bool) {
        if beforeSleeping { waitsForSleep = false } else { queued = false }
    }
}
