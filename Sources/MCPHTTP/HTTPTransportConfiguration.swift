/// Options for an ``HTTPClientTransport``.
///
/// ```swift
/// var configuration = HTTPTransportConfiguration()
/// configuration.authorization = { "Bearer \(try await tokens.current())" }
/// let client = try await MCPClient.connect(to: .http(url, configuration: configuration))
/// ```
public struct HTTPTransportConfiguration: Sendable {
    /// Headers sent with every request (after the transport's own; the transport's MCP
    /// headers — `Accept`, `Content-Type`, `MCP-Protocol-Version`, `Mcp-Session-Id`,
    /// `Mcp-Method`, `Mcp-Name`, `Last-Event-ID` — cannot be replaced).
    public var headers: [String: String]
    /// The `Authorization` header's value, asked for before each request (so it can refresh
    /// a token); `nil`, or a closure returning `nil`, sends none. Throwing fails that request
    /// with ``HTTPTransportError/authorizationFailed`` (naming the error); nothing is sent.
    public var authorization: (@Sendable () async throws -> String?)?
    /// The largest JSON body, or message in an event stream, accepted, in bytes (default
    /// 4 MiB). A larger one fails its request with ``HTTPTransportError/messageTooLarge``,
    /// and reading stops at the limit: no more than that is ever held.
    public var maximumMessageBytes: Int
    /// The largest server-sent event accepted, in bytes, counting all of its lines (default
    /// 4 MiB); over it, ``HTTPTransportError/eventTooLarge``, with reading stopped at the limit.
    public var maximumEventBytes: Int
    /// How long the server may send nothing at all — no response headers, no bytes of a
    /// body, not even a keep-alive comment — before the request fails with
    /// ``HTTPTransportError/idleTimeout`` (default 60 s). Long-lived streams (the GET stream,
    /// `subscriptions/listen`) are exempt once their headers arrived: silence is what they
    /// do. The client's per-request timeout still applies on top.
    public var idleTimeout: Duration
    /// Whether credentials (``authorization``, or an `Authorization`, `Proxy-Authorization` or
    /// `Cookie` header in ``headers``) may go over plain `http://` to a host other than this
    /// machine (`localhost`, `127.0.0.0/8`, `::1`). Default `false`: such a transport is not
    /// created (``HTTPTransportError/insecureCredentials``).
    public var allowsInsecureCredentials: Bool
    /// The most messages that may wait for the app to take them from
    /// ``HTTPClientTransport/receive()`` (default 4,096); see ``maximumQueuedBytes`` too.
    ///
    /// When either bound is reached, the task reading the response or stream that brought the
    /// next message waits with it, reading no further, until the app has taken half of what
    /// waits: a server that sends faster than the app reads is slowed down (back-pressure)
    /// instead of buffered without bound, and no message is dropped. A request's `send`
    /// returns once its response is queued, so it waits too. ``MCP/MCPClient`` takes messages
    /// as they come. (URLSession still receives what the server sends meanwhile, up to about a
    /// message's limit per response, then cuts that response: a stream with event ids is then
    /// resumed from the last message read; otherwise its request fails with
    /// ``HTTPTransportError/messageTooLarge``.)
    public var maximumQueuedMessages: Int
    /// The most bytes of messages (as they came on the wire) that may wait for the app to take
    /// them from ``HTTPClientTransport/receive()`` (default 32 MiB); past it, reading waits as
    /// for ``maximumQueuedMessages``. One message always gets through, whatever its size (up to
    /// ``maximumMessageBytes``).
    public var maximumQueuedBytes: Int

    /// How many times in a row the transport tries to reopen a dropped GET stream (or to
    /// resume a POST's event stream) before it gives up.
    var maximumReconnectionAttempts = 5
    /// The first wait before reopening a stream, when the server did not say (`retry`);
    /// doubled after each failure, up to ``maximumReconnectionDelay``.
    var reconnectionDelay: Duration = .seconds(1)
    var maximumReconnectionDelay: Duration = .seconds(30)
    /// How long ``HTTPClientTransport/close()`` waits for the server to answer its `DELETE`.
    var closeTimeout: Duration = .seconds(5)

    /// Creates a configuration; every parameter has a default.
    public init(
        headers: [String: String] = [:], authorization: (@Sendable () async throws -> String?)? = nil,
        maximumMessageBytes: Int = 4 << 20, maximumEventBytes: Int = 4 << 20, idleTimeout: Duration = .seconds(60),
        allowsInsecureCredentials: Bool = false, maximumQueuedMessages: Int = 4096, maximumQueuedBytes: Int = 32 << 20
    ) {
        self.headers = headers
        self.authorization = authorization
        self.maximumMessageBytes = maximumMessageBytes
        self.maximumEventBytes = maximumEventBytes
        self.idleTimeout = idleTimeout
        self.allowsInsecureCredentials = allowsInsecureCredentials
        self.maximumQueuedMessages = maximumQueuedMessages
        self.maximumQueuedBytes = maximumQueuedBytes
    }
}
