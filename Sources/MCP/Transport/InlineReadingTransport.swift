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

    /// Whether ``Transport/waitForOutboundRoom()`` would return at once now.
    var hasOutboundRoom: Bool { get }
}

extension FileDescriptorTransport: InlineReadingTransport {
    func setInlineHandler(_ handler: InboundBuffer.InlineHandler?) {
        inbound.setInlineHandler(handler)
    }

    var hasOutboundRoom: Bool { outbound.hasRoom }
}

extension StdioTransport: InlineReadingTransport {
    func setInlineHandler(_ handler: InboundBuffer.InlineHandler?) {
        connection.setInlineHandler(handler)
    }

    var hasOutboundRoom: Bool { connection.hasOutboundRoom }
}

#if MCP_CAN_SPAWN
extension ProcessTransport: InlineReadingTransport {
    func setInlineHandler(_ handler: InboundBuffer.InlineHandler?) {
        connection.setInlineHandler(handler)
    }

    var hasOutboundRoom: Bool { connection.hasOutboundRoom }
}
#endif
