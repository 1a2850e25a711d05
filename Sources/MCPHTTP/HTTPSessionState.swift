internal import Foundation
internal import HTTPClientCore
internal import MCPCore

/// The protocol state of an HTTP connection to one MCP server, as a synchronous state
/// machine: which era and version the messages use, the session, where to POST, which
/// headers each request gets, and what a response status means. The transport's I/O asks it
/// and does what it says; it does no I/O itself.
struct HTTPSessionState: Sendable {
    /// How messages travel.
    enum Mode: Hashable, Sendable {
        /// Streamable HTTP: every message is a POST to the endpoint.
        case streamable
        /// The 2024-11-05 HTTP+SSE transport: POSTs go to the URL of the server's `endpoint`
        /// event; everything the server sends comes on the GET event stream.
        case legacySSE(postURL: URL)
    }

    /// What one outgoing message is, and the headers its POST gets.
    struct Outgoing: Sendable {
        var message: JSONRPCMessage
        var url: URL
        var headers: [(name: String, value: String)]
        /// The session id the POST carries (handshake era), to recognise its expiry.
        var sessionID: String?
        /// The 2026-07-28 version from the request's `_meta`, when it has one.
        var modernVersion: String?

        var requestID: RequestID? {
            if case .request(let request) = message { return request.id }
            return nil
        }

        var method: String? {
            switch message {
            case .request(let request): request.method
            case .notification(let notification): notification.method
            default: nil
            }
        }

        /// Whether the body is a JSON-RPC request (and so the response carries its answer).
        var isRequest: Bool { requestID != nil }
    }

    /// What a POST's response status means.
    enum Verdict: Hashable, Sendable {
        /// A `2xx`: read the body.
        case success
        /// `401`: the caller needs credentials.
        case unauthorized
        /// `404` for a POST that carried this session id: the session is gone.
        case sessionExpired(String)
        /// Another status: read the (start of the) body, then ask ``failureAction(status:body:for:)``.
        case failure
    }

    /// What to do about an error status, once its body has been read.
    enum FailureAction: Hashable, Sendable {
        /// The POST to the Streamable HTTP endpoint failed the way an HTTP+SSE server fails
        /// it: try the 2024-11-05 transport (GET the endpoint).
        case tryLegacySSE
        /// The body is the server's JSON-RPC answer to the request: deliver it.
        case deliver(JSONRPCErrorResponse)
        /// The request was the `server/discover` probe and the server refused it at the HTTP
        /// level without a modern error: deliver this error, which the client takes as "not
        /// a 2026-07-28 server" and falls back to `initialize`.
        case refuseProbe(JSONRPCErrorResponse)
        /// Fail the message with this error.
        case fail(HTTPTransportError)
    }

    /// The URL the client was given.
    let endpoint: URL
    private(set) var mode: Mode = .streamable
    /// The session the server assigned in its `initialize` response (`Mcp-Session-Id`).
    private(set) var sessionID: String?
    /// The version the `initialize` handshake agreed on.
    private(set) var negotiatedVersion: String?
    /// The client's `initialize` request, kept to redo the handshake when the session expires.
    private(set) var initializeRequest: JSONRPCRequest?
    /// The client's `notifications/initialized`, kept for the same reason.
    private(set) var initializedNotification: JSONRPCNotification?
    /// Whether the last request the client sent carried a 2026-07-28 envelope (and no
    /// `initialize` came after it): the era that `notifications/cancelled` is read in.
    private(set) var isModern = false
    /// Whether a POST to the endpoint has succeeded (the server speaks Streamable HTTP).
    private(set) var streamableConfirmed = false
    /// Whether the HTTP+SSE fallback has been tried.
    private(set) var legacyProbeTried = false
    /// The last event id seen on the GET stream, for `Last-Event-ID` when it is reopened.
    var standaloneLastEventID: String?
    /// The arguments each tool mirrors into `Mcp-Param-*` headers (2026-07-28's
    /// `x-mcp-header`), learned from the `tools/list` results that went by.
    private(set) var parameterHeaders: [String: [ParameterHeader]] = [:]

    /// One argument a tool mirrors into a header: its path of property names, and the header's
    /// name after `Mcp-Param-`.
    struct ParameterHeader: Hashable, Sendable {
        var path: [String]
        var name: String
    }

    init(endpoint: URL) {
        self.endpoint = endpoint
    }

    var isLegacySSE: Bool {
        if case .legacySSE = mode { return true }
        return false
    }

    /// Whether the connection is in the handshake era with a session: it has a GET stream
    /// and is ended with `DELETE`.
    var hasSession: Bool { sessionID != nil && !isLegacySSE }

    // MARK: Outgoing messages

    /// Notes an outgoing message (an `initialize` starts the handshake era) and says how to
    /// POST it.
    mutating func prepare(_ message: JSONRPCMessage) -> Outgoing {
        var modernVersion: String?
        switch message {
        case .request(let request):
            if request.method == MCPMethod.initialize {
                initializeRequest = request
                negotiatedVersion = nil
                isModern = false
            } else {
                modernVersion = request.params?["_meta"]?[MCPMetaKey.protocolVersion]?.stringValue
                if modernVersion != nil { isModern = true }
            }
        case .notification(let notification):
            if notification.method == MCPMethod.initialized { initializedNotification = notification }
            modernVersion = notification.params?["_meta"]?[MCPMetaKey.protocolVersion]?.stringValue
        default:
            break
        }
        return outgoing(message, modernVersion: modernVersion)
    }

    /// The POST for a message, with the headers the current state gives it.
    func outgoing(_ message: JSONRPCMessage, modernVersion: String?) -> Outgoing {
        var headers: [(name: String, value: String)] = [
            ("Accept", "application/json, text/event-stream"),
            ("Content-Type", "application/json"),
        ]
        var sentSession: String?
        switch mode {
        case .legacySSE(let postURL):
            return Outgoing(message: message, url: postURL, headers: headers, sessionID: nil, modernVersion: nil)
        case .streamable:
            break
        }
        if let modernVersion {
            headers.append(("MCP-Protocol-Version", modernVersion))
            let (method, params): (String?, JSONValue?) =
                switch message {
                case .request(let request): (request.method, request.params)
                case .notification(let notification): (notification.method, notification.params)
                default: (nil, nil)
                }
            if let method {
                headers.append(("Mcp-Method", method))
                if let key = Self.nameBearingMethods[method], let name = params?[key]?.stringValue {
                    headers.append(("Mcp-Name", Self.headerValue(name)))
                    if method == MCPMethod.toolsCall, let mirrored = parameterHeaders[name] {
                        headers += Self.parameterHeaderFields(mirrored, arguments: params?["arguments"])
                    }
                }
            }
        } else {
            if let negotiatedVersion { headers.append(("MCP-Protocol-Version", negotiatedVersion)) }
            if let sessionID {
                headers.append(("Mcp-Session-Id", sessionID))
                sentSession = sessionID
            }
        }
        return Outgoing(message: message, url: endpoint, headers: headers, sessionID: sentSession, modernVersion: modernVersion)
    }

    /// The methods whose `Mcp-Name` header mirrors a parameter (2026-07-28), and which.
    static let nameBearingMethods = ["tools/call": "name", "prompts/get": "name", "resources/read": "uri"]

    // MARK: Responses

    /// What a POST's status means.
    func verdict(status: Int, for outgoing: Outgoing) -> Verdict {
        switch status {
        case 200..<300:
            return .success
        case 401:
            return .unauthorized
        case 404 where outgoing.sessionID != nil && initializeRequest != nil:
            return .sessionExpired(outgoing.sessionID ?? "")
        default:
            return .failure
        }
    }

    /// Notes a successful POST: the endpoint speaks Streamable HTTP, and an `initialize`
    /// response brings the session id.
    mutating func succeeded(_ head: HTTPResponseHead, for outgoing: Outgoing) {
        guard case .streamable = mode else { return }
        streamableConfirmed = true
        if case .request(let request) = outgoing.message, request.method == MCPMethod.initialize {
            sessionID = head.header("mcp-session-id").flatMap(Self.validSessionID)
        }
    }

    /// Notes a message from the server: the `initialize` result names the version.
    mutating func observe(_ message: JSONRPCMessage) {
        guard case .response(let response) = message, let initialize = initializeRequest, response.id == initialize.id,
            let version = response.result["protocolVersion"]?.stringValue
        else { return }
        negotiatedVersion = version
    }

    /// What to do about an error status whose body has been read.
    ///
    /// - Parameters:
    ///   - body: The start of the body (at most what the transport read).
    func failureAction(status: Int, body: [UInt8], contentType: String, for outgoing: Outgoing) -> FailureAction {
        let answer = Self.jsonRPCError(in: body, contentType: contentType)
        if case .streamable = mode, !streamableConfirmed, !legacyProbeTried, [400, 404, 405].contains(status),
            !Self.isModernAnswer(answer, status: status)
        {
            return .tryLegacySSE
        }
        if let requestID = outgoing.requestID {
            if let answer {
                return .deliver(JSONRPCErrorResponse(id: requestID, error: answer))
            }
            if outgoing.method == MCPMethod.serverDiscover, [400, 404, 405, 406, 415].contains(status) {
                let error = JSONRPCError(
                    code: .methodNotFound,
                    message: "the server answered server/discover with HTTP \(status), so it does not speak the 2026-07-28 protocol")
                return .refuseProbe(JSONRPCErrorResponse(id: requestID, error: error))
            }
        }
        var excerpt = Self.excerpt(body)
        if excerpt.isEmpty, let answer { excerpt = answer.description }
        return .fail(.httpStatus(status, body: excerpt))
    }

    /// Starts the HTTP+SSE fallback: `false` when it was already tried.
    mutating func beginLegacyProbe() -> Bool {
        guard !legacyProbeTried, case .streamable = mode else { return false }
        legacyProbeTried = true
        return true
    }

    /// Switches to HTTP+SSE: the server's `endpoint` event named `postURL`.
    mutating func legacyProbeSucceeded(postURL: URL) {
        mode = .legacySSE(postURL: postURL)
    }

    // MARK: Mirrored arguments (x-mcp-header)

    /// Learns which arguments each listed tool mirrors into headers, from a `tools/list` result.
    mutating func learnTools(from result: JSONValue) {
        for tool in result["tools"]?.arrayValue ?? [] {
            guard let name = tool["name"]?.stringValue else { continue }
            let headers = tool["inputSchema"].flatMap(Self.parameterHeaders(in:)) ?? []
            parameterHeaders[name] = headers.isEmpty ? nil : headers
        }
    }

    /// The `x-mcp-header` annotations of a tool's input schema: on `string`, `integer` or
    /// `boolean` properties reached from the root through `properties` alone, with names that
    /// are HTTP tokens, unique ignoring case. A schema with any annotation that breaks these
    /// rules mirrors nothing (the spec makes such a tool invalid).
    static func parameterHeaders(in schema: JSONValue) -> [ParameterHeader]? {
        var found: [ParameterHeader] = []
        var valid = true
        func walk(_ schema: JSONValue, path: [String], depth: Int) {
            guard depth < 32, let properties = schema["properties"]?.objectValue else { return }
            for (key, property) in properties {
                if let annotation = property["x-mcp-header"] {
                    let type = property["type"]?.stringValue
                    if let name = annotation.stringValue, isToken(name), ["string", "integer", "boolean"].contains(type) {
                        found.append(ParameterHeader(path: path + [key], name: name))
                    } else {
                        valid = false
                    }
                }
                walk(property, path: path + [key], depth: depth + 1)
            }
        }
        walk(schema, path: [], depth: 0)
        let names = found.map { $0.name.lowercased() }
        guard valid, Set(names).count == names.count else { return nil }
        return found.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The `Mcp-Param-*` fields for a call's arguments: one per annotated argument present
    /// (and not `null`), its value as the spec writes it.
    static func parameterHeaderFields(_ headers: [ParameterHeader], arguments: JSONValue?) -> [(name: String, value: String)] {
        headers.compactMap { header in
            var value = arguments
            for key in header.path { value = value?[key] }
            let text: String
            switch value {
            case .string(let string)?: text = headerValue(string)
            case .int(let integer)?: text = String(integer)
            case .double(let number)? where number.rounded() == number && abs(number) <= 9_007_199_254_740_991: text = String(Int(number))
            case .bool(let flag)?: text = flag ? "true" : "false"
            default: return nil
            }
            return ("Mcp-Param-\(header.name)", text)
        }
    }

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy(isTokenCharacter)
    }

    // MARK: The session

    /// Starts renewing an expired session: returns `true` when the caller should redo the
    /// handshake, `false` when another request already did (retry with the new session).
    mutating func beginRenewal(expired: String) -> Bool {
        guard sessionID == expired else { return false }
        sessionID = nil
        return true
    }

    /// Notes the session a new handshake got.
    mutating func renewed(sessionID: String?, version: String?) {
        self.sessionID = sessionID
        if let version { negotiatedVersion = version }
    }

    /// The headers of the GET that opens the standalone stream (or resumes a POST's stream
    /// from `lastEventID`).
    func streamHeaders(resumingAfter lastEventID: String?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("Accept", "text/event-stream")]
        guard case .streamable = mode else { return headers }
        if let negotiatedVersion { headers.append(("MCP-Protocol-Version", negotiatedVersion)) }
        if let sessionID { headers.append(("Mcp-Session-Id", sessionID)) }
        if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
        return headers
    }

    /// The `DELETE` that ends the session, if there is one to end.
    func sessionEnd() -> HTTPRequest? {
        guard hasSession, let sessionID else { return nil }
        var headers: [(name: String, value: String)] = [("Mcp-Session-Id", sessionID)]
        if let negotiatedVersion { headers.append(("MCP-Protocol-Version", negotiatedVersion)) }
        return HTTPRequest(method: "DELETE", url: endpoint, headers: headers, body: nil)
    }

    // MARK: Helpers

    /// A JSON-RPC error response in a body, when the body is one (its id is not checked: a
    /// server may answer `null` when it rejected the request before reading it).
    static func jsonRPCError(in body: [UInt8], contentType: String) -> JSONRPCError? {
        guard !body.isEmpty, contentType.isEmpty || contentType == "application/json" || contentType.hasSuffix("+json") else {
            return nil
        }
        guard case .errorResponse(let response)? = try? JSONRPCMessage(parsing: body) else { return nil }
        return response.error
    }

    /// Whether an error answer is one a 2026-07-28 server gives (so the endpoint is modern,
    /// not an HTTP+SSE server's).
    static func isModernAnswer(_ error: JSONRPCError?, status: Int) -> Bool {
        guard let error else { return false }
        if [.headerMismatch, .missingRequiredClientCapability, .unsupportedProtocolVersion].contains(error.code) { return true }
        return status == 404 && error.code == .methodNotFound
    }

    /// The start of a body as text, for an error: at most 200 characters, on one line.
    static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(600), as: UTF8.self)
        let flattened = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let trimmed = flattened.trimmingCharacters(in: .whitespaces)
        return trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
    }

    /// A session id as the spec allows it (visible ASCII, 0x21–0x7E), else `nil`.
    static func validSessionID(_ value: String) -> String? {
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else { return nil }
        return value
    }

    /// A value as an `Mcp-Name` (or `Mcp-Param-*`) header carries it: as is when it is plain
    /// printable ASCII without edge whitespace, else `=?base64?…?=` of its UTF-8.
    static func headerValue(_ value: String) -> String {
        let plain =
            value.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } && value.first != " " && value.last != " "
            && !(value.hasPrefix("=?base64?") && value.hasSuffix("?="))
        if plain { return value }
        return "=?base64?" + Data(value.utf8).base64EncodedString() + "?="
    }

    /// The `resource_metadata` parameter of a `WWW-Authenticate` challenge (RFC 9728), when
    /// it holds an absolute URL.
    static func resourceMetadata(inChallenge challenge: String) -> URL? {
        guard let value = authParameter("resource_metadata", in: challenge) else { return nil }
        guard let url = URL(string: value), url.scheme != nil, url.host != nil else { return nil }
        return url
    }

    /// An auth-param of a challenge, unquoted (`name=token` or `name="quoted \" string"`).
    static func authParameter(_ name: String, in challenge: String) -> String? {
        let scalars = Array(challenge.unicodeScalars)
        var index = 0
        let target = name.lowercased()
        while index < scalars.count {
            // Read a token.
            let start = index
            while index < scalars.count, Self.isTokenCharacter(scalars[index]) { index += 1 }
            let token = String(String.UnicodeScalarView(scalars[start..<index])).lowercased()
            var cursor = index
            while cursor < scalars.count, scalars[cursor] == " " || scalars[cursor] == "\t" { cursor += 1 }
            if !token.isEmpty, cursor < scalars.count, scalars[cursor] == "=" {
                cursor += 1
                while cursor < scalars.count, scalars[cursor] == " " || scalars[cursor] == "\t" { cursor += 1 }
                var value = ""
                if cursor < scalars.count, scalars[cursor] == "\"" {
                    cursor += 1
                    while cursor < scalars.count, scalars[cursor] != "\"" {
                        if scalars[cursor] == "\\", cursor + 1 < scalars.count { cursor += 1 }
                        value.unicodeScalars.append(scalars[cursor])
                        cursor += 1
                    }
                    cursor += 1
                } else {
                    while cursor < scalars.count, scalars[cursor] != ",", scalars[cursor] != " " {
                        value.unicodeScalars.append(scalars[cursor])
                        cursor += 1
                    }
                }
                if token == target { return value }
                index = cursor
            } else {
                index = max(cursor, index + 1)
            }
        }
        return nil
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
        default: false
        }
    }
}
