import MCPCore
import MCPPlatform
import Testing

@testable import MCP

/// The inline handler of the inbound buffer: the reading thread hands it messages while the
/// consumer waits with nothing queued, and the consumer still sees what it leaves, in order.
///
/// The consumer is started with `Task.immediate`, which runs it up to its first suspension
/// (parked in `next()`) before returning, so every test knows the consumer's state without
/// waiting for it.
@Suite("The inbound buffer's inline handler")
struct InboundBufferInlineTests {
    private static func request(_ id: Int) -> InboundFrame {
        InboundFrame(
            message: .message(.request(JSONRPCRequest(id: .int(id), method: "tools/call", params: ["name": "echo"]))),
            byteCount: 64)
    }

    private static func notification(_ method: String) -> InboundFrame {
        InboundFrame(message: .message(.notification(JSONRPCNotification(method: method))), byteCount: 64)
    }

    /// The ids of the requests the handler took, in order; it takes requests and leaves the rest.
    /// Each end of a read is logged as -1, with the number of messages queued for the consumer
    /// at that moment.
    private final class Taker: Sendable {
        let taken = LockedValue<[Int]>([])
        let asked = LockedValue(0)
        let queuedAtEndOfRead = LockedValue<[Int]>([])
        let buffer = LockedValue<InboundBuffer?>(nil)

        var handler: InboundBuffer.InlineHandler {
            InboundBuffer.InlineHandler { [self] message in
                asked.withLock { $0 += 1 }
                guard case .message(.request(let request)) = message, case .int(let id) = request.id else { return false }
                taken.withLock { $0.append(id) }
                return true
            } endOfRead: { [self] in
                taken.withLock { $0.append(-1) }
                let queued = buffer.withLock { $0 }?.bufferedCount ?? -1
                queuedAtEndOfRead.withLock { $0.append(queued) }
            }
        }
    }

    /// A buffer with a ``Taker`` as its handler, and its consumer parked in `next()`.
    private static func waitingBuffer() -> (InboundBuffer, Taker, Task<InboundMessage?, any Error>) {
        let inbound = InboundBuffer(capacity: 64, byteLimit: 1 << 20) {}
        let taker = Taker()
        taker.buffer.withLock { $0 = inbound }
        inbound.setInlineHandler(taker.handler)
        return (inbound, taker, Task.immediate { try await inbound.next() })
    }

    private static func requestID(_ message: InboundMessage?) -> Int? {
        guard case .message(.request(let request))? = message, case .int(let id) = request.id else { return nil }
        return id
    }

    private static func method(_ message: InboundMessage?) -> String? {
        guard case .message(.notification(let notification))? = message else { return nil }
        return notification.method
    }

    @Test("While the consumer waits with nothing queued, the handler takes what it accepts, and the consumer gets the rest in order")
    func handlerTakesThenConsumerGetsTheRestInOrder() async throws {
        let (inbound, taker, consumer) = Self.waitingBuffer()

        var batch = [Self.request(1), Self.request(2), Self.notification("notifications/initialized"), Self.request(3)]
        #expect(inbound.push(&batch))
        #expect(batch.isEmpty)

        #expect(taker.taken.withLock { $0 } == [1, 2, -1], "the read's end is told once, after what was taken")
        #expect(taker.queuedAtEndOfRead.withLock { $0 } == [0], "before what was left is queued")
        #expect(Self.method(try await consumer.value) == "notifications/initialized")
        // Read after a message the handler left: queued behind it, never handed to the handler.
        #expect(Self.requestID(try await inbound.next()) == 3)
        #expect(taker.asked.withLock { $0 } == 3)
        #expect(inbound.bufferedCount == 0)
    }

    @Test("Nothing goes to the handler while messages are queued or the consumer is busy")
    func noHandlerWhileTheConsumerIsBehind() async throws {
        let inbound = InboundBuffer(capacity: 64, byteLimit: 1 << 20) {}
        let taker = Taker()
        inbound.setInlineHandler(taker.handler)

        // No consumer waits yet (it is busy elsewhere): queued.
        var first = [Self.request(1)]
        #expect(inbound.push(&first))
        // Still one queued, so a consumer arriving now would be behind: queued too.
        var second = [Self.request(2)]
        #expect(inbound.push(&second))
        #expect(taker.asked.withLock { $0 } == 0)
        #expect(Self.requestID(try await inbound.next()) == 1)
        #expect(Self.requestID(try await inbound.next()) == 2)

        // Caught up and waiting again: the handler takes the next one.
        let consumer = Task.immediate { try await inbound.next() }
        var third = [Self.request(3)]
        #expect(inbound.push(&third))
        #expect(taker.taken.withLock { $0 } == [3, -1])
        inbound.close()
        #expect(try await consumer.value == nil)
    }

    @Test("A read whose first message the handler leaves tells it no end of read")
    func noEndOfReadWhenNothingWasTaken() async throws {
        let (inbound, taker, consumer) = Self.waitingBuffer()
        var batch = [Self.notification("notifications/initialized"), Self.request(1)]
        #expect(inbound.push(&batch))
        #expect(taker.taken.withLock { $0 }.isEmpty)
        #expect(Self.method(try await consumer.value) == "notifications/initialized")
        #expect(Self.requestID(try await inbound.next()) == 1)
    }

    @Test("Without a handler, or once it is cleared, every message goes to the consumer")
    func clearedHandlerTakesNothing() async throws {
        let inbound = InboundBuffer(capacity: 64, byteLimit: 1 << 20) {}
        let taker = Taker()
        inbound.setInlineHandler(taker.handler)
        inbound.setInlineHandler(nil)
        let consumer = Task.immediate { try await inbound.next() }
        var batch = [Self.request(1), Self.request(2)]
        #expect(inbound.push(&batch))
        #expect(Self.requestID(try await consumer.value) == 1)
        #expect(Self.requestID(try await inbound.next()) == 2)
        #expect(taker.asked.withLock { $0 } == 0)
    }

    @Test("After close, a read is refused and the handler is not asked")
    func closedBufferRefusesWithoutAskingTheHandler() async throws {
        let (inbound, taker, consumer) = Self.waitingBuffer()
        inbound.close()
        #expect(try await consumer.value == nil)
        var batch = [Self.request(1)]
        #expect(!inbound.push(&batch))
        #expect(taker.asked.withLock { $0 } == 0)
    }

    @Test("Requests the handler took still count as unanswered, so their answers are batched")
    func takenRequestsCountAsUnanswered() {
        let inbound = InboundBuffer(capacity: 64, byteLimit: 1 << 20) {}
        inbound.setInlineHandler(InboundBuffer.InlineHandler { _ in true })
        let consumer = Task.immediate { try await inbound.next() }
        var batch = [Self.request(1), Self.request(2)]
        #expect(inbound.push(&batch))
        #expect(inbound.unansweredCount == 2)
        #expect(inbound.noteAnswer(), "one more to come")
        #expect(!inbound.noteAnswer())
        inbound.close()
        _ = consumer
    }
}
