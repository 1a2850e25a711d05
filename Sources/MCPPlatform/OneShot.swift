/// A value set once, which any number of tasks can wait for; a waiter whose task is
/// cancelled stops waiting (and gets `nil`) without affecting the others.
package final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = LockedValue(State())

    package init() {}

    /// The value, if it has been set.
    package var current: Value? { state.withLock { $0.value } }

    /// Sets the value and wakes every waiter; later calls do nothing.
    package func fulfill(_ newValue: Value) {
        let woken: [CheckedContinuation<Value?, Never>] = state.withLock { state in
            guard state.value == nil else { return [] }
            state.value = newValue
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume(returning: newValue) }
    }

    /// Waits for the value at most `duration` on `clock`; returns `nil` if it is not set by
    /// then (or the calling task is cancelled first).
    package func wait(within duration: Duration, clock: DeadlineClock = .continuous) async -> Value? {
        if let value = current { return value }
        let outcome = try? await withDeadline(after: duration, clock: clock) { await self.wait() }
        return outcome ?? nil
    }

    /// Waits for the value; returns `nil` if the calling task is cancelled first.
    package func wait() async -> Value? {
        let id: UInt64 = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let ready: Value?? = state.withLock { state in
                    if let value = state.value { return .some(value) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
