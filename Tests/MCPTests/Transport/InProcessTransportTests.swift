import OnDeviceMCPTestSupport
import Testing

@testable import MCP

@Suite("In-process transport")
struct InProcessTransportTests {
    static func blob(_ bytes: Int) -> JSONRPCMessage {
        .notification(JSONRPCNotification(method: "blob", params: ["text": .string(String(repeating: "z", count: bytes))]))
    }

    @Test("A sender waits while the peer's queue is full, and goes on when the peer reads")
    func senderWaitsForRoom() async throws {
        let (one, other) = InProcessTransport.makePair(byteLimit: 10_000)
        // The first message fits; the second does not while the first waits.
        try await one.send(Self.blob(8_000))
        let second = Task { try await one.send(Self.blob(8_000)) }
        var inbound = other.receive().makeAsyncIterator()
        // Nothing lets the second in but a read: after it, the send completes.
        #expect(try await inbound.next() != nil)
        try await withHangGuard { try await second.value }
        #expect(try await inbound.next() != nil)
        await one.close()
    }

    @Test("A message larger than the limit passes when the queue is empty")
    func oversizedMessagePassesAlone() async throws {
        let (one, other) = InProcessTransport.makePair(byteLimit: 100)
        try await withHangGuard { try await one.send(Self.blob(10_000)) }
        var inbound = other.receive().makeAsyncIterator()
        #expect(try await inbound.next() == .message(Self.blob(10_000)))
        await one.close()
    }

    @Test("Closing fails a waiting sender with closed, and a cancelled one with CancellationError")
    func waitingSendersEnd() async throws {
        let (one, other) = InProcessTransport.makePair(byteLimit: 1_000)
        try await one.send(Self.blob(900))
        let cancelled = Task { try await one.send(Self.blob(900)) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await withHangGuard { try await cancelled.value } }
        let waiting = Task { try await one.send(Self.blob(900)) }
        await other.close()
        await #expect(throws: TransportError.closed) { try await withHangGuard { try await waiting.value } }
        await #expect(throws: TransportError.closed) { try await one.send(Self.blob(1)) }
    }

    @Test(
        "The estimate is exact for plain ASCII JSON",
        arguments: [
            JSONValue.object(["a": "bc", "d": [true, nil, false]]),
            JSONValue.array(["x", "yz", [:]]),
        ])
    func estimateMatchesEncoding(value: JSONValue) throws {
        // Integers and doubles are estimated at a fixed width; these values have none.
        #expect(value.estimatedByteCount == (try value.jsonBytes()).count)
    }
}
