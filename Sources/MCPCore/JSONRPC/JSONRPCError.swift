/// An error object carried in a JSON-RPC error response: a code, a message and optional data.
///
/// This is what a peer says went wrong. Failures on this side of the connection (a
/// closed pipe, a timeout, an oversized frame) are not wire errors and use their own
/// type, so they can never be mistaken for something the peer said.
///
/// - SeeAlso: https://www.jsonrpc.org/specification#error_object
public struct JSONRPCError: Error, Hashable, Sendable {
    /// A JSON-RPC error code: an open set of integers with named constants.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        public init(integerLiteral value: Int) {
            self.rawValue = value
        }

        /// `-32700`: the message was not valid JSON.
        public static let parseError: Code = -32700
        /// `-32600`: the JSON was not a valid JSON-RPC request.
        public static let invalidRequest: Code = -32600
        /// `-32601`: the method does not exist or is not available.
        public static let methodNotFound: Code = -32601
        /// `-32602`: the parameters are invalid (MCP: also an unknown tool, or a missing
        /// 2026-07-28 envelope key).
        public static let invalidParams: Code = -32602
        /// `-32603`: the server failed internally.
        public static let internalError: Code = -32603
        /// `-32002`: a resource was not found (MCP up to 2025-11-25).
        public static let resourceNotFound: Code = -32002
        /// `-32020`: HTTP headers disagree with the body (MCP 2026-07-28).
        public static let headerMismatch: Code = -32020
        /// `-32021`: a client capability the request needs was not declared (MCP 2026-07-28).
        public static let missingRequiredClientCapability: Code = -32021
        /// `-32022`: the requested protocol version is not supported (MCP 2026-07-28);
        /// `data` carries `supported` and `requested`.
        public static let unsupportedProtocolVersion: Code = -32022

        public var description: String { String(rawValue) }

        /// Matches a ``JSONRPCError`` with this code, for `catch` clauses.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? JSONRPCError)?.code == code
        }
    }

    /// What kind of error this is.
    public var code: Code
    /// A short sentence describing the error.
    public var message: String
    /// Anything more the sender wants to say, such as the supported versions.
    public var data: JSONValue?

    /// Creates an error object.
    public init(code: Code, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// Reads an error object; `nil` when `json` is not one (no integer `code` or no string `message`).
    public init?(json: JSONValue) {
        guard case .object(let object) = json, let code = object["code"]?.intValue,
            case .string(let message)? = object["message"]
        else { return nil }
        self.init(code: Code(rawValue: code), message: message, data: object["data"])
    }

    /// The error object as it appears on the wire.
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 3)
        object["code"] = .int(code.rawValue)
        object["message"] = .string(message)
        if let data { object["data"] = data }
        return .object(object)
    }

    /// A `-32700` parse error.
    public static func parseError(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: .parseError, message: "Parse error: \(detail)")
    }

    /// A `-32600` invalid request error.
    public static func invalidRequest(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: .invalidRequest, message: "Invalid Request: \(detail)")
    }

    /// A `-32601` error naming the method.
    public static func methodNotFound(_ method: String) -> JSONRPCError {
        JSONRPCError(code: .methodNotFound, message: "Method not found: \(method)")
    }

    /// A `-32602` invalid params error whose message is `detail` alone, as MCP's examples
    /// write them (`"Unknown tool: get_weather"`).
    public static func invalidParams(_ detail: String, data: JSONValue? = nil) -> JSONRPCError {
        JSONRPCError(code: .invalidParams, message: detail, data: data)
    }

    /// A `-32603` internal error.
    public static func internalError(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: .internalError, message: "Internal error: \(detail)")
    }

}

extension JSONRPCError: CustomStringConvertible {
    public var description: String {
        if let data {
            return "JSON-RPC error \(code.rawValue): \(message) (data: \(data))"
        }
        return "JSON-RPC error \(code.rawValue): \(message)"
    }
}
