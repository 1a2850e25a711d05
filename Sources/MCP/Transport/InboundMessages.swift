internal import MCPCore

/// A transport whose inbound messages this module's loops can take one at a time on the
/// caller's executor.
///
/// ``Transport/receive()`` is an `AsyncThrowingStream`, whose unfolding closure is
/// `@Sendable` and so runs on the global executor: every message read through it costs a
/// switch there and back (on a connection's loop, which prefers its own thread, a look-up of
/// that preference under the task's status lock on each switch). The library's own transports
/// also offer their buffer's `next()` directly, for ``InboundMessages``.
protocol DirectlyReadableTransport: Transport {
    /// The next inbound message, `nil` at the end; throws as ``Transport/receive()``'s stream
    /// does. One consumer, as for the stream, and never both.
    nonisolated(nonsending) func nextInbound() async throws -> InboundMessage?
}

/// The inbound messages of one transport, in order, read by one loop.
///
/// Pulls each message directly, with no executor switch, from a
/// ``DirectlyReadableTransport``; from any other transport, through its stream. After the
/// end, a failure, or once the reading task is cancelled, it returns `nil`, as the stream
/// does (messages still buffered are not handed out after a cancellation).
struct InboundMessages {
    private enum Source {
        case direct(any DirectlyReadableTransport)
        case stream(AsyncThrowingStream<InboundMessage, any Error>.Iterator)
    }

    private var source: Source
    private var finished = false

    init(of transport: some Transport) {
        if let direct = transport as? any DirectlyReadableTransport {
            source = .direct(direct)
        } else {
            source = .stream(transport.receive().makeAsyncIterator())
        }
    }

    /// The next message, `nil` once the transport's input has ended.
    nonisolated(nonsending) mutating func next() async throws -> InboundMessage? {
        if finished { return nil }
        if Task.isCancelled {
            finished = true
            return nil
        }
        do {
            let message: InboundMessage?
            switch source {
            case .direct(let transport):
                message = try await transport.nextInbound()
            case .stream(var iterator):
                message = try await iterator.next(isolation: #isolation)
                source = .stream(iterator)
            }
            if message == nil { finished = true }
            return message
        } catch {
            finished = true
            throw error
        }
    }
}

extension FileDescriptorTransport: DirectlyReadableTransport {
    nonisolated(nonsending) func nextInbound() async throws -> InboundMessage? {
        try await inbound.next()
    }
}

extension StdioTransport: DirectlyReadableTransport {
    nonisolated(nonsending) func nextInbound() async throws -> InboundMessage? {
        try await connection.nextInbound()
    }
}

#if MCP_CAN_SPAWN
extension ProcessTransport: DirectlyReadableTransport {
    nonisolated(nonsending) func nextInbound() async throws -> InboundMessage? {
        try await connection.nextInbound()
    }
}
#endif
