/// One frame read from the peer: the message it became, and the bytes it took on the wire.
struct InboundFrame: Sendable {
    /// The message, or the report of a frame that was not one.
    var message: InboundMessage
    /// The frame's length in bytes (for an oversized frame, the bytes kept of it), which is
    /// what the frame costs while it waits in the inbound queue.
    var byteCount: Int
}
