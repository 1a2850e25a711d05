/// Where an MCP server is, for ``MCPClient/connect(to:configuration:)-(ServerEndpoint,_)``.
public struct ServerEndpoint: Sendable {
    let makeTransport: @Sendable () async throws -> any Transport

    #if !os(watchOS) && !os(tvOS)
    /// A server started as a child process, spoken to over its standard input and output.
    ///
    /// - Parameters:
    ///   - executable: The command: a path, or a name looked up in `PATH`.
    ///   - arguments: Its arguments.
    ///   - environment: Its environment; `nil` inherits this process's.
    ///   - currentDirectory: Its working directory; `nil` inherits this process's.
    ///   - standardError: What happens to what it writes on standard error.
    public static func process(
        _ executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        currentDirectory: String? = nil, standardError: ProcessTransport.StandardErrorHandling = .forward
    ) -> ServerEndpoint {
        ServerEndpoint {
            try ProcessTransport.launch(
                executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory,
                standardError: standardError)
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
