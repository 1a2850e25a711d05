// The transports whose reading thread enforces per-request result limits
// (``Transport/resultLimits``), and the one that can say why its peer went away.

extension FileDescriptorTransport {
    public var resultLimits: ResultLimits? { responseLimits }
}

extension StdioTransport {
    public var resultLimits: ResultLimits? { connection.responseLimits }
}

#if MCP_CAN_SPAWN
extension ProcessTransport {
    public var resultLimits: ResultLimits? { connection.responseLimits }

    public func connectionEndReason() async -> String? {
        await endDescription()
    }
}
#endif
