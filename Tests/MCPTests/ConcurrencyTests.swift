import MCP
import MCPPlatform
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("a slow tool never blocks ping or another call")
    func slowToolDoesNotBlock() async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            try await peer.send(["jsonrpc": "2.0", "id": "slow", "method": "tools/call", "params": ["name": "slow"]])
            try await peer.expectPing(id: 1)
            let echo = try await peer.request([
                "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": ["name": "echo", "arguments": ["text": "fast"]],
            ])
            #expect(echo["result"]?["content"]?[0]?["text"] == "fast")
            try await peer.send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": "slow"]])
            try await peer.expectPing(id: 3)
        }
    }

    @Test("200 requests written before any response is read all come back once, with matching ids")
    func pipelined() async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            for index in 0..<200 {
                let id: JSONValue = index.isMultiple(of: 2) ? .int(index) : .string("r\(index)")
                try await peer.send([
                    "jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": ["name": "echo", "arguments": ["text": .string("m\(index)")]],
                ])
            }
            var seen: [JSONValue: String] = [:]
            for _ in 0..<200 {
                let reply = try await peer.next()
                let id = try #require(reply["id"])
                #expect(seen[id] == nil, "duplicate reply for \(id)")
                seen[id] = reply["result"]?["content"]?[0]?["text"]?.stringValue
            }
            for index in 0..<200 {
                let id: JSONValue = index.isMultiple(of: 2) ? .int(index) : .string("r\(index)")
                #expect(seen[id] == "m\(index)")
            }
            try await peer.expectPing()
        }
    }

    @Test("a cancelled slow call gets no response and frees its task")
    func cancelledCall() async throws {
        let calls = SlowCalls()
        let server = try await TestServers.make(calls: calls)
        try await RawPeer.with(server) { peer in
            try await peer.send(["jsonrpc": "2.0", "id": 41, "method": "tools/call", "params": ["name": "slow"]])
            await calls.started.wait(untilAtLeast: 1)
            try await peer.send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": 41, "reason": "test"]])
            // The handler returns only when its task is cancelled.
            await calls.cancelled.wait(untilAtLeast: 1)
            // The next message is the ping's reply: nothing was sent for request 41.
            try await peer.expectPing(id: 42)
        }
    }

    @Test("many callers through one client get their own answers", arguments: Route.allCases)
    func concurrentClientCalls(route: Route) async throws {
        let server = try await TestServers.make()
        try await route.with(server) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        let result = try await client.callTool(name: "add", arguments: ["a": .int(index), "b": 1000])
                        #expect(result.structuredContent == ["sum": .int(index + 1000)])
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test("state stays consistent while tools are registered during calls")
    func registrationDuringCalls() async throws {
        let server = try await TestServers.make()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { try await server.register(name: "t\(index)", description: "T") { _, _ in .text("\(index)") } }
                group.addTask { _ = await server.handle(json: ["jsonrpc": "2.0", "id": .int(index), "method": "tools/list"] as JSONValue) }
            }
            try await group.waitForAll()
        }
        let names = await server.tools.map(\.name)
        #expect(names == names.sorted())
        #expect(names.count == 54)
    }
}

extension PoolHoldingTests {
    /// Each of these tests holds one of the shared pool's threads with a computing tool, so they run
    /// one at a time, and not beside the other suites of ``PoolHoldingTests``: two at once would hold
    /// both threads of a two-core machine, and nothing else (the connection reading the cancellation
    /// among it) could run until their hang guards ended.
    @Suite("Cancellation of tools that compute without suspending", .serialized)
    struct ComputingToolCancellationTests {
        /// A server whose `spin` tool computes without ever suspending until its task is cancelled
        /// (or, as a hang guard, for 30 seconds), and reports whether it saw the cancellation.
        private static func spinningServer(started: OneShot<Void>, ended: OneShot<Bool>) async throws -> MCPServer {
            let server = MCPServer(name: "spin", version: "1")
            try await server.register(name: "spin", description: "Computes until cancelled") { _, _ in
                started.fulfill(())
                let giveUp = ContinuousClock.now + .seconds(30)
                var rounds = 0
                while !Task.isCancelled, ContinuousClock.now < giveUp { rounds &+= 1 }
                ended.fulfill(Task.isCancelled)
                return .text("\(rounds)")
            }
            return server
        }

        @Test("notifications/cancelled reaches a tool that computes without suspending", .timeLimit(.minutes(1)))
        func cancellationReachesAComputingTool() async throws {
            let started = OneShot<Void>()
            let ended = OneShot<Bool>()
            let server = try await Self.spinningServer(started: started, ended: ended)
            try await RawPeer.with(server) { peer in
                try await peer.send(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "spin"]])
                _ = await started.wait()
                try await peer.send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": 1]])
                #expect(await ended.wait() == true, "the tool saw Task.isCancelled")
                try await peer.expectPing(id: 2)
            }
        }

        @Test("at end of input, the grace period's cancellation reaches a tool that computes without suspending", .timeLimit(.minutes(1)))
        func shutdownReachesAComputingTool() async throws {
            let started = OneShot<Void>()
            let ended = OneShot<Bool>()
            let server = try await Self.spinningServer(started: started, ended: ended)
            let (clientEnd, serverEnd) = InProcessTransport.makePair()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run(on: serverEnd, options: .init(endOfInputGracePeriod: .milliseconds(50))) }
                try await clientEnd.send(JSONRPCMessage(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "spin"]]))
                _ = await started.wait()
                await clientEnd.close()
                // run(on:) returns only once the tool has ended.
                try await group.waitForAll()
            }
            #expect(ended.current == true, "the tool saw Task.isCancelled")
        }

        @Test("cancelling run(on:) reaches a tool computing in place on the connection thread", .timeLimit(.minutes(1)))
        func cancellingTheConnectionReachesAToolOnTheConnectionThread() async throws {
            // The tool holds the connection's thread, so nothing more is read: only cancelling the
            // task that runs the connection can reach it, through the task it recorded as it began.
            let started = OneShot<Void>()
            let ended = OneShot<Bool>()
            let server = try await Self.spinningServer(started: started, ended: ended)
            let (clientEnd, serverEnd) = try makePipeConnectedPair()
            let serving = Task {
                try await server.run(on: serverEnd, options: .init(requestExecution: .connectionThread))
            }
            try await clientEnd.send(JSONRPCMessage(["jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "spin"]]))
            _ = await started.wait()
            serving.cancel()
            _ = try? await serving.value
            #expect(ended.current == true, "the tool saw Task.isCancelled")
            await clientEnd.close()
        }
    }
}
