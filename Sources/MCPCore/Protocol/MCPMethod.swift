/// The names of the MCP methods and notifications this library speaks.
public enum MCPMethod {
    public static let initialize = "initialize"
    public static let ping = "ping"
    public static let toolsList = "tools/list"
    public static let toolsCall = "tools/call"
    public static let serverDiscover = "server/discover"
    public static let subscriptionsListen = "subscriptions/listen"
    public static let loggingSetLevel = "logging/setLevel"
    /// Server to client, handshake era only (2026-07-28 asks for roots in an `input_required` result).
    public static let rootsList = "roots/list"

    public static let initialized = "notifications/initialized"
    public static let cancelled = "notifications/cancelled"
    public static let progress = "notifications/progress"
    public static let toolsListChanged = "notifications/tools/list_changed"
    public static let subscriptionsAcknowledged = "notifications/subscriptions/acknowledged"
    public static let message = "notifications/message"
    /// Client to server, handshake era only (removed in 2026-07-28).
    public static let rootsListChanged = "notifications/roots/list_changed"
}

/// The reserved `_meta` keys of MCP 2026-07-28.
public enum MCPMetaKey {
    /// The protocol version of a request (required in the envelope).
    public static let protocolVersion = "io.modelcontextprotocol/protocolVersion"
    /// The client's capabilities for a request (required in the envelope).
    public static let clientCapabilities = "io.modelcontextprotocol/clientCapabilities"
    /// The client's name and version (recommended in the envelope).
    public static let clientInfo = "io.modelcontextprotocol/clientInfo"
    /// The server's name and version, in every result's `_meta`.
    public static let serverInfo = "io.modelcontextprotocol/serverInfo"
    /// The log level a request opts into (deprecated).
    public static let logLevel = "io.modelcontextprotocol/logLevel"
    /// The id of the `subscriptions/listen` request a notification belongs to.
    public static let subscriptionID = "io.modelcontextprotocol/subscriptionId"
    /// The token that progress notifications for a request carry.
    public static let progressToken = "progressToken"
}
