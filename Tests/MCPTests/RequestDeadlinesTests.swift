import MCPCore
import MCPPlatform
import Testing

@testable import MCP

@Suite("Request deadlines", .timeLimit(.minutes(1)))
struct RequestDeadlinesTests {
    @Test("over a transport, a call with a short timeout times out while a longer one waits")
    func mixedTimeoutsOverTransport() async throws {
        let server = try await TestServers.make()
        try await Route.inProcessTransport.with(server) { client in
            let long = Task { try await client.callTool(name: "slow", timeout: .seconds(3600)) }
            let error = await #expect(throws: MCPClientError.self) {
                try await client.callTool(name: "slow", timeout: .milliseconds(40))
            }
            #expect(error == .timedOut)
            long.cancel()
            await #expect(throws: CancellationError.self) { try await long.value }
            let after = try await client.callTool(name: "echo", arguments: ["text": "still here"])
            #expect(after == .text("still here"))
        }
    }

    @Test("on a manual clock, a call times out when the clock reaches its deadline, not before")
    func manualClockDrivesTheClientTimeout() async throws {
        let manual = ManualClock()
        // The server never answers tools/call; it reports each call's id to the test.
        let (calls, reported) = AsyncStream<RequestID>.makeStream()
        let server = ScriptedServer { request in
            switch request.method {
            case "initialize":
                return ScriptedServer.initializeResult
            case "tools/call":
                reported.yield(request.id)
                return nil
            default:
                return nil
            }
        }
        var configuration = MCPClient.Configuration(handshake: .version(.v2025_11_25), requestTimeout: .seconds(30))
        configuration.clock = DeadlineClock(manual)
        let client = try await MCPClient.connect(over: server.clientEnd, configuration: configuration)
        var ids = calls.makeAsyncIterator()

        // 29 s on the clock: the first call still waits, and takes the reply the server sends then.
        let first = Task { try await client.callTool(name: "slow") }
        let firstID = try #require(await ids.next())
        manual.advance(by: .seconds(29))
        try await server.send(.response(JSONRPCResponse(id: firstID, result: CallToolResult.text("late but in time").json)))
        #expect(try await first.value == .text("late but in time"))

        // The full 30 s: the second call times out, without a reply and without real time passing.
        let second = Task { try await client.callTool(name: "slow") }
        _ = try #require(await ids.next())
        manual.advance(by: .seconds(30))
        let error = await #expect(throws: MCPClientError.self) { try await second.value }
        #expect(error == .timedOut)
        await client.close()
        await server.stop()
    }

    @Test("in process on a manual clock, a call times out when the clock reaches its deadline, not before")
    func manualClockDrivesTheInProcessTimeout() async throws {
        let manual = ManualClock()
        let server = MCPServer(name: "stubborn", version: "1")
        let started = OneShot<Void>()
        let release = OneShot<Void>()
        try await server.register(name: "stubborn", description: "Waits for the test") { _, _ in
            started.fulfill(())
            _ = await release.wait()
            return .text("late")
        }
        var configuration = MCPClient.Configuration.inProcess
        configuration.requestTimeout = .seconds(30)
        configuration.clock = DeadlineClock(manual)
        let client = try await MCPClient.connect(to: server, configuration: configuration)
        let call = Task { try await client.callTool(name: "stubborn") }
        _ = await started.wait()
        await manual.waitForSleepers()
        manual.advance(by: .seconds(29))
        // The call's deadline timer is the one sleeper, and 29 s did not wake it.
        #expect(manual.sleeperCount == 1)
        manual.advance(by: .seconds(1))
        let error = await #expect(throws: MCPClientError.self) { try await call.value }
        #expect(error == .timedOut)
        release.fulfill(())
        await client.close()
    }
}
