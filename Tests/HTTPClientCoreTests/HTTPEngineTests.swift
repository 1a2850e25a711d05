import Foundation
import Testing

@testable import HTTPClientCore

/// Which engine runs for which URL and proxy setting, and how a body's failure is handed on.
@Suite("HTTP engine choice")
struct HTTPEngineTests {
    @Test(
        "Which plain-HTTP requests go through a proxy (and so through URLSession)",
        arguments: [
            ("example.com", [String: String](), false),
            ("example.com", ["http_proxy": "http://proxy:3128"], true),
            ("127.0.0.1", ["http_proxy": "http://proxy:3128"], false),
            ("api.example.com", ["HTTP_PROXY": "http://proxy:3128", "no_proxy": "localhost,.example.com"], false),
            ("example.org", ["all_proxy": "socks5://proxy", "NO_PROXY": "example.com"], true),
            ("example.org", ["http_proxy": "http://proxy", "no_proxy": "*"], false),
        ])
    func proxies(host: String, environment: [String: String], applies: Bool) {
        #expect(HTTPEngine.proxyApplies(to: host, environment: environment) == applies)
    }

    @Test(
        "Plain http without a proxy runs on the socket engine off Apple platforms; https and proxied http on URLSession",
        arguments: [
            ("http://example.com/mcp", [String: String](), true),
            ("http://127.0.0.1:8080/v1", ["http_proxy": "http://proxy:3128"], true),
            ("http://example.com/mcp", ["http_proxy": "http://proxy:3128"], false),
            ("https://example.com/mcp", [String: String](), false),
        ])
    func engine(url: String, environment: [String: String], socket: Bool) throws {
        let exchanger = HTTPEngine.exchanger(for: try #require(URL(string: url)), maximumWaitingBytes: 1 << 20, environment: environment)
        defer { exchanger.shutdown() }
        #if canImport(Darwin)
        #expect(exchanger is URLSessionExchanger)
        #else
        #expect((exchanger is SocketExchanger) == socket)
        #expect((exchanger is URLSessionExchanger) == !socket)
        #endif
    }

    @Test("A body's failure reaches its reader as the user's own error, after the chunks before it")
    func mappedFailure() async throws {
        struct Mapped: Error, Equatable { var detail: String }
        let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        continuation.yield(Data([1, 2]))
        continuation.finish(throwing: HTTPClientError(.messageTooLarge, "cut"))
        let body = HTTPBody(chunks).mapFailure { error in
            (error as? HTTPClientError).map { Mapped(detail: $0.detail) } ?? error
        }
        var received: [UInt8] = []
        let failure = await #expect(throws: Mapped.self) {
            for try await chunk in body { received += chunk }
        }
        #expect(received == [1, 2])
        #expect(failure == Mapped(detail: "cut"))
    }
}
