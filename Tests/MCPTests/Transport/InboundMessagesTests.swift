import OnDeviceMCPTestSupport
import Testing

@testable import MCP

/// A transport that only forwards another's stream: what a transport written outside the
/// library looks like to ``InboundMessages``.
private struct StreamOnlyTransport: Transport {
    let base: any Transport

    func send(_ message: JSONRPCMessage) async throws { try await base.send(message) }
    func receive() -> AsyncThrowingStream<InboundMessage, any Error> { base.receive() }
    func close() async { await base.close() }
}

@Suite("Inbound messages, pulled directly or through the stream")
struct InboundMessagesTests {
    static let notes: [JSONRPCMessage] = (1...3).map { .notification(JSONRPCNotification(method: "note/\($0)")) }

    enum Reader: String, CaseIterable, CustomTestStringConvertible {
        case inProcess = "in process, direct"
        case pipes = "pipes, direct"
        case stream = "another transport, through its stream"
        var testDescription: String { rawValue }

        /// A sender, and the transport the messages are read from.
        func makeEnds() throws -> (sender: any Transport, reader: any Transport) {
            switch self {
            case .inProcess: return InProcessTransport.makePair()
            case .pipes: return try makePipeConnectedPair()
            case .stream:
                let (one, other) = InProcessTransport.makePair()
                return (one, StreamOnlyTransport(base: other))
            }
        }
    }

    @Test("Each reader gives the messages in order, then nil at the end and on every later call", arguments: Reader.allCases)
    func messagesInOrderThenEnd(reader: Reader) async throws {
        let (sender, transport) = try reader.makeEnds()
        #expect((transport is any DirectlyReadableTransport) == (reader != .stream))
        for note in Self.notes { try await sender.send(note) }
        await sender.close()
        let (received, afterEnd) = try await withHangGuard {
            var messages = InboundMessages(of: transport)
            var received: [InboundMessage] = []
            while let message = try await messages.next() { received.append(message) }
            return (received, try await messages.next())
        }
        #expect(received == Self.notes.map { .message($0) })
        #expect(afterEnd == nil)
        await transport.close()
    }

    @Test("Once the reading task is cancelled, each reader returns nil, buffered messages or not", arguments: Reader.allCases)
    func cancelledReaderEnds(reader: Reader) async throws {
        let (sender, transport) = try reader.makeEnds()
        for note in Self.notes { try await sender.send(note) }
        let reading = Task {
            var messages = InboundMessages(of: transport)
            let first = try await messages.next()
            withUnsafeCurrentTask { $0?.cancel() }
            return (first, try await messages.next())
        }
        let (first, afterCancel) = try await withHangGuard { try await reading.value }
        #expect(first == .message(Self.notes[0]))
        #expect(afterCancel == nil)
        await sender.close()
        await transport.close()
    }
}
