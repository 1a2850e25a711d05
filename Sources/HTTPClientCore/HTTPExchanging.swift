// HTTPClientCore: the package's one HTTP client, for MCPHTTP and ChatCompletions.
//
// Which engine runs where is ``HTTPEngine``'s table: the socket engine (HTTP/1.1 over the
// package's own TCP connections) for plain `http://` off Apple platforms when no proxy applies,
// URLSession for `https://`, for proxies and on Apple platforms. Memory is bounded on every path:
// the socket engine by its read-ahead window (back-pressure), URLSession by cancelling a response
// that outruns its reader by more than its limit, the SSE parser by its per-event limit and the
// HTTP/1 parser by its head limit. The one path bounded by a limit rather than by back-pressure is
// URLSession's, because FoundationNetworking delivers a body as fast as the server sends it.
package import Foundation

/// One HTTP request, as the transport builds it.
package struct HTTPRequest: Sendable, CustomStringConvertible {
    package var method: String
    package var url: URL
    /// Header fields; names as written (HTTP compares them case-insensitively).
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]?

    package init(method: String, url: URL, headers: [(name: String, value: String)], body: [UInt8]?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The value of a header, found case-insensitively.
    package func header(_ name: String) -> String? {
        headers.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    package var description: String { "\(method) \(url.absoluteString)" }
}

/// The head of an HTTP response: status and header fields.
package struct HTTPResponseHead: Sendable {
    package var status: Int
    /// Header fields, names lowercased.
    package var headers: [String: String]

    package init(status: Int, headers: [String: String] = [:]) {
        self.status = status
        var lowered: [String: String] = [:]
        for (name, value) in headers { lowered[name.lowercased()] = value }
        self.headers = lowered
    }

    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The media type of `Content-Type`, lowercased, without parameters (`""` when absent).
    package var mediaType: String {
        guard let value = header("content-type") else { return "" }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

/// A response body, in chunks as they arrive; each chunk is reported as read when the
/// reader takes it, so that the exchanger can bound what is waiting to be read.
package struct HTTPBody: AsyncSequence, Sendable {
    package typealias Element = Data
    package typealias Failure = any Error

    let chunks: AsyncThrowingStream<Data, any Error>
    /// Called with the size of each chunk the reader takes.
    let taken: @Sendable (Int) -> Void
    /// What the reader gets instead of the stream's failure.
    let failure: @Sendable (any Error) -> any Error

    package init(_ chunks: AsyncThrowingStream<Data, any Error>, taken: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.init(chunks, taken: taken, failure: { $0 })
    }

    private init(
        _ chunks: AsyncThrowingStream<Data, any Error>, taken: @escaping @Sendable (Int) -> Void,
        failure: @escaping @Sendable (any Error) -> any Error
    ) {
        self.chunks = chunks
        self.taken = taken
        self.failure = failure
    }

    /// The same body, throwing `transform(error)` where it would throw `error` (a user's own error type).
    package func mapFailure(_ transform: @escaping @Sendable (any Error) -> any Error) -> HTTPBody {
        let previous = failure
        return HTTPBody(chunks, taken: taken, failure: { transform(previous($0)) })
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: AsyncThrowingStream<Data, any Error>.AsyncIterator
        let taken: @Sendable (Int) -> Void
        let failure: @Sendable (any Error) -> any Error

        package mutating func next() async throws -> Data? {
            let chunk: Data?
            do {
                chunk = try await chunks.next()
            } catch {
                throw failure(error)
            }
            if let chunk { taken(chunk.count) }
            return chunk
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), taken: taken, failure: failure)
    }
}

/// A response whose head has arrived; its body arrives in chunks.
package struct HTTPResponse: Sendable {
    package var head: HTTPResponseHead
    /// The body, as it arrives. Cancelling the task that iterates it cancels the request.
    package var body: HTTPBody
    /// Stops the request: the reader is done with the body (harmless once it has ended).
    package var close: @Sendable () -> Void

    package init(head: HTTPResponseHead, body: HTTPBody, close: @escaping @Sendable () -> Void) {
        self.head = head
        self.body = body
        self.close = close
    }
}

/// What sends HTTP requests: ``SocketExchanger`` or ``URLSessionExchanger`` (chosen by
/// ``HTTPEngine``), a script in tests.
///
/// `exchange` returns once the response head is in; it throws
/// ``HTTPClientError/Kind/network`` when the server cannot be reached, and `CancellationError`
/// when the calling task is cancelled (which cancels the request).
package protocol HTTPExchanging: Sendable {
    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse
    /// Cancels every request in progress and releases what the exchanger holds.
    func shutdown()
}
