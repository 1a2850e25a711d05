internal import MCPPlatform

/// A value set once, which any number of tasks can wait for; a waiter whose task is
/// cancelled stops waiting (and gets `nil`) without affecting the others.
package final class OneShot<Value: Sendable>: @unchecked Sendable {
    // Safety: every stored property below is read and written with `lock` held.
    private let lock = Lock()
    private var value: Value?
    private var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
    private var nextID: UInt64 = 0

    package init() {}

    /// The value, if it has been set.
    package var current: Value? { lock.withLock { value } }

    /// Sets the value and wakes every waiter; later calls do nothing.
    package func fulfill(_ newValue: Value) {
        lock.lock()
        guard value == nil else {
            lock.unlock()
            return
        }
        value = newValue
        let woken = waiters.values
        waiters = [:]
        lock.unlock()
        for waiter in woken { waiter.resume(returning: newValue) }
    }

    /// Waits for the value at most `duration`; returns `nil` if it is not set by then (or the
    /// calling task is cancelled first).
    package func wait(within duration: Duration) async -> Value? {
        if let value = current { return value }
        return await withTaskGroup(of: Value?.self) { group in
            group.addTask { await self.wait() }
            // A deadline, not a poll: this task sleeps once for the whole period and is
            // cancelled as soon as the value is set.
            group.addTask {
                try? await Task.sleep(for: duration)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Waits for the value; returns `nil` if the calling task is cancelled first.
    package func wait() async -> Value? {
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                lock.lock()
                if let value {
                    lock.unlock()
                    continuation.resume(returning: value)
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    waiters[id] = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            let waiter = lock.withLock { waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
