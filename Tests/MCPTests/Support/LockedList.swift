import Foundation

/// Values appended from concurrent code, read back by a test.
final class LockedList<Value: Sendable>: @unchecked Sendable {
    // Safety: `stored` is read and written with `lock` held.
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) {
        lock.withLock { stored.append(value) }
    }

    var values: [Value] {
        lock.withLock { stored }
    }
}
