public import Foundation
public import MCP

/// A failure of one HTTP exchange with an MCP server: what the server answered, or what went
/// wrong on the way.
///
/// ``HTTPClientTransport`` throws it from `send(_:)` for the message whose POST failed, and
/// ``MCP/MCPClient`` hands it as it is to the caller of that request (``MCP/TransportMessageError``):
/// `callTool` over HTTP throws ``httpStatus`` for a `500`, ``unauthorized`` for a `401`, and
/// so on, as soon as the fault is seen. Match with `==` against the static members (or
/// `catch HTTPTransportError.unauthorized`); the payload is in ``status``, ``challenge``,
/// ``resourceMetadata`` and ``detail``. New kinds may be added (``MCPCore/KindedError``).
public struct HTTPTransportError: TransportMessageError, KindedError {
    public let kind: ErrorKind
    /// What happened, in a sentence.
    public let detail: String
    /// The HTTP status the server answered with, when it answered.
    public let status: Int?
    /// The `WWW-Authenticate` header of a `401` (the server's challenge), when there was one.
    public let challenge: String?
    /// The protected resource metadata URL from the challenge's `resource_metadata`
    /// parameter (RFC 9728), where an OAuth client starts.
    public let resourceMetadata: URL?

    private init(_ kind: ErrorKind, _ detail: String, status: Int? = nil, challenge: String? = nil, resourceMetadata: URL? = nil) {
        self.kind = kind
        self.detail = detail
        self.status = status
        self.challenge = challenge
        self.resourceMetadata = resourceMetadata
    }

    // MARK: Kinds, for matching

    /// The server wants credentials (`401 Unauthorized`).
    public static let unauthorized = HTTPTransportError("unauthorized", "the server requires authorization (HTTP 401)", status: 401)
    /// The server answered with an error status (or a redirect, which is not followed).
    public static let httpStatus = HTTPTransportError("httpStatus", "the server answered with an HTTP error status")
    /// The response has a content type MCP does not allow (such as an HTML page).
    public static let unexpectedContentType = HTTPTransportError("unexpectedContentType", "the response's content type is not one MCP uses")
    /// A response body or message is larger than ``HTTPTransportConfiguration/maximumMessageBytes``.
    public static let messageTooLarge = HTTPTransportError("messageTooLarge", "the server's message is larger than the limit")
    /// A server-sent event is larger than ``HTTPTransportConfiguration/maximumEventBytes``.
    public static let eventTooLarge = HTTPTransportError("eventTooLarge", "a server-sent event is larger than the limit")
    /// The server sent nothing for ``HTTPTransportConfiguration/idleTimeout``.
    public static let idleTimeout = HTTPTransportError("idleTimeout", "the server sent nothing for too long")
    /// Credentials would have gone over plain `http://` to a host that is not this machine.
    public static let insecureCredentials = HTTPTransportError(
        "insecureCredentials", "credentials are not sent over plain http:// except to this machine")
    /// The server ended the session (`404` for its id) and a new handshake did not help.
    public static let sessionExpired = HTTPTransportError("sessionExpired", "the server's session expired")
    /// The server closed a stream before the response came, or in the middle of an event.
    public static let streamEnded = HTTPTransportError("streamEnded", "the server closed the stream before it answered")
    /// The server accepted a request but sent no response for it (such as `202` to a request).
    public static let missingResponse = HTTPTransportError("missingResponse", "the server sent no response to the request")
    /// The HTTP+SSE server's `endpoint` event is missing, malformed or points to another origin.
    public static let invalidEndpoint = HTTPTransportError("invalidEndpoint", "the server's HTTP+SSE endpoint is not usable")
    /// The request could not reach the server (connection refused, DNS, TLS…).
    public static let network = HTTPTransportError("network", "the server could not be reached")
    /// ``HTTPTransportConfiguration/authorization`` threw; the request was not sent.
    public static let authorizationFailed = HTTPTransportError("authorizationFailed", "the app's authorization provider failed")

    // MARK: Making errors

    /// A `401`, with the server's `WWW-Authenticate` challenge and its `resource_metadata` URL.
    public static func unauthorized(challenge: String?, resourceMetadata: URL?) -> HTTPTransportError {
        var detail = "the server requires authorization (HTTP 401)"
        if let challenge { detail += "; it asks for: \(challenge)" }
        return HTTPTransportError(Self.unauthorized.kind, detail, status: 401, challenge: challenge, resourceMetadata: resourceMetadata)
    }

    /// An error status, with the start of the response body.
    public static func httpStatus(_ status: Int, body: String) -> HTTPTransportError {
        var detail = "the server answered with HTTP \(status)"
        if let reason = reasonPhrases[status] { detail += " (\(reason))" }
        if !body.isEmpty { detail += ": \(body)" }
        return HTTPTransportError(Self.httpStatus.kind, detail, status: status)
    }

    /// A response whose content type MCP does not allow.
    public static func unexpectedContentType(_ contentType: String, status: Int, body: String) -> HTTPTransportError {
        var detail = "the server answered HTTP \(status) with content type \"\(contentType)\", not application/json or text/event-stream"
        if !body.isEmpty { detail += ": \(body)" }
        return HTTPTransportError(Self.unexpectedContentType.kind, detail, status: status)
    }

    private static let reasonPhrases: [Int: String] = [
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 307: "Temporary Redirect",
        308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
        413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content", 429: "Too Many Requests",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]

    static func make(_ kind: HTTPTransportError, _ detail: String, status: Int? = nil) -> HTTPTransportError {
        HTTPTransportError(kind.kind, detail, status: status)
    }
}
