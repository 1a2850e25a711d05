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
final class RequestDeadlines: @unchecked Sendable {
    /// A request whose deadline has passed.
    struct Expired: Sendable {
        let id: RequestID
        let method: String
        let timeout: Duration
    }

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let request: Expired
    }

    // Safety: every stored property below is read and written with `lock` held.
    private let lock = Lock()
    /// Sorted by deadline; equal deadlines in the order they were added.
    private var entries: [Entry] = []
    /// The watcher, waiting until `target` (or for work, when `target` is nil).
    private var watcher: CheckedContinuation<Void, Never>?
    private var target: ContinuousClock.Instant?

    /// Starts watching a request; it expires `timeout` from now unless ``remove(_:)`` comes first.
    func add(_ id: RequestID, method: String, timeout: Duration) {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let entry = Entry(deadline: deadline, request: Expired(id: id, method: method, timeout: timeout))
        lock.lock()
        if let last = entries.last, deadline < last.deadline {
            // A shorter timeout than the requests before it: keep the order.
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].deadline <= deadline { low = middle + 1 } else { high = middle }
            }
            entries.insert(entry, at: low)
        } else {
            entries.append(entry)
        }
        // Wake the watcher only when it would otherwise sleep past this deadline.
        var woken: CheckedContinuation<Void, Never>?
        if let waiting = watcher, target.map({ deadline < $0 }) ?? true {
            woken = waiting
            watcher = nil
            target = nil
        }
        lock.unlock()
        woken?.resume()
    }

    /// Stops watching a request (it was answered, failed or cancelled).
    func remove(_ id: RequestID) {
        lock.lock()
        // Requests tend to finish in the order they started: search from the front.
        if let index = entries.firstIndex(where: { $0.request.id == id }) {
            entries.remove(at: index)
        }
        lock.unlock()
    }

    /// Runs until the calling task is cancelled, handing every request whose deadline passes
    /// to `expire` (once; the request is no longer watched then).
    func watch(_ expire: @Sendable (Expired) async -> Void) async {
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let (due, next): ([Expired], ContinuousClock.Instant?) = lock.withLock {
                let count = entries.prefix { $0.deadline <= now }.count
                let due = entries.prefix(count).map(\.request)
                entries.removeFirst(count)
                return (due, entries.first?.deadline)
            }
            for request in due { await expire(request) }
            if !due.isEmpty { continue }
            // Sleep until the earliest deadline; an earlier one (or the first after an idle
            // spell) ends the wait through `watcher`.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.waitForEarlierDeadline(than: next) }
                if let next {
                    group.addTask { try? await Task.sleep(until: next, clock: .continuous) }
                }
                _ = await group.next()
                group.cancelAll()
            }
        }
    }

    /// Returns when a request due before `target` is added (at once if one already is), or
    /// when the calling task is cancelled.
    private func waitForEarlierDeadline(than target: ContinuousClock.Instant?) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                let earlier = entries.first.map { entry in target.map { entry.deadline < $0 } ?? true } ?? false
                if earlier || Task.isCancelled {
                    lock.unlock()
                    continuation.resume()
                } else {
                    watcher = continuation
                    self.target = target
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let waiting = watcher
            watcher = nil
            self.target = nil
            lock.unlock()
            waiting?.resume()
        }
    }
}
