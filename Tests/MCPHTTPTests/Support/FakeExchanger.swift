import Foundation
import MCP
import MCPCore
import MCPPlatform
import OnDeviceMCPTestSupport

@testable import HTTPClientCore
@testable import MCPHTTP

/// Values appended from concurrent code, read back by a test.
final class Recorded<Value: Sendable>: @unchecked Sendable {
    // Safety: `stored` is used with `lock` held.
    private let lock = Lock()
    private var stored: [Value] = []

    func append(_ value: Value) {
        lock.withLock { stored.append(value) }
    }

    var values: [Value] { lock.withLock { stored } }
}

/// A counter shared by a scripted server's handler.
final class Counter: @unchecked Sendable {
    // Safety: `value` is used with `lock` held.
    private let lock = Lock()
    private var value = 0

    /// Adds one and returns the new count.
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }

    var count: Int { lock.withLock { value } }
}

/// A response body the test feeds by hand; notes when the transport stops reading it.
final class Feed: Sendable {
    let stream: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    /// Set when the stream ends from the reading side (the transport cancelled the request)
    /// or is finished.
    let terminated = OneShot<Void>()

    init() {
        (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let terminated = terminated
        continuation.onTermination = { _ in terminated.fulfill(()) }
    }

    func send(_ text: String) {
        continuation.yield(Data(text.utf8))
    }

    func finish() {
        continuation.finish()
    }

    /// Ends the body with an error, as a dropped connection does.
    func fail(_ error: any Error) {
        continuation.finish(throwing: error)
    }

    /// What the reader's `close()` does.
    func close() {
        continuation.finish(throwing: CancellationError())
    }
}

/// What a scripted server answers one request with.
struct FakeResponse: Sendable {
    enum Body: Sendable {
        /// These chunks, then the end.
        case chunks([Data])
        /// What the test feeds.
        case feed(Feed)
        /// Chunks of this size, forever (only a reader that stops ends it).
        case endless(chunkSize: Int)
        /// Chunks made one at a time, when the reader asks for the next (`nil`: the end).
        case generated(@Sendable () async throws -> Data?)
    }

    var status: Int
    var headers: [String: String]
    var body: Body

    init(status: Int, headers: [String: String] = [:], body: Body = .chunks([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `202 Accepted`, no body.
    static let accepted = FakeResponse(status: 202)

    /// One JSON-RPC message as `application/json`.
    static func json(_ message: JSONRPCMessage, status: Int = 200, headers: [String: String] = [:]) -> FakeResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return FakeResponse(status: status, headers: headers, body: .chunks([Data(message.description.utf8)]))
    }

    /// An event stream of these messages, each as one `message` event (with an id when given).
    static func events(_ messages: [JSONRPCMessage], ids: [String]? = nil, headers: [String: String] = [:]) -> FakeResponse {
        var text = ""
        for (index, message) in messages.enumerated() {
            if let ids { text += "id: \(ids[index])\n" }
            text += "event: message\ndata: \(message.description)\n\n"
        }
        return sse(text, headers: headers)
    }

    /// An event stream with this raw text.
    static func sse(_ text: String, headers: [String: String] = [:]) -> FakeResponse {
        var headers = headers
        headers["Content-Type"] = "text/event-stream"
        return FakeResponse(status: 200, headers: headers, body: .chunks([Data(text.utf8)]))
    }

    /// An event stream fed by hand.
    static func sse(_ feed: Feed, headers: [String: String] = [:]) -> FakeResponse {
        var headers = headers
        headers["Content-Type"] = "text/event-stream"
        return FakeResponse(status: 200, headers: headers, body: .feed(feed))
    }

    /// A status with a text body.
    static func text(_ status: Int, _ body: String, contentType: String = "text/plain") -> FakeResponse {
        FakeResponse(status: status, headers: ["Content-Type": contentType], body: .chunks([Data(body.utf8)]))
    }
}

/// An HTTP exchanger that answers with a script, and records every request.
final class FakeExchanger: HTTPExchanging, @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest) async throws -> FakeResponse
    private let handler: Handler
    let requests = Recorded<HTTPRequest>()
    let shutdowns = Counter()
    /// Set when the first request arrives.
    let firstRequest = OneShot<Void>()
    /// Set when the transport shuts the exchanger down.
    let shutDown = OneShot<Void>()

    init(_ handler: @escaping Handler) {
        self.handler = handler
    }

    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.append(request)
        firstRequest.fulfill(())
        let response = try await handler(request)
        if Task.isCancelled {
            // Cancelled while the server answered: the body is never read.
            if case .feed(let feed) = response.body { feed.close() }
            throw CancellationError()
        }
        let body: AsyncThrowingStream<Data, any Error>
        var close: @Sendable () -> Void = {}
        switch response.body {
        case .chunks(let chunks):
            body = AsyncThrowingStream { continuation in
                for chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            }
        case .feed(let feed):
            body = feed.stream
            close = { feed.close() }
        case .endless(let size):
            let chunk = Data(repeating: 0x20, count: size)
            body = AsyncThrowingStream(unfolding: { chunk })
        case .generated(let next):
            body = AsyncThrowingStream(unfolding: next)
        }
        return HTTPResponse(head: HTTPResponseHead(status: response.status, headers: response.headers), body: HTTPBody(body), close: close)
    }

    func shutdown() {
        _ = shutdowns.next()
        shutDown.fulfill(())
    }

    /// The recorded requests with this method.
    func requests(_ method: String) -> [HTTPRequest] {
        requests.values.filter { $0.method == method }
    }

    /// The JSON-RPC messages of the recorded POSTs.
    var postedMessages: [JSONRPCMessage] {
        requests("POST").compactMap(\.message)
    }
}

extension HTTPRequest {
    /// The body as a JSON-RPC message.
    var message: JSONRPCMessage? {
        body.flatMap { try? JSONRPCMessage(parsing: $0) }
    }

    /// The JSON-RPC method of the body, if it is a request or a notification.
    var rpcMethod: String? {
        switch message {
        case .request(let request)?: request.method
        case .notification(let notification)?: notification.method
        default: nil
        }
    }

    var rpcID: RequestID? {
        if case .request(let request)? = message { return request.id }
        return nil
    }
}

/// Waits for the test's own condition; for hang simulation only (cancelled by the transport).
func hang() async throws -> Never {
    while true { try await Task.sleep(for: .seconds(3600)) }
}

let endpoint = URL(string: "http://127.0.0.1:9/mcp")!

/// A transport to ``endpoint`` over a fake.
func fakeTransport(
    with configuration: HTTPTransportConfiguration = HTTPTransportConfiguration(), _ handler: @escaping FakeExchanger.Handler
) throws -> (HTTPClientTransport, FakeExchanger) {
    let fake = FakeExchanger(handler)
    return (try HTTPClientTransport(url: endpoint, configuration: configuration, exchanger: fake), fake)
}

/// Standard results of a scripted server.
enum Scripted {
    static func initializeResult(_ id: RequestID, version: String = "2025-11-25") -> JSONRPCMessage {
        .response(
            JSONRPCResponse(
                id: id,
                result: [
                    "protocolVersion": .string(version), "capabilities": ["tools": ["listChanged": true]],
                    "serverInfo": ["name": "fake", "version": "1"],
                ]))
    }

    static func toolResult(_ id: RequestID, text: String) -> JSONRPCMessage {
        .response(JSONRPCResponse(id: id, result: ["content": [["type": "text", "text": .string(text)]], "isError": false]))
    }

    static func toolsList(_ id: RequestID) -> JSONRPCMessage {
        .response(
            JSONRPCResponse(
                id: id, result: ["tools": [["name": "echo", "inputSchema": ["type": "object"]]]]))
    }

    static func discoverResult(_ id: RequestID) -> JSONRPCMessage {
        .response(
            JSONRPCResponse(
                id: id,
                result: [
                    "resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": ["tools": [:]],
                    "_meta": ["io.modelcontextprotocol/serverInfo": ["name": "fake", "version": "1"]], "ttlMs": 0,
                    "cacheScope": "private",
                ]))
    }

    static func progress(_ token: JSONValue, _ value: Int) -> JSONRPCMessage {
        .notification(
            JSONRPCNotification(method: "notifications/progress", params: ["progressToken": token, "progress": .int(value), "total": 3]))
    }

    static func error(_ id: RequestID?, code: Int, message: String) -> JSONRPCMessage {
        .errorResponse(JSONRPCErrorResponse(id: id, error: JSONRPCError(code: JSONRPCError.Code(rawValue: code), message: message)))
    }
}

/// Reads the next `count` messages from a transport's inbound stream.
func read(_ count: Int, from messages: inout AsyncThrowingStream<InboundMessage, any Error>.Iterator) async throws -> [JSONRPCMessage] {
    var read: [JSONRPCMessage] = []
    while read.count < count, let next = try await messages.next() {
        guard case .message(let message) = next else { continue }
        read.append(message)
    }
    return read
}
