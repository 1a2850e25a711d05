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
/// Over stdio the function runs on the connection's thread (see ``MCPServer/run(on:)``):
/// it may await anything, but long synchronous work belongs in a task of its own.
public struct MCPTool: Sendable {
    /// The function that runs a call: the validated arguments and the call's context in,
    /// a result out.
    public typealias Handler = @Sendable (_ arguments: JSONObject, _ context: ToolContext) async throws -> CallToolResult

    /// What clients see of the tool in `tools/list`.
    public var definition: ToolDefinition
    /// The function that runs a call.
    public var handler: Handler

    /// The tool's unique name.
    public var name: String { definition.name }

    /// Creates a tool whose function also receives the call's ``ToolContext``
    /// (for progress reports, the request id and the client's identity).
    public init(
        name: String, title: String? = nil, description: String,
        inputSchema: JSONValue = ToolDefinition.emptyInputSchema, outputSchema: JSONValue? = nil,
        annotations: ToolAnnotations? = nil,
        run: @escaping Handler
    ) {
        definition = ToolDefinition(
            name: name, title: title, description: description, inputSchema: inputSchema,
            outputSchema: outputSchema, annotations: annotations)
        handler = run
    }

    /// Creates a tool from its arguments alone.
    public init(
        name: String, title: String? = nil, description: String,
        inputSchema: JSONValue = ToolDefinition.emptyInputSchema, outputSchema: JSONValue? = nil,
        annotations: ToolAnnotations? = nil,
        run: @escaping @Sendable (_ arguments: JSONObject) async throws -> CallToolResult
    ) {
        self.init(
            name: name, title: title, description: description, inputSchema: inputSchema,
            outputSchema: outputSchema, annotations: annotations
        ) { arguments, _ in
            try await run(arguments)
        }
    }

    /// Creates a tool from a full definition and a handler.
    public init(definition: ToolDefinition, run: @escaping Handler) {
        self.definition = definition
        self.handler = run
    }
}

/// What a running tool knows about the call it serves.
public struct ToolContext: Sendable {
    /// The id of the `tools/call` request.
    public let requestID: RequestID?
    /// The protocol version of the connection (or of the request, in the 2026-07-28 era).
    public let protocolVersion: ProtocolVersion
    /// The client's name and version, when it said.
    public let clientInfo: Implementation?
    let progressToken: JSONValue?
    let notify: (@Sendable (JSONRPCNotification) async -> Void)?

    init(
        requestID: RequestID?, protocolVersion: ProtocolVersion, clientInfo: Implementation?,
        progressToken: JSONValue?, notify: (@Sendable (JSONRPCNotification) async -> Void)?
    ) {
        self.requestID = requestID
        self.protocolVersion = protocolVersion
        self.clientInfo = clientInfo
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
