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
    package static func exchanger(
        for url: URL, configuration: HTTPTransportConfiguration, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> any HTTPExchanging {
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
            throw TransportError.invalidConfiguration(
                "an MCP endpoint must be an http:// or https:// URL with a host, not \(url.absoluteString)")
        }
        guard configuration.maximumMessageBytes > 0, configuration.maximumEventBytes > 0, configuration.idleTimeout > .zero,
            configuration.maximumQueuedMessages > 0, configuration.maximumQueuedBytes > 0
        else {
            throw TransportError.invalidConfiguration("the HTTP transport's limits and idle timeout must be positive")
        }
        if scheme == "http", !configuration.allowsInsecureCredentials, !HTTPEngine.isLoopback(host: host) {
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
