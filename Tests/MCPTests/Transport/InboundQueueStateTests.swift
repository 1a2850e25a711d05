import Testing

@testable import MCP

/// A frame of `byteCount` bytes whose message is notification `index`.
private func frame(_ index: Int, bytes byteCount: Int = 10) -> InboundFrame {
    InboundFrame(message: .message(notification(index)), byteCount: byteCount)
}

/// The message index a take delivered, `nil` for the end, or a failure.
private enum Taken: Equatable {
    case message(Int?)
    case end
    case failure
    case empty
}

private func describe(_ take: InboundQueueState<Int>.Take) -> (Taken, wakeReader: Bool) {
    switch take {
    case .empty: return (.empty, false)
    case .item(.success(let message?), let wake): return (.message(index(of: message)), wake)
    case .item(.success(nil), let wake): return (.end, wake)
    case .item(.failure, let wake): return (.failure, wake)
    }
}

private struct ReadError: Error {}

@Suite("Inbound queue state machine")
struct InboundQueueStateTests {
    @Test("The reader may read while under both bounds, and is told to wait at either")
    func bounds() {
        var byCount = InboundQueueState<Int>(capacity: 2, byteLimit: 1000)
        var batch = [frame(0), frame(1)]
        let result1 = byCount.admitsMore()
        #expect(result1)
        _ = byCount.push(&batch)
        #expect(batch.isEmpty)
        let result2 = byCount.admitsMore()
        #expect(!result2)

        var byBytes = InboundQueueState<Int>(capacity: 100, byteLimit: 100)
        batch = [frame(0, bytes: 60)]
        _ = byBytes.push(&batch)
        let result3 = byBytes.admitsMore()
        #expect(result3)
        batch = [frame(1, bytes: 40)]
        _ = byBytes.push(&batch)
        #expect(byBytes.bufferedByteCount == 100)
        let result4 = byBytes.admitsMore()
        #expect(!result4)
        #expect(byBytes.isReaderWaiting)
    }

    @Test("One message larger than the byte bound still gets through, then the reader waits")
    func oneHugeMessage() {
        var state = InboundQueueState<Int>(capacity: 100, byteLimit: 100)
        let result5 = state.admitsMore()
        #expect(result5)
        var batch = [frame(7, bytes: 10_000)]
        _ = state.push(&batch)
        let result6 = state.admitsMore()
        #expect(!result6)
        let (taken, wake) = describe(state.take())
        #expect(taken == .message(7))
        #expect(wake, "the drained queue wakes the waiting reader")
        let result7 = state.admitsMore()
        #expect(result7)
    }

    @Test("The reader is woken once the queue has drained to half of both bounds, not before")
    func wakeAtHalf() {
        var state = InboundQueueState<Int>(capacity: 100, byteLimit: 100)
        var batch = (0..<5).map { frame($0, bytes: 25) }
        _ = state.push(&batch)
        let result8 = state.admitsMore()
        #expect(!result8)
        var wakes: [Bool] = []
        for _ in 0..<5 { wakes.append(describe(state.take()).wakeReader) }
        // 125 bytes → 100, 75, 50 (half: wake), 25, 0.
        #expect(wakes == [false, false, true, false, false])
    }

    @Test("A parked consumer gets the first pushed message directly; the rest are queued")
    func parkedConsumer() {
        var state = InboundQueueState<Int>(capacity: 10, byteLimit: 1000)
        guard case .none = state.take(orPark: 1, isCancelled: false) else {
            Issue.record("an empty queue must park the consumer")
            return
        }
        var batch = [frame(0), frame(1)]
        guard case .keepReading(.resumeConsumer(let consumer, .success(let message?), false)) = state.push(&batch) else {
            Issue.record("the parked consumer must be resumed")
            return
        }
        #expect(consumer == 1)
        #expect(index(of: message) == 0)
        #expect(state.bufferedCount == 1 && state.bufferedByteCount == 10)
        #expect(describe(state.take()).0 == .message(1))
        #expect(describe(state.take()).0 == .empty)
    }

    @Test("After a read error the consumer gets the queued messages, then the error, then the end")
    func failureAfterMessages() {
        var state = InboundQueueState<Int>(capacity: 10, byteLimit: 1000)
        var batch = [frame(0)]
        _ = state.push(&batch)
        guard case .none = state.finish(throwing: ReadError()) else {
            Issue.record("no consumer waits")
            return
        }
        #expect(describe(state.take()).0 == .message(0))
        #expect(describe(state.take()).0 == .failure)
        #expect(describe(state.take()).0 == .end)
        batch = [frame(1)]
        guard case .stopReading = state.push(&batch) else {
            Issue.record("a finished queue takes no more")
            return
        }
    }

    @Test("Stopping resumes a parked consumer with the end and wakes the reader")
    func stopWithParkedConsumer() {
        var state = InboundQueueState<Int>(capacity: 10, byteLimit: 1000)
        _ = state.take(orPark: 5, isCancelled: false)
        guard case .resumeConsumer(5, .success(nil), wakeReader: true) = state.stop() else {
            Issue.record("stop must resume the consumer with the end")
            return
        }
        #expect(state.isStopped)
        let result9 = state.admitsMore()
        #expect(result9, "a stopped queue never makes the reader wait; the reader sees isStopped")
        var batch = [frame(0)]
        guard case .stopReading = state.push(&batch) else {
            Issue.record("a stopped queue takes no more")
            return
        }
    }

    @Test("A consumer already cancelled stops the queue instead of parking")
    func cancelledConsumer() {
        var state = InboundQueueState<Int>(capacity: 10, byteLimit: 1000)
        guard case .resumeConsumer(3, .success(nil), wakeReader: true) = state.take(orPark: 3, isCancelled: true) else {
            Issue.record("a cancelled consumer must be resumed with the end")
            return
        }
        #expect(state.isStopped)
    }

    @Test("Messages queued before close are still delivered, then the end")
    func closeKeepsQueued() {
        var state = InboundQueueState<Int>(capacity: 10, byteLimit: 1000)
        var batch = [frame(0), frame(1)]
        _ = state.push(&batch)
        guard case .wakeReader = state.stop() else {
            Issue.record("stop must wake the reader")
            return
        }
        #expect(describe(state.take()).0 == .message(0))
        #expect(describe(state.take()).0 == .message(1))
        #expect(describe(state.take()).0 == .end)
    }
}
