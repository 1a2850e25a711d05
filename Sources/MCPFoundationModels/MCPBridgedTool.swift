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
internal import JSONSchema
public import MCP

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
/// 3. asks the ``ToolPolicy`` when the tool's annotations say it writes, deletes or reaches
///    the network; a denial goes back to the model as a tool error;
/// 4. calls the tool and returns its result as text framed as this tool's output (see
///    ``ToolOutputFormat``): a result with `isError` is a tool error the model can act on.
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
    /// The tool's name on the server.
    public let serverName: String
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

    /// Bridges a tool whose parameters schema you built yourself, as in the seed sketch.
    ///
    /// The server's name is `name`; arguments are sent as generated (integral numbers as
    /// integers) without validation, and every call is allowed.
    public init(name: String, description: String, client: MCPClient, parameters: GenerationSchema) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.client = client
        self.serverName = name
        self.definition = nil
        self.conversion = nil
        self.effects = []
        self.policy = .allowAll
        self.outputFormat = ToolOutputFormat()
        self.timeout = Self.defaultTimeout
        self.maximumResultBytes = Self.maximumResultBytes(for: .onDevice)
    }

    /// Bridges a tool the server listed.
    ///
    /// - Parameters:
    ///   - tool: The tool from `tools/list`.
    ///   - client: The client connected to its server.
    ///   - name: The name to offer the model (see ``ToolNameMap``); by default the tool's
    ///     name made valid.
    ///   - policy: Who approves calls of a tool with effects.
    ///   - budget: Limits for the description and the output.
    ///   - timeout: How long a call may take; `nil` uses ``defaultTimeout`` (30 s), whatever
    ///     the client's request timeout.
    /// - Throws: `GenerationSchema.SchemaError` if FoundationModels rejects the converted
    ///   schema (which unique naming rules out).
    public init(
        tool: MCPCore.ToolDefinition, client: MCPClient, name: String? = nil, policy: ToolPolicy = .allowAll,
        budget: ContextBudget = .onDevice, timeout: Duration? = nil
    ) throws {
        let modelName = name ?? ToolNameMap.sanitized(tool.name)
        let conversion = try SchemaConversion(inputSchema: tool.inputSchema, name: modelName)
        self.name = modelName
        self.description = budget.shortened(tool.description ?? tool.title ?? "Calls the tool \(tool.name).")
        self.parameters = conversion.schema
        self.client = client
        self.serverName = tool.name
        self.definition = tool
        self.conversion = conversion
        self.effects = ToolEffects(annotations: tool.annotations)
        self.policy = policy
        self.outputFormat = ToolOutputFormat(maximumCharacters: budget.toolOutputCharacters)
        self.timeout = timeout ?? Self.defaultTimeout
        self.maximumResultBytes = Self.maximumResultBytes(for: budget)
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
        let request = ToolCallRequest(serverName: serverName, modelName: name, arguments: json, effects: effects)
        if case .deny(let reason) = await policy.approval(for: request) {
            return outputFormat.error("The call was not approved, so the tool did not run: \(reason).", toolName: name)
        }
        let result: CallToolResult
        do {
            result = try await client.callTool(
                name: serverName, arguments: json, timeout: timeout ?? Self.defaultTimeout, maximumResultBytes: maximumResultBytes)
        } catch let error as JSONRPCError {
            return outputFormat.error("The server rejected the call: \(error.message) (\(error.code)).", toolName: name)
        } catch MCPClientError.resultTooLarge {
            return outputFormat.error(
                "The output was cut: the tool's result is larger than the \(maximumResultBytes) bytes this app reads for one call, "
                    + "so none of it was read. Ask for less (a narrower query, fewer items) and call \(name) again.",
                toolName: name)
        }
        return outputFormat.render(result, toolName: name)
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
