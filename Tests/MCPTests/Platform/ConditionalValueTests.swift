import Foundation
import MCPPlatform
import Testing

/// The blocking-thread form of the locked value: a waiter sees every change it waits for.
@Suite("Conditional value", .timeLimit(.minutes(1)))
struct ConditionalValueTests {
    @Test("a thread waiting for a value is woken by the change that reaches it, and not before", arguments: [1, 50])
    func waitsForTheValue(target: Int) async {
        let value = ConditionalValue(0)
        let seen = OneShot<Int>()
        let waiter = Thread {
            let reached = value.waitWithLock(until: { $0 >= target ? $0 : nil })
            seen.fulfill(reached)
        }
        waiter.start()
        for _ in 0..<target {
            value.withLock { $0 += 1 }
            value.signal()
        }
        #expect(await seen.wait() == target)
    }

    @Test("withLock returns what its body returns, and its changes stay")
    func withLockReturns() {
        let value = ConditionalValue([1, 2])
        let count = value.withLock { values in
            values.append(3)
            return values.count
        }
        #expect(count == 3)
        #expect(value.withLock { $0 } == [1, 2, 3])
    }
}
