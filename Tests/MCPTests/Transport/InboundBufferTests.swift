import MCPCore
import Testing

@testable import MCP

@Suite("The inbound buffer's count of unanswered requests")
struct InboundBufferTests {
    private static func frame(_ message: JSONRPCMessage) -> InboundFrame {
        InboundFrame(message: .message(message), byteCount: 64)
    }

    private static func request(_ id: Int) -> InboundFrame {
        frame(.request(JSONRPCRequest(id: .int(id), method: "tools/call", params: ["name": "echo"])))
    }

    private static func cancelled(_ id: Int) -> InboundFrame {
        frame(.notification(JSONRPCNotification(method: MCPMethod.cancelled, params: ["requestId": .int(id)])))
    }

    private static func buffer() -> InboundBuffer {
        InboundBuffer(capacity: 64, byteLimit: 1 << 20) {}
    }

    @Test("An answer with others still unanswered says so; the last one does not")
    func answersCountDown() {
        let inbound = Self.buffer()
        var batch = [Self.request(1), Self.request(2), Self.request(3)]
        #expect(inbound.push(&batch))
        #expect(inbound.noteAnswer(), "two more to come")
        #expect(inbound.noteAnswer(), "one more to come")
        #expect(!inbound.noteAnswer(), "the last answer has nothing behind it")
    }

    @Test("Answers to frames that were not requests never take the count below zero")
    func neverBelowZero() {
        let inbound = Self.buffer()
        #expect(!inbound.noteAnswer())
        #expect(!inbound.noteAnswer())
        var batch = [Self.request(1)]
        #expect(inbound.push(&batch))
        #expect(!inbound.noteAnswer(), "one request read, one answer: nothing else to come")
    }

    @Test("A cancelled request counts as answered, so later answers are not held for it")
    func cancellationCountsAsAnswered() {
        let inbound = Self.buffer()
        var requests = [Self.request(1), Self.request(2)]
        #expect(inbound.push(&requests))
        var cancellation = [Self.cancelled(1)]
        #expect(inbound.push(&cancellation))
        #expect(!inbound.noteAnswer(), "request 1 was cancelled: request 2's answer is the last")
    }
}
