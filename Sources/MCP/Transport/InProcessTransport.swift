public import MCPCore

/// One end of a pair of connected in-process transports.
///
/// Messages pass between the two ends as values: nothing is encoded or parsed. This is
/// the transport an iOS app uses to run an ``MCPServer`` and an ``MCPClient`` in the
/// same process, and the one tests use for end-to-end runs.
///
/// ```swift
/// let (clientEnd, serverEnd) = InProcessTransport.makePair()
/// ```
///
/// Neither end holds a reference to the other: each holds its peer's inbound stream
/// continuation, so a pair never forms a retain cycle. Closing either end finishes both
/// inbound streams.
public final class InProcessTransport: Transport {
    private let outbound: AsyncThrowingStream<InboundMessage, any Error>.Continuation
    private let inbound: AsyncThrowingStream<InboundMessage, any Error>
    private let closeInbound: AsyncThrowingStream<InboundMessage, any Error>.Continuation

    private init(
        inbound: AsyncThrowingStream<InboundMessage, any Error>,
        closeInbound: AsyncThrowingStream<InboundMessage, any Error>.Continuation,
        outbound: AsyncThrowingStream<InboundMessage, any Error>.Continuation
    ) {
        self.inbound = inbound
        self.closeInbound = closeInbound
        self.outbound = outbound
    }

    /// Creates two connected ends: what one sends, the other receives.
    public static func makePair() -> (InProcessTransport, InProcessTransport) {
        let (first, firstContinuation) = AsyncThrowingStream<InboundMessage, any Error>.makeStream()
        let (second, secondContinuation) = AsyncThrowingStream<InboundMessage, any Error>.makeStream()
        let one = InProcessTransport(inbound: first, closeInbound: firstContinuation, outbound: secondContinuation)
        let other = InProcessTransport(inbound: second, closeInbound: secondContinuation, outbound: firstContinuation)
        return (one, other)
    }

    public func send(_ message: JSONRPCMessage) async throws {
        switch outbound.yield(.message(message)) {
        case .enqueued:
            return
        case .terminated:
            throw TransportError.closed
        case .dropped:
            throw TransportError.closed("the peer's inbound buffer dropped the message")
        @unknown default:
            throw TransportError.closed
        }
    }

    public func receive() -> AsyncThrowingStream<InboundMessage, any Error> {
        inbound
    }

    public func close() async {
        closeInbound.finish()
        outbound.finish()
    }
}
