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

/// A mutual-exclusion lock for a session's or a scripted model's state.
///
/// This module needs nothing from the rest of the package, so it keeps its own lock.
/// `Synchronization.Mutex` is not an option: it needs macOS 15, iOS 18, watchOS 11 and
/// tvOS 18, above the package's deployment targets, and this module is compiled exactly
/// where FoundationModels is missing (Linux, watchOS, tvOS, and older Apple SDKs). The lock
/// is a `pthread` mutex, heap-allocated so its address never moves; it guards short
/// critical sections that never wait, so an unfair lock would gain nothing here.
final class Lock: @unchecked Sendable {
    // Safety: the pointer is written once in `init` and freed in `deinit`; the mutex
    // functions themselves are thread-safe.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked lock.
    init() {
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

    /// Runs `body` with the lock held.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
#endif
