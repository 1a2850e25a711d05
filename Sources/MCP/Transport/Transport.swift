public import MCPCore

/// A connection that carries JSON-RPC messages between two MCP peers.
///
/// A transport moves messages; it knows nothing of MCP methods. ``MCPServer`` serves one
/// with ``MCPServer/run(on:options:)`` and ``MCPClient`` talks over one. The library provides
/// ``InProcessTransport`` (message values, no encoding), ``StdioTransport`` (this
/// process's standard input and output) and ``ProcessTransport`` (a child process's).
///
/// Conformers must be safe to call from many tasks at once: ``send(_:)`` may be called
/// concurrently, and messages must reach the peer whole, one after another.
///
/// ``send(_:)`` and ``waitForOutboundRoom()`` run on the caller's executor
/// (`nonisolated(nonsending)`): a send from an actor, or from a connection's loop, does not
/// hop to the global executor and back for what is usually a lock and an append. A conformer
/// may implement them as plain `async` functions; they then run on the global executor, as
/// before.
///
/// ## What the runtime relies on, and the defaults
///
/// Three requirements have defaults, so a transport that only moves messages needs
/// ``send(_:)``, ``receive()`` and ``close()``. What a transport gets by default, and what it
/// gains by implementing each:
///
/// - ``resultLimits``: `nil` by default — a client measures a result with a per-call limit
///   once it has arrived whole. A transport that returns a ``ResultLimits`` table and consults
///   it while it reads cuts a reply the moment it passes its call's limit, so a hostile server
///   cannot make the client hold more than the limit (``InProcessTransport`` has nothing to
///   read; the stream transports and the HTTP transport enforce it).
/// - ``waitForOutboundRoom()``: returns at once by default — a server loop then reads the next
///   request however backed up its answers are. A transport with a bounded outbound buffer
///   makes it wait until the buffer has room, so that a client that does not read cannot make
///   the server queue answers without bound.
/// - ``connectionEndReason()``: `nil` by default — pending requests then fail with "the server
///   closed the connection". A transport that knows why its peer went away (a child's exit
///   status and standard error, an HTTP session the server ended) says so, and the error says
///   it too.
public protocol Transport: Sendable {
    /// Sends one message to the peer.
    ///
    /// - Throws: ``TransportError/closed`` when the connection is closed or broken; other
    ///   failures leave the connection usable and are distinct:
    ///   ``TransportError/frameTooLarge(_:)`` for a message over the transport's limit,
    ///   ``TransportError/encodingFailure(_:)`` for a message that cannot be encoded, and
    ///   `CancellationError` when the calling task is cancelled while the send waits. A
    ///   transport whose sends can fail one message at a time while the connection goes on (an
    ///   HTTP POST answered with an error status) throws a ``TransportMessageError``.
    nonisolated(nonsending) func send(_ message: JSONRPCMessage) async throws

    /// The messages from the peer, in the order they arrived.
    ///
    /// Call this once. The stream finishes when the peer closes the connection (for
    /// stdio, end of input) or ``close()`` is called, and throws when the connection
    /// breaks. A frame that is not a valid message arrives as
    /// ``InboundMessage/invalid(_:)`` and the connection goes on.
    func receive() -> AsyncThrowingStream<InboundMessage, any Error>

    /// Closes the connection: later sends fail, and the inbound stream finishes.
    func close() async

    /// The per-request result limits this transport enforces while it reads; `nil` when it
    /// does not (the default: a client then measures each result once it has arrived).
    ///
    /// A client registers a request's limit before it sends the request. A transport that
    /// returns a table must look up each reply's id while reading it, and deliver a reply
    /// over its limit as ``InboundMessage/invalid(_:)`` with the request's id as `apparentID`,
    /// after ``ResultLimits/noteExceeded(_:limit:)``.
    var resultLimits: ResultLimits? { get }

    /// Returns once the transport's outgoing messages have room: at once while its outbound
    /// buffer holds less than its limit and no sender waits for room; otherwise when it has
    /// drained below the limit, the transport closes or fails, or the calling task is
    /// cancelled. The default returns at once (no bounded outbound buffer).
    ///
    /// A server loop waits here before it reads the next request, so that answers backed up
    /// behind a peer that does not read stop the reading instead of piling up.
    nonisolated(nonsending) func waitForOutboundRoom() async

    /// Why the inbound stream ended, as a clause such as "the server process exited with
    /// status 3; its standard error ended with: …", or `nil` when there is nothing to add
    /// (the default). Asked once the stream has ended, for the error pending requests fail
    /// with.
    func connectionEndReason() async -> String?

    /// The thread that reads the connection, as a task executor, or `nil` when the transport
    /// has none (the default).
    ///
    /// A server loop runs there (``MCPServer/run(on:options:)``), a client reads its replies
    /// there, and tasks that opt in (``MCPServer/ConnectionOptions/RequestExecution/connectionThread``,
    /// ``MCPClient/withConnectionThread(isolation:_:)``) run there too: a message read from the
    /// peer is handled and answered without waking another thread. Return an executor only
    /// if it runs jobs soon after they are enqueued whatever the peer does (it must not wait
    /// for input before running them).
    @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
    var connectionExecutor: (any TaskExecutor)? { get }
}

extension Transport {
    /// No thread of its own: work that prefers the connection's thread runs where it is.
    @available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
    public var connectionExecutor: (any TaskExecutor)? { nil }

    /// No limits are enforced while reading: results are measured once they arrive.
    public var resultLimits: ResultLimits? { nil }

    /// The transport's output is not bounded: returns at once.
    public nonisolated(nonsending) func waitForOutboundRoom() async {}

    /// Nothing to add to "the server closed the connection".
    public func connectionEndReason() async -> String? { nil }
}

/// What a transport received: a message, or a frame that could not be read as one.
public enum InboundMessage: Hashable, Sendable {
    /// A well-formed JSON-RPC message.
    case message(JSONRPCMessage)
    /// A frame that was not JSON, not JSON-RPC, or too large, with the error that answers it.
    case invalid(InvalidMessage)
}

/// An error a transport throws from ``Transport/send(_:)`` when that one message failed
/// while the connection goes on, such as an HTTP status answering the POST that carried it.
///
/// ``MCPClient`` gives such an error to the caller of the request (or to `connect`, during
/// the handshake) as it is, rather than as ``MCPClientError/connectionClosed``, so the caller
/// can act on it: authenticate after a `401`, say. Errors of the connection itself stay
/// ``TransportError``.
public protocol TransportMessageError: Error {}
