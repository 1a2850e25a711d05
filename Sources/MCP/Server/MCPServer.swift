public import JSONSchema
public import MCPCore

/// An MCP server: an actor that answers JSON-RPC messages with the tools registered on it.
///
/// Register tools, then either answer messages one at a time with ``handle(_:)-(JSONRPCMessage)`` (what an
/// in-process client does) or serve a connection with ``run(on:options:)``:
///
/// ```swift
/// let server = MCPServer(name: "Notes", version: "1.0")
/// try await server.register(MCPTool(
///     name: "notes_search",
///     description: "Search the user's notes",
///     inputSchema: ["type": "object", "properties": ["query": ["type": "string"]], "required": ["query"]]
/// ) { arguments in
///     .text(try await notes.search(arguments["query"]?.stringValue ?? ""))
/// })
/// try await server.run(on: StdioTransport())
/// ```
///
/// ## Protocol versions
///
/// The server speaks every MCP version from 2024-11-05 to 2026-07-28. A connection that
/// opens with `initialize` is served in the handshake era at the negotiated version (an
/// unsupported request is offered 2025-11-25). A connection whose first request carries
/// the 2026-07-28 envelope (`params._meta` with a protocol version) is served statelessly
/// in the modern era. A connection keeps the era it started in. Requests that arrive on a
/// fresh connection without either are answered as 2025-11-25 would, so a minimal client
/// (or a test) can call `tools/list` directly.
///
/// ## Errors
///
/// One rule for `tools/call`, the one MCP 2025-11-25 settled on: a malformed request
/// (`name` missing or not a string, `arguments` not an object) and an unknown tool are
/// JSON-RPC errors `-32602`; arguments that fail the tool's `inputSchema` and a tool that
/// throws are results with `isError: true` whose text says what was wrong, for the model
/// to read and correct.
///
/// What a thrown error says is the app's choice (``ToolErrorDisclosure``). By default a
/// ``ModelFacingError`` sends its message and any other error only
/// ``internalFailureMessage``: an app's internals (file paths, database errors) are not the
/// model's business, nor a remote client's. The whole error goes to `onToolFailure`.
///
/// ## Asking the client
///
/// A tool can read the client's roots with ``ToolContext/roots(timeout:)``: the server sends
/// `roots/list` to the client and matches its reply (handshake era, in process and over a
/// connection alike), or, in the 2026-07-28 era, ends the call with an `input_required`
/// result and runs the tool again when the client sends the call back with its roots.
///
/// ## Concurrency
///
/// Requests are handled concurrently: a tool function runs off the actor, so a slow tool
/// never holds up `ping` or another call. The tool list is actor state; a call uses the
/// tool as it was registered when the call arrived.
public actor MCPServer {
    /// The server's name and version, as clients see them in `serverInfo`.
    public nonisolated let info: Implementation
    /// `info` as JSON, made once: every 2026-07-28 result carries it.
    nonisolated let infoJSON: JSONValue
    /// Text the server offers clients about how to use it (`instructions`).
    public nonisolated let instructions: String?
    /// How many tools one `tools/list` page holds.
    public nonisolated let pageSize: Int
    /// How arguments are validated against tool schemas.
    public nonisolated let schemaOptions: JSONSchema.Options
    /// How much of a handler's error a tool's error result carries.
    public nonisolated var toolErrorDisclosure: ToolErrorDisclosure { toolFailures.disclosure }
    /// What happens to a handler's error: what is sent, and the app's hook.
    nonisolated let toolFailures: ToolFailureHandling

    /// What a caller reads when a handler fails for a reason not meant for it (see
    /// ``ToolErrorDisclosure/modelFacing``).
    public static let internalFailureMessage =
        "The tool failed because of an internal error. Try again later, or answer without it."

    /// Registered tool names in ascending order: the order of `tools/list` (the tools
    /// themselves are in ``directory``).
    var orderedNames: [String] = []
    /// Connection state, by session number.
    var sessions: [Int: ServerSession] = [:]
    /// The tools, and a copy of the connections' eras for requests that need no actor.
    nonisolated let directory = CallDirectory()
    /// The requests this server sent its clients (`roots/list`), waiting for replies.
    nonisolated let outgoing = OutgoingRequests()
    var nextSessionNumber = 1

    /// The session used by ``handle(_:)-(JSONRPCMessage)``, which has no way to deliver notifications.
    static let directSession = 0

    /// Creates a server with no tools.
    ///
    /// - Parameters:
    ///   - name: The server's programmatic name.
    ///   - version: The server's version.
    ///   - title: A name for people to read.
    ///   - instructions: Text for clients about how to use the server.
    ///   - pageSize: How many tools one `tools/list` page holds (at least 1).
    ///   - schemaOptions: Limits and defaults for validating arguments.
    ///   - toolErrors: How much of a handler's error its error result carries; by default
    ///     only a ``ModelFacingError``'s message.
    ///   - onToolFailure: Receives every error a handler throws (not cancellation), whole,
    ///     with the text the caller read. Called on the task that ran the tool: keep it short.
    public init(
        name: String, version: String, title: String? = nil, instructions: String? = nil,
        pageSize: Int = 100, schemaOptions: JSONSchema.Options = JSONSchema.Options(),
        toolErrors: ToolErrorDisclosure = .modelFacing, onToolFailure: (@Sendable (ToolFailure) -> Void)? = nil
    ) {
        info = Implementation(name: name, version: version, title: title)
        infoJSON = info.json
        self.instructions = instructions
        self.pageSize = max(1, pageSize)
        self.schemaOptions = schemaOptions
        toolFailures = ToolFailureHandling(disclosure: toolErrors, report: onToolFailure)
        sessions[Self.directSession] = ServerSession(notify: nil)
        directory.setConnection(
            CallDirectory.Connection(era: .undecided, session: Self.directSession, outgoing: outgoing), for: Self.directSession)
    }

    // MARK: Tools

    /// Adds a tool, or replaces the tool with the same name.
    ///
    /// Clients that asked to hear about it get `notifications/tools/list_changed`.
    ///
    /// - Throws: ``JSONSchema/SchemaError`` when the tool's `inputSchema` is not a valid
    ///   JSON Schema (or uses a remote reference); the tool list is then unchanged.
    public func register(_ tool: MCPTool) async throws {
        let schema = try JSONSchema(tool.definition.inputSchema, options: schemaOptions)
        let isNew = directory.tool(named: tool.name) == nil
        directory.setTool(RegisteredTool(tool: tool, schema: schema, listing: tool.definition.json), named: tool.name)
        if isNew {
            let position = orderedNames.firstIndex { $0 > tool.name } ?? orderedNames.endIndex
            orderedNames.insert(tool.name, at: position)
        }
        await announceToolListChange()
    }

    /// Adds a tool built from its parts; see ``MCPTool``.
    public func register(
        name: String, title: String? = nil, description: String,
        inputSchema: JSONValue = ToolDefinition.emptyInputSchema, outputSchema: JSONValue? = nil,
        annotations: ToolAnnotations? = nil, concurrency: MCPTool.Concurrency = .concurrent,
        run: @escaping MCPTool.Handler
    ) async throws {
        try await register(
            MCPTool(
                name: name, title: title, description: description, inputSchema: inputSchema,
                outputSchema: outputSchema, annotations: annotations, concurrency: concurrency, run: run))
    }

    /// Removes the tool with `name`; returns whether there was one.
    ///
    /// Calls already running go on to their end.
    @discardableResult
    public func unregister(_ name: String) async -> Bool {
        guard directory.removeTool(named: name) != nil else { return false }
        orderedNames.removeAll { $0 == name }
        await announceToolListChange()
        return true
    }

    /// The registered tools, in `tools/list` order.
    public var tools: [ToolDefinition] {
        directory.tools(named: orderedNames).map(\.tool.definition)
    }

    // MARK: Answering messages

    /// Answers one message, as a client in the same process would send it.
    ///
    /// Returns the response to a request, a batch of responses to a batch, and `nil` for
    /// a notification or a response. Messages passed here share one connection state
    /// (for example, the version an `initialize` negotiated); it cannot send
    /// notifications. Use ``run(on:options:)`` to serve a connection with notifications.
    ///
    /// A JSON value from elsewhere is decoded first: `JSONRPCMessage(value)` classifies it,
    /// and the error it throws carries the `response` that answers a value that is not a
    /// JSON-RPC message.
    public nonisolated func handle(_ message: JSONRPCMessage) async -> JSONRPCMessage? {
        await handle(message, session: Self.directSession)
    }

    // MARK: Sessions

    /// Opens connection state for a peer that can receive notifications.
    func openSession(notify: @escaping @Sendable (JSONRPCMessage) async -> Void) -> Int {
        openNumberedSession { _ in notify }
    }

    /// Opens connection state for a peer whose delivery function needs the session's number
    /// (to hand replies to the server's requests back with ``receiveReply(_:session:)``).
    func openNumberedSession(_ notify: @Sendable (Int) -> @Sendable (JSONRPCMessage) async -> Void) -> Int {
        let number = nextSessionNumber
        nextSessionNumber += 1
        sessions[number] = ServerSession(notify: notify(number))
        publish(number)
        return number
    }

    /// Forgets a connection's state; requests the server sent on it fail.
    func closeSession(_ number: Int) {
        sessions[number] = nil
        publish(number)
        outgoing.close(number)
    }

    /// Delivers a client's reply to a request this server sent on a connection; a reply
    /// that answers nothing is ignored.
    nonisolated func receiveReply(_ reply: JSONRPCMessage, session: Int) {
        outgoing.resolve(reply, session: session)
    }

    /// Copies what the quick path needs of a connection into ``directory``.
    func publish(_ number: Int) {
        let connection = sessions[number].map {
            CallDirectory.Connection(
                era: $0.era, session: number, outgoing: outgoing, clientInfo: $0.clientInfo, clientCapabilities: $0.clientCapabilities,
                notify: $0.notify)
        }
        directory.setConnection(connection, for: number)
    }

    /// Tells every connection that asked about it that the tool list changed.
    private func announceToolListChange() async {
        var deliveries: [(@Sendable (JSONRPCMessage) async -> Void, JSONRPCMessage)] = []
        for session in sessions.values {
            guard let notify = session.notify else { continue }
            switch session.era {
            case .legacy where session.initialized:
                deliveries.append((notify, .notification(JSONRPCNotification(method: MCPMethod.toolsListChanged))))
            case .modern:
                for subscription in session.listens where subscription.value.toolsListChanged {
                    let params: JSONValue = ["_meta": [MCPMetaKey.subscriptionID: subscription.key.json]]
                    deliveries.append((notify, .notification(JSONRPCNotification(method: MCPMethod.toolsListChanged, params: params))))
                }
            default:
                continue
            }
        }
        for (notify, message) in deliveries {
            await notify(message)
        }
    }
}

/// A tool with its compiled schema and its `tools/list` entry, made once at registration.
///
/// A class, so that looking a tool up for a call retains one object rather than copying
/// every field of its definition.
final class RegisteredTool: Sendable {
    let tool: MCPTool
    let schema: JSONSchema
    let listing: JSONValue
    /// What a call runs: the tool's function, behind a line its calls wait in for a
    /// ``MCPTool/Concurrency-swift.enum/serialized`` tool (waiting there throws
    /// `CancellationError` when the call is cancelled).
    let run: MCPTool.Handler

    /// Validates a call's arguments against the tool's input schema.
    ///
    /// A method, so that the schema is read in place: `entry.schema.validate(_:)` at the call
    /// site copied the whole schema (its document and program retained and released) on every call.
    func validate(_ arguments: JSONValue) -> ValidationResult {
        schema.validate(arguments)
    }

    init(tool: MCPTool, schema: JSONSchema, listing: JSONValue) {
        self.tool = tool
        self.schema = schema
        self.listing = listing
        let handler = tool.handler
        guard tool.concurrency == .serialized else {
            run = handler
            return
        }
        let gate = SerialGate()
        run = { arguments, context in
            try await gate.enter()
            defer { gate.leave() }
            return try await handler(arguments, context)
        }
    }
}

/// What a server knows about one connection.
///
/// A class, read and changed only on the server's actor, so that looking at one field of
/// a session does not copy all of them.
final class ServerSession {
    enum Era: Sendable, Equatable {
        /// No request has decided the era yet.
        case undecided
        /// Opened with `initialize`, at this version.
        case legacy(ProtocolVersion)
        /// Opened with a 2026-07-28 envelope.
        case modern

        /// The version whose rules apply to a handshake-era request on this connection.
        var handshakeVersion: ProtocolVersion {
            if case .legacy(let version) = self { return version }
            return .latestHandshake
        }
    }

    /// A `subscriptions/listen` request that is open.
    struct Listen: Sendable {
        var toolsListChanged: Bool
    }

    var era: Era = .undecided
    var initialized = false
    /// Shared as it is with the context of every call (``SharedClientInfo``).
    var clientInfo: SharedClientInfo?
    var clientCapabilities = ClientCapabilities()
    var listens: [RequestID: Listen] = [:]
    let notify: (@Sendable (JSONRPCMessage) async -> Void)?

    init(notify: (@Sendable (JSONRPCMessage) async -> Void)?) {
        self.notify = notify
    }

}
