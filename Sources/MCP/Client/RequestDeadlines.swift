internal import MCPCore
internal import MCPPlatform

/// The deadlines of one connection's requests, watched by one task with one timer at a time.
///
/// A request with a timeout is added when it is sent and removed when it is answered: a lock
/// and an array insertion, no task and no timer per request. ``watch(_:)`` sleeps until the
/// earliest deadline; each request whose deadline has passed is handed to its `expire`
/// closure (which fails the request and tells the server). Requests made with the same
/// timeout have their deadlines in the order they were sent, so a busy connection re-arms the
/// timer about once per timeout period; only a request due earlier than the timer (a shorter
/// per-call timeout), or the first one after an idle spell, wakes the watcher early.
///
/// Time is read from a ``DeadlineClock`` (the continuous clock unless a test passes another).
final class RequestDeadlines: Sendable {
    /// A request whose deadline has passed.
    struct Expired: Sendable {
        let id: RequestID
        let method: String
        let timeout: Duration
    }

    private struct Entry {
        let deadline: Duration
        let request: Expired
    }

    private struct State {
        /// Sorted by deadline; equal deadlines in the order they were added.
        var entries: [Entry] = []
        /// The watcher, waiting until `target` (or for work, when `target` is nil).
        var watcher: CheckedContinuation<Void, Never>?
        var target: Duration?

        /// The watcher, taken, when a request due before its target has come.
        mutating func takeWatcher(ifEarlierThan deadline: Duration) -> CheckedContinuation<Void, Never>? {
            guard let waiting = watcher, target.map({ deadline < $0 }) ?? true else { return nil }
            watcher = nil
            target = nil
            return waiting
        }
    }

    private let clock: DeadlineClock
    private let state = LockedValue(State())

    init(clock: DeadlineClock = .continuous) {
        self.clock = clock
    }

    /// Starts watching a request; it expires `timeout` from now unless ``remove(_:)`` comes first.
    func add(_ id: RequestID, method: String, timeout: Duration) {
        let deadline = clock.now + timeout
        let entry = Entry(deadline: deadline, request: Expired(id: id, method: method, timeout: timeout))
        let woken = state.withLock { state in
            if let last = state.entries.last, deadline < last.deadline {
                // A shorter timeout than the requests before it: keep the order.
                var low = 0
                var high = state.entries.count
                while low < high {
                    let middle = (low + high) / 2
                    if state.entries[middle].deadline <= deadline { low = middle + 1 } else { high = middle }
                }
                state.entries.insert(entry, at: low)
            } else {
                state.entries.append(entry)
            }
            // Wake the watcher only when it would otherwise sleep past this deadline.
            return state.takeWatcher(ifEarlierThan: deadline)
        }
        woken?.resume()
    }

    /// Stops watching a request (it was answered, failed or cancelled).
    func remove(_ id: RequestID) {
        state.withLock { state in
            // Requests tend to finish in the order they started: search from the front.
            if let index = state.entries.firstIndex(where: { $0.request.id == id }) {
                state.entries.remove(at: index)
            }
        }
    }

    /// Runs until the calling task is cancelled, handing every request whose deadline passes
    /// to `expire` (once; the request is no longer watched then).
    func watch(_ expire: @Sendable (Expired) async -> Void) async {
        while !Task.isCancelled {
            let now = clock.now
            let (due, next): ([Expired], Duration?) = state.withLock { state in
                let count = state.entries.prefix { $0.deadline <= now }.count
                let due = state.entries.prefix(count).map(\.request)
                state.entries.removeFirst(count)
                return (due, state.entries.first?.deadline)
            }
            for request in due { await expire(request) }
            if !due.isEmpty { continue }
            // Sleep until the earliest deadline; an earlier one (or the first after an idle
            // spell) ends the wait through `watcher`.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.waitForEarlierDeadline(than: next) }
                if let next {
                    group.addTask { [clock] in try? await clock.sleep(until: next) }
                }
                _ = await group.next()
                group.cancelAll()
            }
        }
    }

    /// Returns when a request due before `target` is added (at once if one already is), or
    /// when the calling task is cancelled.
    private func waitForEarlierDeadline(than target: Duration?) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    let earlier = state.entries.first.map { entry in target.map { entry.deadline < $0 } ?? true } ?? false
                    if earlier || Task.isCancelled { return true }
                    state.watcher = continuation
                    state.target = target
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiting: CheckedContinuation<Void, Never>? = state.withLock { state in
                defer {
                    state.watcher = nil
                    state.target = nil
                }
                return state.watcher
            }
            waiting?.resume()
        }
    }
}
