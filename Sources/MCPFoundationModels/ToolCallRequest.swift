public import MCPCore

/// A call the model wants to make, for a ``ToolPolicy`` to approve.
public struct ToolCallRequest: Hashable, Sendable {
    /// The tool's name on the server.
    public var serverName: String
    /// The name the model called it by.
    public var modelName: String
    /// The arguments, validated against the tool's input schema, with secrets redacted
    /// (what a person may be shown).
    public var arguments: JSONObject
    /// What the tool may do: its annotations, or the app's override (``ToolTrust``).
    public var effects: ToolEffects
    /// The server's name as it introduced itself (`serverInfo.name`); empty when unknown.
    public var server: String
    /// Why the call needs approval although the policy may allow it: the session has read
    /// private data or untrusted content and this tool could carry it out. `nil` otherwise.
    public var concern: DataFlowConcern?

    public init(
        serverName: String, modelName: String, arguments: JSONObject, effects: ToolEffects, server: String = "",
        concern: DataFlowConcern? = nil
    ) {
        self.serverName = serverName
        self.modelName = modelName
        self.arguments = arguments
        self.effects = effects
        self.server = server
        self.concern = concern
    }
}
