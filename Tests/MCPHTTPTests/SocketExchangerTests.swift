import Foundation
import MCP
import MCPCore
import OnDeviceMCPTestSupport
import Testing

@testable import HTTPClientCore
@testable import MCPHTTP

/// The transport's own HTTP/1.1 connections (plain `http://` on Linux), against real servers.
@Suite("Socket exchanger", .enabled(if: HTTPPeer.enabled, "needs .venv/bin/python (scripts/bootstrap-python.sh)"))
struct SocketExchangerTests {
    static let hangLimit = Sanitizers.stretched(.seconds(60))

    static func post(_ url: URL, id: Int = 1) -> HTTPRequest {
        let body = Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/list"}"#.utf8)
        return HTTPRequest(
            method: "POST", url: url,
            headers: [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")], body: body)
    }

    @Test("A server that floods is held back: the bytes read ahead of a slow reader stay within the window")
    func backPressure() async throws {
        try await HTTPPeer.with("hostile_http_server.py", ["--mode", "huge", "--no-content-length"]) { peer in
            let exchanger = SocketExchanger(window: 256 << 10)
            defer { exchanger.shutdown() }
            try await withHangGuard(Self.hangLimit, "reading a flood slowly") {
                let response = try await exchanger.exchange(Self.post(try peer.url()))
                #expect(response.head.status == 200)
                var read = 0
                var iterator = response.body.makeAsyncIterator()
                while read < 8 << 20, let chunk = try await iterator.next() {
                    read += chunk.count
                    // A slow reader: the server could send tens of MiB meanwhile.
                    if read < 64 << 10 { try await Task.sleep(for: .milliseconds(300)) }
                }
                response.close()
                #expect(read >= 8 << 20)
            }
            // The window, plus at most one read of 64 KiB.
            #expect(exchanger.statistics.peakUnreadBytes <= (256 << 10) + (64 << 10))
        }
    }

    @Test("Requests reuse kept-alive connections")
    func keepAlive() async throws {
        try await HTTPPeer.with("streamable_server.py", ["streamable-json"], directory: "Tests/MCPHTTPTests/Peers") { peer in
            let exchanger = SocketExchanger()
            let transport = try HTTPClientTransport(url: try peer.url(), configuration: HTTPTransportConfiguration(), exchanger: exchanger)
            try await withHangGuard(Self.hangLimit, "ten calls") {
                let client = try await MCPClient.connect(to: .transport { transport })
                for value in 0..<10 {
                    let sum = try await client.callTool(name: "add", arguments: ["a": .int(value), "b": 1])
                    #expect(sum.content.first?.text == "\(value + 1)")
                }
                await client.close()
            }
            // Kept-alive connections carry the calls one after the other: without reuse, each of
            // the dozen requests (handshake, ten calls, close) would open its own. (A second
            // connection is there for a stream the era keeps open beside them, and on a loaded
            // machine a call can start before the previous one's connection is back in the pool.)
            #expect(exchanger.statistics.connectionsOpened <= 4)
        }
    }

    @Test("A request whose server never answers ends with CancellationError as soon as its task is cancelled")
    func cancellation() async throws {
        try await HTTPPeer.with("hostile_http_server.py", ["--mode", "hang-before-headers"]) { peer in
            let exchanger = SocketExchanger()
            defer { exchanger.shutdown() }
            let url = try peer.url()
            let request = Task { try await exchanger.exchange(Self.post(url)) }
            request.cancel()
            let outcome = try await withHangGuard(Self.hangLimit, "the cancelled request") { await request.result }
            #expect(throws: CancellationError.self) { try outcome.get() }
        }
    }

    @Test("Shutting the exchanger down ends a response that is still streaming")
    func shutdown() async throws {
        try await HTTPPeer.with("hostile_http_server.py", ["--mode", "hang-mid-stream"]) { peer in
            let exchanger = SocketExchanger()
            let response = try await withHangGuard(Self.hangLimit, "the head") { try await exchanger.exchange(Self.post(try peer.url())) }
            exchanger.shutdown()
            let drained: Result<Int, any Error> = try await withHangGuard(Self.hangLimit, "the body ending") {
                do {
                    var count = 0
                    for try await chunk in response.body { count += chunk.count }
                    return .success(count)
                } catch {
                    return .failure(error)
                }
            }
            #expect(throws: CancellationError.self) { try drained.get() }
        }
    }

    @Test("A server that cannot be reached is a network error naming the address and the reason")
    func unreachable() async throws {
        let exchanger = SocketExchanger()
        defer { exchanger.shutdown() }
        // Port 1 on loopback: nothing listens there.
        let url = try #require(URL(string: "http://127.0.0.1:1/mcp"))
        let error = await #expect(throws: HTTPClientError.self) { try await exchanger.exchange(Self.post(url)) }
        #expect(error?.kind == .network)
        #expect(error.map { "\($0)" }?.contains("127.0.0.1:1") == true)
    }

    @Test(
        "A header that would split the request head is refused, nothing sent",
        arguments: [("X-Token", "a\r\nX-Injected: 1"), ("X-Token", "a\nb"), ("Bad Name", "v"), ("", "v")])
    func injection(name: String, value: String) throws {
        let url = try #require(URL(string: "http://127.0.0.1:8000/mcp"))
        let target = try SocketExchanger.Target(url)
        let request = HTTPRequest(method: "POST", url: url, headers: [(name, value)], body: [])
        #expect(throws: HTTPClientError.self) { try SocketExchanger.serialize(request, to: target) }
    }

    @Test("The request head: request target, Host with an IPv6 literal, Content-Length")
    func serialization() throws {
        let url = try #require(URL(string: "http://[::1]:8123/a%20b/mcp?x=1"))
        let target = try SocketExchanger.Target(url)
        #expect(target.host == "::1")
        #expect(target.port == 8123)
        let request = HTTPRequest(method: "POST", url: url, headers: [("Accept", "application/json")], body: Array("{}".utf8))
        let text = String(decoding: try SocketExchanger.serialize(request, to: target), as: UTF8.self)
        #expect(text == "POST /a%20b/mcp?x=1 HTTP/1.1\r\nHost: [::1]:8123\r\nAccept: application/json\r\nContent-Length: 2\r\n\r\n{}")
    }
}
