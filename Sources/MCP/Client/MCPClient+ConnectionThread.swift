extension MCPClient {
    /// Runs `operation` on the thread that reads this client's connection, so that each reply
    /// resumes its caller without waking another thread.
    ///
    /// A stdio connection (``ProcessTransport``, ``FileDescriptorTransport``) reads replies on
    /// a thread of its own. A caller running anywhere else is resumed by handing it to
    /// Swift's thread pool, which wakes a pool thread for every reply: on a request/response
    /// loop that wake-up costs about as much as the pipe's own round trip. Inside `operation`,
    /// the calling task (and child tasks it starts, and default actors it calls, this client
    /// included) prefer the connection's thread as their executor: the request is written
    /// and the reply is read and handled on that one thread.
    ///
    /// ```swift
    /// try await client.withConnectionThread {
    ///     for text in lines {
    ///         _ = try await client.callTool(name: "echo", arguments: ["text": .string(text)])
    ///     }
    /// }
    /// ```
    ///
    /// Everything in `operation` shares the thread with the connection's reading: keep long
    /// synchronous work out of it (it would delay every reply). For a client connected in
    /// process, or on systems without task executors (before macOS 15, iOS 18), `operation`
    /// simply runs where it is.
    public func withConnectionThread<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        guard let transport = channel.transport else {
            return try await operation()
        }
        return try await transport.preferringConnectionThread(isolation: isolation, operation)
    }
}
