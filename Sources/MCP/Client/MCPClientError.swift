public import MCPCore

/// A failure on the client's side of a connection: never something the server said.
///
/// When the server answers with a JSON-RPC error, the client throws that
/// ``MCPCore/JSONRPCError`` itself. This type covers everything else: the connection
/// ended, a call timed out, a reply did not make sense. Match with `catch
/// MCPClientError.timedOut` and the other static members (``MCPCore/KindedError``).
public struct MCPClientError: DetailedKindedError {
    public let kind: ErrorKind
    /// What happened, in a sentence.
    public let detail: String

    package init(_ kind: ErrorKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The connection ended before the reply came.
    public static let connectionClosed = MCPClientError("connectionClosed", "the connection to the server is closed")
    /// No reply came in time; the request was cancelled at the server.
    public static let timedOut = MCPClientError("timedOut", "the request timed out")
    /// The server's reply does not have the shape MCP requires.
    public static let invalidResponse = MCPClientError("invalidResponse", "the server's reply is not valid")
    /// The client and the server could not agree on a protocol version.
    public static let handshakeFailed = MCPClientError("handshakeFailed", "the handshake with the server failed")
    /// The request is longer than the connection's frame limit; nothing was sent.
    public static let requestTooLarge = MCPClientError("requestTooLarge", "the request is larger than the connection allows")
    /// The request could not be encoded (for example, it holds a non-finite number); nothing was sent.
    public static let encodingFailed = MCPClientError("encodingFailed", "the request could not be encoded")
    /// The reply is larger than the limit the call gave (``MCPClient/callTool(name:arguments:timeout:maximumResultBytes:onProgress:)``);
    /// it was not read (over stdio, it was cut off as soon as it passed the limit).
    public static let resultTooLarge = MCPClientError("resultTooLarge", "the result is larger than the call allows")
}
