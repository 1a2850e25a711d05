/// A value behind a lock that a blocking thread can wait on: ``LockedValue`` for the threads
/// that must block (a descriptor's writing thread, a socket's reading thread), never for tasks.
///
/// The value is reached only inside ``withLock(_:)`` and ``waitWithLock(until:)``, so no
/// access can forget the lock; the waiting form re-checks its condition after every wake-up
/// (wake-ups may be spurious).
@usableFromInline
package final class ConditionalValue<Value>: @unchecked Sendable {
    // Safety: `value` is read and written only in `withLock`, with `condition` held.
    @usableFromInline let condition = ConditionLock()
    // Unchecked for exclusivity, as ``LockedValue``'s: the lock makes every access exclusive.
    @exclusivity(unchecked) @usableFromInline var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held.
    // Inlinable (as `LockedValue.withLock`), so that callers in other modules get it
    // specialized: the outbound buffer takes it for every message sent.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Runs `body` on the value with the lock held until it returns a result: after each
    /// `nil` the calling thread blocks, the lock released, until ``signal()`` or
    /// ``broadcast()``, and `body` runs again.
    package func waitWithLock<Result>(until body: (inout Value) throws -> Result?) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = try body(&value) { return result }
            condition.wait()
        }
    }

    /// Wakes one thread waiting in ``waitWithLock(until:)``; callable with or without the lock.
    package func signal() {
        condition.signal()
    }

    /// Wakes every thread waiting in ``waitWithLock(until:)``; callable with or without the lock.
    package func broadcast() {
        condition.broadcast()
    }
}
