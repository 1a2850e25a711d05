public import MCPCore

/// A tool an ``MCPServer`` offers: a name, a description, a JSON Schema for its arguments,
/// and the async function that runs it.
///
/// ```swift
/// let echo = MCPTool(
///     name: "echo",
///     description: "Repeats the text it is given",
///     inputSchema: ["type": "object", "properties": ["text": ["type": "string"]], "required": ["text"]]
/// ) { arguments in
///     .text(arguments["text"]?.stringValue ?? "")
/// }
/// ```
///
/// The server validates every call's arguments against the tool's `inputSchema` before the
/// function runs, so the function can rely on their shape. A function that throws
/// produces a tool error result (`isError: true`) carrying the error's description.
///
/// Calls run concurrently, each in its own task on Swift's shared executor (see
/// ``MCPServer/run(on:options:)``). A tool whose calls must not overlap with each other — one
/// that writes a file, or drives a device — says so with ``Concurrency-swift.enum/serialized``: its
/// calls then run one at a time, in the order they arrived.
public struct MCPTool: Sendable {
    /// Whether a tool's calls may run at the same time as each other.
    public enum Concurrency: Hashable, Sendable {
        /// Calls run concurrently (the default).
        case concurrent
        /// Calls run one at a time, in arrival order; a call waiting for its turn can be
        /// cancelled like any other. The line is per registration: a tool registered again
        /// under the same name starts a new one.
        case serialized
    }

    /// The function that runs a call: the validated arguments and the call's context in,
    /// a result out.
    public typealias Handler = @Sendable (_ arguments: JSONObject, _ context: ToolContext) async throws -> CallToolResult

    /// What clients see of the tool in `tools/list`.
    public var definition: ToolDefinition
    /// The function that runs a call.
    public var handler: Handler
    /// Whether calls may overlap (``Concurrency-swift.enum/concurrent``, the default) or run one at a time.
    public var concurrency: Concurrency

    /// The tool's unique name.
    public var name: String { definition.name }

    /// Creates a tool whose function also receives the call's ``ToolContext``
    /// (for progress reports, the request id and the client's identity).
    public init(
        name: String, title: String? = nil, description: String,
        inputSchema: JSONValue = ToolDefinition.emptyInputSchema, outputSchema: JSONValue? = nil,
        annotations: ToolAnnotations? = nil, concurrency: Concurrency = .concurrent,
        run: @escaping Handler
    ) {
        definition = ToolDefinition(
            name: name, title: title, description: description, inputSchema: inputSchema,
            outputSchema: outputSchema, annotations: annotations)
        handler = run
        self.concurrency = concurrency
    }

    /// Creates a tool from its arguments alone.
    public init(
        name: String, title: String? = nil, description: String,
        inputSchema: JSONValue = ToolDefinition.emptyInputSchema, outputSchema: JSONValue? = nil,
        annotations: ToolAnnotations? = nil, concurrency: Concurrency = .concurrent,
        run: @escaping @Sendable (_ arguments: JSONObject) async throws -> CallToolResult
    ) {
        self.init(
            name: name, title: title, description: description, inputSchema: inputSchema,
            outputSchema: outputSchema, annotations: annotations, concurrency: concurrency
        ) { arguments, _ in
            try await run(arguments)
        }
    }

    /// Creates a tool from a full definition and a handler.
    public init(definition: ToolDefinition, concurrency: Concurrency = .concurrent, run: @escaping Handler) {
        self.definition = definition
        self.handler = run
        self.concurrency = concurrency
    }
}

/// What a running tool knows about the call it serves.
public struct ToolContext: Sendable {
    /// The id of the `tools/call` request.
    public let requestID: RequestID?
    /// The protocol version of the connection (or of the request, in the 2026-07-28 era).
    public let protocolVersion: ProtocolVersion
    /// The client's name and version, when it said.
    public var clientInfo: Implementation? { sharedClientInfo?.value }
    let sharedClientInfo: SharedClientInfo?
    let progressToken: JSONValue?
    let notify: (@Sendable (JSONRPCNotification) async -> Void)?
    /// How to ask the client for something (``roots(timeout:)``).
    let client: ClientAccess?

    init(
        requestID: RequestID?, protocolVersion: ProtocolVersion, clientInfo: SharedClientInfo?,
        progressToken: JSONValue?, notify: (@Sendable (JSONRPCNotification) async -> Void)?, client: ClientAccess? = nil
    ) {
        self.client = client
        self.requestID = requestID
        self.protocolVersion = protocolVersion
        self.sharedClientInfo = clientInfo
        self.progressToken = progressToken
        self.notify = notify
    }

    /// Whether the client asked for progress notifications for this call.
    public var wantsProgress: Bool { progressToken != nil && notify != nil }

    /// Tells the client how far the call has come, when it asked to know.
    ///
    /// Sends `notifications/progress` with the call's progress token; does nothing when
    /// the client gave none. `progress` should increase from one report to the next.
    ///
    /// - Parameters:
    ///   - progress: How much is done, in any unit.
    ///   - total: How much there is to do, when known.
    ///   - message: A short sentence about the current step.
    public func reportProgress(_ progress: Double, total: Double? = nil, message: String? = nil) async {
        guard let progressToken, let notify else { return }
        let report = ProgressNotification(progressToken: progressToken, progress: progress, total: total, message: message)
        await notify(JSONRPCNotification(method: MCPMethod.progress, params: report.params(for: protocolVersion)))
    }
}
