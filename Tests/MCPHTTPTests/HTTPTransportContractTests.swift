import Foundation
import MCP
import MCPCore
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import HTTPClientCore
@testable import MCPHTTP

/// The HTTP transport implements every requirement of `Transport` the runtime relies on:
/// result limits while reading, backpressure on its POSTs, and why its stream ended.
@Suite("HTTP transport contract (scripted server)")
struct HTTPTransportContractTests {
    private static let guardLimit: Duration = .seconds(30)

    /// The next inbound item that is not a plain message.
    private static func nextInvalid(
        from inbound: inout AsyncThrowingStream<InboundMessage, any Error>.Iterator
    ) async throws -> InvalidMessage? {
        while let next = try await inbound.next() {
            if case .invalid(let invalid) = next { return invalid }
        }
        return nil
    }

    @Test(
        "a reply over its call's result limit is cut while it is read and reported with the request's id",
        arguments: ["application/json", "text/event-stream"])
    func resultLimitWhileReading(contentType: String) async throws {
        let (transport, _) = try fakeTransport { _ in
            // Endless: only a reader that stops ends it.
            FakeResponse(status: 200, headers: ["Content-Type": contentType], body: .endless(chunkSize: 4096))
        }
        let limits = try #require(transport.resultLimits)
        limits.register(1_000, for: 1)
        var inbound = transport.receive().makeAsyncIterator()
        try await withHangGuard(Self.guardLimit, "an endless reply over its call's limit") {
            try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "big"])))
        }
        let invalid = try #require(try await Self.nextInvalid(from: &inbound))
        #expect(invalid.apparentID == 1)
        #expect(limits.takeExceeded(1) == 1_000)
        await transport.close()
    }

    @Test("a reply under its call's limit is delivered as usual")
    func resultUnderLimit() async throws {
        let (transport, _) = try fakeTransport { request in
            guard case .request(let rpc)? = request.message else { return .accepted }
            return .json(Scripted.toolResult(rpc.id, text: "small"))
        }
        transport.resultLimits?.register(1_000, for: 1)
        var inbound = transport.receive().makeAsyncIterator()
        try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "echo"])))
        #expect(try await read(1, from: &inbound) == [Scripted.toolResult(1, text: "small")])
        #expect(transport.resultLimits?.takeExceeded(1) == nil)
        await transport.close()
    }

    @Test("waitForOutboundRoom waits while the POSTs in progress reach the bound, and returns once one ends")
    func outboundRoom() async throws {
        var configuration = HTTPTransportConfiguration()
        configuration.maximumQueuedMessages = 1
        let feed = Feed()
        let (transport, fake) = try fakeTransport(with: configuration) { _ in
            FakeResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: .feed(feed))
        }
        await transport.waitForOutboundRoom()
        let sending = Task { try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "slow"]))) }
        // The POST is in progress once its request reached the server.
        await fake.firstRequest.wait()
        // Returns only after the POST, in progress until the feed answers, has ended.
        let waited = Task { await transport.waitForOutboundRoom() }
        feed.send("event: message\ndata: \(Scripted.toolResult(1, text: "done").description)\n\n")
        try await withHangGuard(Self.guardLimit, "the POST") { try await sending.value }
        try await withHangGuard(Self.guardLimit, "room after the POST ended") { await waited.value }
        await transport.close()
    }

    @Test("close frees a caller waiting for outbound room")
    func closeFreesRoomWaiter() async throws {
        var configuration = HTTPTransportConfiguration()
        configuration.maximumQueuedMessages = 1
        let feed = Feed()
        let (transport, fake) = try fakeTransport(with: configuration) { _ in
            FakeResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: .feed(feed))
        }
        let sending = Task { try? await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "slow"]))) }
        await fake.firstRequest.wait()
        let waited = Task { await transport.waitForOutboundRoom() }
        await transport.close()
        try await withHangGuard(Self.guardLimit, "room after close") { await waited.value }
        _ = await sending.value
    }

    @Test("a transport closed by its owner has no end reason to add")
    func noEndReasonAfterClose() async throws {
        let (transport, _) = try fakeTransport { _ in .accepted }
        await transport.close()
        #expect(await transport.connectionEndReason() == nil)
    }

    @Test("an HTTP+SSE stream that ends fails a waiting call, saying which stream ended")
    func legacyStreamEndReason() async throws {
        let stream = Feed()
        let (transport, _) = try fakeTransport { request in
            if request.url == endpoint {
                if request.method == "GET" { return .sse(stream) }
                return .text(405, "Method Not Allowed")
            }
            switch request.message {
            case .request(let rpc)? where rpc.method == "initialize":
                stream.send("event: message\ndata: \(Scripted.initializeResult(rpc.id, version: "2024-11-05"))\n\n")
            case .request(let rpc)? where rpc.method == "tools/call":
                // The server goes away instead of answering.
                stream.finish()
            case .request(let rpc)?:
                stream.send("event: message\ndata: \(Scripted.error(rpc.id, code: -32601, message: "Method not found"))\n\n")
            default:
                break
            }
            return .accepted
        }
        stream.send("event: endpoint\ndata: /messages/?session_id=42\n\n")
        let client = try await MCPClient.connect(
            over: transport, configuration: MCPClient.Configuration(requestTimeout: .seconds(60), discoverTimeout: .seconds(60)))
        let error = await #expect(throws: MCPClientError.self) {
            try await withHangGuard(Self.guardLimit, "the call on an ended stream") { try await client.callTool(name: "echo") }
        }
        #expect(error == .connectionClosed)
        #expect(error.map { "\($0)" }?.contains("the HTTP+SSE event stream from \(endpoint.absoluteString)") == true)
        #expect(await transport.connectionEndReason()?.contains("ended") == true)
        await client.close()
    }
}
