import Foundation
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
}

extension PoolHoldingTests {
    /// Tools that hold every thread of the pool, and the `ping` that must still be answered.
    @Suite("Busy tools and ping")
    struct BusyToolsTests {
        /// By default a tool runs on Swift's shared executor: tools that hold their threads (here
        /// blocked in `read`, as long synchronous work would be) do not stop the connection from
        /// reading and answering `ping`, even when they hold every thread of the pool.
        ///
        /// The peer is a script on a thread of its own, and everything it waits for is a
        /// descriptor with a deadline: the pool is held only while the server answers the ping, so
        /// the tests running beside this one are not starved, and a server that needed the pool
        /// for `ping` would fail this test at the deadline instead of hanging the whole run.
        @Test("Tools holding every thread of Swift's pool do not stop ping over stdio")
        func busyToolsDoNotStallPing() async throws {
            // The cooperative pool has a thread per processor the process may run on.
            let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
            let started = try POSIX.makePipe()
            let release = try POSIX.makePipe()
            defer {
                POSIX.close(started.read)
                POSIX.close(started.write)
                POSIX.close(release.read)
            }
            let server = MCPServer(name: "busy", version: "1")
            try await server.register(name: "busy", description: "Holds its thread") { _, _ in
                try? POSIX.writeAll(started.write, [0x2A])
                // Blocks this thread until the peer closes the other end.
                _ = try? POSIX.readToEnd(release.read)
                return .text("done")
            }
            let toServer = try POSIX.makePipe()
            let toClient = try POSIX.makePipe()
            let serverEnd = try FileDescriptorTransport(readingFrom: toServer.read, writingTo: toClient.write)
            let serving = Task { try await server.run(on: serverEnd) }
            defer { POSIX.close(toClient.read) }
            let peer = ScriptedPeer(reading: toClient.read, writing: toServer.write)
            let pinged = await onThread { () -> Result<String, ScriptedPeer.Failure> in
                // Whatever happens, the tools are let go then (closing the last writer ends their reads).
                defer { POSIX.close(release.write) }
                return Result { () throws(ScriptedPeer.Failure) -> String in
                    try peer.send(
                        #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","#
                            + #""capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#)
                    _ = try peer.line()
                    try peer.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
                    for id in 1...width {
                        try peer.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"busy"}}"#)
                    }
                    try peer.receive(byteCount: width, from: started.read)
                    try peer.send(#"{"jsonrpc":"2.0","id":"ping","method":"ping"}"#)
                    return try peer.line()
                }
            }
            let called = await onThread { () -> Result<[String], ScriptedPeer.Failure> in
                Result { () throws(ScriptedPeer.Failure) -> [String] in
                    var lines: [String] = []
                    for _ in 1...width { lines.append(try peer.line()) }
                    return lines
                }
            }
            POSIX.close(toServer.write)
            let ping = try JSONValue(parsing: try pinged.get())
            #expect(ping["id"] == "ping")
            #expect(ping["result"] == [:])
            let answered = try called.get().map { try JSONValue(parsing: $0) }
            #expect(Set(answered.compactMap { $0["id"]?.intValue }) == Set(1...width))
            #expect(answered.allSatisfy { $0["result"]?["content"]?[0]?["text"] == "done" })
            try await withHangGuard { try await serving.value }
        }
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
