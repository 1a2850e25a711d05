public import Foundation
package import HTTPClientCore
public import MCP
public import MCPCore
internal import MCPPlatform

/// MCP's Streamable HTTP transport, client side: each message is a POST to the server's
/// endpoint, and the server answers with JSON or an event stream.
///
/// ```swift
/// import MCP
/// import MCPHTTP
///
/// let client = try await MCPClient.connect(to: .http(URL(string: "https://example.com/mcp")!))
/// let result = try await client.callTool(name: "get_weather", arguments: ["city": "Lisbon"])
/// ```
///
/// It speaks every era ``MCP/MCPClient`` negotiates; the client picks the version and the
/// transport follows what it sees go by:
///
/// - **2026-07-28**: every request carries `MCP-Protocol-Version`, `Mcp-Method` and (for
///   `tools/call`, `prompts/get`, `resources/read`) `Mcp-Name`, taken from its `_meta`
///   envelope. There is no session. Cancelling a request closes its response stream (the
///   era's cancellation); `notifications/cancelled` is not posted.
/// - **2025-03-26 to 2025-11-25** (the `initialize` handshake): the session id of the
///   `initialize` response (`Mcp-Session-Id`) and the negotiated `MCP-Protocol-Version` go
///   with every later request. After `notifications/initialized` a GET stream carries what the
///   server sends on its own (tool list changes, its requests); it is reopened with
///   `Last-Event-ID` when it drops (with backoff, a few times in a row at most), and a POST's
///   event stream that ends or drops before its response is resumed the same way (a GET with
///   the id of the last complete event, from which the server replays what the client missed).
///   A `404` for a request that carried the session id means the session expired (or the server
///   restarted): the transport redoes the handshake itself — the client's own `initialize`
///   and `notifications/initialized`, replayed — and sends the message again, once.
///   ``close()`` ends the session with `DELETE`.
/// - **2024-11-05, HTTP+SSE**: when the first POST fails with `400`, `404` or `405` without
///   a modern JSON-RPC error, the transport GETs the URL as the spec's backward-compatibility
///   rule says; an `endpoint` event there switches it to the old transport (POSTs to that
///   endpoint, on the same origin; everything the server sends comes on that stream).
///
/// Every message the server sends, on any response or stream, goes to ``receive()`` in the
/// order it arrives. What waits there is bounded
/// (``HTTPTransportConfiguration/maximumQueuedMessages`` and
/// ``HTTPTransportConfiguration/maximumQueuedBytes``): when it is full, the transport stops
/// reading the response or stream that brought the next message until the app has taken some
/// (back-pressure); nothing is dropped.
///
/// ## Errors
///
/// `send(_:)` is the POST, so it throws the POST's failure: an ``HTTPTransportError`` for
/// what the server answered or failed to (``HTTPTransportError/httpStatus`` with the status
/// and the start of the body, ``HTTPTransportError/unauthorized`` with the challenge,
/// ``HTTPTransportError/unexpectedContentType`` for an HTML page, the size limits, the idle
/// timeout, a stream that ended before the response). For a request, `send` returns once its
/// response has been received (and handed to ``receive()``), so anything that goes wrong
/// while the response streams in fails that request, and ``MCP/MCPClient`` gives the caller
/// the error itself (``MCP/TransportMessageError``). A JSON-RPC error the server sends with
/// an error status (a `400` carrying `-32602`, say) is the server's answer, delivered as one.
/// A request cancelled by its caller (or timed out by the client) stops being read at once,
/// and `send` returns.
///
/// ## Lifetime
///
/// Every HTTP request belongs to the transport: ``close()`` ends the session, cancels every
/// request and stream in progress, waits for them and finishes ``receive()``. A transport
/// dropped without ``close()`` does the same in the background.
public final class HTTPClientTransport: Transport {
    let core: HTTPTransportCore

    /// A transport to the MCP endpoint at `url`.
    ///
    /// - Throws: ``MCP/TransportError/invalidConfiguration(_:)`` for a URL that is not `http`
    ///   or `https` with a host, or limits that are not positive;
    ///   ``HTTPTransportError/insecureCredentials`` when credentials are configured for plain
    ///   `http://` to another machine (see ``HTTPTransportConfiguration/allowsInsecureCredentials``).
    public convenience init(url: URL, configuration: HTTPTransportConfiguration = HTTPTransportConfiguration()) throws {
        try Self.validate(url: url, configuration: configuration)
        self.init(validated: url, configuration: configuration, exchanger: Self.exchanger(for: url, configuration: configuration))
    }

    /// What sends the requests: ``HTTPClientCore/HTTPEngine``'s choice for `url` (its own
    /// connections for plain `http://` off Apple platforms unless a proxy applies; URLSession
    /// otherwise), with room for one message or event at its limit, and a margin, to wait unread.
    package static func exchanger(for url: URL, configuration: HTTPTransportConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment) -> any HTTPExchanging {
        let waiting = max(configuration.maximumMessageBytes, configuration.maximumEventBytes) + (1 << 20)
        return HTTPEngine.exchanger(for: url, maximumWaitingBytes: waiting, environment: environment)
    }

    /// A transport that sends its requests with `exchanger` (tests).
    convenience init(url: URL, configuration: HTTPTransportConfiguration, exchanger: any HTTPExchanging) throws {
        try Self.validate(url: url, configuration: configuration)
        self.init(validated: url, configuration: configuration, exchanger: exchanger)
    }

    private init(validated url: URL, configuration: HTTPTransportConfiguration, exchanger: any HTTPExchanging) {
        core = HTTPTransportCore(url: url, configuration: configuration, exchanger: TransportExchanger(exchanger))
    }

    deinit {
        core.abandon()
    }

    /// Sends a message: a POST, which returns once the server accepted it (`202`) or, for a
    /// request, once its response has arrived and gone to ``receive()``.
    ///
    /// - Throws: ``HTTPTransportError`` for a POST that failed (the connection goes on),
    ///   ``MCP/TransportError/closed`` once the transport is closed,
    ///   ``MCP/TransportError/encodingFailure(_:)`` for a message that cannot be encoded.
    public func send(_ message: JSONRPCMessage) async throws {
        try await core.send(message)
    }

    /// Every message the server sends, in the order it arrives. Call once.
    ///
    /// Finishes at ``close()`` (after the messages already received); over the 2024-11-05
    /// HTTP+SSE transport it throws when the server's event stream ends. Messages not yet taken
    /// are bounded by ``HTTPTransportConfiguration/maximumQueuedMessages`` and
    /// ``HTTPTransportConfiguration/maximumQueuedBytes``: past them, reading waits for the
    /// consumer. A consumer whose task is cancelled ends the stream, and later messages are
    /// dropped.
    public func receive() -> AsyncThrowingStream<InboundMessage, any Error> {
        core.inbound
    }

    /// Ends the session (`DELETE`, in the handshake era; a `405` is fine), cancels every
    /// request and stream in progress, and finishes ``receive()``.
    public func close() async {
        await core.close()
    }

    /// The per-call result limits, which this transport enforces while it reads a POST's
    /// response: a JSON body stops being read at the limit, and so does an event stream's
    /// event (down to 64 KiB for the other events of that stream).
    public var resultLimits: ResultLimits? { core.resultLimits }

    /// Returns once fewer than ``HTTPTransportConfiguration/maximumQueuedMessages`` POSTs are
    /// in progress (each one holds its response until the inbound queue takes it), the
    /// transport is closed, or the calling task is cancelled.
    public func waitForOutboundRoom() async {
        await core.waitForOutboundRoom()
    }

    /// Why the inbound stream ended: the HTTP+SSE event stream that carried it, and the
    /// session the server had assigned; `nil` when it ended because it was closed.
    public func connectionEndReason() async -> String? {
        core.endReason
    }

    static func validate(url: URL, configuration: HTTPTransportConfiguration) throws {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw TransportError.invalidConfiguration("an MCP endpoint must be an http:// or https:// URL with a host, not \(url.absoluteString)")
        }
        guard configuration.maximumMessageBytes > 0, configuration.maximumEventBytes > 0, configuration.idleTimeout > .zero,
            configuration.maximumQueuedMessages > 0, configuration.maximumQueuedBytes > 0
        else {
            throw TransportError.invalidConfiguration("the HTTP transport's limits and idle timeout must be positive")
        }
        if scheme == "http", !configuration.allowsInsecureCredentials, !HTTPSessionState.isLoopback(host: host) {
            let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]
            let sendsCredentials =
                configuration.authorization != nil || configuration.headers.keys.contains { credentialHeaders.contains($0.lowercased()) }
            if sendsCredentials {
                throw HTTPTransportError.make(
                    .insecureCredentials,
                    "refusing to send credentials over plain http:// to \(host); use https://, or set allowsInsecureCredentials")
            }
        }
    }
}

extension ServerEndpoint {
    /// An MCP server reached over Streamable HTTP at `url` (falling back to the 2024-11-05
    /// HTTP+SSE transport when the server has only that).
    ///
    /// ```swift
    /// let client = try await MCPClient.connect(to: .http(URL(string: "http://127.0.0.1:8000/mcp")!))
    /// ```
    public static func http(_ url: URL, configuration: HTTPTransportConfiguration = HTTPTransportConfiguration()) -> ServerEndpoint {
        .transport { try HTTPClientTransport(url: url, configuration: configuration) }
    }
}

/// The transport's state and I/O, apart from the public object so that tasks can hold it
/// while the public object's `deinit` still runs when the app drops it.
final class HTTPTransportCore: Sendable {
    let configuration: HTTPTransportConfiguration
    let exchanger: any HTTPExchanging
    let inbound: AsyncThrowingStream<InboundMessage, any Error>
    /// What ``inbound`` hands out: the messages received and not yet taken, bounded in count
    /// and bytes; a reading task waits there for room (and reads no further meanwhile).
    let inboundQueue: InboundQueue

    /// What the transport's tasks share: the session's state machine and the tasks' bookkeeping.
    private struct Shared {
        var state: HTTPSessionState
        var closed = false
        /// Every task the transport started and has not seen end, by key.
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextTaskKey = 0
        /// The POSTs of requests in progress, to stop reading them when the request is cancelled.
        var inFlight: [RequestID: Exchange] = [:]
        /// The handshake being redone, which requests wait for.
        var renewal: Task<Result<Void, HTTPTransportError>, Never>?
        var renewals = 0
        /// The key of the GET stream's task.
        var standaloneStream: Int?
        /// How many POSTs of ``send(_:)`` are in progress.
        var posts = 0
        /// The callers of ``waitForOutboundRoom()`` waiting for fewer POSTs, by key.
        var roomWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextRoomWaiter = 0
        /// Why the inbound stream ended, once it has (not by ``close()``).
        var endReason: String?

        /// The waiters to resume now that a POST ended or the transport closed.
        mutating func takeRoomWaiters(limit: Int) -> [CheckedContinuation<Void, Never>] {
            guard closed || posts < limit else { return [] }
            defer { roomWaiters = [:] }
            return Array(roomWaiters.values)
        }
    }

    private let locked: LockedValue<Shared>
    /// The per-call result limits a client registers (see ``HTTPClientTransport/resultLimits``).
    let resultLimits = ResultLimits()

    init(url: URL, configuration: HTTPTransportConfiguration, exchanger: any HTTPExchanging) {
        self.configuration = configuration
        self.exchanger = exchanger
        locked = LockedValue(Shared(state: HTTPSessionState(endpoint: url)))
        let queue = InboundQueue(capacity: configuration.maximumQueuedMessages, byteLimit: configuration.maximumQueuedBytes)
        inboundQueue = queue
        inbound = AsyncThrowingStream(unfolding: { try await queue.next() })
    }

    /// One POST of a request, which a cancellation can stop.
    final class Exchange: Sendable {
        private let state = LockedValue((task: Task<Void, Never>?.none, abandoned: false))

        func attach(_ task: Task<Void, Never>) {
            let cancel = state.withLock { state in
                state.task = task
                return state.abandoned
            }
            if cancel { task.cancel() }
        }

        /// Stops the POST: its request was cancelled or timed out.
        func abandon() {
            let task = state.withLock { state in
                state.abandoned = true
                return state.task
            }
            task?.cancel()
        }

        var isAbandoned: Bool { state.withLock { $0.abandoned } }
    }

    var isClosed: Bool { locked.withLock { shared in shared.closed } }

    /// The session the server assigned, if any (for tests and diagnostics).
    var sessionID: String? { locked.withLock { shared in shared.state.sessionID } }

    // MARK: Sending

    func send(_ message: JSONRPCMessage) async throws {
        guard !isClosed else { throw TransportError.closed }
        let body: [UInt8]
        do {
            body = try message.encoded()
        } catch {
            throw TransportError.encodingFailure("the message cannot be encoded as JSON: \(error)")
        }
        if case .notification(let notification) = message, notification.method == MCPMethod.cancelled,
            let cancelled = try? CancelledNotification(params: notification.params)
        {
            // Stop reading the cancelled request's response. In 2026-07-28 that is the
            // cancellation itself; before it, the server is told with the notification.
            let (exchange, modern) = locked.withLock { shared in (shared.inFlight.removeValue(forKey: cancelled.requestID), shared.state.isModern) }
            exchange?.abandon()
            if modern { return }
        }
        let outcome = OneShot<Result<Void, any Error>>()
        let exchange = Exchange()
        let requestID = message.id.flatMap { id -> RequestID? in
            if case .request = message { return id }
            return nil
        }
        let started: Task<Void, Never>? = locked.withLock { shared in
            guard !shared.closed else { return nil }
            let outgoing = shared.state.prepare(message)
            if let requestID { shared.inFlight[requestID] = exchange }
            shared.posts += 1
            return startTask(in: &shared) { [self] in
                let result: Result<Void, any Error>
                do {
                    try await post(outgoing, body: body)
                    result = .success(())
                } catch {
                    if isClosed {
                        result = .failure(TransportError.closed)
                    } else if exchange.isAbandoned {
                        result = .success(())
                    } else {
                        result = .failure(error)
                    }
                }
                let room = locked.withLock { shared in
                    if let requestID, shared.inFlight[requestID] === exchange { shared.inFlight[requestID] = nil }
                    shared.posts -= 1
                    return shared.takeRoomWaiters(limit: configuration.maximumQueuedMessages)
                }
                for waiter in room { waiter.resume() }
                outcome.fulfill(result)
            }
        }
        guard let started else { throw TransportError.closed }
        exchange.attach(started)
        if requestID != nil {
            // A cancelled caller stops the POST; its request is over for this side.
            let result = await withTaskCancellationHandler {
                await outcome.wait()
            } onCancel: {
                exchange.abandon()
            }
            try result?.get()
        } else {
            // A notification's POST goes on even when its caller is cancelled (a
            // notifications/cancelled is sent from a cancelled task).
            try await outcome.wait()?.get()
        }
    }

    /// Returns once fewer than `maximumQueuedMessages` POSTs are in progress, the transport
    /// is closed, or the calling task is cancelled.
    func waitForOutboundRoom() async {
        let limit = configuration.maximumQueuedMessages
        let key: Int? = locked.withLock { shared in
            guard !shared.closed, shared.posts >= limit else { return nil }
            shared.nextRoomWaiter += 1
            return shared.nextRoomWaiter
        }
        guard let key else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let ready = locked.withLock { shared in
                    if shared.closed || shared.posts < limit || Task.isCancelled { return true }
                    shared.roomWaiters[key] = waiter
                    return false
                }
                if ready { waiter.resume() }
            }
        } onCancel: {
            let waiter = locked.withLock { $0.roomWaiters.removeValue(forKey: key) }
            waiter?.resume()
        }
    }

    /// Why the inbound stream ended, once it has (not by ``close()``).
    var endReason: String? { locked.withLock { $0.endReason } }

    /// Starts a task the transport owns (until it ends, or until ``close()`` cancels it);
    /// call with the lock held, on its value. `nil` once closed.
    private func startTask(in shared: inout Shared, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never>? {
        guard !shared.closed else { return nil }
        let key = shared.nextTaskKey
        shared.nextTaskKey += 1
        let task = Task { [self] in
            await body()
            _ = locked.withLock { shared in shared.tasks.removeValue(forKey: key) }
        }
        shared.tasks[key] = task
        return task
    }

    /// POSTs a message and reads what comes back, renewing an expired session and falling
    /// back to HTTP+SSE as needed.
    private func post(_ first: HTTPSessionState.Outgoing, body: [UInt8]) async throws {
        var outgoing = first
        var renewed = false
        var relisted = false
        var attempt = 0
        while true {
            attempt += 1
            if attempt > 1 || renewalInProgress {
                await waitForRenewal()
                outgoing = locked.withLock { shared in shared.state.outgoing(first.message, modernVersion: first.modernVersion) }
            }
            let request = try await request(method: "POST", url: outgoing.url, headers: outgoing.headers, body: body)
            let response = try await head(of: request)
            defer { response.close() }
            let verdict = locked.withLock { shared in shared.state.verdict(status: response.head.status, for: outgoing) }
            switch verdict {
            case .success:
                locked.withLock { shared in shared.state.succeeded(response.head, for: outgoing) }
                try await accept(response, for: outgoing)
                return
            case .unauthorized:
                let challenge = response.head.header("www-authenticate")
                throw HTTPTransportError.unauthorized(
                    challenge: challenge, resourceMetadata: challenge.flatMap(HTTPSessionState.resourceMetadata(inChallenge:)))
            case .sessionExpired(let session):
                guard !renewed else {
                    throw HTTPTransportError.make(
                        .sessionExpired, "the server answered 404 for the session again after a new handshake", status: 404)
                }
                renewed = true
                try await renewSession(expired: session)
            case .failure where (300..<400).contains(response.head.status):
                let target = response.head.header("location").map { " to \($0)" } ?? ""
                throw HTTPTransportError.httpStatus(
                    response.head.status, body: "the server redirects\(target); redirects are not followed (use the final URL)")
            case .failure:
                let status = response.head.status
                let prefix = try await readPrefix(of: response, limit: min(configuration.maximumMessageBytes, 64 << 10))
                var action = locked.withLock { shared in
                    shared.state.failureAction(status: status, body: prefix, contentType: response.head.mediaType, for: outgoing)
                }
                if action == .tryLegacySSE {
                    if try await fallBackToLegacySSE() { continue }
                    action = locked.withLock { shared in
                        shared.state.failureAction(status: status, body: prefix, contentType: response.head.mediaType, for: outgoing)
                    }
                }
                if case .deliver(let answer) = action, answer.error.code == .headerMismatch, !relisted,
                    outgoing.method == MCPMethod.toolsCall, outgoing.modernVersion != nil
                {
                    // The tool mirrors arguments into headers this side did not know of:
                    // list the tools (as the spec advises), then send the call again.
                    relisted = true
                    if try await learnToolHeaders(for: outgoing) { continue }
                }
                switch action {
                case .deliver(let answer), .refuseProbe(let answer):
                    try await deliver(.errorResponse(answer), bytes: prefix.count)
                    return
                case .fail(let error):
                    throw error
                case .tryLegacySSE:
                    throw HTTPTransportError.httpStatus(status, body: HTTPSessionState.excerpt(prefix))
                }
            }
        }
    }

    /// Reads a successful POST's response.
    private func accept(_ response: HTTPResponse, for outgoing: HTTPSessionState.Outgoing) async throws {
        let isLegacy = locked.withLock { shared in shared.state.isLegacySSE }
        guard let id = outgoing.requestID, let method = outgoing.method, !isLegacy else {
            // A notification or a response: 202 (or any 2xx) is all there is. Over HTTP+SSE the
            // answer to a request comes on the event stream.
            if outgoing.method == MCPMethod.initialized, !isLegacy { startStandaloneStream() }
            return
        }
        _ = try await readAnswer(response, to: Awaited(id: id, method: method, delivers: true), resumable: outgoing.modernVersion == nil)
    }

    /// Lists the tools (2026-07-28, with the call's envelope) to learn which arguments the
    /// called tool mirrors into headers; returns whether it mirrors any.
    private func learnToolHeaders(for call: HTTPSessionState.Outgoing) async throws -> Bool {
        guard case .request(let original) = call.message, let name = original.params?["name"]?.stringValue else { return false }
        var meta = original.params?["_meta"]?.objectValue ?? [:]
        meta[MCPMetaKey.progressToken] = nil
        var cursor: String?
        var pages = 0
        repeat {
            pages += 1
            var params: JSONObject = ["_meta": .object(meta)]
            if let cursor { params["cursor"] = .string(cursor) }
            let list = JSONRPCRequest(id: .string("ondevice-mcp-tool-headers-\(pages)"), method: MCPMethod.toolsList, params: .object(params))
            let outgoing = locked.withLock { shared in shared.state.outgoing(.request(list), modernVersion: call.modernVersion) }
            let httpRequest = try await request(
                method: "POST", url: outgoing.url, headers: outgoing.headers, body: try JSONRPCMessage.request(list).encoded())
            let response = try await head(of: httpRequest)
            defer { response.close() }
            guard (200..<300).contains(response.head.status) else { return false }
            let answer = try await readAnswer(response, to: Awaited(id: list.id, method: MCPMethod.toolsList, delivers: false), resumable: false)
            guard case .message(.response(let page)) = answer else { return false }
            locked.withLock { shared in shared.state.learnTools(from: page.result) }
            cursor = page.result["nextCursor"]?.stringValue
        } while cursor != nil && pages < 50
        return locked.withLock { shared in shared.state.parameterHeaders[name] != nil }
    }

    // MARK: Reading responses

    /// The request whose response is being read.
    struct Awaited: Sendable {
        var id: RequestID
        var method: String
        /// Whether the response goes to ``receive()`` (not for the transport's own requests).
        var delivers: Bool
    }

    /// Reads the response to a request: delivers every message in the order it came (the
    /// response too, when `awaited.delivers`) and returns the response. A POST event stream
    /// that ends early is resumed with `Last-Event-ID` when `resumable` (the handshake era) and
    /// the server gave event ids.
    @discardableResult
    private func readAnswer(_ response: HTTPResponse, to awaited: Awaited, resumable: Bool) async throws -> InboundMessage {
        let head = response.head
        let method = awaited.method
        switch head.mediaType {
        case "application/json":
            let callLimit = awaited.delivers ? resultLimits.limit(for: awaited.id) : nil
            let body: [UInt8]
            do {
                body = try await readBody(of: response, what: "the response to \(method)", callLimit: callLimit)
            } catch let over as OverCallLimit {
                return try await refuse(awaited, length: over.length, limit: over.limit)
            }
            var answer: InboundMessage?
            let messages = Self.messages(in: body)
            let bytes = body.count / max(1, messages.count)
            for message in messages {
                if answer == nil, Self.answers(message, awaited.id) {
                    let found = Self.identified(message, as: awaited.id)
                    answer = found
                    try await take(found, for: awaited, bytes: bytes, watch: nil)
                } else {
                    try await deliver(message, bytes: bytes, watch: nil)
                }
            }
            guard let answer else {
                throw HTTPTransportError.make(
                    .missingResponse, "the server's JSON response to \(method) does not answer it: \(HTTPSessionState.excerpt(body))",
                    status: head.status)
            }
            return answer
        case "text/event-stream":
            // With a limit on this call's result, no event of its stream may be longer than
            // the limit (or 64 KiB, for the stream's other events).
            let callLimit = awaited.delivers ? resultLimits.limit(for: awaited.id) : nil
            let eventLimit = callLimit.map { min(configuration.maximumEventBytes, max($0, 64 << 10)) } ?? configuration.maximumEventBytes
            var parser = SSEParser(maximumEventBytes: eventLimit)
            let longLived = method == MCPMethod.subscriptionsListen
            let read = try await readEvents(response.body, parser: &parser, answering: awaited, longLived: longLived)
            switch read {
            case .answer(let answer):
                return answer
            case .refused(let error):
                if let callLimit, eventLimit < configuration.maximumEventBytes, error == .eventTooLarge {
                    return try await refuse(awaited, length: nil, limit: callLimit)
                }
                throw error
            case .ended, .dropped:
                break
            }
            let midEvent = parser.finish()
            // Ended or dropped before the answer: resumed from the last complete event.
            if resumable, let lastEventID = parser.lastEventID {
                return try await resume(awaited, after: lastEventID, retry: parser.reconnectionTime)
            }
            if case .dropped(let error) = read { throw error }
            throw HTTPTransportError.make(
                .streamEnded,
                midEvent
                    ? "the server closed the event stream of \(method) in the middle of an event"
                    : "the server closed the event stream of \(method) before it sent the response", status: head.status)
        case "" where head.status == 202 || head.status == 204:
            throw HTTPTransportError.make(
                .missingResponse, "the server answered \(method) with HTTP \(head.status) and no response", status: head.status)
        default:
            let prefix = try await readPrefix(of: response, limit: 4096)
            throw HTTPTransportError.unexpectedContentType(
                head.header("content-type") ?? "none", status: head.status, body: HTTPSessionState.excerpt(prefix))
        }
    }

    /// How reading an event stream ended.
    private enum StreamOutcome: Sendable {
        /// The answer to the awaited request came (the stream is not read further).
        case answer(InboundMessage)
        /// The stream ended cleanly.
        case ended
        /// The connection dropped, or the exchanger cut the body: the stream is gone, but what
        /// was read of it stands (the parser has its last complete event id), so it can be
        /// resumed.
        case dropped(HTTPTransportError)
        /// The stream broke a limit of this side (an event or a message too large): it must not
        /// be read again as it is.
        case refused(HTTPTransportError)
    }

    /// Reads events from a stream, delivering each message, until the answer to `awaited`, the
    /// end of the stream, or its failure; `parser` is left as it was at that point (also when
    /// the stream failed), so that a stream can be resumed after its last complete event.
    ///
    /// - Throws: `CancellationError`, or ``HTTPTransportError/idleTimeout`` (not for a
    ///   `longLived` stream), which leave `parser` as it was.
    private func readEvents(
        _ body: HTTPBody, parser: inout SSEParser, answering awaited: Awaited?, longLived: Bool
    ) async throws -> StreamOutcome {
        let start = parser
        let read: EventsRead = try await watched(longLived ? nil : configuration.idleTimeout, "an event stream") { [self] watch in
            try await readEvents(body, from: start, answering: awaited, watch: watch)
        }
        parser = read.parser
        return read.outcome
    }

    /// What ``readEvents(_:parser:answering:longLived:)`` read: how it ended, and the parser's
    /// state at the end.
    private struct EventsRead: Sendable {
        var outcome: StreamOutcome
        var parser: SSEParser
    }

    private func readEvents(
        _ body: HTTPBody, from start: SSEParser, answering awaited: Awaited?, watch: IdleWatch
    ) async throws -> EventsRead {
        var parser = start
        var chunks = body.makeAsyncIterator()
        var events: [SSEEvent] = []
        while true {
            let chunk: Data
            do {
                guard let next = try await chunks.next() else { break }
                chunk = next
            } catch let error as HTTPTransportError {
                return EventsRead(outcome: .dropped(error), parser: parser)
            }
            watch.touch()
            events.removeAll(keepingCapacity: true)
            var tooLarge: SSEParser.EventTooLarge?
            do throws(SSEParser.EventTooLarge) {
                try parser.feed(chunk, into: &events)
            } catch {
                // The events completed before the oversized one are still delivered.
                tooLarge = error
            }
            for event in events where event.type == "message" {
                do {
                    if let answer = try await handleEvent(event, answering: awaited, watch: watch) {
                        return EventsRead(outcome: .answer(answer), parser: parser)
                    }
                } catch let error as HTTPTransportError {
                    return EventsRead(outcome: .refused(error), parser: parser)
                }
            }
            if let tooLarge {
                let error = HTTPTransportError.make(
                    .eventTooLarge, "a server-sent event is larger than the limit of \(tooLarge.limit) bytes; the stream was closed")
                return EventsRead(outcome: .refused(error), parser: parser)
            }
        }
        try Task.checkCancellation()
        return EventsRead(outcome: .ended, parser: parser)
    }

    /// Delivers the messages of a `message` event (waiting for room in the inbound queue,
    /// which `watch` does not count as the server's silence); returns the answer to `awaited`
    /// when the event holds it.
    private func handleEvent(_ event: SSEEvent, answering awaited: Awaited?, watch: IdleWatch?) async throws -> InboundMessage? {
        guard event.data.count <= configuration.maximumMessageBytes else {
            throw HTTPTransportError.make(
                .messageTooLarge, "a message of \(event.data.count) bytes is larger than the limit of \(configuration.maximumMessageBytes)")
        }
        // Empty data (a priming event) carries no message.
        guard event.data.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return nil }
        var answer: InboundMessage?
        let messages = Self.messages(in: event.data)
        let bytes = event.data.count / max(1, messages.count)
        for message in messages {
            if answer == nil, let awaited, Self.answers(message, awaited.id) {
                if awaited.delivers, let callLimit = resultLimits.limit(for: awaited.id), bytes > callLimit {
                    answer = try await refuse(awaited, length: bytes, limit: callLimit)
                    continue
                }
                let found = Self.identified(message, as: awaited.id)
                answer = found
                try await take(found, for: awaited, bytes: bytes, watch: watch)
            } else {
                try await deliver(message, bytes: bytes, watch: watch)
            }
        }
        return answer
    }

    /// Delivers a response when it is to be delivered, after learning from it what the
    /// transport needs (the headers a `tools/list` result's tools mirror).
    private func take(_ answer: InboundMessage, for awaited: Awaited, bytes: Int, watch: IdleWatch?) async throws {
        if awaited.method == MCPMethod.toolsList, case .message(.response(let list)) = answer {
            locked.withLock { shared in shared.state.learnTools(from: list.result) }
        }
        if awaited.delivers { try await deliver(answer, bytes: bytes, watch: watch) }
    }

    /// Resumes a POST's event stream that ended before its answer: GET with `Last-Event-ID`.
    private func resume(_ awaited: Awaited, after lastEventID: String, retry: Int?) async throws -> InboundMessage {
        let method = awaited.method
        var lastEventID = lastEventID
        var retry = retry
        var failures = 0
        while failures < configuration.maximumReconnectionAttempts {
            try await Task.sleep(for: reconnectionDelay(failures: failures, retry: retry))
            let headers = locked.withLock { shared in shared.state.streamHeaders(resumingAfter: lastEventID) }
            let request = try await request(method: "GET", url: locked.withLock { shared in shared.state.endpoint }, headers: headers, body: nil)
            let response: HTTPResponse
            do {
                response = try await head(of: request)
            } catch let error as HTTPTransportError where error == .network || error == .idleTimeout {
                failures += 1
                continue
            }
            defer { response.close() }
            guard (200..<300).contains(response.head.status), response.head.mediaType == "text/event-stream" else {
                throw HTTPTransportError.make(
                    .streamEnded,
                    "the event stream of \(method) ended before its response, and resuming it failed (HTTP \(response.head.status))",
                    status: response.head.status)
            }
            var parser = SSEParser(maximumEventBytes: configuration.maximumEventBytes)
            switch try await readEvents(response.body, parser: &parser, answering: awaited, longLived: false) {
            case .answer(let answer):
                return answer
            case .refused(let error):
                throw error
            case .ended, .dropped:
                // Resumed again, from what this stream brought.
                break
            }
            _ = parser.finish()
            if let newer = parser.lastEventID, newer != lastEventID {
                lastEventID = newer
                failures = 0
            } else {
                failures += 1
            }
            retry = parser.reconnectionTime ?? retry
        }
        throw HTTPTransportError.make(
            .streamEnded, "the event stream of \(method) ended before its response, and resuming it failed \(failures) times")
    }

    /// A response body passed its call's result limit (``ResultLimits``): it was not read further.
    private struct OverCallLimit: Error {
        var length: Int?
        var limit: Int
    }

    /// Delivers, as the answer to `awaited`, the report that its reply passed the call's
    /// result limit (the client tells its caller so); returns that report.
    private func refuse(_ awaited: Awaited, length: Int?, limit: Int) async throws -> InboundMessage {
        resultLimits.noteExceeded(awaited.id, limit: limit)
        let detail =
            length.map { "message of \($0) bytes is longer than the limit of \(limit) bytes for this call" }
            ?? "message is longer than the limit of \(limit) bytes for this call"
        let report = InboundMessage.invalid(InvalidMessage(id: nil, error: .invalidRequest(detail), apparentID: awaited.id))
        try await deliver(report, bytes: 0)
        return report
    }

    /// Reads a JSON body whole, up to the message limit.
    ///
    /// - Throws: ``OverCallLimit`` when the body passes `callLimit` (a limit on this call's
    ///   result smaller than the message limit): reading stops there.
    private func readBody(of response: HTTPResponse, what: String, callLimit: Int? = nil) async throws -> [UInt8] {
        let callLimit = callLimit.flatMap { $0 < configuration.maximumMessageBytes ? $0 : nil }
        let limit = callLimit ?? configuration.maximumMessageBytes
        let announced = response.head.header("content-length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let callLimit, let announced, announced > callLimit {
            throw OverCallLimit(length: announced, limit: callLimit)
        }
        if let length = announced, length > limit {
            throw HTTPTransportError.make(
                .messageTooLarge, "\(what) is \(length) bytes, larger than the limit of \(limit); it was not read",
                status: response.head.status)
        }
        return try await watched(configuration.idleTimeout, what) { watch in
            var bytes: [UInt8] = []
            for try await chunk in response.body {
                watch.touch()
                guard bytes.count + chunk.count <= limit else {
                    if let callLimit { throw OverCallLimit(length: nil, limit: callLimit) }
                    throw HTTPTransportError.make(
                        .messageTooLarge, "\(what) is larger than the limit of \(limit) bytes; reading stopped there",
                        status: response.head.status)
                }
                bytes.append(contentsOf: chunk)
            }
            try Task.checkCancellation()
            return bytes
        }
    }

    /// The first `limit` bytes of a body (for an error's excerpt); the rest is not read.
    private func readPrefix(of response: HTTPResponse, limit: Int) async throws -> [UInt8] {
        try await watched(configuration.idleTimeout, "an error response") { watch in
            var bytes: [UInt8] = []
            for try await chunk in response.body {
                watch.touch()
                bytes.append(contentsOf: chunk.prefix(limit - bytes.count))
                if bytes.count >= limit { break }
            }
            try Task.checkCancellation()
            return bytes
        }
    }

    /// Runs `body` under the idle timeout (none when `limit` is `nil`).
    private func watched<T: Sendable>(
        _ limit: Duration?, _ what: String, _ body: @escaping @Sendable (IdleWatch) async throws -> T
    ) async throws -> T {
        guard let limit else { return try await body(IdleWatch(limit: .seconds(1))) }
        return try await withIdleTimeout(
            limit, timeout: { HTTPTransportError.make(.idleTimeout, "the server sent nothing for \(limit) while sending \(what)") }, body)
    }

    /// Sends a request and waits for its response head, under the idle timeout.
    private func head(of request: HTTPRequest) async throws -> HTTPResponse {
        let exchanger = exchanger
        let limit = configuration.idleTimeout
        return try await withIdleTimeout(
            limit,
            timeout: { HTTPTransportError.make(.idleTimeout, "the server did not answer \(request) within \(limit)") }
        ) { _ in
            try await exchanger.exchange(request)
        }
    }

    /// A request with the MCP headers, the app's headers and the authorization.
    private func request(method: String, url: URL, headers: [(name: String, value: String)], body: [UInt8]?) async throws -> HTTPRequest {
        var all = headers
        let reserved = Self.transportHeaders.union(headers.map { $0.name.lowercased() })
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) where !reserved.contains(name.lowercased()) {
            all.append((name, value))
        }
        if let authorization = configuration.authorization {
            let value: String?
            do {
                value = try await authorization()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw HTTPTransportError.make(.authorizationFailed, "the app's authorization provider failed: \(error)")
            }
            if let value { all.append(("Authorization", value)) }
        } else if let value = configuration.headers.first(where: { $0.key.lowercased() == "authorization" })?.value {
            all.append(("Authorization", value))
        }
        return HTTPRequest(method: method, url: url, headers: all, body: body)
    }

    /// The headers the transport sets itself, which the app's ``HTTPTransportConfiguration/headers`` cannot replace.
    static let transportHeaders: Set<String> = [
        "accept", "content-type", "mcp-protocol-version", "mcp-session-id", "mcp-method", "mcp-name", "last-event-id",
        "authorization", "content-length", "host",
    ]

    // MARK: Delivering

    /// Hands a message that took `bytes` bytes on the wire to ``receive()``, waiting for room
    /// in the inbound queue (which `watch` does not count as the server's silence).
    ///
    /// - Throws: `CancellationError` when the reading task is cancelled while it waits.
    private func deliver(_ inbound: InboundMessage, bytes: Int, watch: IdleWatch? = nil) async throws {
        if case .message(let message) = inbound {
            locked.withLock { shared in shared.state.observe(message) }
        }
        try await inboundQueue.push(inbound, bytes: bytes, whileWaiting: watch)
    }

    private func deliver(_ message: JSONRPCMessage, bytes: Int, watch: IdleWatch? = nil) async throws {
        try await deliver(.message(message), bytes: bytes, watch: watch)
    }

    /// The messages in a body or an event: one, or a batch's elements; what is not a message
    /// comes as ``InboundMessage/invalid(_:)``.
    static func messages(in bytes: [UInt8]) -> [InboundMessage] {
        let message: JSONRPCMessage
        do throws(InvalidMessage) {
            message = try JSONRPCMessage(parsing: bytes)
        } catch {
            return [.invalid(error)]
        }
        guard case .batch(let elements) = message else { return [.message(message)] }
        return elements.map { element in
            do throws(InvalidMessage) {
                return .message(try JSONRPCMessage(element))
            } catch {
                return .invalid(error)
            }
        }
    }

    /// Whether a message is the answer to request `id` (an error with a `null` id counts:
    /// the server could not read the id of the one request it was sent).
    static func answers(_ inbound: InboundMessage, _ id: RequestID) -> Bool {
        switch inbound {
        case .message(.response(let response)): response.id == id
        case .message(.errorResponse(let response)): response.id == id || response.id == nil
        case .invalid(let invalid): invalid.apparentID == id
        default: false
        }
    }

    /// The answer with its id set to `id` (an error response with a `null` id).
    static func identified(_ inbound: InboundMessage, as id: RequestID) -> InboundMessage {
        if case .message(.errorResponse(var response)) = inbound, response.id == nil {
            response.id = id
            return .message(.errorResponse(response))
        }
        return inbound
    }

    // MARK: The session

    private var renewalInProgress: Bool { locked.withLock { shared in shared.renewal != nil } }

    private func waitForRenewal() async {
        guard let renewal = locked.withLock({ shared in shared.renewal }) else { return }
        _ = await renewal.value
    }

    /// Redoes the handshake after the session `expired` ended (once, whichever request saw it
    /// first; the others wait for it).
    private func renewSession(expired: String) async throws {
        let task: Task<Result<Void, HTTPTransportError>, Never>? = locked.withLock { shared in
            if let renewal = shared.renewal { return renewal }
            guard shared.state.beginRenewal(expired: expired), !shared.closed else { return nil }
            shared.renewals += 1
            let number = shared.renewals
            let stream = shared.standaloneStream.flatMap { shared.tasks[$0] }
            shared.standaloneStream = nil
            let task = Task<Result<Void, HTTPTransportError>, Never> { [self] in
                stream?.cancel()
                let result: Result<Void, HTTPTransportError>
                do {
                    try await redoHandshake(number: number)
                    result = .success(())
                } catch let error as HTTPTransportError {
                    result = .failure(error)
                } catch {
                    result = .failure(
                        HTTPTransportError.make(.sessionExpired, "the session expired, and a new handshake failed: \(error)", status: 404))
                }
                locked.withLock { shared in shared.renewal = nil }
                return result
            }
            shared.renewal = task
            // Owned like every other task: close() cancels it.
            _ = startTask(in: &shared) {
                _ = await withTaskCancellationHandler {
                    await task.value
                } onCancel: {
                    task.cancel()
                }
            }
            return task
        }
        guard let task else { return }
        try await task.value.get()
    }

    /// Replays the client's `initialize` (its answer is kept from the client) and
    /// `notifications/initialized`, without the expired session id.
    private func redoHandshake(number: Int) async throws {
        guard let initialize = locked.withLock({ shared in shared.state.initializeRequest }) else {
            throw HTTPTransportError.make(.sessionExpired, "the server's session expired", status: 404)
        }
        let replay = JSONRPCRequest(id: .string("ondevice-mcp-session-renewal-\(number)"), method: initialize.method, params: initialize.params)
        let headers: [(name: String, value: String)] = [
            ("Accept", "application/json, text/event-stream"), ("Content-Type", "application/json"),
        ]
        let body = try JSONRPCMessage.request(replay).encoded()
        let request = try await request(method: "POST", url: locked.withLock { shared in shared.state.endpoint }, headers: headers, body: body)
        let response = try await head(of: request)
        defer { response.close() }
        guard (200..<300).contains(response.head.status) else {
            let prefix = try await readPrefix(of: response, limit: 4096)
            throw HTTPTransportError.make(
                .sessionExpired,
                "the server's session expired, and a new initialize failed with HTTP \(response.head.status): \(HTTPSessionState.excerpt(prefix))",
                status: response.head.status)
        }
        let session = response.head.header("mcp-session-id").flatMap(HTTPSessionState.validSessionID)
        let answer = try await readAnswer(response, to: Awaited(id: replay.id, method: MCPMethod.initialize, delivers: false), resumable: false)
        guard case .message(.response(let result)) = answer else {
            throw HTTPTransportError.make(.sessionExpired, "the server's session expired, and it refused a new initialize: \(answer)")
        }
        let notification = locked.withLock { shared in
            shared.state.renewed(sessionID: session, version: result.result["protocolVersion"]?.stringValue)
            return shared.state.initializedNotification
        }
        guard let notification else { return }
        let outgoing = locked.withLock { shared in shared.state.outgoing(.notification(notification), modernVersion: nil) }
        let notice = try await self.request(
            method: "POST", url: outgoing.url, headers: outgoing.headers, body: try JSONRPCMessage.notification(notification).encoded())
        let noticeResponse = try await head(of: notice)
        noticeResponse.close()
        guard (200..<300).contains(noticeResponse.head.status) else {
            throw HTTPTransportError.make(
                .sessionExpired, "the server's session expired, and it refused notifications/initialized after a new initialize",
                status: noticeResponse.head.status)
        }
        startStandaloneStream()
    }

    // MARK: The GET stream

    /// Opens the standalone GET stream (handshake era) unless it is open.
    private func startStandaloneStream() {
        locked.withLock { shared in
            guard shared.standaloneStream == nil, !shared.closed, !shared.state.isLegacySSE, !shared.state.isModern else { return }
            // startTask gives the task this key.
            let key = shared.nextTaskKey
            if startTask(in: &shared, { [self] in await runStandaloneStream(key: key) }) != nil {
                shared.standaloneStream = key
            }
        }
    }

    /// Keeps the GET stream open: reopens it with `Last-Event-ID` when it drops, waiting
    /// longer after each failure, and gives up after a few failures in a row, or when the
    /// server has none (`405`) or the session is gone.
    private func runStandaloneStream(key: Int) async {
        var failures = 0
        var retry: Int?
        defer {
            locked.withLock { shared in
                if shared.standaloneStream == key { shared.standaloneStream = nil }
            }
        }
        while !Task.isCancelled, failures < configuration.maximumReconnectionAttempts {
            let (headers, url) = locked.withLock { shared in (shared.state.streamHeaders(resumingAfter: shared.state.standaloneLastEventID), shared.state.endpoint) }
            do {
                let request = try await request(method: "GET", url: url, headers: headers, body: nil)
                let response = try await head(of: request)
                defer { response.close() }
                let status = response.head.status
                if (200..<300).contains(status), response.head.mediaType == "text/event-stream" {
                    var parser = SSEParser(maximumEventBytes: configuration.maximumEventBytes)
                    var broke = false
                    do {
                        // A stream that drops or breaks a limit is reopened after its last
                        // complete event: what came before it was delivered.
                        switch try await readEvents(response.body, parser: &parser, answering: nil, longLived: true) {
                        case .answer, .ended: break
                        case .dropped, .refused: broke = true
                        }
                    } catch is CancellationError {
                        return
                    } catch {
                        broke = true
                    }
                    _ = parser.finish()
                    let lastEventID = parser.lastEventID
                    let previous = locked.withLock { shared in
                        let previous = shared.state.standaloneLastEventID
                        if let lastEventID { shared.state.standaloneLastEventID = lastEventID }
                        return previous
                    }
                    // A stream that brought something new was a success; one that broke, or
                    // ended with nothing new, counts toward giving up.
                    if !broke, parser.dispatchedEvents > 0 || lastEventID != previous {
                        failures = 0
                    } else {
                        failures += 1
                    }
                    retry = parser.reconnectionTime ?? retry
                } else if [401, 403, 404, 405].contains(status) || (200..<300).contains(status) {
                    // No stream here (405), the session is gone (a POST will renew it), or no
                    // credentials: nothing to retry.
                    return
                } else {
                    failures += 1
                }
            } catch is CancellationError {
                return
            } catch {
                failures += 1
            }
            do {
                try await Task.sleep(for: reconnectionDelay(failures: failures, retry: retry))
            } catch {
                return
            }
        }
    }

    /// How long to wait before reopening a stream: the server's `retry` when it gave one,
    /// else the configured delay doubled per failure, at most the maximum.
    private func reconnectionDelay(failures: Int, retry: Int?) -> Duration {
        if let retry { return min(.milliseconds(retry), configuration.maximumReconnectionDelay) }
        var delay = configuration.reconnectionDelay
        for _ in 0..<max(0, failures - 1) where delay < configuration.maximumReconnectionDelay {
            delay *= 2
        }
        return min(delay, configuration.maximumReconnectionDelay)
    }

    // MARK: HTTP+SSE (2024-11-05)

    /// GETs the endpoint as an HTTP+SSE server's event stream; returns `true` when its
    /// `endpoint` event came (the transport now speaks HTTP+SSE), `false` when it is not one.
    private func fallBackToLegacySSE() async throws -> Bool {
        let (allowed, url) = locked.withLock { shared in (shared.state.beginLegacyProbe(), shared.state.endpoint) }
        guard allowed else { return locked.withLock { shared in shared.state.isLegacySSE } }
        let request = try await request(method: "GET", url: url, headers: [("Accept", "text/event-stream")], body: nil)
        let response: HTTPResponse
        do {
            response = try await head(of: request)
        } catch let error as HTTPTransportError where error == .network {
            return false
        }
        guard (200..<300).contains(response.head.status), response.head.mediaType == "text/event-stream" else {
            response.close()
            return false
        }
        let endpoint = OneShot<Result<URL, HTTPTransportError>>()
        let reader: Task<Void, Never>? = locked.withLock { shared in
            startTask(in: &shared) { [self] in
                await readLegacyStream(response.body, endpoint: endpoint, base: url)
                response.close()
            }
        }
        guard reader != nil else {
            response.close()
            throw TransportError.closed
        }
        let limit = configuration.idleTimeout
        let found = try await withIdleTimeout(
            limit, timeout: { HTTPTransportError.make(.invalidEndpoint, "the HTTP+SSE server sent no endpoint event within \(limit)") }
        ) { _ in
            await endpoint.wait()
        }
        switch found {
        case .success(let postURL)?:
            locked.withLock { shared in shared.state.legacyProbeSucceeded(postURL: postURL) }
            return true
        case .failure(let error)?:
            reader?.cancel()
            throw error
        case nil:
            reader?.cancel()
            throw CancellationError()
        }
    }

    /// Reads the HTTP+SSE event stream: the `endpoint` event first, then messages. Its end
    /// ends the connection (``receive()`` throws).
    private func readLegacyStream(_ body: HTTPBody, endpoint: OneShot<Result<URL, HTTPTransportError>>, base: URL)
        async
    {
        var parser = SSEParser(maximumEventBytes: configuration.maximumEventBytes)
        var failure: any Error = HTTPTransportError.make(.streamEnded, "the HTTP+SSE server closed its event stream")
        do {
            for try await chunk in body {
                let events: [SSEEvent]
                do throws(SSEParser.EventTooLarge) {
                    events = try parser.feed(chunk)
                } catch {
                    throw HTTPTransportError.make(.eventTooLarge, "a server-sent event is larger than the limit of \(error.limit) bytes")
                }
                for event in events {
                    switch event.type {
                    case "endpoint":
                        guard let target = URL(string: event.text.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteURL,
                            target.scheme?.lowercased() == base.scheme?.lowercased(), target.host?.lowercased() == base.host?.lowercased(),
                            target.port == base.port
                        else {
                            let error = HTTPTransportError.make(
                                .invalidEndpoint, "the HTTP+SSE server's endpoint \"\(event.text)\" is not a URL on its own origin")
                            endpoint.fulfill(.failure(error))
                            throw error
                        }
                        endpoint.fulfill(.success(target))
                    case "message":
                        _ = try await handleEvent(event, answering: nil, watch: nil)
                    default:
                        continue
                    }
                }
            }
            try Task.checkCancellation()
        } catch is CancellationError {
            endpoint.fulfill(.failure(HTTPTransportError.make(.streamEnded, "the HTTP+SSE stream was closed")))
            return
        } catch {
            failure = error
        }
        endpoint.fulfill(.failure(HTTPTransportError.make(.invalidEndpoint, "the HTTP+SSE server's stream ended before its endpoint event")))
        let ended = locked.withLock { shared in
            guard !shared.closed else { return false }
            let session = shared.state.sessionID.map { " (session \($0))" } ?? ""
            shared.endReason = "the HTTP+SSE event stream from \(base.absoluteString)\(session) ended"
            return true
        }
        if ended { inboundQueue.finish(throwing: failure) }
    }

    // MARK: Closing

    /// Ends the session, cancels every task and finishes the inbound stream.
    func close() async {
        let (end, running, room): (HTTPRequest?, [Task<Void, Never>], [CheckedContinuation<Void, Never>]) = locked.withLock { shared in
            guard !shared.closed else { return (nil, [], []) }
            shared.closed = true
            let room = shared.takeRoomWaiters(limit: configuration.maximumQueuedMessages)
            let end = shared.state.sessionEnd()
            let running = Array(shared.tasks.values)
            return (end, running, room)
        }
        for waiter in room { waiter.resume() }
        for task in running { task.cancel() }
        for task in running { await task.value }
        if let end {
            // Best effort, bounded: the session ends on the server too.
            var request = end
            for (name, value) in configuration.headers where !Self.transportHeaders.contains(name.lowercased()) {
                request.headers.append((name, value))
            }
            if let authorization = configuration.authorization, let value = try? await authorization() {
                request.headers.append(("Authorization", value))
            }
            let exchanger = exchanger
            let deletion = request
            _ = try? await withIdleTimeout(configuration.closeTimeout, timeout: { CancellationError() }) { _ in
                let response = try await exchanger.exchange(deletion)
                defer { response.close() }
                for try await _ in response.body {}
            }
        }
        inboundQueue.finish(throwing: nil)
        exchanger.shutdown()
    }

    /// The safety net for a transport dropped without ``close()``: closes in the background.
    func abandon() {
        guard !isClosed else { return }
        Task { [self] in await close() }
    }
}
