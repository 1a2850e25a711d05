import Foundation
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCP

/// Two transports connected by two pipes: what one sends, the other receives. With `loop`,
/// both are on that event loop (else on the default engine).
func makePipeConnectedPair(
    maximumFrameLength: Int = FileDescriptorTransport.defaultMaximumFrameLength,
    inboundCapacity: Int = 4096,
    outboundByteLimit: Int = 8 * 1024 * 1024,
    loop: EventLoop? = nil
) throws -> (FileDescriptorTransport, FileDescriptorTransport) {
    let forward = try POSIX.makePipe()
    let backward = try POSIX.makePipe()
    let engine: FileDescriptorTransport.EngineChoice? = loop == nil ? nil : .loop
    let one = try FileDescriptorTransport(
        readingFrom: backward.read, writingTo: forward.write, closesInput: true, closesOutput: true,
        maximumFrameLength: maximumFrameLength, inboundCapacity: inboundCapacity, outboundByteLimit: outboundByteLimit,
        engine: engine, loop: loop)
    let other = try FileDescriptorTransport(
        readingFrom: forward.read, writingTo: backward.write, closesInput: true, closesOutput: true,
        maximumFrameLength: maximumFrameLength, inboundCapacity: inboundCapacity, outboundByteLimit: outboundByteLimit,
        engine: engine, loop: loop)
    return (one, other)
}

/// A transport reading raw bytes the test writes into a pipe; its own output goes to a pipe
/// nobody reads from (tests using this never send).
final class RawInput: Sendable {
    let transport: FileDescriptorTransport
    private let input: Int32
    private let unreadOutput: Int32

    init(maximumFrameLength: Int = FileDescriptorTransport.defaultMaximumFrameLength, inboundCapacity: Int = 4096) throws {
        let inputPipe = try POSIX.makePipe()
        let outputPipe = try POSIX.makePipe()
        input = inputPipe.write
        unreadOutput = outputPipe.read
        transport = try FileDescriptorTransport(
            readingFrom: inputPipe.read, writingTo: outputPipe.write, closesInput: true, closesOutput: true,
            maximumFrameLength: maximumFrameLength, inboundCapacity: inboundCapacity)
    }

    func write(_ text: String) throws {
        try POSIX.writeAll(input, Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) throws {
        try POSIX.writeAll(input, bytes)
    }

    /// Ends the input (the transport sees end of file), and returns everything received.
    func finish() async throws -> [InboundMessage] {
        endInput()
        let received = try await collect(transport.receive())
        await close()
        return received
    }

    /// Ends the input: the transport sees end of file. Call it once.
    func endInput() {
        POSIX.close(input)
    }

    /// Closes the transport and the unread output, for a test that read the stream itself.
    func close() async {
        await transport.close()
        POSIX.close(unreadOutput)
    }
}

func collect(_ stream: AsyncThrowingStream<InboundMessage, any Error>) async throws -> [InboundMessage] {
    var received: [InboundMessage] = []
    for try await message in stream { received.append(message) }
    return received
}

func notification(_ index: Int, padding: Int = 0) -> JSONRPCMessage {
    var params: JSONObject = ["i": .int(index)]
    if padding > 0 { params["pad"] = .string(String(repeating: "p", count: padding)) }
    return .notification(JSONRPCNotification(method: "test/n", params: .object(params)))
}

func index(of message: InboundMessage) -> Int? {
    guard case .message(.notification(let note)) = message, case .object(let params)? = note.params,
        case .int(let value)? = params["i"]
    else { return nil }
    return value
}

@Suite("File-descriptor transport over pipes")
struct FileDescriptorTransportTests {
    @Test("Every kind of message round-trips unchanged")
    func roundTrip() async throws {
        let (client, server) = try makePipeConnectedPair()
        let messages: [JSONRPCMessage] = [
            .request(JSONRPCRequest(id: 1, method: "tools/list", params: ["cursor": "abc"])),
            .request(JSONRPCRequest(id: "s-1", method: "ping")),
            .notification(JSONRPCNotification(method: "notifications/initialized")),
            .response(JSONRPCResponse(id: 1, result: ["tools": [], "text": "line\nbreak \u{2028} ünïcödé"])),
            .errorResponse(JSONRPCErrorResponse(id: nil, error: .parseError("bad"))),
        ]
        for message in messages { try await client.send(message) }
        await client.close()
        let received = try await collect(server.receive())
        #expect(received == messages.map(InboundMessage.message))
        await server.close()
    }

    @Test("10,000 messages sent back to back all arrive, in order")
    func manyMessagesInOrder() async throws {
        let (client, server) = try makePipeConnectedPair()
        async let received = collect(server.receive())
        for index in 0..<10_000 { try await client.send(notification(index)) }
        await client.close()
        let indices = try await received.map(index(of:))
        #expect(indices == Array(0..<10_000))
        await server.close()
    }

    @Test("Messages from concurrent senders arrive whole, each sender's in order")
    func concurrentSenders() async throws {
        let (client, server) = try makePipeConnectedPair()
        async let received = collect(server.receive())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<8 {
                group.addTask {
                    for step in 0..<500 { try await client.send(notification(sender * 1000 + step)) }
                }
            }
            try await group.waitForAll()
        }
        await client.close()
        let indices = try await received.compactMap(index(of:))
        #expect(indices.count == 4000)
        for sender in 0..<8 {
            #expect(indices.filter { $0 / 1000 == sender } == (0..<500).map { sender * 1000 + $0 })
        }
        await server.close()
    }

    @Test("A slow consumer blocks the reader instead of buffering, and nothing is lost")
    func inboundBackPressure() async throws {
        // Large messages so that each read holds only a few; two may wait at a time.
        let (client, server) = try makePipeConnectedPair(inboundCapacity: 2)
        async let sent: Void = {
            for index in 0..<300 { try await client.send(notification(index, padding: 20_000)) }
            await client.close()
        }()
        var indices: [Int] = []
        for try await message in server.receive() {
            if let value = index(of: message) { indices.append(value) }
        }
        try await sent
        #expect(indices == Array(0..<300))
        await server.close()
    }

    @Test("Messages many times a pipe's size, sent by one task while others send small ones, arrive whole and in each sender's order")
    func messagesLargerThanThePipe() async throws {
        // A pipe holds 64 KiB: each large message is written in part, and the rest by whoever
        // writes next, while small messages keep arriving behind it.
        let (client, server) = try makePipeConnectedPair()
        async let received = collect(server.receive())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for index in 0..<8 { try await client.send(notification(index, padding: 300_000 + index)) } }
            group.addTask { for index in 100..<400 { try await client.send(notification(index)) } }
            try await group.waitForAll()
        }
        await client.close()
        let messages = try await received
        let indices = messages.compactMap(index(of:))
        #expect(indices.filter { $0 < 100 } == Array(0..<8))
        #expect(indices.filter { $0 >= 100 } == Array(100..<400))
        for message in messages {
            guard let value = index(of: message), value < 100 else { continue }
            guard case .message(.notification(let note)) = message, case .object(let params)? = note.params,
                case .string(let padding)? = params["pad"]
            else {
                Issue.record("message \(value) lost its padding")
                continue
            }
            #expect(padding.utf8.count == 300_000 + value)
        }
        // Partial writes and a full pipe did not turn the single-call writes off.
        #expect(client.outbound.writesWithoutWaiting == Self.pipesTakeWritesWithoutWaiting())
        await server.close()
    }

    /// Whether this system writes a pipe in one call that never waits (Linux 6.5 and later),
    /// probed on a fresh pipe.
    private static func pipesTakeWritesWithoutWaiting() -> Bool {
        guard let probe = try? POSIX.makePipe() else { return false }
        defer {
            POSIX.close(probe.read)
            POSIX.close(probe.write)
        }
        return [UInt8(0x7B)].withUnsafeBytes { POSIX.writeWithoutWaiting(probe.write, $0) } == .wrote(1)
    }

    @Test("A send into a full pipe is handed on, arrives once the reader drains the pipe, and leaves the single-call writes on")
    func sendIntoAFullPipe() async throws {
        let output = try POSIX.makePipe()
        let input = try POSIX.makePipe()
        // Fill the pipe before the transport writes to it.
        var filler = 0
        let block = [UInt8](repeating: 0x20, count: 4096)
        while case .wrote(let count) = block.withUnsafeBytes({ POSIX.writeWithoutWaiting(output.write, $0) }), count > 0 {
            filler += count
        }
        let supported = Self.pipesTakeWritesWithoutWaiting()
        if !supported {
            // Poll and write instead, as the transport then does: fill what poll reports.
            while POSIX.isWritable(output.write) {
                try POSIX.writeAll(output.write, block)
                filler += block.count
            }
        }
        let transport = try FileDescriptorTransport(
            readingFrom: input.read, writingTo: output.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength)
        try await transport.send(notification(7))
        #expect(transport.outbound.writesWithoutWaiting == supported)
        // Drain: the filler, then the message, whole.
        let reader = try FileDescriptorTransport(
            readingFrom: output.read, writingTo: try POSIX.openNullDevice(), closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength)
        await transport.close()
        POSIX.close(input.write)
        let received = try await collect(reader.receive())
        await reader.close()
        // The filler is one long line of spaces joined to the message's line: it arrives as the
        // message itself (leading whitespace is allowed in JSON).
        #expect(received.compactMap(index(of:)) == [7])
        #expect(filler > 0)
    }

    @Test("Output to a regular file is written after polling, never with the single call, and every message lands in order")
    func outputToAFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/out.jsonl"
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(file >= 0)
        let input = try POSIX.makePipe()
        let transport = try FileDescriptorTransport(
            readingFrom: input.read, writingTo: file, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength)
        #expect(!transport.outbound.writesWithoutWaiting)
        for index in 0..<200 { try await transport.send(notification(index, padding: index * 100)) }
        await transport.close()
        POSIX.close(input.write)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 200)
        for (index, line) in lines.enumerated() {
            #expect(line.hasPrefix("{\"jsonrpc\":\"2.0\",\"method\":\"test/n\",\"params\":{\"i\":\(index)"))
        }
    }

    @Test("Senders wait when the outbound buffer is full, and everything arrives in order")
    func outboundBackPressure() async throws {
        let (client, server) = try makePipeConnectedPair(outboundByteLimit: 1024)
        async let received = collect(server.receive())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for index in 0..<2000 { try await client.send(notification(index, padding: 300)) } }
            try await group.waitForAll()
        }
        await client.close()
        #expect(try await received.map(index(of:)) == Array(0..<2000))
        await server.close()
    }

    @Test("A malformed line arrives as -32700 with no id, and the next message still arrives")
    func malformedLine() async throws {
        let raw = try RawInput()
        try raw.write("{\"jsonrpc\":\"2.0\",\"method\":\n")
        try raw.write("{\"jsonrpc\":\"2.0\",\"method\":\"after\"}\n")
        let received = try await raw.finish()
        #expect(received.count == 2)
        guard case .invalid(let invalid)? = received.first else {
            Issue.record("expected an invalid message first, got \(received)")
            return
        }
        #expect(invalid.id == nil)
        #expect(invalid.error.code == .parseError)
        #expect(received.last == .message(.notification(JSONRPCNotification(method: "after"))))
    }

    @Test("JSON that is not JSON-RPC arrives as -32600, keeping the id it could read as an apparent one")
    func notJSONRPC() async throws {
        let raw = try RawInput()
        try raw.write("{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"x\"}\n[]\n")
        let received = try await raw.finish()
        #expect(received.count == 2)
        if case .invalid(let invalid)? = received.first {
            #expect(invalid.error.code == .invalidRequest)
            #expect(invalid.id == nil)
            #expect(invalid.apparentID == 7)
        } else {
            Issue.record("expected an invalid message, got \(received)")
        }
    }

    @Test("An oversized frame arrives as -32600, and the next message still arrives")
    func oversizedFrame() async throws {
        let raw = try RawInput(maximumFrameLength: 64)
        let huge = "{\"jsonrpc\":\"2.0\",\"method\":\"big\",\"params\":{\"x\":\"" + String(repeating: "x", count: 100_000) + "\"}}\n"
        try raw.write(huge)
        try raw.write("{\"jsonrpc\":\"2.0\",\"method\":\"small\"}\n")
        let received = try await raw.finish()
        #expect(
            received == [
                .invalid(
                    InvalidMessage(
                        id: nil,
                        error: JSONRPCError(
                            code: .invalidRequest, message: "Invalid Request: message is longer than the limit of 64 bytes"))),
                .message(.notification(JSONRPCNotification(method: "small"))),
            ])
    }

    @Test("CRLF line endings and blank lines are tolerated")
    func crlfAndBlankLines() async throws {
        let raw = try RawInput()
        try raw.write("\r\n\n  \n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\r\n\r\n\t\n{\"jsonrpc\":\"2.0\",\"method\":\"b\"}\n")
        let received = try await raw.finish()
        #expect(
            received == [
                .message(.notification(JSONRPCNotification(method: "a"))),
                .message(.notification(JSONRPCNotification(method: "b"))),
            ])
    }

    @Test("End of input finishes the inbound stream")
    func endOfInputFinishes() async throws {
        let (client, server) = try makePipeConnectedPair()
        try await client.send(notification(1))
        await client.close()
        let received = try await collect(server.receive())
        #expect(received.map(index(of:)) == [1])
        await server.close()
    }

    @Test("Sending after close throws TransportError.closed, and close is idempotent")
    func sendAfterClose() async throws {
        let (client, server) = try makePipeConnectedPair()
        await client.close()
        await client.close()
        await #expect(throws: TransportError.closed) {
            try await client.send(notification(1))
        }
        #expect(try await collect(server.receive()).isEmpty)
        await server.close()
    }

    @Test("Closing finishes the local inbound stream even while the peer stays connected")
    func closeFinishesInbound() async throws {
        let (client, server) = try makePipeConnectedPair()
        async let received = collect(client.receive())
        await client.close()
        #expect(try await received.isEmpty)
        await server.close()
    }

    @Test("Once the peer has gone (broken pipe), sends throw TransportError.closed")
    func brokenPipe() async throws {
        let inputPipe = try POSIX.makePipe()
        let outputPipe = try POSIX.makePipe()
        let transport = try FileDescriptorTransport(
            readingFrom: inputPipe.read, writingTo: outputPipe.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength)
        POSIX.close(outputPipe.read)
        try await transport.send(notification(1))
        await transport.waitUntilWritten()  // the writer ends when its write fails
        await #expect(throws: TransportError.closed) {
            try await transport.send(notification(2))
        }
        POSIX.close(inputPipe.write)
        await transport.close()
    }

    @Test("An outgoing message longer than the limit is refused with frameTooLarge")
    func outgoingFrameTooLarge() async throws {
        let (client, server) = try makePipeConnectedPair(maximumFrameLength: 100)
        await #expect(throws: TransportError.frameTooLarge("")) {
            try await client.send(notification(1, padding: 200))
        }
        try await client.send(notification(2))
        await client.close()
        #expect(try await collect(server.receive()).map(index(of:)) == [2])
        await server.close()
    }
}
