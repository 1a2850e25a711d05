import Foundation
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The client's defects found by review (issue 8), each with the test that showed it.
@Suite("Client lifetimes, timeouts and errors")
struct ConnectionLifetimeTests {
    // MARK: Every timeout fires on time

    /// A 2026-07-28 server that announces tool list changes and never acknowledges
    /// `subscriptions/listen`: connect returns at the discover deadline (it used to wait for
    /// the connection to die), and the client works.
    @Test("connect returns at the deadline when subscriptions/listen is never acknowledged")
    func listenNeverAcknowledged() async throws {
        let server = ScriptedServer { request in
            switch request.method {
            case "server/discover":
                [
                    "resultType": "complete", "supportedVersions": ["2026-07-28"],
                    "capabilities": ["tools": ["listChanged": true]], "serverInfo": ["name": "mute", "version": "1"],
                ]
            case "tools/call":
                ["resultType": "complete", "content": [["type": "text", "text": "ok"]]]
            default:
                .none  // subscriptions/listen: never acknowledged, never answered
            }
        }
        // The version is pinned so that a slow discover under load cannot fall back to initialize.
        let configuration = MCPClient.Configuration(
            handshake: .version(.v2026_07_28), requestTimeout: .seconds(30), discoverTimeout: .milliseconds(200))
        let text = try await withHangGuard {
            let client = try await MCPClient.connect(over: server.clientEnd, configuration: configuration)
            defer { Task { await client.close() } }
            #expect(client.protocolVersion == .v2026_07_28)
            return try await client.callTool(name: "probe").text
        }
        #expect(text == "ok")
        await server.stop()
    }

    /// In process, a call runs in the caller's task: its timeout used to fire only when the
    /// tool reacted to cancellation.
    @Test("An in-process timeout fires even when the tool ignores cancellation")
    func inProcessTimeoutWithStubbornTool() async throws {
        let server = MCPServer(name: "stubborn", version: "1")
        let release = Gate()
        try await server.register(name: "stubborn", description: "Ignores cancellation") { _, _ in
            await release.wait()  // resumes only when the test opens the gate
            return .text("late")
        }
        let configuration = MCPClient.Configuration(handshake: .version(.v2025_11_25), requestTimeout: .milliseconds(100))
        let client = try await MCPClient.connect(to: server, configuration: configuration)
        await #expect(throws: MCPClientError.timedOut) {
            try await withHangGuard { try await client.callTool(name: "stubborn") }
        }
        release.open()
        await client.close()
    }

    // MARK: Nothing leaks when close() is forgotten

    /// A client dropped without close() used to keep its reading thread, its deadline task,
    /// its descriptors and the connection open: the server never saw its input end.
    @Test("A client dropped without close() ends its connection")
    func droppedClientEndsConnection() async throws {
        let server = MCPServer(name: "dropped", version: "1")
        try await server.register(name: "echo", description: "Echoes") { arguments, _ in .text("ok") }
        let toServer = try POSIX.makePipe()
        let toClient = try POSIX.makePipe()
        let serverEnd = try FileDescriptorTransport(readingFrom: toServer.read, writingTo: toClient.write)
        let serving = Task { try await server.run(on: serverEnd) }
        weak var released: MCPClient?
        do {
            let clientEnd = try FileDescriptorTransport(readingFrom: toClient.read, writingTo: toServer.write)
            let client = try await MCPClient.connect(over: clientEnd)
            #expect(try await client.callTool(name: "echo").text == "ok")
            released = client
        }
        // The server's run(on:) returns only when the client's side of the pipe is closed.
        try await withHangGuard { try await serving.value }
        #expect(released == nil)
    }

    /// A transport dropped without close() shuts its child down: input closed, then SIGTERM
    /// (the child here ignores its input), so the child never outlives it.
    @Test("A process transport dropped without close() ends its child")
    func droppedProcessTransportEndsChild() async throws {
        let directory = try TemporaryFIFO()
        do {
            // The child holds the FIFO's write end until it dies; it ignores end of input.
            _ = try ProcessTransport.launch(
                "/bin/sh", arguments: ["-c", "exec 3>\"$0\"; exec sleep 3600", directory.path],
                standardError: .discard, terminationGracePeriod: .milliseconds(50))
        }
        let reader = try directory.openForReading()
        defer { POSIX.close(reader) }
        // End of file on the FIFO: every writer, the child, is gone.
        let ended = try await withHangGuard { await Self.waitForEndOfFile(reader) }
        #expect(ended)
    }

    static func waitForEndOfFile(_ descriptor: Int32) async -> Bool {
        await withCheckedContinuation { continuation in
            // A blocking read on a thread of its own: the wait is for an event, end of file.
            let thread = Thread {
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
                defer { buffer.deallocate() }
                while true {
                    guard let count = try? POSIX.read(descriptor, into: buffer) else { return continuation.resume(returning: false) }
                    if count == 0 { return continuation.resume(returning: true) }
                }
            }
            thread.start()
        }
    }

    // MARK: Send failures keep their reasons

    @Test("A request over the frame limit is requestTooLarge, not connectionClosed")
    func oversizedRequestIsItsOwnError() async throws {
        try await PipeConnection.with(maximumFrameLength: 4096) { client in
            let big = String(repeating: "x", count: 10_000)
            await #expect(throws: MCPClientError.requestTooLarge) {
                try await client.callTool(name: "echo", arguments: ["text": .string(big)])
            }
            let after = try await client.callTool(name: "echo", arguments: ["text": "still here"])
            #expect(after.text == "still here")
        }
    }

    @Test("A request that cannot be encoded is encodingFailed, not connectionClosed")
    func unencodableRequestIsItsOwnError() async throws {
        try await PipeConnection.with { client in
            await #expect(throws: MCPClientError.encodingFailed) {
                try await client.callTool(name: "echo", arguments: ["text": .double(.nan)])
            }
            let after = try await client.callTool(name: "echo", arguments: ["text": "still here"])
            #expect(after.text == "still here")
        }
    }

    @Test("A request after close() is connectionClosed")
    func requestAfterClose() async throws {
        try await PipeConnection.with { client in
            await client.close()
            await #expect(throws: MCPClientError.connectionClosed) {
                try await client.callTool(name: "echo", arguments: ["text": "late"])
            }
        }
    }

    @Test("A caller cancelled while the output is backed up gets CancellationError")
    func cancelledWhileBackedUp() async throws {
        // Nobody reads the pipe the channel writes to: the outbound buffer fills and senders wait.
        let toPeer = try POSIX.makePipe()
        let fromPeer = try POSIX.makePipe()
        let transport = try FileDescriptorTransport(
            readingFrom: fromPeer.read, writingTo: toPeer.write, closesInput: true, closesOutput: true,
            maximumFrameLength: 1 << 20, outboundByteLimit: 64 * 1024)
        let channel = TransportChannel(transport: transport, streams: NotificationStreams())
        channel.start()
        let blob = JSONValue.string(String(repeating: "y", count: 200_000))
        // The first fills the pipe (the writer blocks in write: nobody reads), the second the
        // buffer; each send returns once its message is queued.
        for index in 0..<2 {
            let filler = JSONRPCNotification(method: "fill \(index)", params: ["blob": blob])
            try await withHangGuard { try await transport.send(.notification(filler)) }
        }
        let waiting = Task { try await channel.request("wait", params: ["blob": blob], progress: nil, timeout: nil) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await withHangGuard { try await waiting.value } }
        // The peer goes away: writing fails, and close() has nothing left to wait for.
        POSIX.close(toPeer.read)
        POSIX.close(fromPeer.write)
        try await withHangGuard { await channel.close() }
    }

    // MARK: Notifications reach every subscriber

    @Test("Every notifications stream gets every notification")
    func notificationsHaveManySubscribers() async throws {
        let server = MCPServer(name: "changing", version: "1")
        let client = try await MCPClient.connect(to: server)
        let first = client.notifications
        let second = client.notifications
        try await server.register(name: "new", description: "A new tool") { _, _ in .text("") }
        var firstIterator = first.makeAsyncIterator()
        var secondIterator = second.makeAsyncIterator()
        #expect(await firstIterator.next() == .toolListChanged)
        #expect(await secondIterator.next() == .toolListChanged)
        await client.close()
        #expect(await firstIterator.next() == nil)
        #expect(await secondIterator.next() == nil)
        // A stream made after the end is finished at once.
        var late = client.notifications.makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    @Test("A stream whose consumer stopped leaves the others alone")
    func abandonedSubscriberIsDropped() async throws {
        let streams = NotificationStreams()
        do {
            let stream = streams.subscribe()
            let consumer = Task { for await _ in stream {} }
            consumer.cancel()
            await consumer.value
        }
        let kept = streams.subscribe()
        #expect(streams.subscriberCount == 1)
        streams.deliver(JSONRPCNotification(method: MCPMethod.toolsListChanged)) { _ in nil }
        streams.finish()
        var received: [ServerNotification] = []
        for await notification in kept { received.append(notification) }
        #expect(received == [.toolListChanged])
    }

    // MARK: One bad tool does not spoil a listing

    @Test("A malformed tool is skipped with a diagnostic; the rest of the page is used")
    func malformedToolIsSkipped() async throws {
        let server = ScriptedServer { request in
            switch request.method {
            case "initialize":
                ScriptedServer.initializeResult
            case "tools/list":
                [
                    "tools": [
                        ["name": "good", "inputSchema": ["type": "object"]],
                        ["name": "broken", "inputSchema": nil],
                        ["description": "no name", "inputSchema": ["type": "object"]],
                        ["name": "also_good", "inputSchema": ["type": "object"]],
                    ]
                ]
            default:
                .none
            }
        }
        let configuration = MCPClient.Configuration(handshake: .version(.v2025_11_25), requestTimeout: .seconds(10))
        let client = try await MCPClient.connect(over: server.clientEnd, configuration: configuration)
        let listing = try await client.listTools()
        #expect(listing.tools.map(\.name) == ["good", "also_good"])
        #expect(listing.skipped.map(\.position) == [1, 2])
        #expect(listing.skipped.first?.name == "broken")
        #expect(listing.skipped.first?.description.contains("inputSchema") == true)
        #expect(try await client.listTools().map(\.name) == ["good", "also_good"])
        await client.close()
        await server.stop()
    }

    // MARK: Fail fast on what can be seen

    @Test("A server that exits fails the pending call at once with its status and stderr")
    func exitStatusAndStandardErrorReachTheCaller() async throws {
        let error = await #expect(throws: MCPClientError.connectionClosed) {
            try await withHangGuard {
                // Reads the first request, complains, exits 3: the handshake fails with what it said.
                // Boxed (through the launcher), without the box's address-space limit: under
                // ThreadSanitizer the launcher itself is a TSan build, which cannot run under one.
                _ = try await MCPClient.connect(
                    to: .process(
                        "/bin/sh", arguments: ["-c", "read line; echo 'fatal: no config file' >&2; exit 3"], standardError: .capture,
                        sandbox: Sandbox(memoryLimit: nil)),
                    configuration: MCPClient.Configuration(requestTimeout: .seconds(60), discoverTimeout: .seconds(60)))
            }
        }
        let text = String(describing: error)
        #expect(text.contains("exited with status 3"), "\(text)")
        #expect(text.contains("fatal: no config file"), "\(text)")
    }

    @Test("A timeout says what the server sent that answered nothing")
    func timeoutNamesTheProtocolError() async throws {
        let server = ScriptedServer { request in
            request.method == "initialize" ? ScriptedServer.initializeResult : .none
        }
        let configuration = MCPClient.Configuration(handshake: .version(.v2025_11_25), requestTimeout: .seconds(30))
        let client = try await MCPClient.connect(over: server.clientEnd, configuration: configuration)
        // A response to an id nobody asked with.
        try await server.send(.response(JSONRPCResponse(id: .int(4242), result: [:])))
        let error = await #expect(throws: MCPClientError.timedOut) { try await client.callTool(name: "probe", timeout: .milliseconds(300)) }
        #expect(String(describing: error).contains("4242"))
        await client.close()
        await server.stop()
    }
}

/// A gate a stubborn tool waits at: only ``open()`` lets it through, cancellation does not.
final class Gate: @unchecked Sendable {
    private let lock = Lock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if isOpen {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    func open() {
        let woken = lock.withLock {
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in woken { waiter.resume() }
    }
}

/// A FIFO in a temporary directory of its own, removed at deinit.
final class TemporaryFIFO {
    let directory: String
    var path: String { directory + "/fifo" }

    init() throws {
        var template = Array("/tmp/ondevice-mcp-fifo-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Errno.current("mkdtemp") }
        directory = String(cString: made)
        guard mkfifo(directory + "/fifo", 0o600) == 0 else { throw Errno.current("mkfifo") }
    }

    /// Opens the read end without waiting for a writer (one is already there by then, or the
    /// read sees end of file only once one has come and gone).
    func openForReading() throws -> Int32 {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Errno.current("open") }
        return descriptor
    }

    deinit {
        unlink(path)
        rmdir(directory)
    }
}

/// A client and an ``MCPServer`` with an `echo` tool, connected over two pipes.
enum PipeConnection {
    static func with(
        maximumFrameLength: Int = FileDescriptorTransport.defaultMaximumFrameLength,
        _ body: @Sendable (MCPClient) async throws -> Void
    ) async throws {
        let server = MCPServer(name: "pipes", version: "1")
        try await server.register(
            name: "echo", description: "Echoes",
            inputSchema: ["type": "object", "properties": ["text": ["type": "string"]]]
        ) { arguments, _ in
            .text(arguments["text"]?.stringValue ?? "")
        }
        let toServer = try POSIX.makePipe()
        let toClient = try POSIX.makePipe()
        let serverEnd = try FileDescriptorTransport(
            readingFrom: toServer.read, writingTo: toClient.write, maximumFrameLength: maximumFrameLength)
        let clientEnd = try FileDescriptorTransport(
            readingFrom: toClient.read, writingTo: toServer.write, maximumFrameLength: maximumFrameLength)
        let serving = Task { try await server.run(on: serverEnd) }
        let client = try await MCPClient.connect(over: clientEnd, configuration: MCPClient.Configuration(requestTimeout: .seconds(30)))
        try await body(client)
        await client.close()
        try await withHangGuard { try await serving.value }
    }
}
