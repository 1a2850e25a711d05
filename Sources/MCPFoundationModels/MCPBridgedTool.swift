internal import JSONSchema
public import MCP

#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// An MCP tool presented as a FoundationModels `Tool`: the model's arguments arrive as
/// `GeneratedContent` shaped by ``parameters``, and ``call(arguments:)`` sends them with
/// `tools/call`.
///
/// ```swift
/// let client = try await MCPClient.connect(to: server)
/// let tools = try await client.listTools().map { try MCPBridgedTool(tool: $0, client: client) }
/// let session = LanguageModelSession(tools: tools, instructions: "Use tools when you need live app data.")
/// ```
///
/// What a call does:
/// 1. turns the arguments into JSON, following the input schema (an `integer` property
///    arrives as an integer; keys keep the model's order);
/// 2. validates them against the tool's original `inputSchema`; a mismatch goes back to the
///    model as a tool error naming each problem, and the server is not called;
/// 3. makes the arguments the tool will receive: secrets (also encoded, or in parts across
///    the conversation's calls) and the frame's boundary removed, for every server;
/// 4. asks the ``ToolPolicy`` when the tool writes, deletes or reaches the network (its
///    annotations, or the app's ``ToolTrust``), through the session's ``DataFlowGuard``,
///    which holds such calls — and calls of any tool whose arguments leave the app — for a
///    person once the session has read private data or untrusted content; a denial goes
///    back to the model as a tool error;
/// 5. sends exactly the arguments that were approved and returns the result as text framed
///    as this tool's output, cleaned and then redacted (see ``ToolOutputFormat``): a result
///    with `isError` is a tool error the model can act on.
///
/// Steps 3 to 5 are the defences' interceptors (``Defences/interceptors``, by default
/// ``ToolCallChain/standard``), which an app can extend with its own ``ToolCallInterceptor``.
///
/// Every call has a deadline (``timeout``, 30 s unless given, in process too) and a limit
/// on the size of its result (``maximumResultBytes``, enforced while the result is read); a
/// result over the limit is a tool error text saying the output was cut and why.
///
/// A transport failure, a timeout or cancellation throws (FoundationModels wraps it in
/// `LanguageModelSession.ToolCallError` and `respond` rethrows it). A JSON-RPC error from
/// the server (such as an unknown tool after the list changed) is a tool error text.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
public struct MCPBridgedTool: Sendable {
    /// The name the model calls the tool by.
    public let name: String
    /// What the tool does, as the model reads it.
    public let description: String
    /// The schema of the arguments.
    public let parameters: GenerationSchema
    /// The client that calls the tool.
    public let client: MCPClient
    /// The tool's name on its server (``name`` is the name the model calls; ``server`` is the
    /// server's label).
    public let toolNameOnServer: String
    /// The tool as the server listed it, when the bridged tool was made from one.
    public let definition: MCPCore.ToolDefinition?
    /// The conversion of the input schema, with its diagnostics.
    public let conversion: SchemaConversion?
    /// What the tool may do, from its annotations.
    public let effects: ToolEffects
    /// Who approves calls with effects.
    public let policy: ToolPolicy
    /// How results are written for the model.
    public let outputFormat: ToolOutputFormat
    /// How long a call may take: ``defaultTimeout`` unless one was given. The deadline
    /// holds whatever the client's own configuration says (an in-process client has no
    /// request timeout by default) and fires whatever the server or the tool does.
    public let timeout: Duration?
    /// The largest result a call accepts, in bytes of compact JSON; a larger one is refused
    /// while it is read (see ``MCP/MCPClient/callTool(name:arguments:timeout:maximumResultBytes:onProgress:)``)
    /// and the model reads that the output was cut and why. Derived from the budget: see
    /// ``maximumResultBytes(for:)``.
    public let maximumResultBytes: Int

    /// The deadline of a bridged call when none is given: 30 seconds.
    public static let defaultTimeout: Duration = .seconds(30)

    /// The largest result a bridged call accepts for `budget`: 256 times the characters the
    /// model reads of one output, and at least 64 KiB. A result beyond it could show the
    /// model less than half a percent of itself, so it is refused unread rather than held
    /// whole in memory and cut.
    public static func maximumResultBytes(for budget: ContextBudget) -> Int {
        let (scaled, overflow) = budget.toolOutputCharacters.multipliedReportingOverflow(by: 256)
        return max(64 * 1024, overflow ? Int.max : scaled)
    }
    /// The server's label (by default its `serverInfo.name`), which ``ToolTrust`` rules name.
    public let server: String
    /// Where the server runs (``ToolTrust/origin(ofServer:connectedInProcess:)``).
    public let origin: ToolTrust.Origin
    /// Whether the tool's arguments leave the app: a tool of a server in another process is a
    /// way out whatever its annotations say, unless the app marked it contained.
    public let sendsArgumentsOut: Bool
    /// Which tool this is, for permissions given for the session; `nil` without a listed
    /// definition.
    public let identity: ToolIdentity?
    /// Where the tool's calls are reported, and what limits their output in a turn.
    public let monitor: ToolCallMonitor?
    /// The defences this tool's calls go through.
    public let defences: Defences
    /// The conversation's state: what it has read, what a person allowed, the output frame.
    public let dataFlowGuard: DataFlowGuard

    /// Bridges a tool whose parameters schema you built yourself, as in the seed sketch.
    ///
    /// The server's name is `name`; arguments are sent as generated (integral numbers as
    /// integers) without validation, and every call is allowed.
    public init(name: String, description: String, client: MCPClient, parameters: GenerationSchema) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.client = client
        self.toolNameOnServer = name
        self.definition = nil
        self.conversion = nil
        self.effects = []
        self.policy = .allowAll
        self.timeout = Self.defaultTimeout
        self.maximumResultBytes = Self.maximumResultBytes(for: .onDevice)
        self.server = client.serverInfo.name
        self.origin = ToolTrust().origin(ofServer: client.serverInfo.name, connectedInProcess: client.isInProcess)
        self.sendsArgumentsOut = origin == .outOfProcess
        self.identity = nil
        self.monitor = nil
        self.defences = Defences()
        let state = DataFlowGuard()
        self.dataFlowGuard = state
        self.outputFormat = ToolOutputFormat(frame: state.frame)
    }

    /// Bridges a tool the server listed.
    ///
    /// - Parameters:
    ///   - tool: The tool from `tools/list`.
    ///   - client: The client connected to its server.
    ///   - name: The name to offer the model (see ``ToolNameMap``); by default the tool's
    ///     name made valid.
    ///   - policy: Who approves calls of a tool with effects; by default only tools without
    ///     effects run.
    ///   - budget: Limits for the description and the output.
    ///   - timeout: How long a call may take; `nil` uses ``defaultTimeout`` (30 s), whatever
    ///     the client's request timeout.
    ///   - defences: Trust overrides, secrets and switches (see ``Defences``).
    ///   - dataFlowGuard: The conversation's state, shared by the tools of one session; by
    ///     default a new one for this tool alone.
    ///   - server: The server's label for ``ToolTrust`` rules and events; by default its
    ///     `serverInfo.name`.
    ///   - monitor: Receives the tool's call events and limits its output to the turn's room.
    ///
    /// The definition of a tool of a server out of process is untrusted: it is screened
    /// (``UntrustedText/definitionFindings(of:otherTools:)``) unless
    /// ``Defences/cleansUntrustedText`` is off. A description, title or parameter description
    /// that reads as orders to the model is withheld from it (the model reads `Calls the tool
    /// NAME.` instead); a name, property name, enum or const value, default or example that
    /// does, or that hides invisible characters, cannot be withheld without changing the tool,
    /// so the tool is not bridged. Each is reported as a ``DefenceEvent/Kind/withheld`` event.
    ///
    /// - Throws: ``UntrustedDefinitionError`` for a tool that is not bridged for what its
    ///   definition says; `GenerationSchema.SchemaError` if FoundationModels rejects the
    ///   converted schema (which unique naming rules out).
    public init(
        tool: MCPCore.ToolDefinition, client: MCPClient, name: String? = nil, policy: ToolPolicy = .readOnly,
        budget: ContextBudget = .onDevice, timeout: Duration? = nil, defences: Defences = Defences(),
        dataFlowGuard: DataFlowGuard? = nil, server: String? = nil, monitor: ToolCallMonitor? = nil
    ) throws {
        try self.init(
            tool: tool, client: client, name: name, policy: policy, budget: budget, timeout: timeout, defences: defences,
            dataFlowGuard: dataFlowGuard, server: server, monitor: monitor, otherTools: [])
    }

    /// Bridges a tool the server listed; `otherTools` are the names of other servers' tools,
    /// which its definition must not mention.
    init(
        tool: MCPCore.ToolDefinition, client: MCPClient, name: String?, policy: ToolPolicy, budget: ContextBudget,
        timeout: Duration?, defences: Defences, dataFlowGuard: DataFlowGuard?, server: String?, monitor: ToolCallMonitor?,
        otherTools: Set<String>
    ) throws {
        let modelName = name ?? ToolNameMap.sanitized(tool.name)
        let server = server ?? client.serverInfo.name
        let origin = defences.trust.origin(ofServer: server, connectedInProcess: client.isInProcess)
        // What the model reads of an untrusted definition: screened first.
        var shown = tool
        var withheld: Set<String> = []
        if origin == .outOfProcess, defences.cleansUntrustedText {
            let findings = UntrustedText.definitionFindings(of: tool, otherTools: otherTools)
            let values = findings.filter(\.isValue)
            if !values.isEmpty {
                let error = UntrustedDefinitionError(tool: tool.name, server: server, findings: values)
                defences.report(DefenceEvent(kind: .withheld, tool: modelName, message: "not bridged: \(error.reason)"), to: monitor)
                throw error
            }
            let orders = findings.filter { $0.finding.kind != UntrustedText.invisibleCharacters }
            withheld = Set(orders.map(\.field))
            if withheld.contains("description") || withheld.contains("title") || withheld.contains("annotations/title") {
                shown.description = nil
                shown.title = nil
                shown.annotations?.title = nil
            }
            for finding in orders {
                defences.report(
                    DefenceEvent(
                        kind: .withheld, tool: modelName, message: "withheld the \(finding.field) from the model: it \(finding.finding)"),
                    to: monitor)
            }
        }
        var inputSchema = defences.cleansUntrustedText ? UntrustedText.cleanedDescriptions(in: tool.inputSchema) : tool.inputSchema
        if !withheld.isEmpty { inputSchema = UntrustedText.removingText(at: withheld, from: inputSchema, path: "inputSchema") }
        let conversion = try SchemaConversion(inputSchema: inputSchema, name: modelName)
        self.name = modelName
        self.description = DescriptionCompactor.modelDescription(of: shown, budget: budget, cleans: defences.cleansUntrustedText)
        self.parameters = conversion.schema
        self.client = client
        self.toolNameOnServer = tool.name
        self.definition = tool
        self.conversion = conversion
        self.server = server
        self.origin = origin
        self.sendsArgumentsOut = defences.trust.sendsArgumentsOut(tool: tool.name, server: server, origin: origin)
        self.identity = ToolIdentity(server: server, definition: tool, client: client)
        self.monitor = monitor
        self.effects = defences.trust.effects(
            ofTool: tool.name, server: server, declared: ToolEffects(annotations: tool.annotations, origin: origin))
        self.policy = policy
        self.timeout = timeout ?? Self.defaultTimeout
        self.maximumResultBytes = Self.maximumResultBytes(for: budget)
        self.defences = defences
        let state = dataFlowGuard ?? DataFlowGuard()
        self.dataFlowGuard = state
        var frame = state.frame
        frame.neutralisesImitations = defences.cleansUntrustedText
        self.outputFormat = ToolOutputFormat(maximumCharacters: budget.toolOutputCharacters, frame: frame, redactor: defences.secrets)
    }

    /// Calls the tool with the model's arguments and returns what the model reads.
    ///
    /// - Throws: ``MCP/MCPClientError`` when the connection fails or the call times out,
    ///   `CancellationError` when the task is cancelled.
    public func call(arguments: GeneratedContent) async throws -> String {
        let json: JSONObject
        do {
            json = try jsonArguments(from: arguments)
        } catch {
            return outputFormat.error("The arguments could not be read: \(error.message).", toolName: name)
        }
        if let problems = validationProblems(json) {
            return outputFormat.error(problems, toolName: name)
        }
        return try await defendedCall(json)
    }

    /// The JSON object `tools/call` sends for `arguments`.
    public func jsonArguments(from arguments: GeneratedContent) throws(ArgumentConversionError) -> JSONObject {
        if let conversion {
            return try conversion.arguments(from: arguments)
        }
        return try ArgumentDecoder(definitions: [:]).object(from: arguments, shape: nil)
    }

    /// A message listing what is wrong with `arguments`, or `nil` when they match the input schema.
    func validationProblems(_ arguments: JSONObject) -> String? {
        guard let errors = conversion?.validationErrors(for: arguments), !errors.isEmpty else { return nil }
        let shown = errors.prefix(5).map { error in
            let location = error.instanceLocation.description
            return "- \(location.isEmpty ? "arguments" : location): \(error.message)"
        }
        let more = errors.count > 5 ? "\n- and \(errors.count - 5) more" : ""
        return "The arguments do not match the tool's input schema, so the tool did not run:\n"
            + shown.joined(separator: "\n") + more
    }
}
