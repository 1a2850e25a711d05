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

    package init(_ chunks: AsyncThrowingStream<Data, any Error>, taken: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.chunks = chunks
        self.taken = taken
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: AsyncThrowingStream<Data, any Error>.AsyncIterator
        let taken: @Sendable (Int) -> Void

        package mutating func next() async throws -> Data? {
            let chunk = try await chunks.next()
            if let chunk { taken(chunk.count) }
            return chunk
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), taken: taken)
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

/// What sends HTTP requests for the transport: URLSession in the library, a script in tests.
///
/// `exchange` returns once the response head is in; it throws
/// ``HTTPTransportError/network`` when the server cannot be reached, and `CancellationError`
/// when the calling task is cancelled (which cancels the request).
package protocol HTTPExchanging: Sendable {
    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse
    /// Cancels every request in progress and releases what the exchanger holds.
    func shutdown()
}
