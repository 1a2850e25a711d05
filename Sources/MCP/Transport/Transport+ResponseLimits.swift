// The transports whose reading thread enforces per-request reply limits.

extension FileDescriptorTransport: ResponseLimiting {}

extension StdioTransport: ResponseLimiting {
    var responseLimits: ResponseLimits { connection.responseLimits }
}

#if !os(watchOS) && !os(tvOS)
extension ProcessTransport: ResponseLimiting {
    var responseLimits: ResponseLimits { connection.responseLimits }
}
#endif
