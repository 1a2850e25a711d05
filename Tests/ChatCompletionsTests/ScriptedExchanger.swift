import Foundation
import HTTPClientCore
import JSONCore

/// A chat-completions server played by a script: one answer per request, as the test writes it.
final class ScriptedExchanger: HTTPExchanging, @unchecked Sendable {
    // Safety: `next`, `recorded`, `closed` and `served` are touched only with `lock` held.
    enum Answer: Sendable {
        /// A head and a body, all at once.
        case respond(status: Int, contentType: String, body: String, headers: [String: String] = [:])
        /// A head, then a body that never ends (until the request is cancelled).
        case hang(status: Int, contentType: String, first: String)
        /// A head, then the body the test feeds, chunk by chunk.
        case fed(status: Int, contentType: String, body: AsyncThrowingStream<Data, any Error>)
        /// A head, then a body that never ends: `chunk(n)` is its chunk `n` (from 0), made
        /// when the reader asks for it, for as long as it reads.
        case endless(status: Int, contentType: String, chunk: @Sendable (Int) -> Data)
    }

    private let answers: [Answer]
    private let lock = NSLock()
    private var next = 0
    private var recorded: [HTTPRequest] = []
    private var closed = 0
    private var served = 0
    private let (exchanges, exchanged) = AsyncStream<Int>.makeStream()

    init(_ answers: [Answer]) {
        self.answers = answers
    }

    /// The requests the server got, oldest first.
    var requests: [HTTPRequest] { lock.withLock { recorded } }
    /// How many responses were closed (their connections released).
    var closes: Int { lock.withLock { closed } }
    /// How many chunks the endless answers made (were read).
    var chunksServed: Int { lock.withLock { served } }

    /// Waits until the server has got `count` requests.
    func waitForRequests(_ count: Int) async {
        if requests.count >= count { return }
        for await seen in exchanges where seen >= count { return }
    }

    /// The JSON body of request `index`.
    func body(_ index: Int) throws -> JSONValue {
        let requests = requests
        guard index < requests.count, let bytes = requests[index].body else { throw Missing(index: index) }
        return try JSONValue(parsing: bytes)
    }

    /// A request the server did not get.
    struct Missing: Error {
        var index: Int
    }

    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (answer, count): (Answer?, Int) = lock.withLock {
            recorded.append(request)
            defer { next += 1 }
            return (next < answers.count ? answers[next] : nil, recorded.count)
        }
        exchanged.yield(count)
        guard let answer else { throw HTTPClientError(.network, "the script has no answer") }
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let close: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.closed += 1 }
        }
        switch answer {
        case .respond(let status, let type, let text, let headers):
            continuation.yield(Data(text.utf8))
            continuation.finish()
            return HTTPResponse(
                head: HTTPResponseHead(status: status, headers: headers.merging(["Content-Type": type]) { first, _ in first }),
                body: HTTPBody(body),
                close: close)
        case .hang(let status, let type, let first):
            continuation.yield(Data(first.utf8))
            return HTTPResponse(
                head: HTTPResponseHead(status: status, headers: ["Content-Type": type]), body: HTTPBody(body),
                close: {
                    continuation.finish()
                    close()
                })
        case .fed(let status, let type, let fed):
            continuation.finish()
            return HTTPResponse(head: HTTPResponseHead(status: status, headers: ["Content-Type": type]), body: HTTPBody(fed), close: close)
        case .endless(let status, let type, let chunk):
            continuation.finish()
            let endless = AsyncThrowingStream<Data, any Error> { [weak self] () -> Data? in
                guard let self else { return nil }
                await Task.yield()
                let index: Int = self.lock.withLock {
                    defer { self.served += 1 }
                    return self.served
                }
                return chunk(index)
            }
            return HTTPResponse(
                head: HTTPResponseHead(status: status, headers: ["Content-Type": type]), body: HTTPBody(endless), close: close)
        }
    }

    func shutdown() {}
}
