import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value set once, from any thread, that any number of tasks can wait for.
///
/// Not API: the bridge between the blocking threads of the process tests (a `wait4`, a
/// `read`) and the tests' tasks.
public final class OneShot<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `value` and `waiters`.
    private let lock = NSLock()
    private var value: Value?
    private var waiters: [CheckedContinuation<Value, Never>] = []

    public init() {}

    /// Sets the value and wakes every waiter; returns false (and changes nothing) when it was
    /// already set.
    @discardableResult
    public func set(_ newValue: Value) -> Bool {
        lock.lock()
        guard value == nil else {
            lock.unlock()
            return false
        }
        value = newValue
        let woken = waiters
        waiters = []
        lock.unlock()
        for waiter in woken { waiter.resume(returning: newValue) }
        return true
    }

    /// The value, if it is set.
    public var current: Value? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Waits until the value is set.
    public func wait() async -> Value {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let value {
                lock.unlock()
                continuation.resume(returning: value)
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }
}

/// Runs `body` on a thread of its own, so that a blocking call (a `read`, a `write`, a
/// `wait4`) never holds one of the few threads Swift concurrency runs tasks on.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    let result = OneShot<T>()
    let thread = Thread { result.set(body()) }
    thread.start()
    return await result.wait()
}

/// A hang guard expired: the operation gave no result within its (generous) bound.
public struct Hung: Error, CustomStringConvertible {
    public let what: String
    public let limit: Duration
    public var description: String { "hung: \(what) gave no result within \(limit)" }
}

/// Runs `body`, and throws ``Hung`` if it has not finished after `limit`.
///
/// A hang guard, not a timing assertion: `limit` is generous, and expiring it means the
/// operation is stuck. Unlike a task group, it does not wait for `body` to react to its
/// cancellation: the caller gets ``Hung`` at the deadline, and `body` is cancelled.
public func withHangGuard<T: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = OneShot<Result<T, any Error>>()
    let work = Task {
        do {
            outcome.set(.success(try await body()))
        } catch {
            outcome.set(.failure(error))
        }
    }
    let guardTask = Task {
        // A deadline, not a wait for an event: cancelled as soon as `body` finishes.
        try? await Task.sleep(for: limit)
        if !Task.isCancelled, outcome.set(.failure(Hung(what: what, limit: limit))) {
            work.cancel()
        }
    }
    let result = await outcome.wait()
    guardTask.cancel()
    return try result.get()
}

/// What the test process was built with.
public enum Sanitizers {
    /// Whether this process runs under ThreadSanitizer (`swift test --sanitize=thread`), and
    /// so the executables built with it too: their memory is then several times larger
    /// (shadow memory) and they run several times slower, so peak-memory bounds do not apply
    /// and hang guards are longer.
    public static let threadSanitizerIsActive: Bool = {
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(program, "__tsan_init") != nil
    }()

    /// `duration`, stretched under ThreadSanitizer: for hang guards, and for the timeouts of
    /// calls that must succeed however slowly they run.
    public static func stretched(_ duration: Duration) -> Duration {
        threadSanitizerIsActive ? duration * 5 : duration
    }
}
