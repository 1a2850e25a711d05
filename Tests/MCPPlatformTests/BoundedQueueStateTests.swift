import Testing

@testable import MCPPlatform

/// Element `index`: the tests queue plain integers.
private func message(_ index: Int) -> Int { index }

/// The index of an element made by ``message(_:)``.
private func index(of message: Int?) -> Int? { message }

private typealias State = BoundedQueueState<Int, String, String>

/// What a take gave: a message's index, the end, a failure, or nothing yet; and the producers it woke.
private enum Taken: Equatable {
    case message(Int?)
    case end
    case failure
    case empty
}

private func describe(_ take: State.Take) -> (Taken, woken: [String]) {
    switch take {
    case .empty: return (.empty, [])
    case .item(.success(let message?), let wakeups): return (.message(index(of: message)), wakeups.producers)
    case .item(.success(nil), let wakeups): return (.end, wakeups.producers)
    case .item(.failure, let wakeups): return (.failure, wakeups.producers)
    }
}

private func isDone(_ push: State.Push) -> Bool {
    if case .done = push { return true }
    return false
}

private func isClosed(_ push: State.Push) -> Bool {
    if case .closed = push { return true }
    return false
}

private struct StreamFailure: Error {}

@Suite("Bounded queue state machine")
struct BoundedQueueStateTests {
    @Test("messages queue while under both bounds; at either, the next one's producer must wait", arguments: [(2, 1000), (100, 100)])
    func bounds(capacity: Int, byteLimit: Int) {
        var state = State(capacity: capacity, byteLimit: byteLimit)
        var queued = 0
        while isDone(state.push(message(queued), bytes: 50)) { queued += 1 }
        // Two messages fill either bound (2 messages; 100 bytes).
        #expect(queued == 2)
        #expect(state.bufferedCount == 2)
        #expect(state.bufferedByteCount == 100)
    }

    @Test("one message larger than the byte bound still gets through, then the next waits")
    func oneHugeMessage() {
        var state = State(capacity: 100, byteLimit: 100)
        #expect(isDone(state.push(message(0), bytes: 10_000)))
        #expect(!isDone(state.push(message(1), bytes: 1)))
        #expect(state.peakByteCount == 10_000)
    }

    @Test("waiting producers are admitted in order once the consumer drains to half, as room allows; later pushes wait behind them")
    func admission() {
        var state = State(capacity: 4, byteLimit: 1 << 20)
        for index in 0..<4 { #expect(isDone(state.push(message(index), bytes: 10))) }
        #expect(state.park("a", id: 1, message: message(4), bytes: 10, isCancelled: false)?.producers == [])
        #expect(state.park("b", id: 2, message: message(5), bytes: 10, isCancelled: false)?.producers == [])
        #expect(state.park("c", id: 3, message: message(6), bytes: 10, isCancelled: false)?.producers == [])
        #expect(state.waitingCount == 3)
        // 3 left is more than half: nobody is woken.
        #expect(describe(state.take()) == (.message(0), []))
        // A new message may not pass the waiting ones, even with room.
        #expect(!isDone(state.push(message(99), bytes: 10)))
        // 2 left is half: "a" and "b" fill it to 4 again; "c" goes on waiting.
        #expect(describe(state.take()) == (.message(1), ["a", "b"]))
        #expect(state.waitingCount == 1)
        #expect(state.bufferedCount == 4)
        #expect(describe(state.take()) == (.message(2), []))
        #expect(describe(state.take()) == (.message(3), ["c"]))
        for expected in 4...6 { #expect(describe(state.take()).0 == .message(expected)) }
        #expect(describe(state.take()).0 == .empty)
        #expect(state.peakCount == 4)
    }

    @Test("a parked consumer gets the next message directly; a producer that parks when there is room again is queued at once")
    func handOver() {
        var state = State(capacity: 1, byteLimit: 100)
        #expect(state.take(orPark: "consumer", isCancelled: false).consumer == nil)
        guard case .done(let wakeups) = state.push(message(7), bytes: 10) else {
            Issue.record("the push did not complete")
            return
        }
        #expect(wakeups.consumer?.0 == "consumer")
        #expect(index(of: try? wakeups.consumer?.1.get()) == 7)
        #expect(state.bufferedCount == 0)
        // Between a full push and its park, the queue drained: the park queues and resumes it.
        #expect(isDone(state.push(message(8), bytes: 10)))
        #expect(!isDone(state.push(message(9), bytes: 10)))
        #expect(describe(state.take()) == (.message(8), []))
        #expect(state.park("p", id: 1, message: message(9), bytes: 10, isCancelled: false)?.producers == ["p"])
        #expect(describe(state.take()) == (.message(9), []))
    }

    @Test("a cancelled producer is taken out and its message dropped; a cancelled one does not park")
    func cancelledProducer() {
        var state = State(capacity: 1, byteLimit: 100)
        #expect(isDone(state.push(message(0), bytes: 10)))
        #expect(state.park("p", id: 1, message: message(1), bytes: 10, isCancelled: true) == nil)
        #expect(state.park("q", id: 2, message: message(2), bytes: 10, isCancelled: false)?.producers == [])
        #expect(state.cancel(producer: 2) == "q")
        #expect(state.cancel(producer: 2) == nil)
        #expect(describe(state.take()) == (.message(0), []))
        #expect(describe(state.take()).0 == .empty)
    }

    @Test("finish queues the waiting producers' messages and ends after them, with the error when there is one", arguments: [false, true])
    func finish(failing: Bool) {
        var state = State(capacity: 1, byteLimit: 100)
        #expect(isDone(state.push(message(0), bytes: 10)))
        #expect(state.park("p", id: 1, message: message(1), bytes: 10, isCancelled: false)?.producers == [])
        #expect(state.finish(throwing: failing ? StreamFailure() : nil).producers == ["p"])
        // Later messages are refused; the ones received before the end are delivered.
        #expect(isClosed(state.push(message(2), bytes: 10)))
        #expect(state.park("q", id: 2, message: message(3), bytes: 10, isCancelled: false)?.refused == ["q"])
        #expect(describe(state.take()).0 == .message(0))
        #expect(describe(state.take()).0 == .message(1))
        #expect(describe(state.take()).0 == (failing ? .failure : .end))
        #expect(describe(state.take()).0 == .end)
    }

    @Test("a consumer that goes away drops what is queued, frees the waiting producers, and later messages are dropped")
    func stop() {
        var state = State(capacity: 1, byteLimit: 100)
        #expect(isDone(state.push(message(0), bytes: 10)))
        #expect(state.park("p", id: 1, message: message(1), bytes: 10, isCancelled: false)?.producers == [])
        #expect(state.stop().refused == ["p"])
        #expect(state.isStopped)
        #expect(state.bufferedCount == 0 && state.bufferedByteCount == 0)
        #expect(isClosed(state.push(message(2), bytes: 10)))
        #expect(describe(state.take()).0 == .end)
    }

    @Test("closing delivers what is queued, then the end; waiting and later producers are refused, room waiters go on")
    func close() {
        var state = State(capacity: 1, byteLimit: 100)
        #expect(isDone(state.push(message(0), bytes: 10)))
        #expect(state.park("p", id: 1, message: message(1), bytes: 10, isCancelled: false)?.producers == [])
        let room1 = state.waitForRoom("room")
        #expect(!room1)
        let wakeups = state.close()
        #expect(wakeups.refused == ["p"])
        #expect(wakeups.producers == ["room"])
        #expect(state.isStopped)
        #expect(isClosed(state.push(message(2), bytes: 10)))
        let room2 = state.waitForRoom("later")
        #expect(room2, "a closed queue never makes anyone wait for room")
        #expect(describe(state.take()).0 == .message(0))
        #expect(describe(state.take()).0 == .end)
    }

    @Test("whenFits: a message is queued only when it fits, or alone; waiting producers go on as soon as theirs fits")
    func whenFits() {
        var state = State(byteLimit: 100, admission: .whenFits)
        #expect(isDone(state.push(message(0), bytes: 60)))
        // 60 + 50 would pass the bound: the producer waits, though the queue is under it.
        #expect(!isDone(state.push(message(1), bytes: 50)))
        #expect(state.park("a", id: 1, message: message(1), bytes: 50, isCancelled: false)?.producers == [])
        #expect(state.park("b", id: 2, message: message(2), bytes: 30, isCancelled: false)?.producers == [])
        // Taking 60 makes room for 50 and then 30 (80 ≤ 100): both go on at once, no waiting for half.
        #expect(describe(state.take()) == (.message(0), ["a", "b"]))
        #expect(state.bufferedByteCount == 80)
        #expect(state.peakByteCount <= 100)
        // A message larger than the bound passes only alone.
        #expect(!isDone(state.push(message(3), bytes: 1_000)))
        #expect(describe(state.take()) == (.message(1), []))
        #expect(describe(state.take()) == (.message(2), []))
        #expect(isDone(state.push(message(3), bytes: 1_000)))
    }

    @Test("whenFits: room waiters go on once nobody waits with a message and the queue is under its bound")
    func roomWaitersWhenFits() {
        var state = State(byteLimit: 100, admission: .whenFits)
        let room3 = state.waitForRoom("early")
        #expect(room3, "an empty queue has room")
        #expect(isDone(state.push(message(0), bytes: 100)))
        let room4 = state.waitForRoom("room")
        #expect(!room4)
        #expect(state.park("p", id: 1, message: message(1), bytes: 100, isCancelled: false)?.producers == [])
        // The waiting producer fills the queue again: the room waiter goes on waiting.
        #expect(describe(state.take()) == (.message(0), ["p"]))
        #expect(state.roomWaiterCount == 1)
        #expect(describe(state.take()) == (.message(1), ["room"]))
        #expect(state.roomWaiterCount == 0)
    }

    @Test("a consumer cancelled while parked gets the end and the queue stays open; one cancelled before parking does not park")
    func releasedConsumer() {
        var state = State(capacity: 1, byteLimit: 100)
        #expect(state.take(orPark: "consumer", isCancelled: false).consumer == nil)
        let released = state.releaseConsumer()
        #expect(released.consumer?.0 == "consumer")
        #expect(index(of: try? released.consumer?.1.get()) == nil)
        #expect(state.releaseConsumer().consumer == nil)
        #expect(!state.isStopped)
        #expect(isDone(state.push(message(1), bytes: 10)))
        #expect(state.bufferedCount == 1, "no consumer is parked: the message is queued")
        var other = State(capacity: 1, byteLimit: 100)
        let wakeups = other.take(orPark: "cancelled", isCancelled: true)
        #expect(wakeups.consumer?.0 == "cancelled")
        #expect(!other.isStopped)
        #expect(isDone(other.push(message(2), bytes: 10)))
        #expect(other.bufferedCount == 1)
    }
}
