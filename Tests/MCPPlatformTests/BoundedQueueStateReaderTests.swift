import Testing

@testable import MCPPlatform

/// A queue read by a reading thread (the stdio transport's): consumers are strings, and the
/// reader waits for room as a plain mark.
private typealias ReaderState = BoundedQueueState<Int, String, Void>

/// What a take gave, and whether it woke the reader.
private enum Taken: Equatable {
    case message(Int)
    case end
    case failure
    case empty
}

private func describe(_ take: ReaderState.Take) -> (Taken, wakeReader: Bool) {
    switch take {
    case .empty: return (.empty, false)
    case .item(.success(let message?), let wakeups): return (.message(message), !wakeups.producers.isEmpty)
    case .item(.success(nil), let wakeups): return (.end, !wakeups.producers.isEmpty)
    case .item(.failure, let wakeups): return (.failure, !wakeups.producers.isEmpty)
    }
}

private func isClosed(_ push: ReaderState.Push) -> Bool {
    if case .closed = push { return true }
    return false
}

private struct ReadError: Error {}

@Suite("Bounded queue state machine, read by a reading thread")
struct BoundedQueueStateReaderTests {
    @Test("The reader may read while under both bounds, and is told to wait at either")
    func bounds() {
        var byCount = ReaderState(capacity: 2, byteLimit: 1000)
        let room1 = byCount.waitForRoom(())
        #expect(room1)
        _ = byCount.pushRead(0, bytes: 10)
        _ = byCount.pushRead(1, bytes: 10)
        let room2 = byCount.waitForRoom(())
        #expect(!room2)

        var byBytes = ReaderState(capacity: 100, byteLimit: 100)
        _ = byBytes.pushRead(0, bytes: 60)
        let room3 = byBytes.waitForRoom(())
        #expect(room3)
        _ = byBytes.pushRead(1, bytes: 40)
        #expect(byBytes.bufferedByteCount == 100)
        let room4 = byBytes.waitForRoom(())
        #expect(!room4)
        #expect(byBytes.roomWaiterCount == 1)
    }

    @Test("What one read completes is queued past the bounds")
    func readPastBounds() {
        var state = ReaderState(capacity: 2, byteLimit: 100)
        for index in 0..<5 { _ = state.pushRead(index, bytes: 50) }
        #expect(state.bufferedCount == 5 && state.bufferedByteCount == 250)
        #expect(!state.isRoomAvailable)
    }

    @Test("One message larger than the byte bound still gets through, then the reader waits")
    func oneHugeMessage() {
        var state = ReaderState(capacity: 100, byteLimit: 100)
        let room5 = state.waitForRoom(())
        #expect(room5)
        _ = state.pushRead(7, bytes: 10_000)
        let room6 = state.waitForRoom(())
        #expect(!room6)
        let (taken, wake) = describe(state.take())
        #expect(taken == .message(7))
        #expect(wake, "the drained queue wakes the waiting reader")
        let room7 = state.waitForRoom(())
        #expect(room7)
    }

    @Test("The reader is woken once the queue has drained to half of both bounds, not before")
    func wakeAtHalf() {
        var state = ReaderState(capacity: 100, byteLimit: 100)
        for index in 0..<5 { _ = state.pushRead(index, bytes: 25) }
        let room8 = state.waitForRoom(())
        #expect(!room8)
        var wakes: [Bool] = []
        for _ in 0..<5 { wakes.append(describe(state.take()).wakeReader) }
        // 125 bytes → 100, 75, 50 (half: wake), 25, 0.
        #expect(wakes == [false, false, true, false, false])
    }

    @Test("A parked consumer gets the first message read directly; the rest are queued")
    func parkedConsumer() throws {
        var state = ReaderState(capacity: 10, byteLimit: 1000)
        #expect(state.take(orPark: "consumer", isCancelled: false).consumer == nil)
        guard case .done(let wakeups) = state.pushRead(0, bytes: 10) else {
            Issue.record("the parked consumer must be resumed")
            return
        }
        let (consumer, outcome) = try #require(wakeups.consumer)
        #expect(consumer == "consumer")
        #expect(try outcome.get() == 0)
        _ = state.pushRead(1, bytes: 10)
        #expect(state.bufferedCount == 1 && state.bufferedByteCount == 10)
        #expect(describe(state.take()).0 == .message(1))
        #expect(describe(state.take()).0 == .empty)
    }

    @Test("After a read error the consumer gets the queued messages, then the error, then the end")
    func failureAfterMessages() {
        var state = ReaderState(capacity: 10, byteLimit: 1000)
        _ = state.pushRead(0, bytes: 10)
        #expect(state.finish(throwing: ReadError()).consumer == nil)
        #expect(describe(state.take()).0 == .message(0))
        #expect(describe(state.take()).0 == .failure)
        #expect(describe(state.take()).0 == .end)
        #expect(isClosed(state.pushRead(1, bytes: 10)), "a finished queue takes no more")
    }

    @Test("Closing resumes a parked consumer with the end, wakes a waiting reader, and refuses later messages")
    func closeWithParkedConsumer() throws {
        var state = ReaderState(capacity: 1, byteLimit: 1000)
        #expect(state.take(orPark: "consumer", isCancelled: false).consumer == nil)
        let wakeups = state.close()
        let (consumer, outcome) = try #require(wakeups.consumer)
        #expect(consumer == "consumer")
        #expect(try outcome.get() == nil)
        #expect(state.isStopped)
        let room9 = state.waitForRoom(())
        #expect(room9, "a closed queue never makes the reader wait; the reader sees isStopped")
        #expect(isClosed(state.pushRead(0, bytes: 10)), "a closed queue takes no more")

        var waiting = ReaderState(capacity: 1, byteLimit: 1000)
        _ = waiting.pushRead(0, bytes: 10)
        let room10 = waiting.waitForRoom(())
        #expect(!room10)
        #expect(waiting.close().producers.count == 1, "the reader waiting for room is woken")
    }

    @Test("A consumer already cancelled gets the end instead of parking; the queue stays as it is")
    func cancelledConsumer() throws {
        var state = ReaderState(capacity: 10, byteLimit: 1000)
        let wakeups = state.take(orPark: "cancelled", isCancelled: true)
        let (consumer, outcome) = try #require(wakeups.consumer)
        #expect(consumer == "cancelled")
        #expect(try outcome.get() == nil)
        #expect(!state.isStopped)
        // Not parked: a later message is queued, not handed over.
        guard case .done(let later) = state.pushRead(0, bytes: 10) else {
            Issue.record("the queue must still be open")
            return
        }
        #expect(later.consumer == nil)
        #expect(state.bufferedCount == 1)
    }

    @Test("Messages queued before close are still delivered, then the end")
    func closeKeepsQueued() {
        var state = ReaderState(capacity: 10, byteLimit: 1000)
        _ = state.pushRead(0, bytes: 10)
        _ = state.pushRead(1, bytes: 10)
        _ = state.close()
        #expect(describe(state.take()).0 == .message(0))
        #expect(describe(state.take()).0 == .message(1))
        #expect(describe(state.take()).0 == .end)
    }
}
