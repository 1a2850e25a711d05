public import MCP

/// A tool call on its way through the interceptors (``ToolCallChain``) to its server: the
/// tool, its arguments as they stand, and the conversation's state.
///
/// Interceptors pass it on changed (the arguments redacted, the output format limited) or
/// answer it themselves; the last step sends ``arguments`` to the server and writes the
/// result with ``outputFormat``.
public struct ToolCall: Sendable {
    /// The name the model called.
    public let tool: String
    /// The tool's name on its server.
    public let toolNameOnServer: String
    /// The server's label, which ``ToolTrust`` rules name.
    public let server: String
    /// Where the server runs.
    public let origin: ToolTrust.Origin
    /// What the tool may do, from its annotations and the app's trust.
    public let effects: ToolEffects
    /// Whether the tool's arguments leave the app.
    public let sendsArgumentsOut: Bool
    /// Which tool this is, for permissions given for the session; `nil` without a listed
    /// definition.
    public let identity: ToolIdentity?
    /// The client connected to the server.
    public let client: MCPClient
    /// Who approves calls with effects.
    public let policy: ToolPolicy
    /// How long the call may take.
    public let timeout: Duration
    /// The largest result the call accepts, in bytes of compact JSON.
    public let maximumResultBytes: Int
    /// The defences the call goes through.
    public let defences: Defences
    /// The conversation's state: what it has read, what a person allowed, the output frame.
    public let dataFlowGuard: DataFlowGuard
    /// Where the call's events go, and what limits its output in the turn.
    public let monitor: ToolCallMonitor?

    /// The arguments as they stand: the model's (valid against the input schema) until an
    /// interceptor changes them; the server receives what they are at the end of the chain.
    public var arguments: JSONObject
    /// How the result is written for the model.
    public var outputFormat: ToolOutputFormat
    /// The secrets removed from the arguments, the output and the events: the defences' and
    /// those the conversation's prompts held.
    public var secrets: SecretRedactor
    /// The kinds of secret removed from the arguments so far.
    public var redactedKinds: [String] = []

    public init(
        tool: String, toolNameOnServer: String, server: String, origin: ToolTrust.Origin, effects: ToolEffects, sendsArgumentsOut: Bool,
        identity: ToolIdentity?, client: MCPClient, policy: ToolPolicy, timeout: Duration, maximumResultBytes: Int, defences: Defences,
        dataFlowGuard: DataFlowGuard, monitor: ToolCallMonitor?, arguments: JSONObject, outputFormat: ToolOutputFormat
    ) {
        self.tool = tool
        self.toolNameOnServer = toolNameOnServer
        self.server = server
        self.origin = origin
        self.effects = effects
        self.sendsArgumentsOut = sendsArgumentsOut
        self.identity = identity
        self.client = client
        self.policy = policy
        self.timeout = timeout
        self.maximumResultBytes = maximumResultBytes
        self.defences = defences
        self.dataFlowGuard = dataFlowGuard
        self.monitor = monitor
        self.arguments = arguments
        self.outputFormat = outputFormat
        self.secrets = defences.secrets
    }

    /// What the tool's output contains, for the data-flow guard.
    public var dataMarks: ToolTrust.DataMarks {
        defences.trust.marks(ofTool: toolNameOnServer, server: server, origin: origin)
    }

    /// Reports what a defence did, secrets redacted, on the conversation's event stream.
    public func report(_ event: DefenceEvent) {
        defences.report(event, to: monitor)
    }

    /// Reports `event` on the conversation's event stream.
    public func report(_ event: AgentEvent) {
        monitor?.report(event)
    }

    /// The answer to a call that was not approved: a tool error the model reads, and the
    /// decline reported (as a defence's and as the call's event).
    public func declined(_ reason: String) -> ToolCallOutput {
        report(DefenceEvent(kind: .declined, tool: tool, message: reason))
        report(.toolCallDeclined(ToolCallDecline(tool: tool, reason: reason)))
        let text = outputFormat.error("The call was not approved, so the tool did not run: \(reason).", toolName: tool)
        return ToolCallOutput(text: text, isError: true)
    }
}
