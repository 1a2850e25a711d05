internal import Foundation
internal import MCPPlatform

#if canImport(FoundationNetworking)
internal import FoundationNetworking
#endif

/// Sends the transport's requests with one `URLSession` and a data delegate, so that a
/// response body streams in as it arrives (`URLSession.bytes(for:)` is missing from
/// FoundationNetworking on Linux).
///
/// Each request's data task belongs to the ``HTTPResponse/body`` stream it feeds: ending or
/// dropping the stream cancels the task, and a task that completes finishes the stream.
/// Redirects are not followed (the `3xx` comes back as the response, so credentials never
/// follow a redirect elsewhere), nothing is cached, and ``shutdown()`` cancels every task
/// and invalidates the session (which releases its delegate).
package final class URLSessionExchanger: HTTPExchanging, Sendable {
    /// The session (URLSession is thread-safe, but not `Sendable` in FoundationNetworking).
    private let session: LockedValue<URLSession>
    private let delegate: Delegate

    /// The most bytes of one response that may wait unread: URLSession delivers a body as
    /// fast as the server sends it, whatever the reader does, so a body that outruns its
    /// reader by more than this is cancelled with ``HTTPClientError/Kind/messageTooLarge``.
    let maximumWaitingBytes: Int

    /// - Parameter maximumWaitingBytes: See ``maximumWaitingBytes``.
    package init(maximumWaitingBytes: Int = 9 << 20) {
        self.maximumWaitingBytes = max(1, maximumWaitingBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The transport times requests out itself (and streams may stay silent for long).
        configuration.timeoutIntervalForRequest = 7 * 24 * 3600
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        configuration.httpShouldSetCookies = true
        delegate = Delegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "HTTPClientCore.URLSessionExchanger"
        session = LockedValue(URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue))
    }

    package func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = 7 * 24 * 3600
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let task = session.withLock { $0.dataTask(with: urlRequest) }
        let owner = TaskOwner(task)
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        continuation.onTermination = { _ in owner.cancel() }
        let route = Route(body: continuation, limit: maximumWaitingBytes, owner: owner)
        delegate.register(route, for: task.taskIdentifier)
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<HTTPResponseHead, any Error>) in
                route.awaitHead(waiter)
                owner.resume()
            }
        } onCancel: {
            owner.cancel()
        }
        return HTTPResponse(head: head, body: HTTPBody(body) { route.taken($0) }, close: { owner.cancel() })
    }

    package func shutdown() {
        session.withLock { $0.invalidateAndCancel() }
    }

    /// Holds a data task so that the stream's termination handler can cancel it.
    private final class TaskOwner: Sendable {
        private let task: LockedValue<URLSessionDataTask>
        init(_ task: URLSessionDataTask) { self.task = LockedValue(task) }
        func resume() { task.withLock { $0.resume() } }
        func cancel() { task.withLock { $0.cancel() } }
    }

    /// Where one task's response goes: a waiter for the head, then the body stream.
    private final class Route: Sendable {
        private struct State {
            var headWaiter: CheckedContinuation<HTTPResponseHead, any Error>?
            var early: Result<HTTPResponseHead, any Error>?
            var headDelivered = false
            /// Bytes delivered and not yet taken by the reader.
            var waiting = 0
        }

        private let state = LockedValue(State())
        private let limit: Int
        private let owner: TaskOwner
        let body: AsyncThrowingStream<Data, any Error>.Continuation

        init(body: AsyncThrowingStream<Data, any Error>.Continuation, limit: Int, owner: TaskOwner) {
            self.body = body
            self.limit = limit
            self.owner = owner
        }

        /// Passes a chunk to the reader, or cancels the request when more than the limit
        /// would be waiting unread (the reader gets the error after what it has).
        func deliver(_ data: Data) {
            let over: Bool = state.withLock { state in
                state.waiting += data.count
                return state.waiting > limit
            }
            guard !over else {
                owner.cancel()
                body.finish(
                    throwing: HTTPClientError(
                        .messageTooLarge, "the server sent more than \(limit) bytes faster than they were read; the response was cut"))
                return
            }
            body.yield(data)
        }

        /// Whether a body of `length` bytes (`-1`: unknown) is over the limit.
        func refusesLength(_ length: Int64) -> Bool {
            length > Int64(limit)
        }

        /// The reader took `count` bytes.
        func taken(_ count: Int) {
            state.withLock { $0.waiting -= count }
        }

        func awaitHead(_ waiter: CheckedContinuation<HTTPResponseHead, any Error>) {
            let early: Result<HTTPResponseHead, any Error>? = state.withLock { state in
                defer { state.early = nil }
                if state.early == nil { state.headWaiter = waiter }
                return state.early
            }
            if let early { waiter.resume(with: early) }
        }

        /// Delivers the head (or the failure before it); once only.
        func deliverHead(_ result: Result<HTTPResponseHead, any Error>) {
            let waiter: CheckedContinuation<HTTPResponseHead, any Error>? = state.withLock { state in
                guard !state.headDelivered else { return nil }
                state.headDelivered = true
                defer { state.headWaiter = nil }
                if state.headWaiter == nil { state.early = result }
                return state.headWaiter
            }
            waiter?.resume(with: result)
        }
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Safety: an NSObject subclass (the delegate protocol needs one) cannot be checked; its one stored property is a LockedValue.
        private let routes = LockedValue<[Int: Route]>([:])

        func register(_ route: Route, for identifier: Int) {
            routes.withLock { $0[identifier] = route }
        }

        private func route(_ identifier: Int) -> Route? {
            routes.withLock { $0[identifier] }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let route = route(dataTask.taskIdentifier) else {
                completionHandler(.cancel)
                return
            }
            guard let http = response as? HTTPURLResponse else {
                route.deliverHead(.failure(HTTPClientError(.network, "the response is not an HTTP response")))
                completionHandler(.cancel)
                return
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            route.deliverHead(.success(HTTPResponseHead(status: http.statusCode, headers: headers)))
            // A body announced larger than may ever wait unread is not received at all: the
            // transport refuses it from its head, and URLSession would otherwise queue it
            // for the delegate faster than the request can be cancelled.
            completionHandler(route.refusesLength(http.expectedContentLength) ? .cancel : .allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            route(dataTask.taskIdentifier)?.deliver(data)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            // Not followed: the 3xx is the response.
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let route = routes.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            guard let route else { return }
            if let error {
                let failure = Self.describe(error)
                route.deliverHead(.failure(failure))
                route.body.finish(throwing: failure)
            } else {
                route.deliverHead(.failure(HTTPClientError(.network, "the server sent no response")))
                route.body.finish()
            }
        }

        /// A URLSession error as this module's: cancellation stays cancellation.
        static func describe(_ error: any Error) -> any Error {
            if let urlError = error as? URLError {
                if urlError.code == .cancelled { return CancellationError() }
                return HTTPClientError(
                    .network, "the request failed: \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
            }
            return HTTPClientError(.network, "the request failed: \(error.localizedDescription)")
        }
    }
}
