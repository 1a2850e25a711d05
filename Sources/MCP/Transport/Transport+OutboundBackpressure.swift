// The transports whose outgoing messages wait in a bounded buffer, and which say when that
// buffer has room (``Transport/waitForOutboundRoom()``).

internal import MCPPlatform

extension FileDescriptorTransport {
    public nonisolated(nonsending) func waitForOutboundRoom() async {
        await outbound.waitForRoom()
    }
}

extension StdioTransport {
    public nonisolated(nonsending) func waitForOutboundRoom() async {
        await connection.waitForOutboundRoom()
    }
}

extension InProcessTransport {
    public nonisolated(nonsending) func waitForOutboundRoom() async {
        await outbound.waitForRoom()
    }
}

#if MCP_CAN_SPAWN
extension ProcessTransport {
    public nonisolated(nonsending) func waitForOutboundRoom() async {
        await connection.waitForOutboundRoom()
    }
}
#endif
