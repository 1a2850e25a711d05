/// A transport whose outbound buffer is bounded, and which can say when it has room again.
protocol OutboundBackpressure: Sendable {
    /// Returns at once while the outbound buffer has room; otherwise once it has drained below
    /// its limit, or the transport closes or fails, or the calling task is cancelled.
    func waitForOutboundRoom() async
}

extension Transport {
    /// Waits while the transport's output is backed up (see ``OutboundBackpressure``); returns
    /// at once for transports without a bounded outbound buffer.
    func waitForOutboundRoom() async {
        await (self as? any OutboundBackpressure)?.waitForOutboundRoom()
    }
}
