import MCPPlatform
import OnDeviceMCPTestSupport
import Synchronization
import Testing

@testable import MCP

/// How a thread-creation failure is injected.
enum FailingThread: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case writer = "MCP writer"
    case reader = "MCP reader"
    var testDescription: String { "the \(rawValue) thread cannot start" }
}

@Suite("File-descriptor transport failures")
struct TransportFailureTests {
    // MARK: A failed write ends writing (regression: close() hung after a failed inline write)

    @Test(
        "close() returns after a write fails, and later sends throw closed",
        arguments: FailingOutput.allCases, WritePath.allCases)
    func closeAfterFailedWrite(_ output: FailingOutput, _ path: WritePath) async throws {
        let input = try POSIX.makePipe()
        let transport = try FileDescriptorTransport(
            readingFrom: input.read, writingTo: try output.open(), closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength)
        // With the writing thread idle, a small message is written by its sender: the failure
        // is then this send's, and the idle writer must be told to end. A larger one is
        // queued for the writer, which meets the failure itself.
        try await withHangGuard(.seconds(30), "the writer waiting") { _ = await transport.outbound.writerWaiting.wait() }
        do {
            try await transport.send(notification(1, padding: path.padding))
        } catch {
            #expect(error as? TransportError == .closed, "\(error)")
        }
        try await withHangGuard(.seconds(30), "close() after the write failed") { await transport.close() }
        #expect(transport.outbound.finished.current != nil, "the writing thread did not end")
        await #expect(throws: TransportError.closed) { try await transport.send(notification(2)) }
        POSIX.close(input.write)
    }

    /// An output already in error is reported the moment it joins the event loop's set, while
    /// the connection is still registering. That early call kept the registration it read
    /// before draining (none yet); when a sender's failed write then ended writing, the call
    /// finished the output without taking it out of the set: close() waited for good, and
    /// the loop was woken by the error again and again. ThreadSanitizer's CI pass met it about
    /// once in a few thousand transports; four lanes of 1,500 met it in most runs.
    @Test(
        "close() returns for transports whose output is broken before they join the event loop, thousands of times over", arguments: 0..<4)
    func closeAfterBrokenOutputJoinsLoop(lane: Int) async throws {
        for iteration in 0..<1500 {
            let input = try POSIX.makePipe()
            let transport = try FileDescriptorTransport(
                readingFrom: input.read, writingTo: try FailingOutput.brokenPipe.open(), closesInput: true, closesOutput: true,
                maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength)
            try await withHangGuard(.seconds(30), "lane \(lane), transport \(iteration): the writer waiting") {
                _ = await transport.outbound.writerWaiting.wait()
            }
            // Written inline: the sender finds the pipe in error and leaves the bytes to the loop.
            try? await transport.send(notification(iteration, padding: WritePath.inline.padding))
            try await withHangGuard(.seconds(30), "lane \(lane), transport \(iteration): close()") { await transport.close() }
            #expect(transport.outbound.finished.current != nil)
            POSIX.close(input.write)
        }
    }

    @Test("The server loop's final close returns when its output fails")
    func serveEndsAfterFailedWrite() async throws {
        let input = try POSIX.makePipe()
        let transport = try FileDescriptorTransport(
            readingFrom: input.read, writingTo: try FailingOutput.fullDevice.open(), closesInput: true,
            closesOutput: true, maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength)
        // A request whose answer cannot be written, then end of input: run(on:) must return.
        try POSIX.writeAll(input.write, Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8) + [0x0A])
        POSIX.close(input.write)
        let server = try await TestServers.make()
        try await withHangGuard(.seconds(30), "run(on:) after its output failed") { try? await server.run(on: transport) }
    }

    // MARK: Bad settings and thread creation are thrown errors

    @Test("A non-positive maximum frame length is a thrown invalidConfiguration", arguments: [0, -1, Int.min])
    func nonPositiveFrameLength(_ limit: Int) throws {
        let pipe = try POSIX.makePipe()
        defer {
            POSIX.close(pipe.read)
            POSIX.close(pipe.write)
        }
        #expect(throws: TransportError.invalidConfiguration("")) {
            _ = try FileDescriptorTransport(readingFrom: pipe.read, writingTo: pipe.write, maximumFrameLength: limit)
        }
        #expect(throws: TransportError.invalidConfiguration("")) {
            _ = try StdioTransport(protectsStandardOutput: false, maximumFrameLength: limit)
        }
        #expect(throws: TransportError.invalidConfiguration("")) {
            _ = try ProcessTransport.launch("/bin/cat", standardError: .discard, maximumFrameLength: limit)
        }
    }

    @Test("Internal bounds that are not positive are refused too")
    func nonPositiveBounds() throws {
        let pipe = try POSIX.makePipe()
        defer {
            POSIX.close(pipe.read)
            POSIX.close(pipe.write)
        }
        for (capacity, inboundBytes, outboundBytes) in [(0, 1, 1), (1, 0, 1), (1, 1, 0)] {
            let error = #expect(throws: TransportError.self) {
                _ = try FileDescriptorTransport(
                    readingFrom: pipe.read, writingTo: pipe.write, closesInput: false, closesOutput: false,
                    maximumFrameLength: 100, inboundCapacity: capacity, inboundByteLimit: inboundBytes,
                    outboundByteLimit: outboundBytes)
            }
            #expect(error == .invalidConfiguration(""))
            #expect(error?.detail.contains("must be positive, not 0") == true, "\(String(describing: error))")
        }
    }

    @Test(
        "A thread that cannot be created is a thrown ioFailure naming pthread_create; the descriptors stay open",
        arguments: FailingThread.allCases)
    func threadCreationFailure(_ failing: FailingThread) async throws {
        let input = try POSIX.makePipe()
        let output = try POSIX.makePipe()
        let writerEnded = OneShot<Void>()
        let starter: FileDescriptorTransport.ThreadStarter = { (name, body) throws(Errno) in
            if name.hasPrefix(failing.rawValue) { throw Errno.current("pthread_create") }
            try POSIX.startThread(named: name) {
                body()
                if name.hasPrefix(FailingThread.writer.rawValue) { writerEnded.fulfill(()) }
            }
        }
        let error = #expect(throws: TransportError.self) {
            _ = try FileDescriptorTransport(
                readingFrom: input.read, writingTo: output.write, closesInput: true, closesOutput: true,
                maximumFrameLength: 1024, engine: .threads, threadStarter: starter)
        }
        #expect(error == .ioFailure(""))
        #expect(error?.detail.contains("pthread_create") == true, "\(String(describing: error))")
        if failing == .reader {
            // The writer had started: it must end without closing the caller's descriptor.
            try await withHangGuard(.seconds(30), "the writer ending") { _ = await writerEnded.wait() }
        }
        // Both descriptors are still open and usable.
        try POSIX.writeAll(output.write, [7])
        try POSIX.writeAll(input.write, [8])
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        defer { buffer.deallocate() }
        #expect(try POSIX.read(output.read, into: buffer) == 1 && buffer[0] == 7)
        #expect(try POSIX.read(input.read, into: buffer) == 1 && buffer[0] == 8)
        for descriptor in [input.read, input.write, output.read, output.write] { POSIX.close(descriptor) }
    }

    // MARK: Send failures are distinct

    @Test("A message that cannot be encoded is an encodingFailure, and the connection goes on")
    func encodingFailure() async throws {
        let (client, server) = try makePipeConnectedPair()
        let bad = JSONRPCMessage.notification(JSONRPCNotification(method: "test/n", params: ["x": .double(.nan)]))
        let error = await #expect(throws: TransportError.self) { try await client.send(bad) }
        #expect(error == .encodingFailure(""))
        #expect(error != .closed)
        try await client.send(notification(1))
        await client.close()
        #expect(try await collect(server.receive()).map(index(of:)) == [1])
        await server.close()
    }

    @Test("A sender cancelled while waiting for room gets CancellationError, not closed")
    func cancelledWhileWaiting() async throws {
        let unread = try UnreadOutput(outboundByteLimit: 1024)
        let transport = unread.transport
        // The pipe holds 64 KiB and the buffer one message: these sends must wait at some point.
        let sender = Task {
            for index in 0..<20 { try await transport.send(notification(index, padding: 100_000)) }
        }
        sender.cancel()
        let result = await sender.result
        #expect(throws: CancellationError.self) { try result.get() }
        // The transport still works: once the peer reads, a send goes through.
        let drained = try unread.drain()
        try await transport.send(notification(99))
        await unread.finish()
        #expect(await drained.wait() ?? 0 > 0)
    }

    // MARK: Back-pressure for the server loop

    @Test("waitForOutboundRoom returns at once with room, waits while the buffer is full, and returns once it drains")
    func waitForOutboundRoom() async throws {
        let unread = try UnreadOutput(outboundByteLimit: 1024)
        let transport = unread.transport
        try await withHangGuard(.seconds(30), "waitForOutboundRoom() with an empty buffer") { await transport.waitForOutboundRoom() }
        // More than the pipe holds: the writer stays blocked with it until the test reads.
        let message = notification(1, padding: 100_000)
        try await transport.send(message)
        #expect(transport.outbound.bufferedByteCount >= 1024)
        let returned = OneShot<Void>()
        let waiter = Task {
            await transport.waitForOutboundRoom()
            returned.fulfill(())
        }
        // Nobody reads, so it cannot have returned (whenever it got to wait).
        await Task.yield()
        #expect(returned.current == nil)
        #expect(transport.outbound.bufferedByteCount >= 1024)
        let drained = try unread.drain()
        try await withHangGuard(.seconds(30), "waitForOutboundRoom() after the pipe was read") { _ = await returned.wait() }
        #expect(!waiter.isCancelled)
        await unread.finish()
        #expect(await drained.wait() == (try message.encoded()).count + 1)
    }

    @Test("waitForOutboundRoom returns when its task is cancelled or the transport closes", arguments: [true, false])
    func waitForOutboundRoomEnds(_ byCancelling: Bool) async throws {
        let unread = try UnreadOutput(outboundByteLimit: 1024)
        let transport = unread.transport
        try await transport.send(notification(1, padding: 100_000))
        let waiter = Task { await transport.waitForOutboundRoom() }
        if byCancelling {
            waiter.cancel()
        } else {
            transport.beginClose()
        }
        try await withHangGuard(.seconds(30), "the waiter") { await waiter.value }
        POSIX.close(unread.output)  // The blocked writer fails with EPIPE and ends.
        await unread.finish()
    }
}
