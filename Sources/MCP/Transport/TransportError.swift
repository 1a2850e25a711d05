/// A failure of the connection itself, on this side: never something the peer said.
///
/// Wire errors from the peer are ``MCPCore/JSONRPCError``; these are local failures,
/// such as a closed connection or a peer process that could not start. Match them with
/// `==` against the static members, or `catch TransportError.closed`.
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case closed
        case ioFailure
        case launchFailure
        case frameTooLarge
        case encodingFailure
        case invalidConfiguration
    }

    private let code: Code
    /// What happened, in a sentence.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The connection is closed: by ``Transport/close()``, or because the peer went away.
    public static let closed = TransportError(.closed, "the connection is closed")

    /// The connection is closed, with a reason.
    public static func closed(_ detail: String) -> TransportError {
        TransportError(.closed, detail)
    }

    /// Reading or writing failed with an operating-system error.
    public static func ioFailure(_ detail: String) -> TransportError {
        TransportError(.ioFailure, detail)
    }

    /// A peer process could not be started.
    public static func launchFailure(_ detail: String) -> TransportError {
        TransportError(.launchFailure, detail)
    }

    /// An outgoing message is larger than the transport allows.
    public static func frameTooLarge(_ detail: String) -> TransportError {
        TransportError(.frameTooLarge, detail)
    }

    /// An outgoing message cannot be encoded as JSON text (for example, it holds a
    /// non-finite number); nothing was sent and the connection goes on.
    public static func encodingFailure(_ detail: String) -> TransportError {
        TransportError(.encodingFailure, detail)
    }

    /// A transport was given a setting it cannot work with, such as a non-positive
    /// maximum frame length; the transport was not created.
    public static func invalidConfiguration(_ detail: String) -> TransportError {
        TransportError(.invalidConfiguration, detail)
    }

    /// Errors are equal when they are of the same kind, whatever their detail.
    public static func == (lhs: TransportError, rhs: TransportError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// Matches a ``TransportError`` of the same kind, for `catch` clauses.
    public static func ~= (pattern: TransportError, error: any Error) -> Bool {
        (error as? TransportError) == pattern
    }

    public var description: String { detail }
}
