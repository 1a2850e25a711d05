import MCPPlatform
import Testing

/// The array queue under the inbound buffer and the request runners.
@Suite("FIFO queue")
struct FIFOQueueTests {
    @Test func elementsComeOutInOrderAndAnEmptiedQueueKeepsItsStorage() {
        var queue = FIFOQueue<Int>()
        for value in 0..<10 { queue.append(value) }
        let capacity = queue.capacity
        let taken = (0..<11).map { _ in queue.popFirst() }
        #expect(taken == Array(0..<10) + [nil])
        #expect(queue.isEmpty && queue.count == 0)
        #expect(queue.capacity == capacity)
    }

    @Test func aLongLivedQueueDropsWhatItHandedOut() {
        // Never emptied: without dropping the taken prefix, the storage would keep every element.
        var queue = FIFOQueue<Int>()
        var expected = 0
        var inOrder = true
        for value in 0..<100_000 {
            queue.append(value)
            if queue.count > 100 {
                inOrder = inOrder && queue.popFirst() == expected
                expected += 1
            }
        }
        #expect(inOrder)
        #expect(queue.count == 100)
        #expect(queue.capacity < 10_000, "the taken prefix was dropped as it grew")
    }

    @Test func removingAllCanLetTheStorageGo() {
        var queue = FIFOQueue<Int>()
        for value in 0..<5_000 { queue.append(value) }
        queue.removeAll(keepingCapacity: true)
        #expect(queue.isEmpty && queue.capacity >= 5_000)
        queue.append(1)
        queue.removeAll()
        #expect(queue.isEmpty && queue.capacity < 5_000)
    }
}
