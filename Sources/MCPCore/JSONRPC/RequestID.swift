/// The `id` of a JSON-RPC request: a string or an integer, echoed exactly in its response.
///
/// MCP forbids `null` ids and JSON-RPC discourages fractional ones, so a request whose
/// id is anything else is an invalid request.
public enum RequestID: Hashable, Sendable {
    /// An integer id, such as `1`.
    case int(Int)
    /// A string id, such as `"call-7"`.
    case string(String)

    /// The id carried by a JSON value, if it is an integer or a string.
    public init?(_ json: JSONValue) {
        switch json {
        case .int(let value): self = .int(value)
        case .string(let value): self = .string(value)
        default: return nil
        }
    }

    /// The id as it appears on the wire.
    public var json: JSONValue {
        switch self {
        case .int(let value): .int(value)
        case .string(let value): .string(value)
        }
    }
}

extension RequestID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension RequestID: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension RequestID: CustomStringConvertible {
    /// The id as JSON text: `7` or `"call-7"`.
    public var description: String { json.description }
}
