internal import MCPCore
internal import MCPPlatform

/// The requests' deadlines, watched by one task with one timer at a time.
///
/// A request with a timeout gets its deadline when it is registered and loses it when its
/// caller is done: an array insertion under the channel's lock, no task and no timer per
/// request. The watcher task sleeps until the earliest deadline; each request whose deadline
/// has passed fails with ``MCPClientError/timedOut`` and the server gets
/// `notifications/cancelled`. Requests made with the same timeout have their deadlines in the
/// order they were sent, so a busy connection re-arms the timer about once per timeout period;
/// only a request due earlier than the timer (a shorter per-call timeout), or the first one
/// after an idle spell, wakes the parked watcher early.
extension ClientConnection {
    /// Takes every request whose deadline is at or before `now` (each once): the callers to
    /// fail and the cancellations to send; and the earliest deadline left.
    mutating func expire(now: Duration) -> (due: [Expiry], next: Duration?) {
        let count = deadlines.prefix { $0.instant <= now }.count
        let passed = deadlines.prefix(count)
        deadlines.removeFirst(count)
        var due: [Expiry] = []
        for deadline in passed {
            let error = MCPClientError.timedOut("\(deadline.method) got no reply within \(deadline.timeout)" + notesSummary)
            let (taken, waiter) = resolve(deadline.id, with: .failure(error))
            // A request already answered (or cancelled) has nothing to fail or to cancel.
            guard taken else { continue }
            let cancelled = CancelledNotification(
                requestID: deadline.id, reason: "The request timed out after \(deadline.timeout).")
            due.append(
                Expiry(
                    id: deadline.id, waiter: waiter, error: error,
                    cancellation: JSONRPCNotification(method: MCPMethod.cancelled, params: cancelled.params)))
        }
        return (due, deadlines.first?.instant)
    }

    /// Parks the watcher until a request due before `target` comes (any request, when
    /// `target` is `nil`); returns `false`, parking nothing, when one already has.
    mutating func park(_ wakeup: Wakeup, until target: Duration?) -> Bool {
        let earlier = deadlines.first.map { first in target.map { first.instant < $0 } ?? true } ?? false
        guard !earlier else { return false }
        watcher = (wakeup, target)
        return true
    }

    /// Takes the parked watcher (its task was cancelled, or it must look again).
    mutating func unpark() -> Wakeup? {
        defer { watcher = nil }
        return watcher?.wakeup
    }

    /// How many requests have a deadline.
    var deadlineCount: Int { deadlines.count }

    /// Adds a deadline in order; returns the parked watcher when it would sleep past it.
    mutating func addDeadline(_ deadline: Deadline) -> Wakeup? {
        if let last = deadlines.last, deadline.instant < last.instant {
            // A shorter timeout than the requests before it: keep the order.
            var low = 0
            var high = deadlines.count
            while low < high {
                let middle = (low + high) / 2
                if deadlines[middle].instant <= deadline.instant { low = middle + 1 } else { high = middle }
            }
            deadlines.insert(deadline, at: low)
        } else {
            deadlines.append(deadline)
        }
        guard let parked = watcher, parked.target.map({ deadline.instant < $0 }) ?? true else { return nil }
        watcher = nil
        return parked.wakeup
    }
}
