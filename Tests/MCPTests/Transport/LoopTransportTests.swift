import Foundation
import MCPCore
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCP

/// The descriptor transports on the event loop: no threads of their own, descriptors that
/// leave the loop before they are closed, and threads where a descriptor cannot be polled.
@Suite("Transports on the event loop")
struct LoopTransportTests {
    private func makeLoop() throws -> EventLoop {
        try #require(EventLoop.makeLoop(), "Linux has epoll, Darwin kqueue")
    }

    private func ping(_ id: Int) -> JSONRPCMessage {
        .request(JSONRPCRequest(id: .int(id), method: "ping"))
    }

    @Test("Pipes join the loop; messages go both ways; closing gives every registration back")
    func roundTripOnTheLoop() async throws {
        let loop = try makeLoop()
        let toServer = try POSIX.makePipe()
        let toClient = try POSIX.makePipe()
        let client = try FileDescriptorTransport(
            readingFrom: toClient.read, writingTo: toServer.write, closesInput: true, closesOutput: true,
            maximumFrameLength: 1 << 20, engine: .loop, loop: loop)
        let server = try FileDescriptorTransport(
            readingFrom: toServer.read, writingTo: toClient.write, closesInput: true, closesOutput: true,
            maximumFrameLength: 1 << 20, engine: .loop, loop: loop)
        guard case .loop = client.engine, case .loop = server.engine else {
            Issue.record("the transports did not join the loop")
            return
        }
        #expect(loop.registrationCount == 4)

        // Larger than a pipe holds, so that writing goes through the loop's writer too.
        let big = JSONRPCMessage.notification(
            JSONRPCNotification(method: "big", params: ["text": .string(String(repeating: "x", count: 200_000))]))
        try await withHangGuard {
            try await client.send(ping(1))
            try await client.send(big)
            var messages = server.receive().makeAsyncIterator()
            let first = try await messages.next()
            let second = try await messages.next()
            #expect(first == .message(ping(1)))
            #expect(second == .message(big))
        }
        await client.close()
        await server.close()
        await withHangGuardIgnoringErrors {
            await client.waitUntilInputReleased()
            await server.waitUntilInputReleased()
        }
        #expect(loop.registrationCount == 0)
    }

    @Test("Many connections share one loop: each costs registrations, not threads", arguments: [32])
    func manyConnections(count: Int) async throws {
        let loop = try makeLoop()
        var transports: [FileDescriptorTransport] = []
        var peers: [Int32] = []
        for _ in 0..<count {
            let input = try POSIX.makePipe()
            let output = try POSIX.makePipe()
            transports.append(
                try FileDescriptorTransport(
                    readingFrom: input.read, writingTo: output.write, closesInput: true, closesOutput: true,
                    maximumFrameLength: 1024, engine: .loop, loop: loop))
            peers += [input.write, output.read]
        }
        #expect(loop.registrationCount == 2 * count)
        for transport in transports {
            await transport.close()
            await transport.waitUntilInputReleased()
        }
        #expect(loop.registrationCount == 0)
        for peer in peers { POSIX.close(peer) }
    }

    @Test("An output that cannot be polled falls back to threads; asking for the loop is refused and the descriptors stay open")
    func unpollableOutput() async throws {
        let loop = try makeLoop()
        let input = try POSIX.makePipe()
        let null = try POSIX.openNullDevice()
        let error = #expect(throws: TransportError.self) {
            _ = try FileDescriptorTransport(
                readingFrom: input.read, writingTo: null, closesInput: true, closesOutput: true, maximumFrameLength: 1024,
                engine: .loop, loop: loop)
        }
        #expect(error == .ioFailure(""))
        // Both descriptors are still the caller's: the pipe still carries bytes.
        try POSIX.writeAll(input.write, [7])
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        defer { buffer.deallocate() }
        #expect(try POSIX.read(input.read, into: buffer) == 1 && buffer[0] == 7)

        let transport = try FileDescriptorTransport(
            readingFrom: input.read, writingTo: null, closesInput: true, closesOutput: true, maximumFrameLength: 1024,
            engine: .automatic, loop: loop)
        guard case .threads = transport.engine else {
            Issue.record("/dev/null joined the loop")
            return
        }
        try await transport.send(ping(1))
        await transport.close()
        POSIX.close(input.write)
        // The failed attempt left nothing registered. Its registration leaves in a job on the
        // loop; jobs run in order, so once a job queued now has run, that one has too (under
        // load the loop's thread can be seconds behind).
        await withHangGuardIgnoringErrors { await transport.waitUntilInputReleased() }
        let loopCaughtUp = OneShot<Void>()
        loop.execute { loopCaughtUp.fulfill(()) }
        #expect(await loopCaughtUp.wait(within: .seconds(60)) != nil, "the loop never ran a job")
        #expect(loop.registrationCount == 0)
    }

    /// What a transport's output can be when it cannot join the loop.
    enum UnpollableOutput: String, CaseIterable, Sendable {
        case nullDevice = "/dev/null"
        case regularFile = "a regular file"
    }

    @Test(
        "Input already waiting when the output cannot join the loop is read by the transport that falls back to threads, none of it lost",
        arguments: UnpollableOutput.allCases, 0..<40)
    func inputWaitingWhenTheOutputCannotJoin(output kind: UnpollableOutput, round: Int) async throws {
        let loop = try makeLoop()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try POSIX.makePipe()
        let output: Int32
        switch kind {
        case .nullDevice: output = try POSIX.openNullDevice()
        case .regularFile: output = open(directory.path + "/out", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        }
        try #require(output >= 0)
        // Written before the transport exists, so its input is readable from the start.
        for id in 0..<5 { try POSIX.writeAll(input.write, Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"ping\"}\n".utf8)) }
        POSIX.close(input.write)
        let transport = try FileDescriptorTransport(
            readingFrom: input.read, writingTo: output, closesInput: true, closesOutput: true, maximumFrameLength: 1024,
            engine: .automatic, loop: loop)
        guard case .threads = transport.engine else {
            Issue.record("\(kind.rawValue) joined the loop")
            return
        }
        var ids: [Int] = []
        for try await message in transport.receive() {
            if case .message(.request(let request)) = message, case .int(let id) = request.id { ids.append(id) }
        }
        await transport.close()
        #expect(ids == Array(0..<5))
    }

    @Test("A consumer that stops reading pauses the input; draining resumes it and loses nothing")
    func backpressure() async throws {
        let loop = try makeLoop()
        let input = try POSIX.makePipe()
        let output = try POSIX.makePipe()
        let transport = try FileDescriptorTransport(
            readingFrom: input.read, writingTo: output.write, closesInput: true, closesOutput: true,
            maximumFrameLength: 1024, inboundCapacity: 4, engine: .loop, loop: loop)
        let line = Array(#"{"jsonrpc":"2.0","method":"n"}"#.utf8) + [0x0A]
        // Far more than the queue holds: the loop must stop reading, not buffer it all.
        let writer = Task.detached {
            for _ in 0..<2000 { try POSIX.writeAll(input.write, line) }
            POSIX.close(input.write)
        }
        _ = await transport.inbound.readerParked.wait()
        #expect(transport.inbound.bufferedCount <= 4 + 64 * 1024 / line.count)
        let received = try await withHangGuard(.seconds(60)) {
            var count = 0
            for try await _ in transport.receive() { count += 1 }
            return count
        }
        try await writer.value
        #expect(received == 2000)
        await transport.close()
        POSIX.close(output.read)
    }
}

/// A hang guard for waits whose hang is reported by the guard itself.
private func withHangGuardIgnoringErrors(_ body: @escaping @Sendable () async -> Void) async {
    _ = try? await withHangGuard { await body() }
}
