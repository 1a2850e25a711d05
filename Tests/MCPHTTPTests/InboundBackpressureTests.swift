import Foundation
import MCP
import MCPCore
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCPHTTP

private let guardLimit: Duration = .seconds(30)

/// A server flooding notifications that nobody reads: the transport's inbound queue stops the
/// reading at its bounds (back-pressure), so memory stays bounded, and nothing is dropped.
@Suite("HTTP inbound queue: bounded, with back-pressure")
struct InboundBackpressureTests {
    /// The queue's bounds under test: one reached by count, one by bytes.
    struct Bounds: Sendable, CustomTestStringConvertible {
        let messages: Int
        let bytes: Int
        var testDescription: String { "\(messages) messages, \(bytes) bytes" }
    }

    static let bounds = [Bounds(messages: 8, bytes: 1 << 20), Bounds(messages: 4096, bytes: 2000)]

    /// A transport whose `tools/call` is answered with an event stream of `total` progress
    /// notifications, then the response: one event a chunk, each made when the reader asks
    /// for it (`pulled` counts them).
    static func flooding(_ bounds: Bounds, total: Int, pulled: Counter) throws -> HTTPClientTransport {
        var configuration = HTTPTransportConfiguration()
        configuration.maximumQueuedMessages = bounds.messages
        configuration.maximumQueuedBytes = bounds.bytes
        let (transport, _) = try fakeTransport(with: configuration) { request in
            guard case .request(let call)? = request.message else { return .accepted }
            return FakeResponse(
                status: 200, headers: ["Content-Type": "text/event-stream"],
                body: .generated {
                    let number = pulled.next()
                    let message: JSONRPCMessage
                    if number <= total {
                        message = Scripted.progress("flood", number)
                    } else if number == total + 1 {
                        message = Scripted.toolResult(call.id, text: "done")
                    } else {
                        return nil
                    }
                    return Data("id: \(number)\ndata: \(message)\n\n".utf8)
                })
        }
        return transport
    }

    @Test(
        "a flood nobody reads stops the reading at the bound; then every message arrives once, in order, and the response after them",
        arguments: bounds)
    func flood(_ bounds: Bounds) async throws {
        let total = 300
        let pulled = Counter()
        let transport = try Self.flooding(bounds, total: total, pulled: pulled)
        let queue = transport.core.inboundQueue
        let sending = Task { try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "flood"]))) }
        try await withHangGuard(guardLimit, "the reader waiting for room") { await queue.producerWaited.wait() }
        // The reader stopped: it has read the queued messages and the one it waits with, no more.
        let queued = queue.bufferedCount
        #expect(pulled.count == queued + 1)
        #expect(queued <= bounds.messages)
        #expect(queued < total)
        let stream = transport.receive()
        let messages = try await withHangGuard(guardLimit, "every message") {
            var iterator = stream.makeAsyncIterator()
            return try await read(total + 1, from: &iterator)
        }
        let progress = messages.compactMap { message -> Int? in
            guard case .notification(let notification) = message else { return nil }
            return notification.params?["progress"]?.intValue
        }
        #expect(progress == Array(1...total))
        guard case .response(let response)? = messages.last else {
            Issue.record("the last message is not the response: \(String(describing: messages.last))")
            return
        }
        #expect(response.id == 1)
        try await withHangGuard(guardLimit, "send returning") { try await sending.value }
        // Never more than the bounds (plus one message past the byte bound) waited at once.
        let largest = "id: \(total)\ndata: \(Scripted.progress("flood", total))".utf8.count
        let peak = queue.peak
        #expect(peak.count <= bounds.messages)
        #expect(peak.bytes < bounds.bytes + largest)
        await transport.close()
    }

    @Test("close() while the reader waits for room ends it: the send fails with closed, and close returns")
    func closeWhileWaiting() async throws {
        let transport = try Self.flooding(Bounds(messages: 4, bytes: 1 << 20), total: 100, pulled: Counter())
        let sending = Task { try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "flood"]))) }
        try await withHangGuard(guardLimit, "the reader waiting for room") { await transport.core.inboundQueue.producerWaited.wait() }
        try await withHangGuard(guardLimit, "close") { await transport.close() }
        await #expect(throws: TransportError.closed) { try await sending.value }
        // What was queued before the close can still be read; then the stream ends.
        let stream = transport.receive()
        let count = try await withHangGuard(guardLimit, "the end of the inbound stream") {
            var count = 0
            for try await _ in stream { count += 1 }
            return count
        }
        #expect(count == 4)
    }

    @Test("bounds that are not positive are refused", arguments: [(0, 1), (1, 0), (-1, 1 << 20)])
    func invalidBounds(messages: Int, bytes: Int) {
        let configuration = HTTPTransportConfiguration(maximumQueuedMessages: messages, maximumQueuedBytes: bytes)
        #expect(throws: TransportError.invalidConfiguration("")) {
            try HTTPClientTransport(url: endpoint, configuration: configuration, exchanger: FakeExchanger { _ in .accepted })
        }
    }
}
