import Foundation

/// Runs `body` on a thread of its own, so that a blocking call (a `read`, a `write`, a
/// `wait4`) never holds one of the few threads Swift concurrency runs tasks on.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
