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
    func send(_ message: JSONRPCMessage) async throws

    /// The messages from the peer, in the order they arrived.
    ///
    /// Call this once. The stream finishes when the peer closes the connection (for
    /// stdio, end of input) or ``close()`` is called, and throws when the connection
    /// breaks. A frame that is not a valid message arrives as
    /// ``InboundMessage/invalid(_:)`` and the connection goes on.
    func receive() -> AsyncThrowingStream<InboundMessage, any Error>

    /// Closes the connection: later sends fail, and the inbound stream finishes.
    func close() async
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
