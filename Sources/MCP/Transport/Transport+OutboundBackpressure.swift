/// A transport whose outgoing messages wait in a bounded buffer, and which can say when
/// that buffer has room: the hook a server loop uses to stop reading requests while the
/// answers to earlier ones are backed up, instead of buffering them without bound.
protocol OutboundBackpressure: Sendable {
    /// Returns at once while the outbound buffer holds less than its byte limit and no
    /// sender is waiting for room; otherwise returns when it has drained below the limit,
    /// or the transport closes or fails, or the calling task is cancelled.
    func waitForOutboundRoom() async
}

extension FileDescriptorTransport: OutboundBackpressure {
    func waitForOutboundRoom() async {
        await outbound.waitForRoom()
    }
}

extension StdioTransport: OutboundBackpressure {
    func waitForOutboundRoom() async {
        await connection.waitForOutboundRoom()
    }
}

#if !os(watchOS) && !os(tvOS)
extension ProcessTransport: OutboundBackpressure {
    func waitForOutboundRoom() async {
        await connection.waitForOutboundRoom()
    }
}
#endif

extension Transport {
    /// Waits while the transport's output is backed up (see ``OutboundBackpressure``); returns
    /// at once for transports without a bounded outbound buffer.
    func waitForOutboundRoom() async {
        await (self as? any OutboundBackpressure)?.waitForOutboundRoom()
    }
}
