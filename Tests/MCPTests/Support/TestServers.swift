import MCP
import Testing

/// Servers and peers the MCP tests share.
enum TestServers {
    /// A server with `echo`, `add`, `fail`, `slow` and `count` tools.
    ///
    /// - Parameter calls: Where the `slow` tool records its calls: give each test its own, so
    ///   that what one test waits for cannot be another test's call.
    static func make(pageSize: Int = 100, calls: SlowCalls = SlowCalls()) async throws -> MCPServer {
        let server = MCPServer(name: "test-server", version: "1.2.3", instructions: "Test tools.", pageSize: pageSize)
        try await server.register(
            name: "echo", description: "Repeats the text",
            inputSchema: ["type": "object", "properties": ["text": ["type": "string"]], "required": ["text"]]
        ) { arguments, _ in
            .text(arguments["text"]?.stringValue ?? "")
        }
        try await server.register(
            name: "add", description: "Adds two integers",
            inputSchema: [
                "type": "object",
                "properties": ["a": ["type": "integer"], "b": ["type": "integer"]],
                "required": ["a", "b"], "additionalProperties": false,
            ]
        ) { arguments, _ in
            let sum = (arguments["a"]?.intValue ?? 0) + (arguments["b"]?.intValue ?? 0)
            return .structured(["sum": .int(sum)])
        }
        try await server.register(name: "fail", description: "Always throws") { _, _ in
            throw TestFailure(reason: "the disk is full")
        }
        try await server.register(
            name: "slow", description: "Waits until cancelled",
            inputSchema: ["type": "object", "properties": ["steps": ["type": "integer"]]]
        ) { arguments, context in
            await calls.started.record()
            let steps = arguments["steps"]?.intValue ?? 0
            for step in 0..<steps {
                await context.reportProgress(Double(step + 1), total: Double(steps), message: "step \(step + 1)")
            }
            // Park until the call is cancelled; a stream's iteration ends on cancellation.
            let (parked, holder) = AsyncStream<Never>.makeStream()
            for await _ in parked {}
            holder.finish()
            await calls.cancelled.record()
            throw CancellationError()
        }
        return server
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { "TestFailure: \(reason)" }
}

/// The `slow` calls of one server: those that started, and those that saw their
/// cancellation, so a test can wait for a call to be running and prove its task was freed,
/// without sleeping. One per test (``TestServers/make(pageSize:calls:)``): no process-wide log.
struct SlowCalls: Sendable {
    let started = CallLog()
    let cancelled = CallLog()
}

/// Counts events, and lets tasks wait for a count.
actor CallLog {
    private var count = 0
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    func record() {
        count += 1
        let ready = waiters.filter { $0.0 <= count }
        waiters.removeAll { $0.0 <= count }
        for waiter in ready { waiter.1.resume() }
    }

    /// Waits until `total` events have been recorded.
    func wait(untilAtLeast total: Int) async {
        if count >= total { return }
        await withCheckedContinuation { waiters.append((total, $0)) }
    }

    var recorded: Int { count }
}

/// A peer that speaks raw JSON-RPC to a server running on an in-process transport.
struct RawPeer {
    let transport: InProcessTransport
    var inbound: AsyncThrowingStream<InboundMessage, any Error>.AsyncIterator

    /// Runs `body` with a peer connected to `server.run(on:)`; ends the connection after.
    static func with<T: Sendable>(
        _ server: MCPServer, _ body: (inout RawPeer) async throws -> T
    ) async throws -> T {
        let (clientEnd, serverEnd) = InProcessTransport.makePair()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run(on: serverEnd) }
            var peer = RawPeer(transport: clientEnd, inbound: clientEnd.receive().makeAsyncIterator())
            let result = try await body(&peer)
            await clientEnd.close()
            try await group.waitForAll()
            return result
        }
    }

    func send(_ json: JSONValue) async throws {
        try await transport.send(try JSONRPCMessage(json))
    }

    func send(_ message: JSONRPCMessage) async throws {
        try await transport.send(message)
    }

    /// The next message the server sends.
    mutating func next() async throws -> JSONValue {
        guard case .message(let message)? = try await inbound.next() else {
            Issue.record("the server closed the connection")
            return nil
        }
        return message.json
    }

    /// Sends a request and returns the server's reply.
    mutating func request(_ json: JSONValue) async throws -> JSONValue {
        try await send(json)
        return try await next()
    }

    /// Proves the connection still works: `ping` gets `{}`.
    mutating func expectPing(id: Int = 999, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let reply = try await request(["jsonrpc": "2.0", "id": .int(id), "method": "ping"])
        #expect(reply == ["jsonrpc": "2.0", "id": .int(id), "result": [:]], sourceLocation: sourceLocation)
    }
}
