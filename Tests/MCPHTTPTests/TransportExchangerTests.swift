import Foundation
import Testing

@testable import HTTPClientCore
@testable import MCPHTTP

/// The HTTP client's failures as the transport's own errors.
@Suite("Transport exchanger")
struct TransportExchangerTests {
    /// Fails every exchange with `failure`, or answers with a body that fails with it.
    struct Failing: HTTPExchanging {
        var failure: HTTPClientError
        var inBody: Bool

        func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
            guard inBody else { throw failure }
            let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            continuation.finish(throwing: failure)
            return HTTPResponse(head: HTTPResponseHead(status: 200), body: HTTPBody(chunks), close: {})
        }

        func shutdown() {}
    }

    @Test(
        "An unreachable server is HTTPTransportError.network and a cut body messageTooLarge, on exchange and while reading",
        arguments: [(HTTPClientError.Kind.network, false), (.network, true), (.messageTooLarge, false), (.messageTooLarge, true)])
    func mapping(kind: HTTPClientError.Kind, inBody: Bool) async throws {
        let exchanger = TransportExchanger(Failing(failure: HTTPClientError(kind, "the detail"), inBody: inBody))
        let url = try #require(URL(string: "http://127.0.0.1:1/mcp"))
        let error = await #expect(throws: HTTPTransportError.self) {
            let response = try await exchanger.exchange(HTTPRequest(method: "GET", url: url, headers: [], body: nil))
            for try await _ in response.body {}
        }
        #expect(error == (kind == .network ? .network : .messageTooLarge))
        #expect(error?.detail == "the detail")
    }
}
