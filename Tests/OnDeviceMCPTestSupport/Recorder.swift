import Foundation

/// Values appended from concurrent code (handlers, callbacks), read back by a test.
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    // Safety: `stored` is read and written with `lock` held.
    private let lock = NSLock()
    private var stored: [Value] = []

    public init() {}

    public func append(_ value: Value) {
        lock.withLock { stored.append(value) }
    }

    public var values: [Value] { lock.withLock { stored } }
}
