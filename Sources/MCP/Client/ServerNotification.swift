public import MCPCore

/// A notification from the server, as an ``MCPClient`` delivers it.
public enum ServerNotification: Hashable, Sendable {
    /// The server's tool list changed: list the tools again.
    case toolListChanged
    /// A request made progress (also delivered to that call's progress handler).
    case progress(ProgressNotification)
    /// Any other notification, as it came.
    case other(JSONRPCNotification)
}
