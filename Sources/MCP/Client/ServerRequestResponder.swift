internal import MCPCore
internal import MCPPlatform

/// What a client answers when the server asks it something: `ping`, and the client's roots
/// (`roots/list` in the handshake era; an `input_required` result's `roots/list` input
/// request in the 2026-07-28 era).
///
/// Shared by a client and its channel: the channel answers requests on its reading task,
/// the client changes the roots (``MCPClient/setRoots(_:)``).
final class ServerRequestResponder: Sendable {
    /// The most times one call is sent again with input the server asked for (the Python
    /// SDK's cap, `DEFAULT_INPUT_REQUIRED_MAX_ROUNDS`).
    static let maximumInputRounds = 10

    private let currentRoots: LockedValue<[Root]?>

    init(roots: [Root]? = nil) {
        currentRoots = LockedValue(roots)
    }

    /// The roots, `nil` when the client offers none.
    var roots: [Root]? {
        currentRoots.withLock { $0 }
    }

    func setRoots(_ roots: [Root]) {
        currentRoots.withLock { $0 = roots }
    }

    /// The reply to a server's request: `ping` and (with roots) `roots/list` are answered,
    /// anything else is a method-not-found error.
    func answer(_ request: JSONRPCRequest) -> JSONRPCMessage {
        switch request.method {
        case MCPMethod.ping:
            return .response(JSONRPCResponse(id: request.id, result: [:]))
        case MCPMethod.rootsList:
            if let roots {
                return .response(JSONRPCResponse(id: request.id, result: ListRootsResult(roots: roots).json))
            }
        default:
            break
        }
        return .errorResponse(JSONRPCErrorResponse(id: request.id, error: .methodNotFound(request.method)))
    }

    /// For a 2026-07-28 `input_required` result: the params to send the request again with,
    /// carrying the answers (`inputResponses`) and the server's `requestState`; `nil` for any
    /// other result.
    ///
    /// - Throws: ``MCPClientError/invalidResponse`` when the server asks for input this
    ///   client did not declare (only `roots/list`, and only with roots, is offered).
    func retry(of params: JSONValue?, answering result: JSONValue, method: String) throws -> JSONValue? {
        guard result["resultType"]?.stringValue == "input_required" else { return nil }
        let requests = result["inputRequests"]?.objectValue ?? JSONObject()
        var responses = JSONObject()
        for (key, request) in requests {
            let asked = request["method"]?.stringValue ?? "(no method)"
            guard asked == MCPMethod.rootsList, let roots else {
                throw MCPClientError.invalidResponse(
                    "\(method) asked for input (\(asked)) that this client did not declare it could give")
            }
            responses[key] = ListRootsResult(roots: roots).json
        }
        var retried = params?.objectValue ?? JSONObject()
        retried["inputResponses"] = .object(responses)
        retried["requestState"] = result["requestState"]
        return .object(retried)
    }
}
