public import MCPCore

/// A call the model wants to make, for a ``ToolPolicy`` to approve.
///
/// ``arguments`` are exactly what the tool receives when the call is allowed: secrets are
/// redacted and the frame's boundary removed before anyone is asked.
public struct ToolCallRequest: Hashable, Sendable {
    /// The tool's name on the server.
    public var toolNameOnServer: String
    /// The name the model called it by.
    public var modelName: String
    /// The arguments, validated against the tool's input schema, with secrets redacted: what
    /// the tool receives if the call is allowed.
    public var arguments: JSONObject
    /// What the tool may do: its annotations, or the app's override (``ToolTrust``).
    public var effects: ToolEffects
    /// The server's label (by default its `serverInfo.name`); empty when unknown.
    public var server: String
    /// Where the server runs.
    public var origin: ToolTrust.Origin
    /// Whether the arguments leave the app (a server in another process, unless the app
    /// marked it contained): such a tool is a way out whatever its effects.
    public var sendsArgumentsOut: Bool
    /// Which tool exactly (connection, server, definition); `nil` for a tool bridged without
    /// a listed definition, which is never allowed for the session.
    public var tool: ToolIdentity?
    /// Why the call needs approval although the policy may allow it: the session has read
    /// private data or untrusted content and this tool could carry it out. `nil` otherwise.
    public var concern: DataFlowConcern?

    /// A request; by default for a tool whose server is out of process (the safe assumption).
    public init(
        toolNameOnServer: String, modelName: String, arguments: JSONObject, effects: ToolEffects, server: String = "",
        origin: ToolTrust.Origin = .outOfProcess, sendsArgumentsOut: Bool? = nil, tool: ToolIdentity? = nil,
        concern: DataFlowConcern? = nil
    ) {
        self.toolNameOnServer = toolNameOnServer
        self.modelName = modelName
        self.arguments = arguments
        self.effects = effects
        self.server = server
        self.origin = origin
        self.sendsArgumentsOut = sendsArgumentsOut ?? (origin == .outOfProcess)
        self.tool = tool
        self.concern = concern
    }
}
