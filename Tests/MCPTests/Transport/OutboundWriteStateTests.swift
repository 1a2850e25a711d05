import Testing

@testable import MCP

/// Senders and room waiters are plain strings here: the state machine only hands them back.
private typealias State = OutboundWriteState<String, String>

private let atomic = 512

private func bytes(_ count: Int, _ value: UInt8 = 0x61) -> [UInt8] {
    Array(repeating: value, count: count)
}

@Suite("Outbound write state machine")
struct OutboundWriteStateTests {
    @Test("A small message with nothing queued and nobody writing is written by its sender")
    func inlineWrite() {
        var state = State(byteLimit: 1000)
        guard case .writeInline = state.enqueue(bytes(10), deferred: false, atomicWrite: atomic) else {
            Issue.record("expected an inline write")
            return
        }
        var chunk: [UInt8] = []
        let result1 = state.beginInlineWrite(into: &chunk)
        #expect(result1)
        #expect(chunk == bytes(10))
        // While it writes, the writing thread waits and another sender only queues.
        var writerChunk: [UInt8] = []
        guard case .wait = state.writerNext(into: &writerChunk) else {
            Issue.record("the writer must wait while a sender writes")
            return
        }
        guard case .queued = state.enqueue(bytes(5, 0x62), deferred: false, atomicWrite: atomic) else {
            Issue.record("expected the second message to be queued")
            return
        }
        // The inline writer picks up what was queued meanwhile.
        guard case .writeMore = state.inlineWriteEnded(&chunk, written: 10, failure: nil) else {
            Issue.record("expected the queued message to be written next")
            return
        }
        #expect(chunk == bytes(5, 0x62))
        guard case .done(let actions) = state.inlineWriteEnded(&chunk, written: 5, failure: nil) else {
            Issue.record("expected the inline write to end")
            return
        }
        #expect(!actions.signalWriter, "nothing is left for the writer: no wake-up")
        #expect(state.bufferedByteCount == 0)
    }

    @Test("A failed inline write fails the buffer and signals the writer, which then ends (regression)")
    func failedInlineWriteEndsWriter() {
        var state = State(byteLimit: 1000)
        _ = state.enqueue(bytes(10), deferred: false, atomicWrite: atomic)
        var chunk: [UInt8] = []
        let result2 = state.beginInlineWrite(into: &chunk)
        #expect(result2)
        guard case .done(let actions) = state.inlineWriteEnded(&chunk, written: 0, failure: .closed("ENOSPC")) else {
            Issue.record("a failure ends the inline write")
            return
        }
        #expect(actions.signalWriter, "the idle writing thread must be woken to end")
        var writerChunk: [UInt8] = []
        guard case .finish = state.writerNext(into: &writerChunk) else {
            Issue.record("the writer must end after a failure")
            return
        }
        guard case .refuse(let error) = state.enqueue(bytes(1), deferred: false, atomicWrite: atomic) else {
            Issue.record("a failed buffer refuses")
            return
        }
        #expect(error.detail == "ENOSPC")
        let result3 = state.close().signalWriter
        #expect(result3, "close always signals the writer, whatever the state")
    }

    @Test("What the pipe did not take is written first, by the writing thread, before what was queued since")
    func partialInlineWrite() {
        var state = State(byteLimit: 1000)
        _ = state.enqueue(bytes(10), deferred: false, atomicWrite: atomic)
        var chunk: [UInt8] = []
        _ = state.beginInlineWrite(into: &chunk)
        _ = state.enqueue(bytes(3, 0x62), deferred: false, atomicWrite: atomic)
        guard case .done(let actions) = state.inlineWriteEnded(&chunk, written: 4, failure: nil) else {
            Issue.record("a partial write ends the inline write")
            return
        }
        #expect(actions.signalWriter)
        var writerChunk: [UInt8] = []
        guard case .write = state.writerNext(into: &writerChunk) else {
            Issue.record("the writer must write the rest")
            return
        }
        #expect(writerChunk == bytes(6))
        writerChunk.removeAll()
        _ = state.writerWrote(failure: nil)
        guard case .write = state.writerNext(into: &writerChunk) else {
            Issue.record("the writer must write what was queued since")
            return
        }
        #expect(writerChunk == bytes(3, 0x62))
    }

    @Test("What an inline write left over is in flight: the next sender is admitted, as with a writing thread blocked in write")
    func carriedRemainderLeavesRoom() {
        // The event loop's writer writes inline only: a large message the pipe took part of
        // must not hold the buffer full, or a second sender waits where the threads admit it.
        var state = State(byteLimit: 1000)
        guard case .queuedSignallingWriter = state.enqueue(bytes(2500), deferred: false, atomicWrite: atomic) else {
            Issue.record("a message over the atomic size goes to the writer")
            return
        }
        var chunk: [UInt8] = []
        let began = state.beginInlineWrite(into: &chunk)
        #expect(began)
        _ = state.inlineWriteEnded(&chunk, written: 500, failure: nil)
        #expect(state.bufferedByteCount == 2000)
        #expect(!state.hasRoom, "the carried bytes still count for waitForOutboundRoom")
        guard case .queuedSignallingWriter = state.enqueue(bytes(2500, 0x62), deferred: false, atomicWrite: atomic) else {
            Issue.record("the second sender must be admitted: the first one's rest is in flight")
            return
        }
        guard case .wait = state.enqueue(bytes(10, 0x63), deferred: false, atomicWrite: atomic) else {
            Issue.record("a third sender waits: the queue holds a message over the limit")
            return
        }
        chunk.removeAll()
        let beganAgain = state.beginInlineWrite(into: &chunk)
        #expect(beganAgain)
        #expect(chunk == bytes(2000), "the rest of the first message goes before the second")
    }

    @Test("On the connection thread, messages are held until a pipe-atomic write's worth is queued")
    func deferredFlush() {
        var state = State(byteLimit: 10_000)
        guard case .queued = state.enqueue(bytes(300), deferred: true, atomicWrite: atomic) else {
            Issue.record("expected the first message to wait for the batch's end")
            return
        }
        guard case .queuedFlushing = state.enqueue(bytes(300), deferred: true, atomicWrite: atomic) else {
            Issue.record("expected a flush once a pipe-atomic write's worth is queued")
            return
        }
    }

    @Test("Senders wait in line when the buffer is full and are admitted in order as the writer takes it")
    func sendersWaitInOrder() {
        var state = State(byteLimit: 100)
        _ = state.enqueue(bytes(600), deferred: false, atomicWrite: atomic)
        guard case .wait(let first) = state.enqueue(bytes(60), deferred: false, atomicWrite: atomic),
            case .suspended = state.enqueue(bytes(60), id: first, sender: "first", isCancelled: false),
            case .wait(let second) = state.enqueue(bytes(60, 0x62), deferred: false, atomicWrite: atomic),
            case .suspended = state.enqueue(bytes(60, 0x62), id: second, sender: "second", isCancelled: false)
        else {
            Issue.record("expected both senders to wait")
            return
        }
        #expect(state.waitingSenderCount == 2)
        var chunk: [UInt8] = []
        guard case .write(let actions) = state.writerNext(into: &chunk) else {
            Issue.record("expected a write")
            return
        }
        #expect(chunk.count == 600)
        #expect(actions.admitted == ["first"], "the second does not fit behind the first")
        _ = state.writerWrote(failure: nil)
        chunk.removeAll()
        guard case .write(let next) = state.writerNext(into: &chunk) else {
            Issue.record("expected a second write")
            return
        }
        #expect(next.admitted == ["second"])
    }

    @Test("A waiting sender that is cancelled leaves the line")
    func cancelledSender() {
        var state = State(byteLimit: 100)
        _ = state.enqueue(bytes(600), deferred: false, atomicWrite: atomic)
        guard case .wait(let id) = state.enqueue(bytes(60), deferred: false, atomicWrite: atomic) else {
            Issue.record("expected a wait")
            return
        }
        guard case .cancelled = state.enqueue(bytes(60), id: id, sender: "late", isCancelled: true) else {
            Issue.record("an already cancelled sender does not wait")
            return
        }
        _ = state.enqueue(bytes(60), id: id, sender: "s", isCancelled: false)
        let result4 = state.cancelSender(id: id).sender
        #expect(result4 == "s")
        let result5 = state.cancelSender(id: id).sender
        #expect(result5 == nil)
        #expect(state.waitingSenderCount == 0)
    }

    @Test("Close refuses waiting senders, lets room waiters go, and the writer drains then ends")
    func closeDrains() {
        var state = State(byteLimit: 100)
        _ = state.enqueue(bytes(600), deferred: false, atomicWrite: atomic)
        guard case .wait(let id) = state.enqueue(bytes(60), deferred: false, atomicWrite: atomic) else {
            Issue.record("expected a wait")
            return
        }
        _ = state.enqueue(bytes(60), id: id, sender: "s", isCancelled: false)
        let roomID = state.makeRoomWaiterID()
        let result6 = state.waitForRoom("room", id: roomID, isCancelled: false)
        #expect(result6 == nil)
        let actions = state.close()
        #expect(actions.refused == ["s"])
        #expect(actions.refusal == .closed)
        #expect(actions.room == ["room"])
        #expect(actions.signalWriter)
        var chunk: [UInt8] = []
        guard case .write = state.writerNext(into: &chunk) else {
            Issue.record("what was queued before close is still written")
            return
        }
        #expect(chunk.count == 600)
        _ = state.writerWrote(failure: nil)
        chunk.removeAll()
        guard case .finish = state.writerNext(into: &chunk) else {
            Issue.record("the writer ends once drained")
            return
        }
    }

    @Test("A waiter for room goes on at once with room, else once the buffer drains below the limit")
    func room() {
        var state = State(byteLimit: 100)
        let result7 = state.waitForRoom("now", id: state.makeRoomWaiterID(), isCancelled: false)
        #expect(result7 == "now")
        _ = state.enqueue(bytes(600), deferred: false, atomicWrite: atomic)
        #expect(!state.hasRoom)
        let id = state.makeRoomWaiterID()
        let result8 = state.waitForRoom("later", id: id, isCancelled: false)
        #expect(result8 == nil)
        var chunk: [UInt8] = []
        guard case .write(let taking) = state.writerNext(into: &chunk) else {
            Issue.record("expected a write")
            return
        }
        #expect(taking.room.isEmpty, "bytes being written still count")
        let result9 = state.writerWrote(failure: nil).room
        #expect(result9 == ["later"])
        #expect(state.hasRoom)
    }

    @Test("A waiter for room can be cancelled, and a cancelled one does not wait")
    func roomCancelled() {
        var state = State(byteLimit: 100)
        _ = state.enqueue(bytes(600), deferred: false, atomicWrite: atomic)
        let result10 = state.waitForRoom("cancelled", id: state.makeRoomWaiterID(), isCancelled: true)
        #expect(result10 == "cancelled")
        let id = state.makeRoomWaiterID()
        _ = state.waitForRoom("waiting", id: id, isCancelled: false)
        let result11 = state.cancelRoomWaiter(id: id)
        #expect(result11 == "waiting")
        let result12 = state.cancelRoomWaiter(id: id)
        #expect(result12 == nil)
    }

    @Test("A failed write by the writing thread refuses waiting senders and lets room waiters go")
    func writerFailure() {
        var state = State(byteLimit: 100)
        _ = state.enqueue(bytes(600), deferred: false, atomicWrite: atomic)
        var chunk: [UInt8] = []
        _ = state.writerNext(into: &chunk)
        _ = state.enqueue(bytes(600), deferred: false, atomicWrite: atomic)
        guard case .wait(let id) = state.enqueue(bytes(60), deferred: false, atomicWrite: atomic) else {
            Issue.record("expected a wait")
            return
        }
        _ = state.enqueue(bytes(60), id: id, sender: "s", isCancelled: false)
        _ = state.waitForRoom("room", id: state.makeRoomWaiterID(), isCancelled: false)
        let actions = state.writerWrote(failure: .closed("EPIPE"))
        #expect(actions.refused == ["s"])
        #expect(actions.refusal?.detail == "EPIPE")
        #expect(actions.room == ["room"])
        guard case .finish = state.writerNext(into: &chunk) else {
            Issue.record("the writer ends after a failure")
            return
        }
    }
}
