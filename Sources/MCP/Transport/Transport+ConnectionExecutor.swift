extension Transport {
    /// Runs `operation` on the transport's reading thread when it has one (stdio, pipes,
    /// child processes) and the system supports task executors; otherwise as is.
    ///
    /// Child tasks and default actors called from `operation` run there too, so work that
    /// starts with a message read from the peer needs no other thread.
    func preferringConnectionThread<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
            // A nil preference (a transport without a reading thread) changes nothing.
            return try await withTaskExecutorPreference(connectionTaskExecutor, isolation: isolation, operation: operation)
        }
        return try await operation()
    }

    /// The transport's reading thread as a task executor, for unstructured tasks that serve it.
    @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
    var connectionTaskExecutor: (any TaskExecutor)? { connectionExecutor }
}

extension FileDescriptorTransport {
    /// The thread that reads the connection: the event loop's, or the transport's own reading
    /// thread (see ``Transport/connectionExecutor``).
    @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
    public var connectionExecutor: (any TaskExecutor)? {
        switch engine {
        case .loop(let connection): connection.loop
        case .threads(let executor): executor
        }
    }
}

extension StdioTransport {
    /// The thread that reads standard input (see ``Transport/connectionExecutor``).
    @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
    public var connectionExecutor: (any TaskExecutor)? { connection.connectionExecutor }
}

#if MCP_CAN_SPAWN
extension ProcessTransport {
    /// The thread that reads the child's output (see ``Transport/connectionExecutor``).
    @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
    public var connectionExecutor: (any TaskExecutor)? { connection.connectionExecutor }
}
#endif
