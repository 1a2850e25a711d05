import HostilePeerModes
import MCP
import OnDeviceMCPTestSupport
import Testing

/// A fault that makes `tools/call` fail, and how the client must report it.
struct FailingCall: Sendable, CustomTestStringConvertible {
    let mode: HostileMode
    let error: MCPClientError
    let mentions: ExpectedWords
    /// Whether the message must also name the id of the stray response (the call's id + 1000,
    /// which the peer logs).
    var namesStrayID = false
    /// The request timeout: short where a timeout is the outcome; 60 s where the fault is
    /// visible, so that failing "at once" means long before it (the hang guard is 20 s).
    let requestTimeout: Duration

    var testDescription: String {
        "\(mode.rawValue) → \(error.detail), mentioning \(mentions)\(namesStrayID ? " and the stray response's id" : "")"
    }

    static let all: [FailingCall] = [
        FailingCall(
            mode: .crashMidCall, error: .connectionClosed, mentions: .all("status 3", "hostile: crashing"), requestTimeout: .seconds(60)),
        FailingCall(
            mode: .nonJSON, error: .timedOut, mentions: .any("not valid JSON", "not JSON", "invalid JSON"), requestTimeout: .seconds(3)),
        FailingCall(mode: .wrongID, error: .timedOut, mentions: .any("id", "request"), namesStrayID: true, requestTimeout: .seconds(3)),
        FailingCall(mode: .hugeResult, error: .invalidResponse, mentions: .any("16777216", "limit"), requestTimeout: .seconds(60)),
        FailingCall(mode: .endlessLine, error: .invalidResponse, mentions: .any("16777216", "limit"), requestTimeout: .seconds(60)),
        FailingCall(mode: .deepResult, error: .invalidResponse, mentions: .any("deep", "nest"), requestTimeout: .seconds(60)),
        FailingCall(mode: .closeOutput, error: .connectionClosed, mentions: .any("closed"), requestTimeout: .seconds(60)),
    ]
}

/// A peer that is slow or odd, not broken: `tools/call` must succeed.
struct SucceedingCall: Sendable, CustomTestStringConvertible {
    let mode: HostileMode
    let requestTimeout: Duration

    var testDescription: String { mode.rawValue }

    static let all: [SucceedingCall] = [
        SucceedingCall(mode: .wellBehaved, requestTimeout: .seconds(10)),
        SucceedingCall(mode: .floodNotifications, requestTimeout: .seconds(60)),
        SucceedingCall(mode: .floodStandardError, requestTimeout: .seconds(60)),
        SucceedingCall(mode: .drip, requestTimeout: .seconds(30)),
    ]
}

@Suite("A hostile server, through the library")
struct HostileServerLibraryTests {
    @Test("A call to a broken server fails with an error that says what was wrong", arguments: FailingCall.all)
    func failingCall(_ fault: FailingCall) async throws {
        let (client, transport) = try await connectHostile(fault.mode, configuration(requestTimeout: fault.requestTimeout))
        let error = await #expect(throws: MCPClientError.self) {
            _ = try await withHangGuard(hangGuard, "tools/call against \(fault.mode.rawValue)") {
                try await client.callTool(name: "probe")
            }
        }
        if let error {
            #expect(error == fault.error, "\(error.detail)")
            expect(error.detail, mentions: fault.mentions)
            if fault.namesStrayID {
                let log = transport.capturedStandardError()
                let call = log.split(separator: "\n").first { $0.hasPrefix("hostile: call ") }.flatMap {
                    Int($0.dropFirst("hostile: call ".count))
                }
                let id = try #require(call, "the server logged no tools/call: \(log)")
                expect(error.detail, mentions: .any(String(id + 1000)))
            }
        }
        await client.close()
        try await expectFreshClientWorks()
    }

    @Test("A slow or odd server is not a broken one: the call succeeds", arguments: SucceedingCall.all)
    func succeedingCall(_ peer: SucceedingCall) async throws {
        let (client, _) = try await connectHostile(peer.mode, configuration(requestTimeout: Sanitizers.stretched(peer.requestTimeout)))
        try await withHangGuard(Sanitizers.stretched(.seconds(60)), "tools/call against \(peer.mode.rawValue)") {
            try await expectWorking(client)
        }
        try await withHangGuard(hangGuard, "a second call") { try await expectWorking(client) }
        await client.close()
    }

    @Test("A server that never answers initialize: connect times out, naming initialize")
    func silentInitialize() async throws {
        let transport = try launchHostile(.silentInitialize)
        let error = await #expect(throws: MCPClientError.self) {
            _ = try await withHangGuard(hangGuard, "connecting") {
                try await MCPClient.connect(over: transport, configuration: configuration())
            }
        }
        if let error {
            #expect(error == .timedOut, "\(error.detail)")
            expect(error.detail, mentions: .any("initialize"))
        }
        await transport.close()
        try await expectFreshClientWorks()
    }

    @Test("A call the server never answers times out, is cancelled at the server, and the client goes on")
    func silentCall() async throws {
        let (client, transport) = try await connectHostile(.silentCall, configuration())
        let error = await #expect(throws: MCPClientError.self) {
            _ = try await withHangGuard(hangGuard, "tools/call") { try await client.callTool(name: "probe") }
        }
        #expect(error == .timedOut, "\(error?.detail ?? "")")
        let tools = try await withHangGuard(hangGuard, "tools/list after the timeout") { try await client.listTools() }
        #expect(tools.map(\.name) == ["probe"])
        await client.close()

        let log = await transport.capturedStandardErrorAtEnd()
        let calls = log.split(separator: "\n").filter { $0.hasPrefix("hostile: call ") }.map { $0.dropFirst("hostile: call ".count) }
        let cancelled = log.split(separator: "\n").filter { $0.hasPrefix("hostile: cancelled ") }
            .map { $0.dropFirst("hostile: cancelled ".count) }
        let call = try #require(calls.first, "the server logged no tools/call: \(log)")
        #expect(calls.count == 1)
        #expect(cancelled == [call], "the server should have received notifications/cancelled for \(call): \(log)")
    }

    @Test("Server-to-client requests get method-not-found replies, and the call succeeds")
    func clientRequests() async throws {
        let (client, transport) = try await connectHostile(.clientRequests, configuration(requestTimeout: .seconds(10)))
        try await withHangGuard(hangGuard, "tools/call") { try await expectWorking(client) }
        await client.close()
        let log = await transport.capturedStandardErrorAtEnd()
        // The client declares neither sampling nor roots, so -32601 is the right answer to both.
        #expect(log.contains("hostile: reply s1 error -32601"), "\(log)")
        #expect(log.contains("hostile: reply s2 error -32601"), "\(log)")
    }

    @Test("20,000 tools over 40 pages are all listed")
    func manyTools() async throws {
        let (client, _) = try await connectHostile(.manyTools, configuration(requestTimeout: .seconds(30)))
        let tools = try await withHangGuard(Sanitizers.stretched(.seconds(60)), "tools/list") { try await client.listTools() }
        #expect(tools.count == 20_000)
        #expect(Set(tools.map(\.name)).count == 20_000)
        #expect(tools.first?.name == "tool_00000")
        #expect(tools.last?.name == "tool_19999")
        try await withHangGuard(hangGuard, "tools/call") { try await expectWorking(client) }
        await client.close()
    }

    @Test("A 2026-07-28 server that never acknowledges subscriptions/listen: connect still returns, and calls work")
    func listenNeverAcknowledged() async throws {
        let transport = try launchHostile(.listenNeverAcks)
        do {
            // The discover timeout (2 s) bounds the wait for the acknowledgement; the hang
            // guard is far beyond it.
            let client = try await withHangGuard(hangGuard, "connecting (waiting for the subscriptions/listen acknowledgement)") {
                try await MCPClient.connect(over: transport, configuration: configuration(requestTimeout: .seconds(10)))
            }
            #expect(client.protocolVersion.rawValue == "2026-07-28")
            try await withHangGuard(hangGuard, "tools/call") { try await expectWorking(client) }
            await client.close()
        } catch {
            await transport.close()
            throw error
        }
        let log = await transport.capturedStandardErrorAtEnd()
        #expect(log.contains("hostile: listen received"), "the client should have opened subscriptions/listen: \(log)")
    }
}
