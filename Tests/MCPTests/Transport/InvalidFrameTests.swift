import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCP

/// The invalid message a received element reports, or `nil` for anything else.
private func invalid(_ inbound: InboundMessage?) -> InvalidMessage? {
    guard case .invalid(let invalid)? = inbound else { return nil }
    return invalid
}

@Suite("Invalid frames fail fast, with what was wrong and the id")
struct InvalidFrameTests {
    @Test("An oversized frame with an id is reported before its newline arrives, and the rest of it is skipped")
    func oversizedBeforeNewline() async throws {
        let raw = try RawInput(maximumFrameLength: 1000)
        let transport = raw.transport
        try raw.write(#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"text":""# + String(repeating: "x", count: 5000))
        let first = OneShot<InboundMessage?>()
        let reader = Task {
            var iterator = transport.receive().makeAsyncIterator()
            first.fulfill(try await iterator.next())
            var rest: [InboundMessage] = []
            while let next = try await iterator.next() { rest.append(next) }
            return rest
        }
        try await withHangGuard(.seconds(30), "the report of the oversized frame before its newline") { _ = await first.wait() }
        let report = try #require(invalid(first.current ?? nil))
        #expect(report.id == 42)
        #expect(report.error.code == .invalidRequest)
        #expect(report.error.message == "Invalid Request: message is longer than the limit of 1000 bytes")
        // The endless line goes on, then ends; the next message is read normally.
        try raw.write(String(repeating: "x", count: 100_000) + "\"}}\n")
        try raw.write(#"{"jsonrpc":"2.0","method":"after"}"# + "\n")
        raw.endInput()
        #expect(try await reader.value == [.message(.notification(JSONRPCNotification(method: "after")))])
        await raw.close()
    }

    @Test("A frame just over the limit, seen whole, names its length")
    func oversizedWithLength() async throws {
        let raw = try RawInput(maximumFrameLength: 64)
        let line = #"{"jsonrpc":"2.0","id":"s","method":"x","params":{"p":""# + String(repeating: "p", count: 8) + "\"}}"
        #expect(line.utf8.count == 65)
        try raw.write(line + "\n")
        let received = try await raw.finish()
        let report = try #require(invalid(received.first))
        #expect(report.id == "s")
        #expect(report.error.message == "Invalid Request: message of 65 bytes is longer than the limit of 64 bytes")
    }

    @Test("Nesting past the depth limit is a parse error with the limit, answered with no id; the id it seems to carry is kept apart")
    func deepNesting() async throws {
        let raw = try RawInput()
        let depth = 600
        try raw.write(
            #"{"jsonrpc":"2.0","id":"deep","result":"# + String(repeating: "[", count: depth)
                + String(repeating: "]", count: depth) + "}\n")
        let received = try await raw.finish()
        #expect(received.count == 1)
        let report = try #require(invalid(received.first))
        #expect(report.id == nil)
        #expect(report.apparentID == "deep")
        #expect(report.error.code == .parseError)
        #expect(report.error.message.contains("nested more than 512 levels"), "\(report.error.message)")
    }

    @Test("Text that is not JSON is a parse error with the reader's reason and no id")
    func notJSON() async throws {
        let raw = try RawInput()
        try raw.write("hello server\n")
        let received = try await raw.finish()
        let report = try #require(invalid(received.first))
        #expect(report.id == nil)
        #expect(report.error.code == .parseError)
        #expect(report.error.message == "Parse error: invalid JSON at byte 0: expected a value, found 'h'")
    }

    @Test("Broken JSON is answered with no id; the id its first bytes seem to hold is only an apparent one")
    func brokenJSONWithID() async throws {
        let raw = try RawInput()
        try raw.write(#"{"jsonrpc":"2.0","id":1,"method":"# + "\n")
        let received = try await raw.finish()
        let report = try #require(invalid(received.first))
        #expect(report.id == nil)
        #expect(report.apparentID == 1)
        #expect(report.response == .errorResponse(JSONRPCErrorResponse(id: nil, error: report.error)))
        #expect(report.error.code == .parseError)
    }

    @Test("The reader stops once the inbound queue holds its byte bound, and everything still arrives in order")
    func inboundByteBound() async throws {
        let forward = try POSIX.makePipe()
        let backward = try POSIX.makePipe()
        let sender = try FileDescriptorTransport(
            readingFrom: backward.read, writingTo: forward.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength)
        let receiver = try FileDescriptorTransport(
            readingFrom: forward.read, writingTo: backward.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength, inboundByteLimit: 50_000)
        // 40 messages of about 20 kB: far fewer than the message bound, far more than the byte bound.
        let sending = Task {
            for index in 0..<40 { try await sender.send(notification(index, padding: 20_000)) }
        }
        try await withHangGuard(.seconds(30), "the reader stopping") { _ = await receiver.inbound.readerParked.wait() }
        // Bounded: the byte bound, plus at most what one read (64 KiB) completes.
        #expect(receiver.inbound.bufferedByteCount < 50_000 + 64 * 1024 + 20_100)
        #expect(receiver.inbound.bufferedCount < 40)
        async let received = collect(receiver.receive())
        try await sending.value
        await sender.close()
        #expect(try await received.map(index(of:)) == Array(0..<40))
        await receiver.close()
    }
}
