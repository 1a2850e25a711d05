public import MCPCore

/// A failure of the connection itself, on this side: never something the peer said.
///
/// Wire errors from the peer are ``MCPCore/JSONRPCError``; these are local failures,
/// such as a closed connection or a peer process that could not start. Match them with
/// `==` against the static members, or `catch TransportError.closed` (``MCPCore/KindedError``).
/// A transport of an app's own makes them with the static functions, such as
/// ``ioFailure(_:)``.
public struct TransportError: DetailedKindedError {
    public let kind: ErrorKind
    /// What happened, in a sentence.
    public let detail: String

    package init(_ kind: ErrorKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The connection is closed: by ``Transport/close()``, or because the peer went away.
    public static let closed = TransportError("closed", "the connection is closed")
    /// Reading or writing failed with an operating-system error.
    public static let ioFailure = TransportError("ioFailure", "reading or writing failed")
    /// A peer process could not be started.
    public static let launchFailure = TransportError("launchFailure", "the peer process could not be started")
    /// An outgoing message is larger than the transport allows.
    public static let frameTooLarge = TransportError("frameTooLarge", "the message is larger than the transport allows")
    /// An outgoing message cannot be encoded as JSON text (for example, it holds a
    /// non-finite number); nothing was sent and the connection goes on.
    public static let encodingFailure = TransportError("encodingFailure", "the message cannot be encoded as JSON")
    /// A transport was given a setting it cannot work with, such as a non-positive
    /// maximum frame length; the transport was not created.
    public static let invalidConfiguration = TransportError(
        "invalidConfiguration", "the transport's configuration is not usable")

    /// The connection is closed, with a reason.
    public static func closed(_ detail: String) -> TransportError { closed.callAsFunction(detail) }
    /// Reading or writing failed with an operating-system error.
    public static func ioFailure(_ detail: String) -> TransportError { ioFailure.callAsFunction(detail) }
    /// A peer process could not be started.
    public static func launchFailure(_ detail: String) -> TransportError { launchFailure.callAsFunction(detail) }
    /// An outgoing message is larger than the transport allows.
    public static func frameTooLarge(_ detail: String) -> TransportError { frameTooLarge.callAsFunction(detail) }
    /// An outgoing message cannot be encoded as JSON text; nothing was sent.
    public static func encodingFailure(_ detail: String) -> TransportError { encodingFailure.callAsFunction(detail) }
    /// A transport was given a setting it cannot work with; the transport was not created.
    public static func invalidConfiguration(_ detail: String) -> TransportError {
        invalidConfiguration.callAsFunction(detail)
    }
}
