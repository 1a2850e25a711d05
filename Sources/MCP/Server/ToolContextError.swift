public import MCPCore

/// A failure of something a tool asked of its client through its ``ToolContext`` (such as
/// ``ToolContext/roots(timeout:)``): never something the client said (a JSON-RPC error
/// from the client is thrown as it came).
///
/// Match with `catch ToolContextError.rootsUnavailable` and the other static members
/// (``MCPCore/KindedError``).
public struct ToolContextError: DetailedKindedError {
    public let kind: ErrorKind
    /// What happened, in a sentence.
    public let detail: String

    package init(_ kind: ErrorKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The client cannot be asked for its roots: it did not declare the `roots`
    /// capability, or the call did not come over a connection that can ask.
    public static let rootsUnavailable = ToolContextError("rootsUnavailable", "the client's roots are not available")
    /// The client did not answer in time.
    public static let timedOut = ToolContextError("timedOut", "the client did not answer in time")
    /// The connection ended before the client answered.
    public static let connectionClosed = ToolContextError("connectionClosed", "the connection to the client closed")
    /// The client's answer does not have the shape MCP requires.
    public static let invalidAnswer = ToolContextError("invalidAnswer", "the client's answer is not valid")
}
