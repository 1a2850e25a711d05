import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCP

/// What a flooding or greedy peer meets on the server side: request and batch limits, tools
/// that ask not to overlap, and requests kept off the connection's reading thread.
@Suite("Server limits")
struct ServerLimitsTests {
    /// A tool that records how many of its calls run at once; each call suspends a few times
    /// so that calls that may overlap do.
    static func trackingServer(_ tracker: ConcurrencyTracker, concurrency: MCPTool.Concurrency = .concurrent) async throws -> MCPServer {
        let server = MCPServer(name: "limits", version: "1")
        try await server.register(name: "track", description: "Counts overlapping calls", concurrency: concurrency) { _, _ in
            tracker.enter()
            for _ in 0..<5 { await Task.yield() }
            tracker.leave()
            return .text("ok")
        }
        return server
    }

    @Test("A 10,000-element batch is answered with at most the request limit running at once")
    func batchCountsAgainstTheLimit() async throws {
        let tracker = ConcurrencyTracker()
        let server = try await Self.trackingServer(tracker)
        let (clientEnd, serverEnd) = InProcessTransport.makePair()
        let serving = Task { try await server.run(on: serverEnd, options: .init(maximumConcurrentRequests: 4)) }
        let stream = clientEnd.receive()
        var inbound = stream.makeAsyncIterator()
        try await clientEnd.send(
            try JSONRPCMessage([
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": ["protocolVersion": "2025-03-26", "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]],
            ]))
        _ = try await inbound.next()
        try await clientEnd.send(.notification(JSONRPCNotification(method: "notifications/initialized")))
        let calls: [JSONValue] = (1...10_000).map { id in
            ["jsonrpc": "2.0", "id": .int(id), "method": "tools/call", "params": ["name": "track"]]
        }
        try await clientEnd.send(.batch(calls))
        let reply = try await withHangGuard(.seconds(60)) { () -> InboundMessage? in
            // The initialize reply was the first element; the batch reply is the next one.
            var iterator = stream.makeAsyncIterator()
            return try await iterator.next()
        }
        guard case .message(.batch(let responses))? = reply else {
            Issue.record("expected a batch response, got \(String(describing: reply))")
            return
        }
        #expect(responses.count == 10_000)
        #expect(Set(responses.compactMap { $0["id"]?.intValue }) == Set(1...10_000))
        #expect(tracker.maximum <= 4)
        #expect(tracker.maximum >= 1)
        await clientEnd.close()
        try await serving.value
    }

    @Test("Pipelined requests run at most the request limit at once")
    func pipelinedRequestsAreBounded() async throws {
        let tracker = ConcurrencyTracker()
        let server = try await Self.trackingServer(tracker)
        let (clientEnd, serverEnd) = InProcessTransport.makePair()
        let serving = Task { try await server.run(on: serverEnd, options: .init(maximumConcurrentRequests: 3)) }
        for id in 1...200 {
            try await clientEnd.send(
                try JSONRPCMessage(["jsonrpc": "2.0", "id": .int(id), "method": "tools/call", "params": ["name": "track"]]))
        }
        var answered: Set<Int> = []
        for try await inbound in clientEnd.receive() {
            if case .message(.response(let response)) = inbound, let id = response.id.json.intValue { answered.insert(id) }
            if answered.count == 200 { break }
        }
        #expect(answered == Set(1...200))
        #expect(tracker.maximum <= 3)
        await clientEnd.close()
        try await serving.value
    }

    @Test("A serialized tool's calls never overlap")
    func serializedToolsDoNotOverlap() async throws {
        let tracker = ConcurrencyTracker()
        let server = try await Self.trackingServer(tracker, concurrency: .serialized)
        try await MCPClient.withConnection(to: server) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<32 {
                    group.addTask { _ = try await client.callTool(name: "track") }
                }
                try await group.waitForAll()
            }
        }
        #expect(tracker.maximum == 1)
    }

    @Test("A concurrent tool's calls do overlap")
    func concurrentToolsOverlap() async throws {
        let server = MCPServer(name: "meet", version: "1")
        let meeting = Meeting(size: 2)
        try await server.register(name: "meet", description: "Returns once two calls are inside") { _, _ in
            await meeting.arrive()
            return .text("met")
        }
        try await MCPClient.withConnection(to: server) { client in
            try await withHangGuard {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<2 {
                        group.addTask { _ = try await client.callTool(name: "meet") }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }

    @Test("A serialized tool's waiting call can be cancelled")
    func waitingSerializedCallIsCancellable() async throws {
        let server = MCPServer(name: "serial", version: "1")
        let gate = Gate()
        let started = Gate()
        try await server.register(name: "hold", description: "Holds the line", concurrency: .serialized) { _, _ in
            started.open()
            await gate.wait()
            return .text("done")
        }
        try await MCPClient.withConnection(to: server) { client in
            let first = Task { try await client.callTool(name: "hold") }
            await started.wait()
            let second = Task { try await client.callTool(name: "hold") }
            second.cancel()
            await #expect(throws: CancellationError.self) { try await withHangGuard { try await second.value } }
            gate.open()
            let text = try await first.value.text
            #expect(text == "done")
        }
    }

    /// By default a tool runs on Swift's shared executor: a tool that holds its thread (here it
    /// blocks on a condition variable, as long synchronous work would) does not stop the
    /// connection from reading and answering `ping`.
    @Test("A tool holding its thread does not stop ping over stdio")
    func busyToolDoesNotStallPing() async throws {
        let server = MCPServer(name: "busy", version: "1")
        let held = ThreadHold()
        let started = Gate()
        try await server.register(name: "busy", description: "Holds its thread") { _, _ in
            started.open()
            held.block()
            return .text("done")
        }
        let toServer = try POSIX.makePipe()
        let toClient = try POSIX.makePipe()
        let serverEnd = try FileDescriptorTransport(readingFrom: toServer.read, writingTo: toClient.write)
        let clientEnd = try FileDescriptorTransport(readingFrom: toClient.read, writingTo: toServer.write)
        let serving = Task { try await server.run(on: serverEnd) }
        let client = try await MCPClient.connect(
            over: clientEnd, configuration: MCPClient.Configuration(handshake: .version(.v2025_11_25), requestTimeout: .seconds(60)))
        let call = Task { try await client.callTool(name: "busy") }
        await started.wait()
        try await withHangGuard { try await client.ping() }
        held.release()
        let text = try await call.value.text
        #expect(text == "done")
        await client.close()
        try await withHangGuard { try await serving.value }
    }
}

/// Counts how many calls are inside a section at once, and the most there ever were.
final class ConcurrencyTracker: @unchecked Sendable {
    private let lock = Lock()
    private var current = 0
    private var peak = 0

    func enter() {
        lock.withLock {
            current += 1
            peak = max(peak, current)
        }
    }

    func leave() {
        lock.withLock { current -= 1 }
    }

    var maximum: Int { lock.withLock { peak } }
}

/// Blocks the calling thread (not just the task) until released, as synchronous work would.
final class ThreadHold: @unchecked Sendable {
    private let condition = ConditionLock()
    private var released = false

    func block() {
        condition.lock()
        while !released { condition.wait() }
        condition.unlock()
    }

    func release() {
        condition.lock()
        released = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Lets callers through once `size` of them have arrived.
final class Meeting: @unchecked Sendable {
    private let lock = Lock()
    private let size: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(size: Int) {
        self.size = size
    }

    func arrive() async {
        await withCheckedContinuation { continuation in
            let everyone: [CheckedContinuation<Void, Never>] = lock.withLock {
                waiting.append(continuation)
                guard waiting.count >= size else { return [] }
                defer { waiting = [] }
                return waiting
            }
            for member in everyone { member.resume() }
        }
    }
}
