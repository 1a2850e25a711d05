import MCP
import Testing

/// How a test client reaches the test server.
enum Route: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case direct
    case inProcessTransport

    var testDescription: String { rawValue }

    /// Connects a client to `server` over this route and runs `body`, then closes both.
    func with<T: Sendable>(
        _ server: MCPServer, configuration: MCPClient.Configuration = MCPClient.Configuration(),
        _ body: @Sendable (MCPClient) async throws -> T
    ) async throws -> T {
        switch self {
        case .direct:
            let client = try await MCPClient.connect(to: server, configuration: configuration)
            let result = try await body(client)
            await client.close()
            return result
        case .inProcessTransport:
            let (clientEnd, serverEnd) = InProcessTransport.makePair()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run(on: serverEnd) }
                let client = try await MCPClient.connect(over: clientEnd, configuration: configuration)
                let result = try await body(client)
                await client.close()
                try await group.waitForAll()
                return result
            }
        }
    }
}

@Suite("Client end to end")
struct ClientTests {
    @Test("lists and calls tools", arguments: Route.allCases)
    func listAndCall(route: Route) async throws {
        let server = try await TestServers.make()
        try await route.with(server) { client in
            #expect(client.serverInfo.name == "test-server")
            #expect(client.serverInfo.version == "1.2.3")
            #expect(client.instructions == "Test tools.")
            let tools = try await client.listTools()
            #expect(tools.map(\.name) == ["add", "echo", "fail", "slow"])
            #expect(tools.first { $0.name == "echo" }?.description == "Repeats the text")
            let echo = try await client.callTool(name: "echo", arguments: ["text": "hello"])
            #expect(echo == .text("hello"))
            let sum = try await client.callTool(name: "add", arguments: ["a": 20, "b": 22])
            #expect(sum.structuredContent == ["sum": 42])
            #expect(!sum.isError)
            let failure = try await client.callTool(name: "fail")
            #expect(failure.isError)
            #expect(failure.text == MCPServer.internalFailureMessage)
        }
    }

    @Test("an unknown tool throws the server's -32602", arguments: Route.allCases)
    func unknownTool(route: Route) async throws {
        let server = try await TestServers.make()
        try await route.with(server) { client in
            let error = await #expect(throws: JSONRPCError.self) { try await client.callTool(name: "missing") }
            #expect(error?.code == .invalidParams)
            #expect(error?.message == "Unknown tool: missing")
        }
    }

    @Test(
        "the handshake agrees on each version",
        arguments: [
            (MCPClient.Handshake.auto, ProtocolVersion.v2026_07_28),
            (.version(.v2024_11_05), .v2024_11_05), (.version(.v2025_03_26), .v2025_03_26),
            (.version(.v2025_06_18), .v2025_06_18), (.version(.v2025_11_25), .v2025_11_25),
            (.version(.v2026_07_28), .v2026_07_28),
        ])
    func handshake(handshake: MCPClient.Handshake, expected: ProtocolVersion) async throws {
        let server = try await TestServers.make()
        for route in Route.allCases {
            try await route.with(server, configuration: .init(handshake: handshake)) { client in
                #expect(client.protocolVersion == expected)
                #expect(client.serverCapabilities.toolsListChanged)
                let echoed = try await client.callTool(name: "echo", arguments: ["text": "v"])
                #expect(echoed == .text("v"))
                try await client.ping()
            }
        }
    }

    @Test("listTools follows every page", arguments: [1, 2, 3, 100])
    func pagination(pageSize: Int) async throws {
        let server = try await TestServers.make(pageSize: pageSize)
        for index in 0..<7 {
            try await server.register(name: "extra_\(index)", description: "Extra") { _, _ in .text("") }
        }
        try await Route.direct.with(server) { client in
            let names = try await client.listTools().map(\.name)
            #expect(names == ["add", "echo", "extra_0", "extra_1", "extra_2", "extra_3", "extra_4", "extra_5", "extra_6", "fail", "slow"])
            let first = try await client.listTools(cursor: nil)
            #expect(first.tools.count == min(pageSize, 11))
            #expect((first.nextCursor == nil) == (pageSize >= 11))
        }
    }

    @Test("an invalid cursor is -32602")
    func invalidCursor() async throws {
        let server = try await TestServers.make()
        try await Route.direct.with(server) { client in
            let error = await #expect(throws: JSONRPCError.self) { try await client.listTools(cursor: "not-ours") }
            #expect(error?.code == .invalidParams)
        }
    }

    @Test("progress reaches the call's handler", .timeLimit(.minutes(1)), arguments: Route.allCases)
    func progress(route: Route) async throws {
        let server = try await TestServers.make()
        try await route.with(server) { client in
            // No deadline: the call runs until the three reports have arrived, then is cancelled.
            let (reports, reporter) = AsyncStream<ProgressNotification>.makeStream()
            let call = Task {
                try await client.callTool(name: "slow", arguments: ["steps": 3], timeout: nil) { reporter.yield($0) }
            }
            var received: [ProgressNotification] = []
            for await report in reports {
                received.append(report)
                if received.count == 3 { break }
            }
            call.cancel()
            await #expect(throws: CancellationError.self) { try await call.value }
            #expect(received.map(\.progress) == [1, 2, 3])
            #expect(received.map(\.total) == [3, 3, 3])
        }
    }
}

@Suite("Cancellation, timeouts and connection loss")
struct CancellationTests {
    @Test("a timeout cancels the call at the server", arguments: Route.allCases)
    func timeoutCancels(route: Route) async throws {
        let calls = SlowCalls()
        let server = try await TestServers.make(calls: calls)
        try await route.with(server) { client in
            let error = await #expect(throws: MCPClientError.self) {
                try await client.callTool(name: "slow", timeout: .milliseconds(50))
            }
            #expect(error == .timedOut)
            // The handler ends only when its task is cancelled: this returns once it was.
            await calls.cancelled.wait(untilAtLeast: 1)
            let after = try await client.callTool(name: "echo", arguments: ["text": "still here"])
            #expect(after == .text("still here"))
        }
    }

    @Test("cancelling the calling task cancels the call at the server", arguments: Route.allCases)
    func taskCancellation(route: Route) async throws {
        let calls = SlowCalls()
        let server = try await TestServers.make(calls: calls)
        try await route.with(server) { client in
            let call = Task { try await client.callTool(name: "slow", timeout: nil) }
            // Cancel once the call runs at the server, so its cancellation has to reach it.
            await calls.started.wait(untilAtLeast: 1)
            call.cancel()
            await #expect(throws: CancellationError.self) { try await call.value }
            await calls.cancelled.wait(untilAtLeast: 1)
        }
    }

    @Test("when the connection ends, every pending call fails at once")
    func connectionLoss() async throws {
        let slowCalls = SlowCalls()
        let server = try await TestServers.make(calls: slowCalls)
        let (clientEnd, serverEnd) = InProcessTransport.makePair()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run(on: serverEnd) }
            let client = try await MCPClient.connect(over: clientEnd)
            try await withThrowingTaskGroup(of: Void.self) { calls in
                for _ in 0..<5 {
                    calls.addTask {
                        await #expect(throws: MCPClientError.connectionClosed) {
                            try await client.callTool(name: "slow", timeout: nil)
                        }
                    }
                }
                // Close the server's end once all five calls are running there.
                await slowCalls.started.wait(untilAtLeast: 5)
                await serverEnd.close()
                try await calls.waitForAll()
            }
            await #expect(throws: MCPClientError.connectionClosed) { try await client.callTool(name: "echo", arguments: ["text": "x"]) }
            await client.close()
            try await group.waitForAll()
        }
    }
}

@Suite("Typed tools")
struct TypedToolTests {
    struct Search: Decodable, Sendable {
        var query: String
        var limit: Int?
    }

    struct Found: Encodable, Sendable {
        var query: String
        var titles: [String]
    }

    static func server() async throws -> MCPServer {
        let server = MCPServer(name: "typed", version: "1")
        try await server.register(
            name: "search", description: "Search",
            inputSchema: [
                "type": "object", "properties": ["query": ["type": "string"], "limit": ["type": "integer"]], "required": ["query"],
            ]
        ) { (search: Search, _) in
            Found(query: search.query, titles: (0..<(search.limit ?? 2)).map { "note \($0)" })
        }
        try await server.register(
            name: "shout", description: "Upper-cases", inputSchema: ["type": "object", "properties": ["query": ["type": "string"]]]
        ) { (search: Search, _) in
            search.query.uppercased()
        }
        try await server.register(name: "count", description: "Counts", inputSchema: ["type": "object"]) { (_: [String: Int], _) in
            [1, 2, 3]
        }
        return server
    }

    @Test("arguments decode and the return value becomes structured content in declaration order")
    func typedRoundTrip() async throws {
        let client = try await MCPClient.connect(to: try await Self.server())
        let result = try await client.callTool(name: "search", arguments: ["query": "trip", "limit": 1])
        #expect(result.structuredContent == ["query": "trip", "titles": ["note 0"]])
        #expect(result.structuredContent?.objectValue?.keys == ["query", "titles"])
        #expect(result.text == #"{"query":"trip","titles":["note 0"]}"#)
        #expect(try await client.callTool(name: "shout", arguments: ["query": "hi"]) == .text("HI"))
        #expect(try await client.callTool(name: "count").structuredContent == ["result": [1, 2, 3]])
        await client.close()
    }

    @Test("a decoding failure is a tool error naming the argument")
    func decodingFailure() async throws {
        let client = try await MCPClient.connect(to: try await Self.server())
        // The schema allows a missing query for "shout"; the type does not.
        let result = try await client.callTool(name: "shout", arguments: [:])
        #expect(result.isError)
        #expect(result.text.hasPrefix("Invalid arguments for tool shout: /query: "))
        await client.close()
    }
}

@Suite("Closing")
struct ClosingTests {
    @Test("a call after close throws connectionClosed, never a wire error", arguments: Route.allCases)
    func callAfterClose(route: Route) async throws {
        let server = try await TestServers.make()
        switch route {
        case .direct:
            let client = try await MCPClient.connect(to: server)
            await client.close()
            await #expect(throws: MCPClientError.connectionClosed) { try await client.callTool(name: "echo", arguments: ["text": "x"]) }
        case .inProcessTransport:
            let (clientEnd, serverEnd) = InProcessTransport.makePair()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run(on: serverEnd) }
                let client = try await MCPClient.connect(over: clientEnd)
                await client.close()
                await #expect(throws: MCPClientError.connectionClosed) { try await client.callTool(name: "echo", arguments: ["text": "x"]) }
                try await group.waitForAll()
            }
        }
    }
}
