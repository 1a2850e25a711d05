/// Where an MCP server is, for ``MCPClient/connect(to:configuration:)-(ServerEndpoint,_)``.
public struct ServerEndpoint: Sendable {
    let makeTransport: @Sendable () async throws -> any Transport

    #if MCP_CAN_SPAWN
    /// A server started as a child process, in a box by default, spoken to over its standard
    /// input and output.
    ///
    /// On macOS, Mac Catalyst and Linux only: iOS and visionOS apps may not start processes,
    /// and watchOS and tvOS cannot, so this case (and ``ProcessTransport``) is compiled out
    /// there. Reach a server over HTTP or a descriptor transport instead. On Mac Catalyst the
    /// box is refused (it is Landlock on Linux, a `sandbox-exec` profile on macOS): pass
    /// `sandbox: nil` there.
    ///
    /// The server runs in ``Sandbox/standard`` unless told otherwise: read-only system
    /// directories and its own installation, writes only to a private data directory, no TCP,
    /// an environment allowlist and resource limits. Widen the box for what the server needs
    /// (a repository to write, the network), or pass `sandbox: nil` to run it with all of this
    /// process's rights. A box this system cannot enforce (no Landlock, say) is an error,
    /// never silently dropped. No helper program is needed: the library applies the box in
    /// the child it starts.
    ///
    /// ```swift
    /// var box = Sandbox.standard
    /// box.writablePaths = [repository]
    /// let git = try await MCPClient.connect(to: .process("mcp-server-git", arguments: ["--repository", repository], sandbox: box))
    /// ```
    ///
    /// - Parameters:
    ///   - executable: The command: a path, or a name looked up in `PATH`.
    ///   - arguments: Its arguments.
    ///   - environment: Its environment; `nil` inherits this process's. Boxed, only the
    ///     source the box's allowlist picks from.
    ///   - currentDirectory: Its working directory; `nil` inherits this process's (boxed: its
    ///     private data directory).
    ///   - standardError: What happens to what it writes on standard error.
    ///   - sandbox: The box it runs in (default ``Sandbox/standard``); `nil` for none.
    public static func process(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        currentDirectory: String? = nil, standardError: ProcessTransport.StandardErrorHandling = .forward,
        sandbox: Sandbox? = .standard
    ) -> ServerEndpoint {
        ServerEndpoint {
            try ProcessTransport.launch(
                executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory,
                standardError: standardError, sandbox: sandbox)
        }
    }
    #endif

    /// A server reached over a transport made by `make`.
    public static func transport(_ make: @escaping @Sendable () async throws -> any Transport) -> ServerEndpoint {
        ServerEndpoint(makeTransport: make)
    }
}

extension MCPClient {
    /// Connects to a server described by an endpoint, such as a command to launch.
    ///
    /// ```swift
    /// let time = try await MCPClient.connect(to: .process("mcp-server-time"))
    /// ```
    public static func connect(to endpoint: ServerEndpoint, configuration: Configuration = Configuration()) async throws -> MCPClient {
        try await connect(over: endpoint.makeTransport(), configuration: configuration)
    }
}
