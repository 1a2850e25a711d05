import MCP
import OnDeviceMCPTestSupport
import Testing

@testable import MCPAgent

/// An interceptor of the app's own: records the arguments it sees, then passes the call on
/// or answers it.
struct RecordingInterceptor: ToolCallInterceptor {
    let seen: Recorder<JSONObject>
    var answer: String?

    func intercept(_ call: ToolCall, next: ToolCallNext) async throws -> ToolCallOutput {
        seen.append(call.arguments)
        if let answer { return ToolCallOutput(text: answer, isError: true) }
        return try await next(call)
    }
}

@Suite("Tool calls through the interceptor chain")
struct ToolCallChainTests {
    /// A server with an `echo` tool that records what it receives, and a call of it.
    static func call(
        _ arguments: JSONObject, defences: Defences = Defences(), policy: ToolPolicy = .allowAll, monitor: ToolCallMonitor? = nil,
        received: Recorder<JSONObject>
    ) async throws -> ToolCall {
        let server = MCPServer(name: "Test", version: "1.0")
        let schema: JSONValue = ["type": "object", "properties": ["text": ["type": "string"]], "required": ["text"]]
        try await server.register(
            MCPTool(name: "echo", description: "Echoes its text", inputSchema: schema) { arguments in
                received.append(arguments)
                return .text(arguments["text"]?.stringValue ?? "")
            })
        let client = try await MCPClient.connect(to: server)
        let trust = defences.trust
        let origin = trust.origin(ofServer: "Test", connectedInProcess: client.isInProcess)
        return ToolCall(
            tool: "echo", toolNameOnServer: "echo", server: "Test", origin: origin, effects: [], sendsArgumentsOut: false,
            identity: nil, client: client, policy: policy, timeout: .seconds(30), maximumResultBytes: 64 * 1024, defences: defences,
            dataFlowGuard: DataFlowGuard(), monitor: monitor, arguments: arguments, outputFormat: ToolOutputFormat())
    }

    @Test("The standard chain is the defences, in their order")
    func standardOrder() {
        let steps = ToolCallChain.standard.interceptors.map { String(describing: type(of: $0)) }
        #expect(
            steps == [
                "RecordingOffers", "SkippingRepeats", "RedactingArguments", "ScreeningParts", "Approving", "Reporting", "RecordingReads",
            ])
        #expect(Defences().interceptors.interceptors.count == steps.count)
    }

    @Test("An interceptor appended after the defences sees exactly what the server receives: secrets redacted")
    func appendedSeesRedacted() async throws {
        let seen = Recorder<JSONObject>()
        let received = Recorder<JSONObject>()
        var defences = Defences()
        defences.interceptors.append(RecordingInterceptor(seen: seen))
        let call = try await Self.call(["text": "token ghp_16C7e42F292c6912E7710c838347Ae178B4a"], defences: defences, received: received)
        let output = try await defences.interceptors.run(call)
        #expect(seen.values == received.values)
        #expect(received.values == [["text": "token [redacted: github token]"]])
        #expect(output.text.contains("token [redacted: github token]"))
        #expect(!output.isError)
    }

    @Test("An interceptor inserted first sees the model's arguments and can answer without the server")
    func insertedFirstAnswers() async throws {
        let seen = Recorder<JSONObject>()
        let received = Recorder<JSONObject>()
        var defences = Defences()
        defences.interceptors.insert(RecordingInterceptor(seen: seen, answer: "not now"), at: 0)
        let call = try await Self.call(["text": "token ghp_16C7e42F292c6912E7710c838347Ae178B4a"], defences: defences, received: received)
        let output = try await defences.interceptors.run(call)
        #expect(seen.values == [["text": "token ghp_16C7e42F292c6912E7710c838347Ae178B4a"]])
        #expect(received.values.isEmpty)
        #expect(output == ToolCallOutput(text: "not now", isError: true))
    }

    @Test("A call's events arrive on its monitor in order: the redaction, the start and the end")
    func eventsInOrder() async throws {
        let events = Recorder<AgentEvent>()
        let monitor = ToolCallMonitor { events.append($0) }
        let received = Recorder<JSONObject>()
        let call = try await Self.call(["text": "ghp_16C7e42F292c6912E7710c838347Ae178B4a"], monitor: monitor, received: received)
        _ = try await ToolCallChain.standard.run(call)
        let kinds = events.values.map { event -> String in
            switch event {
            case .defence(let defence): "defence \(defence.kind)"
            case .toolCallStarted: "started"
            case .toolCallFinished(let finish): finish.isError ? "failed" : "finished"
            default: "other"
            }
        }
        #expect(kinds == ["defence redacted", "started", "finished"])
    }

    @Test("A call repeating one made earlier in the turn gets its output and does not run again; a new turn runs it")
    func repeatsSkipped() async throws {
        let events = Recorder<AgentEvent>()
        let monitor = ToolCallMonitor { events.append($0) }
        let received = Recorder<JSONObject>()
        monitor.startTurn(remainingCharacters: nil)
        let call = try await Self.call(["text": "buy oat milk"], monitor: monitor, received: received)
        let first = try await ToolCallChain.standard.run(call)
        let again = try await ToolCallChain.standard.run(call)
        #expect(received.values == [["text": "buy oat milk"]])
        #expect(again == first)
        #expect(
            events.values.contains { event in
                if case .defence(let defence) = event { return defence.kind == .repeated }
                return false
            })
        // Other arguments run.
        var other = call
        other.arguments = ["text": "buy bread"]
        _ = try await ToolCallChain.standard.run(other)
        #expect(received.values.count == 2)
        // The next turn runs the same call again.
        monitor.startTurn(remainingCharacters: nil)
        _ = try await ToolCallChain.standard.run(call)
        #expect(received.values.count == 3)
    }

    @Test("Without a monitor there are no turns, and every call runs")
    func repeatsWithoutMonitor() async throws {
        let received = Recorder<JSONObject>()
        let call = try await Self.call(["text": "hi"], received: received)
        _ = try await ToolCallChain.standard.run(call)
        _ = try await ToolCallChain.standard.run(call)
        #expect(received.values.count == 2)
    }

    @Test("A declined call reports the decline as a defence event and a call event, and the server is not called")
    func declinedEvents() async throws {
        let events = Recorder<AgentEvent>()
        let monitor = ToolCallMonitor { events.append($0) }
        let received = Recorder<JSONObject>()
        let base = try await Self.call(["text": "hi"], policy: .readOnly, monitor: monitor, received: received)
        // A tool that writes, under a policy that declines such calls.
        let call = ToolCall(
            tool: base.tool, toolNameOnServer: base.toolNameOnServer, server: base.server, origin: base.origin, effects: [.writes],
            sendsArgumentsOut: false, identity: nil, client: base.client, policy: .readOnly, timeout: base.timeout,
            maximumResultBytes: base.maximumResultBytes, defences: base.defences, dataFlowGuard: base.dataFlowGuard, monitor: monitor,
            arguments: base.arguments, outputFormat: base.outputFormat)
        let output = try await ToolCallChain.standard.run(call)
        #expect(output.isError)
        #expect(received.values.isEmpty)
        let declines = events.values.compactMap { event -> String? in
            switch event {
            case .defence(let defence) where defence.kind == .declined: "defence"
            case .toolCallDeclined: "call"
            default: nil
            }
        }
        #expect(declines == ["defence", "call"])
    }
}
