/// A transport whose reading thread can hand inbound messages to a synchronous handler,
/// instead of waking the task that iterates them.
///
/// A server loop whose work for a request is to admit it and start its task sets a handler
/// (``MCPServer/run(on:options:)``); the requests then start from the reading thread, with
/// no wake-up of the loop's task per message. What the handler leaves (it returns `false`)
/// reaches the loop in order, as before. See ``InboundBuffer/setInlineHandler(_:)``.
protocol InlineReadingTransport: DirectlyReadableTransport {
    /// Sets or clears (`nil`) the handler. Clear it when the loop ends: it usually holds the
    /// loop's state, and the transport holds it.
    func setInlineHandler(_ handler: InboundBuffer.InlineHandler?)

    /// The queue of the transport's output: while it has room
    /// (``OutboundBuffer/hasRoom``), ``Transport/waitForOutboundRoom()`` returns at once.
    var outbound: OutboundBuffer { get }

    /// The descriptor transport that writes the answers: one a server wrote straight to text
    /// is sent with ``FileDescriptorTransport/sendAnswer(encoded:)``.
    var answerWriter: FileDescriptorTransport { get }
}

extension FileDescriptorTransport: InlineReadingTransport {
    func setInlineHandler(_ handler: InboundBuffer.InlineHandler?) {
        inbound.setInlineHandler(handler)
    }

    var answerWriter: FileDescriptorTransport { self }
}

extension StdioTransport: InlineReadingTransport {
    func setInlineHandler(_ handler: InboundBuffer.InlineHandler?) {
        connection.setInlineHandler(handler)
    }

    var outbound: OutboundBuffer { connection.outbound }

    var answerWriter: FileDescriptorTransport { connection }
}

#if MCP_CAN_SPAWN
extension ProcessTransport: InlineReadingTransport {
    func setInlineHandler(_ handler: InboundBuffer.InlineHandler?) {
        connection.setInlineHandler(handler)
    }

    var outbound: OutboundBuffer { connection.outbound }

    var answerWriter: FileDescriptorTransport { connection }
}
#endif
