#if !canImport(FoundationModels)
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("PortableFoundationModels' lock needs pthreads (Darwin, Glibc or Musl).")
#endif

/// A value behind a mutual-exclusion lock: the module's one lock, and its one locked box.
///
/// State that tasks share lives inside: `withLock { state in … }` runs the closure with the lock
/// held and returns what it returns (a state machine's actions, performed outside the lock).
///
/// This module needs nothing from the rest of the package, so it keeps its own lock.
/// `Synchronization.Mutex` is not an option: it needs macOS 15, iOS 18, watchOS 11 and
/// tvOS 18, above the package's deployment targets, and this module is compiled exactly
/// where FoundationModels is missing (Linux, watchOS, tvOS, and older Apple SDKs). The lock
/// is a `pthread` mutex, heap-allocated so its address never moves; it guards short
/// critical sections that never wait, so an unfair lock would gain nothing here.
final class LockedValue<Value>: @unchecked Sendable {
    // Safety: `value` is read and written only with `mutex` held (as `Mutex` guards its value);
    // the pointer is written once in `init` and freed in `deinit`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock, unlocked, around `value`.
    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension LockedValue where Value == Void {
    /// A lock that guards state kept beside it (each such owner says, in one line, which).
    convenience init() {
        self.init(())
    }

    /// Runs `body` with the lock held.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withLock { (_: inout Void) in try body() }
    }
}

/// The lock of an owner whose state is kept beside it rather than inside.
typealias Lock = LockedValue<Void>
#endif
