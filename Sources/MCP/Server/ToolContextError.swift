/// A failure of something a tool asked of its client through its ``ToolContext`` (such as
/// ``ToolContext/roots(timeout:)``): never something the client said (a JSON-RPC error
/// from the client is thrown as it came).
///
/// Match with `catch ToolContextError.rootsUnavailable` and the other static members.
public struct ToolContextError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case rootsUnavailable
        case timedOut
        case connectionClosed
        case invalidAnswer
    }

    private let code: Code
    /// What happened, in a sentence.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The client cannot be asked for its roots: it did not declare the `roots`
    /// capability, or the call did not come over a connection that can ask.
    public static let rootsUnavailable = ToolContextError(.rootsUnavailable, "the client's roots are not available")
    /// The client did not answer in time.
    public static let timedOut = ToolContextError(.timedOut, "the client did not answer in time")
    /// The connection ended before the client answered.
    public static let connectionClosed = ToolContextError(.connectionClosed, "the connection to the client closed")
    /// The client's answer does not have the shape MCP requires.
    public static let invalidAnswer = ToolContextError(.invalidAnswer, "the client's answer is not valid")

    static func rootsUnavailable(_ detail: String) -> ToolContextError { ToolContextError(.rootsUnavailable, detail) }
    static func timedOut(_ detail: String) -> ToolContextError { ToolContextError(.timedOut, detail) }
    static func connectionClosed(_ detail: String) -> ToolContextError { ToolContextError(.connectionClosed, detail) }
    static func invalidAnswer(_ detail: String) -> ToolContextError { ToolContextError(.invalidAnswer, detail) }

    /// Errors are equal when they are of the same kind, whatever their detail.
    public static func == (lhs: ToolContextError, rhs: ToolContextError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// Matches a ``ToolContextError`` of the same kind, for `catch` clauses.
    public static func ~= (pattern: ToolContextError, error: any Error) -> Bool {
        (error as? ToolContextError) == pattern
    }

    public var description: String { detail }
}
