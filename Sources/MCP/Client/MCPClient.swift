public import MCPCore
package import MCPPlatform

/// An MCP client: connects to a server, lists its tools and calls them.
///
/// ```swift
/// // A server in the same process (the iOS path): no transport, no encoding.
/// let client = try await MCPClient.connect(to: server)
/// // Any MCP server in its own process, over stdio (macOS, Linux).
/// let time = try await MCPClient.connect(to: .process("mcp-server-time"))
///
/// for tool in try await time.listTools() { print(tool.name) }
/// let result = try await time.callTool(name: "get_current_time", arguments: ["timezone": "Europe/Lisbon"])
/// ```
///
/// ## Lifetime
///
/// ``withConnection(to:configuration:_:)-(ServerEndpoint,_,_)`` connects, runs your code and
/// closes the connection (ending a child process) before it returns. A client made with
/// `connect` is closed with ``close()``; one dropped without it is shut down by its `deinit`
/// (without waiting), so nothing it owns outlives it.
///
/// ## Errors
///
/// A call throws the server's ``MCPCore/JSONRPCError`` when the server answers with one
/// (an unknown tool is `-32602`), ``MCPClientError`` for failures on this side (the
/// connection ended, a timeout, a reply that cannot be read, a request too large to send
/// or impossible to encode), and `CancellationError` when the calling task is cancelled. A
/// tool that fails returns normally, with ``MCPCore/CallToolResult/isError`` set. A transport
/// that can fail one message while the connection goes on (HTTP) throws its own
/// ``TransportMessageError`` for it, which the caller gets as it is. When the
/// connection ends, every call in flight fails at once, saying why when it can (a child
/// process's exit status and the end of its standard error).
///
/// ## Timeouts and cancellation
///
/// Every request has a timeout (``Configuration/requestTimeout``, 60 s by default,
/// overridable per call), which fires at its deadline whatever the server (or, in process,
/// the tool) does. When it expires, or when the calling task is cancelled, the client sends
/// `notifications/cancelled` so the server stops the work. A call can also limit the size of
/// its result (`maximumResultBytes`), which over stdio is enforced while the reply is read.
///
/// ## Roots
///
/// With ``Configuration/roots`` the client tells the server which directories it may work in
/// (MCP roots) and answers when the server asks; ``setRoots(_:)`` changes them.
public actor MCPClient {
    /// Options for a connection.
    public struct Configuration: Sendable {
        /// The client's name and version, sent to the server.
        public var clientInfo: Implementation
        /// How to agree on a protocol version.
        public var handshake: Handshake
        /// The capabilities this client declares.
        public var capabilities: ClientCapabilities
        /// How long a request may take before it is cancelled; `nil` waits forever.
        public var requestTimeout: Duration?
        /// How long the `auto` handshake waits for an answer to `server/discover`
        /// before falling back to `initialize`.
        public var discoverTimeout: Duration
        /// The directories the app lets the server work in (MCP roots); `nil` (the default)
        /// declares no `roots` capability.
        ///
        /// With roots (even none: `[]`), the client declares the `roots` capability and
        /// answers the server's `roots/list` with them; ``MCPClient/setRoots(_:)`` changes
        /// them later. In the handshake era the server asks with a `roots/list` request
        /// (and hears of changes through `notifications/roots/list_changed`); in the
        /// 2026-07-28 era, which has no server-to-client requests, a tool call asks for them
        /// in an `input_required` result and the client retries the call with the answer.
        public var roots: [Root]?
        /// The clock the client's timeouts are measured on: the requests' deadlines, the
        /// `auto` handshake's discover deadline and the wait for `subscriptions/listen` to be
        /// acknowledged. The continuous clock by default; a test sets a ``ManualClock``
        /// (`DeadlineClock(manualClock)`) and advances it instead of waiting for real time.
        /// Package-visible only: nothing outside the package needs another clock.
        package var clock: DeadlineClock = .continuous

        public init(
            clientInfo: Implementation = Implementation(name: "ondevice-mcp-client", version: OnDeviceMCPVersion.string),
            handshake: Handshake = .auto, capabilities: ClientCapabilities = ClientCapabilities(),
            requestTimeout: Duration? = .seconds(60), discoverTimeout: Duration = .seconds(10), roots: [Root]? = nil
        ) {
            self.clientInfo = clientInfo
            self.handshake = handshake
            self.capabilities = capabilities
            self.requestTimeout = requestTimeout
            self.discoverTimeout = discoverTimeout
            self.roots = roots
        }

        /// ``capabilities`` with `roots` added when ``roots`` is set (with `listChanged` in the
        /// handshake era, whose notification 2026-07-28 removed).
        func declaredCapabilities(modern: Bool) -> ClientCapabilities {
            guard roots != nil else { return capabilities }
            var declared = capabilities
            declared.json["roots"] = modern ? .object([:]) : ["listChanged": true]
            return declared
        }
    }

    /// How a client agrees on a protocol version with a server.
    public struct Handshake: Hashable, Sendable, CustomStringConvertible {
        enum Mode: Hashable, Sendable {
            case auto
            case version(ProtocolVersion)
        }

        let mode: Mode

        /// Probe with `server/discover` and use 2026-07-28 if the server speaks it; otherwise
        /// fall back to the `initialize` handshake (the spec's stdio back-compatibility rule).
        public static let auto = Handshake(mode: .auto)

        /// Use this version: a handshake version is negotiated with `initialize`, a modern one
        /// is sent in every request's envelope.
        public static func version(_ version: ProtocolVersion) -> Handshake {
            Handshake(mode: .version(version))
        }

        public var description: String {
            switch mode {
            case .auto: "auto"
            case .version(let version): version.rawValue
            }
        }
    }

    /// The server's name and version.
    public nonisolated let serverInfo: Implementation
    /// The protocol version in use.
    public nonisolated let protocolVersion: ProtocolVersion
    /// What the server offers.
    public nonisolated let serverCapabilities: ServerCapabilities
    /// The server's instructions, if it gave any.
    public nonisolated let instructions: String?
    /// The options this client was connected with.
    public nonisolated let configuration: Configuration
    /// Whether the server is an ``MCPServer`` in this process, reached directly with
    /// ``connect(to:configuration:)-(MCPServer,_)``; `false` for a client connected over any
    /// transport, even one whose other end is in this process.
    public nonisolated var isInProcess: Bool { channel is DirectChannel }

    let channel: any ClientChannel
    /// The notification streams and the `subscriptions/listen` acknowledgement.
    let streams: NotificationStreams
    /// Answers the server's requests, and holds the roots.
    let responder: ServerRequestResponder
    /// The 2026-07-28 envelope every request carries (empty in the handshake era), made once.
    nonisolated let envelope: JSONObject
    private var closed = false

    init(
        channel: any ClientChannel, streams: NotificationStreams, responder: ServerRequestResponder, agreement: Agreement,
        configuration: Configuration
    ) {
        self.channel = channel
        self.streams = streams
        self.responder = responder
        self.serverInfo = agreement.serverInfo
        self.protocolVersion = agreement.version
        self.serverCapabilities = agreement.capabilities
        self.instructions = agreement.instructions
        self.configuration = configuration
        self.envelope = agreement.version.isModern ? Agreement.envelope(version: agreement.version, configuration: configuration) : [:]
    }

    // MARK: Connecting

    /// Connects to a server in the same process; messages pass as values, unencoded.
    ///
    /// Notifications from the server (tool list changes, progress) reach ``notifications``.
    /// The default configuration is ``Configuration/inProcess``.
    public static func connect(to server: MCPServer, configuration: Configuration = .inProcess) async throws -> MCPClient {
        let streams = NotificationStreams()
        let responder = ServerRequestResponder(roots: configuration.roots)
        let channel = await DirectChannel.open(to: server, streams: streams, responder: responder, clock: configuration.clock)
        return try await establish(channel, streams: streams, responder: responder, configuration: configuration)
    }

    /// Connects over a transport the caller made (stdio, HTTP, or one of your own).
    ///
    /// For a server in the same process use ``connect(to:configuration:)-(MCPServer,_)``,
    /// which skips encoding altogether.
    public static func connect(over transport: any Transport, configuration: Configuration = Configuration()) async throws -> MCPClient {
        let streams = NotificationStreams()
        let responder = ServerRequestResponder(roots: configuration.roots)
        let channel = TransportChannel(transport: transport, streams: streams, responder: responder, clock: configuration.clock)
        channel.start()
        return try await establish(channel, streams: streams, responder: responder, configuration: configuration)
    }

    static func establish(
        _ channel: any ClientChannel, streams: NotificationStreams, responder: ServerRequestResponder, configuration: Configuration
    ) async throws -> MCPClient {
        do {
            let agreement = try await Agreement.reach(over: channel, configuration: configuration)
            let client = MCPClient(
                channel: channel, streams: streams, responder: responder, agreement: agreement, configuration: configuration)
            if await client.startListening() {
                // Return once changes will be heard, or at the discover deadline: a server that
                // never acknowledges leaves the client without tool list notifications, nothing worse.
                _ = try? await withDeadline(
                    after: configuration.discoverTimeout, clock: configuration.clock,
                    timeout: { MCPClientError.timedOut("subscriptions/listen was not acknowledged") }
                ) {
                    await streams.waitForAcknowledgement()
                }
                try Task.checkCancellation()
            }
            return client
        } catch {
            await channel.close()
            throw error
        }
    }

    /// Connects to a server, runs `body` with the client, and closes the connection when
    /// `body` returns or throws (or the task is cancelled): the scoped way to use a server.
    ///
    /// ```swift
    /// let time = try await MCPClient.withConnection(to: .process("mcp-server-time")) { client in
    ///     try await client.callTool(name: "get_current_time", arguments: ["timezone": "Europe/Lisbon"])
    /// }
    /// ```
    ///
    /// The connection, its threads and (for ``ServerEndpoint/process(_:arguments:environment:currentDirectory:standardError:)``)
    /// the child process end before this function returns.
    public static func withConnection<Result: Sendable>(
        to endpoint: ServerEndpoint, configuration: Configuration = Configuration(),
        _ body: (MCPClient) async throws -> Result
    ) async throws -> Result {
        try await using(try await connect(to: endpoint, configuration: configuration), body)
    }

    /// Connects to a server in the same process, runs `body` with the client, and closes the
    /// connection when `body` returns or throws.
    public static func withConnection<Result: Sendable>(
        to server: MCPServer, configuration: Configuration = .inProcess,
        _ body: (MCPClient) async throws -> Result
    ) async throws -> Result {
        try await using(try await connect(to: server, configuration: configuration), body)
    }

    /// Runs `body` with `client`, then closes it, whether `body` returns or throws.
    private static func using<Result: Sendable>(
        _ client: MCPClient, _ body: (MCPClient) async throws -> Result
    ) async throws -> Result {
        let result: Result
        do {
            result = try await body(client)
        } catch {
            await client.close()
            throw error
        }
        await client.close()
        return result
    }

    /// The safety net for a client dropped without ``close()``: the connection is shut down
    /// without waiting (its reader and deadline tasks are cancelled, the transport is closed —
    /// a child process gets the stdio shutdown sequence — and in-process state is released).
    /// Prefer ``withConnection(to:configuration:_:)-(ServerEndpoint,_,_)`` or ``close()``,
    /// which also wait for it.
    deinit {
        listener?.cancel()
        if !closed { channel.abandon() }
    }

    // MARK: Requests

    /// Lists every tool the server offers, following every page.
    ///
    /// The result is a collection of the valid tools, in the server's order; entries that are
    /// not valid tools are left out (one malformed definition does not spoil the rest) and
    /// ``ToolListing/skipped`` says which and why.
    ///
    /// - Throws: ``MCPClientError/invalidResponse`` when the server repeats a cursor or sends
    ///   a page that is not a `tools/list` result, the server's ``MCPCore/JSONRPCError``, or
    ///   `CancellationError`.
    public nonisolated func listTools(timeout: Duration? = nil) async throws -> ToolListing {
        var listing = ToolListing()
        var cursor: String?
        var seenCursors: Set<String> = []
        repeat {
            let page = try await listTools(cursor: cursor, timeout: timeout)
            listing.tools.append(contentsOf: page.tools)
            listing.skipped.append(contentsOf: page.skipped)
            cursor = page.nextCursor
            if let cursor, !seenCursors.insert(cursor).inserted {
                throw MCPClientError.invalidResponse("the server repeated the tools/list cursor \"\(cursor)\"")
            }
        } while cursor != nil
        return listing
    }

    /// Lists one page of tools.
    ///
    /// Pass `nil` for the first page, then each page's `nextCursor` until it is `nil`;
    /// ``listTools(timeout:)`` does this for you.
    ///
    /// - Returns: The page's tools, the cursor of the next page (`nil` after the last; an
    ///   empty string is a valid cursor), and the entries left out as not valid tools.
    public nonisolated func listTools(cursor: String?, timeout: Duration? = nil) async throws -> ListToolsResult {
        var params = JSONObject()
        if let cursor { params["cursor"] = .string(cursor) }
        let result = try await send(MCPMethod.toolsList, params: params, timeout: timeout)
        do {
            return try ListToolsResult(json: result)
        } catch {
            throw MCPClientError.invalidResponse("the tools/list result is not valid: \(error)")
        }
    }

    /// Calls a tool and returns its whole result.
    ///
    /// - Parameters:
    ///   - name: The tool's name, as listed.
    ///   - arguments: The arguments object.
    ///   - timeout: How long to wait; `nil` uses ``Configuration/requestTimeout``.
    ///   - maximumResultBytes: The largest result accepted, in bytes of compact JSON; `nil`
    ///     (the default) accepts any result the connection's frame limit lets through. Over
    ///     stdio the limit is enforced while the reply is read: the reading thread stops
    ///     keeping it as soon as it passes the limit (the id must be in the reply's first
    ///     4 KiB, as every MCP SDK writes it), so an oversized result never sits in memory
    ///     whole. In process, the result's size is estimated without encoding it.
    ///   - onProgress: Called with each progress report the server sends for this call.
    /// - Returns: The result; a tool that failed returns one with `isError` set.
    /// - Throws: The server's ``MCPCore/JSONRPCError`` (an unknown tool or malformed
    ///   arguments), ``MCPClientError`` (``MCPClientError/resultTooLarge`` for a result over
    ///   `maximumResultBytes`), or `CancellationError`.
    public nonisolated func callTool(
        name: String, arguments: JSONObject = [:], timeout: Duration? = nil, maximumResultBytes: Int? = nil,
        onProgress: (@Sendable (ProgressNotification) -> Void)? = nil
    ) async throws -> CallToolResult {
        let params: JSONObject = ["name": .string(name), "arguments": .object(arguments)]
        let result = try await send(
            MCPMethod.toolsCall, params: params, timeout: timeout, progress: onProgress, resultLimit: maximumResultBytes)
        do {
            return try CallToolResult(json: result)
        } catch {
            throw MCPClientError.invalidResponse("the result of \(name) is not a tool result: \(error)")
        }
    }

    /// Checks that the server answers (handshake-era connections; a 2026-07-28 server has
    /// no `ping`, so this sends `server/discover` instead).
    public nonisolated func ping(timeout: Duration? = nil) async throws {
        if protocolVersion.isModern {
            _ = try await send(MCPMethod.serverDiscover, params: [:], timeout: timeout)
        } else {
            _ = try await send(MCPMethod.ping, params: nil, timeout: timeout)
        }
    }

    /// A new stream of the server's notifications: tool list changes, progress, and others.
    ///
    /// Each access makes a stream of its own, so any number of consumers can listen at once;
    /// a stream receives what arrives after it was made, keeps at most the newest 1,024
    /// notifications its consumer has not read yet, and finishes when the connection ends
    /// (or at once, when it already has). On a 2026-07-28 connection the client opens a
    /// `subscriptions/listen` stream for tool list changes when the server announces them.
    public nonisolated var notifications: AsyncStream<ServerNotification> { streams.subscribe() }

    /// The roots the client gives the server (``Configuration/roots``, as last changed by
    /// ``setRoots(_:)``); `nil` when it offers none.
    public nonisolated var roots: [Root]? { responder.roots }

    /// Changes the roots the client gives the server.
    ///
    /// In the handshake era, a client that declared roots (``Configuration/roots`` not
    /// `nil`) sends `notifications/roots/list_changed` so the server asks again. The
    /// 2026-07-28 era has no such notification (the server asks for the roots with each call
    /// that needs them, and gets the new ones). A client connected without roots keeps the
    /// new list but the server was never told that it has roots, so it does not ask.
    ///
    /// - Throws: ``MCPClientError`` when the notification cannot be sent.
    public func setRoots(_ roots: [Root]) async throws {
        responder.setRoots(roots)
        guard configuration.roots != nil, !protocolVersion.isModern else { return }
        try await channel.notify(JSONRPCNotification(method: MCPMethod.rootsListChanged))
    }

    /// Closes the connection. Calls in flight fail with ``MCPClientError/connectionClosed``.
    public func close() async {
        guard !closed else { return }
        closed = true
        listener?.cancel()
        await listener?.value
        await channel.close()
    }

    // MARK: Internals

    private var listener: Task<Void, Never>?

    /// On a 2026-07-28 connection, opens the `subscriptions/listen` stream for tool list
    /// changes; returns whether it did.
    private func startListening() -> Bool {
        guard protocolVersion.isModern, serverCapabilities.toolsListChanged else { return false }
        let channel = channel
        let envelope = Agreement.envelope(version: protocolVersion, configuration: configuration)
        listener = Task {
            var params: JSONObject = ["notifications": ["toolsListChanged": true]]
            params["_meta"] = .object(envelope)
            // Stays open until close() cancels it; its end (or failure) needs no handling.
            _ = try? await channel.request(MCPMethod.subscriptionsListen, params: .object(params), progress: nil, timeout: nil)
        }
        return true
    }

    /// Sends a request with the era's envelope and the timeout rule.
    nonisolated func send(
        _ method: String, params: JSONObject?, timeout: Duration?, progress: ProgressHandler? = nil,
        resultLimit: Int? = nil
    ) async throws -> JSONValue {
        var params = params
        if protocolVersion.isModern {
            var object = params ?? JSONObject()
            var meta = object["_meta"]?.objectValue ?? JSONObject()
            for (key, value) in envelope {
                meta[key] = value
            }
            object["_meta"] = .object(meta)
            params = object
        }
        let timeout = timeout ?? configuration.requestTimeout
        let value = params.map { JSONValue.object($0) }
        var result = try await channel.request(method, params: value, progress: progress, timeout: timeout, resultLimit: resultLimit)
        guard protocolVersion.isModern else { return result }
        // 2026-07-28: a server that needs input (the roots) asks in the result; the call is
        // then sent again, with a new id, carrying the answers.
        var rounds = 0
        while let retry = try responder.retry(of: value, answering: result, method: method) {
            rounds += 1
            guard rounds <= ServerRequestResponder.maximumInputRounds else {
                throw MCPClientError.invalidResponse(
                    "\(method) asked for input more than \(ServerRequestResponder.maximumInputRounds) times")
            }
            result = try await channel.request(method, params: retry, progress: progress, timeout: timeout, resultLimit: resultLimit)
        }
        return try Self.unstamped(result, method: method)
    }

    /// A result without the 2026-07-28 era's stamps (`resultType`, `_meta.serverInfo`),
    /// which describe the reply, not its content.
    ///
    /// - Throws: ``MCPClientError/invalidResponse`` for a `resultType` other than
    ///   `complete` (an `input_required` result this client can answer was answered before).
    static func unstamped(_ result: JSONValue, method: String) throws -> JSONValue {
        guard case .object(var object) = result else { return result }
        if let type = object.removeValue(forKey: "resultType"), type != "complete" {
            throw MCPClientError.invalidResponse("\(method) answered with resultType \(type), which this client does not support")
        }
        if case .object(var meta)? = object["_meta"], meta.removeValue(forKey: MCPMetaKey.serverInfo) != nil {
            object["_meta"] = meta.isEmpty ? nil : .object(meta)
        }
        return .object(object)
    }
}

extension MCPClient.Configuration {
    /// The fastest path to a server in the same process: the 2025-11-25 handshake (the
    /// 2026-07-28 per-request envelope buys nothing inside one process) and no timeout
    /// (cancel the calling task to stop a call).
    public static var inProcess: MCPClient.Configuration {
        MCPClient.Configuration(handshake: .version(.v2025_11_25), requestTimeout: nil)
    }
}
