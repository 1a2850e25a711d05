internal import MCPCore
internal import MCPPlatform

/// How an ``MCPClient`` reaches its server: directly in process, or over a transport.
protocol ClientChannel: Sendable {
    /// Sends a request and returns its result; throws the server's ``JSONRPCError``, a
    /// ``MCPClientError`` (``MCPClientError/timedOut`` once `timeout` has passed, when one is
    /// given), or `CancellationError`.
    ///
    /// With a `resultLimit`, a reply larger than that many bytes (as compact JSON) fails
    /// with ``MCPClientError/resultTooLarge``; over a stream transport it is cut while it is
    /// read, not after it has arrived whole.
    func request(
        _ method: String, params: JSONValue?, progress: ProgressHandler?, timeout: Duration?, resultLimit: Int?
    ) async throws -> JSONValue
    /// Sends a notification.
    func notify(_ notification: JSONRPCNotification) async throws
    /// Ends the connection; pending requests fail.
    func close() async
    /// Ends the connection without waiting (for a client dropped without ``close()``):
    /// pending requests fail, and whatever the channel owns is shut down in the background.
    func abandon()
    /// The transport the channel talks over; `nil` in process.
    var transport: (any Transport)? { get }
}

/// The ``ClientConnection`` a channel holds, with callers' continuations as waiters.
typealias ChannelConnection = ClientConnection<CheckedContinuation<JSONValue, any Error>, CheckedContinuation<Void, Never>>

extension ClientChannel {
    /// Sends a request with no limit on the size of its result.
    func request(
        _ method: String, params: JSONValue?, progress: ProgressHandler?, timeout: Duration?
    ) async throws -> JSONValue {
        try await request(method, params: params, progress: progress, timeout: timeout, resultLimit: nil)
    }
}

enum ClientRequests {
    /// The result of a request from its reply, or the error the reply carries.
    static func result(of reply: JSONRPCMessage?, for id: RequestID) throws -> JSONValue {
        switch reply {
        case .response(let response)?:
            return response.result
        case .errorResponse(let response)?:
            throw response.error
        default:
            throw MCPClientError.invalidResponse("the server sent no response to request \(id)")
        }
    }

    /// `params` with `_meta.progressToken` set.
    static func attachProgressToken(_ token: JSONValue, to params: JSONValue?) -> JSONValue {
        var params = params ?? .object([:])
        var meta = params["_meta"] ?? .object([:])
        meta[MCPMetaKey.progressToken] = token
        params["_meta"] = meta
        return params
    }
}
