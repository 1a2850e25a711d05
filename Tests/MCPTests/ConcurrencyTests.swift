import MCP
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
