internal import CMCPPlatform

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("Lock needs os_unfair_lock (Darwin) or pthreads (Glibc, Musl).")
#endif

/// A mutual-exclusion lock for state shared between tasks and threads.
///
/// `NSLock` would link all of Foundation (FoundationEssentials has no locks), and
/// `Synchronization.Mutex` needs macOS 15 / iOS 18. The lock is an `os_unfair_lock` on
/// Darwin and a `pthread` mutex elsewhere, heap-allocated so its address never moves.
@usableFromInline
package final class Lock: @unchecked Sendable {
    // Safety: the pointer is written once in `init` and freed in `deinit`; the lock
    // functions themselves are thread-safe.
    #if canImport(Darwin)
    private let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    /// Creates an unlocked lock.
    package init() {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        let status = mcp_mutex_init(primitive)
        precondition(status == 0, "pthread_mutex_init failed")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    /// Waits for the lock and takes it.
    @usableFromInline
    package func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        pthread_mutex_lock(primitive)
        #endif
    }

    /// Releases the lock taken by `lock()` on the same thread.
    @usableFromInline
    package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        pthread_mutex_unlock(primitive)
        #endif
    }

    /// Runs `body` with the lock held.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value behind a ``Lock``: the one way to share mutable state between threads here.
///
/// The state is reached only inside ``withLock(_:)``, so no access can forget the lock.
@usableFromInline
package final class LockedValue<Value>: @unchecked Sendable {
    // Safety: `value` is read and written only in `withLock`, with `lock` held.
    @usableFromInline let lock = Lock()
    // Unchecked for exclusivity: the lock already makes every access exclusive (a nested
    // `withLock` would deadlock before it could overlap), and the run-time check cost two
    // calls into the runtime and a thread-local lookup on every use (~2 % of a request's CPU).
    @exclusivity(unchecked) @usableFromInline var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value with the lock held.
    // Inlinable so that callers in other modules get it specialized: unspecialized, every call
    // looked up the generic metadata of `Result` (tuples included) at run time, a few per cent
    // of a request's CPU on the event loop's path.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
