internal import Foundation
internal import MCPPlatform

/// Sends plain `http://` requests over the transport's own TCP connections, reading each
/// response only as fast as its reader takes it.
///
/// This is the transport's answer to a server that floods: URLSession (on Linux, libcurl
/// under FoundationNetworking) receives a body as fast as the server sends it and queues it
/// for its delegate, whatever the reader does, so a 64 MiB answer can sit in memory before a
/// cancellation lands. Here each response has a reading thread that stops reading once
/// ``window`` bytes wait unread, so TCP's own flow control holds the server back, and that
/// a cancellation or a dropped body stops at once (a wake-up pipe beside the socket).
///
/// What it speaks: HTTP/1.1 with `Content-Length` and chunked bodies and bodies that end with
/// the connection; connections kept alive and reused (a few per host); a reused connection
/// the server closed before answering is retried once on a new one. No redirects are followed
/// (a `3xx` is the response), no compression is asked for, no cookies are kept, and no proxy
/// is used — ``HTTPEngine/exchanger(for:maximumWaitingBytes:environment:)`` chooses URLSession when a proxy applies.
package final class SocketExchanger: HTTPExchanging, Sendable {
    /// The most bytes of one response read ahead of its reader: reading pauses there until the
    /// reader takes some.
    let window: Int
    private let pool: ConnectionPool
    /// The exchanges running, and whether ``shutdown()`` has come (`nil` then).
    private let live = LockedValue<[ObjectIdentifier: Exchange]?>([:])
    let statistics = Statistics()

    /// What the exchanger did, for tests: connections opened, and the most bytes of one
    /// response that ever waited unread.
    final class Statistics: Sendable {
        private let counts = LockedValue((opened: 0, peak: 0))

        var connectionsOpened: Int { counts.withLock { $0.opened } }
        var peakUnreadBytes: Int { counts.withLock { $0.peak } }

        func noteConnection() { counts.withLock { $0.opened += 1 } }
        func noteUnread(_ count: Int) { counts.withLock { $0.peak = max($0.peak, count) } }
    }

    package init(window: Int = 256 << 10, maximumIdleConnections: Int = 8) {
        self.window = max(1, window)
        pool = ConnectionPool(maximumIdle: maximumIdleConnections)
    }

    deinit {
        shutdown()
    }

    package func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let target = try Target(request.url)
        let bytes = try Self.serialize(request, to: target)
        let exchange = try Exchange(window: window, statistics: statistics)
        let admitted = live.withLock { live in
            guard live != nil else { return false }
            live?[ObjectIdentifier(exchange)] = exchange
            return true
        }
        guard admitted else {
            exchange.release()
            throw CancellationError()
        }
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        continuation.onTermination = { _ in exchange.cancel() }
        let pool = pool
        do {
            try POSIX.startThread(named: "HTTPClientCore.connection") { [weak self] in
                exchange.run(bytes, method: request.method, to: target, pool: pool, body: continuation)
                self?.forget(exchange)
            }
        } catch {
            forget(exchange)
            exchange.release()
            throw HTTPClientError(.network, "cannot start the connection's thread: \(error)")
        }
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<HTTPResponseHead, any Error>) in
                exchange.awaitHead(waiter)
            }
        } onCancel: {
            exchange.cancel()
        }
        return HTTPResponse(head: head, body: HTTPBody(body) { exchange.taken($0) }, close: { exchange.cancel() })
    }

    package func shutdown() {
        let exchanges = live.withLock { live in
            defer { live = nil }
            return Array((live ?? [:]).values)
        }
        for exchange in exchanges { exchange.cancel() }
        pool.closeAll()
    }

    private func forget(_ exchange: Exchange) {
        _ = live.withLock { $0?.removeValue(forKey: ObjectIdentifier(exchange)) }
    }

    // MARK: Requests

    /// Where a request goes: the address to connect to, and what goes in its request line.
    struct Target: Sendable {
        var host: String
        var port: Int
        /// The `Host` field's value.
        var authority: String
        /// The request target: the path (at least `/`) and the query.
        var path: String
        /// The pool's key for connections to this host and port.
        var key: String { "\(host) \(port)" }

        init(_ url: URL) throws {
            guard url.scheme?.lowercased() == "http",
                let components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: true),
                var host = components.host, !host.isEmpty
            else {
                throw HTTPClientError(.network, "\(url.absoluteString) is not a plain http:// URL with a host")
            }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            self.host = host
            port = components.port ?? 80
            let bracketed = host.contains(":") ? "[\(host)]" : host
            authority = components.port.map { "\(bracketed):\($0)" } ?? bracketed
            let encodedPath = components.percentEncodedPath
            path = (encodedPath.isEmpty ? "/" : encodedPath) + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
        }
    }

    /// The request's bytes: request line, fields, `Host` and `Content-Length`, body.
    ///
    /// - Throws: ``HTTPClientError/Kind/network`` for a field that could split the head (a line
    ///   break or a NUL in a value, a name that is not a token): nothing is sent.
    static func serialize(_ request: HTTPRequest, to target: Target) throws -> [UInt8] {
        var head = "\(request.method) \(target.path) HTTP/1.1\r\nHost: \(target.authority)\r\n"
        for (name, value) in request.headers {
            let lowered = name.lowercased()
            if lowered == "host" || lowered == "content-length" || lowered == "connection" || lowered == "transfer-encoding" { continue }
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                throw HTTPClientError(.network, "refusing to send a header named \(String(reflecting: name)): not a valid field name")
            }
            guard !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                throw HTTPClientError(.network, "refusing to send the \(name) header: its value contains a line break")
            }
            head += "\(name): \(value)\r\n"
        }
        if let body = request.body {
            head += "Content-Length: \(body.count)\r\n"
        } else if request.method == "POST" || request.method == "PUT" {
            head += "Content-Length: 0\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body = request.body { bytes.append(contentsOf: body) }
        return bytes
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    // MARK: One exchange

    /// One request and its response: the reading thread, the head's waiter, and how much
    /// of the body waits unread.
    final class Exchange: Sendable {
        private struct State {
            var headWaiter: CheckedContinuation<HTTPResponseHead, any Error>?
            var early: Result<HTTPResponseHead, any Error>?
            var headDelivered = false
            var cancelled = false
            var released = false
            /// Bytes delivered to the body and not yet taken by its reader.
            var waiting = 0
        }

        // The wake-up pipe's descriptors are immutable and closed only by `release()` once
        // the thread is done and `cancel()` can no longer write to them (`released`).
        private let state = ConditionalValue(State())
        private let wake: (read: Int32, write: Int32)
        private let window: Int

        private let statistics: Statistics

        init(window: Int, statistics: Statistics) throws {
            self.window = window
            self.statistics = statistics
            do {
                wake = try POSIX.makeWakePipe()
            } catch {
                throw HTTPClientError(.network, "cannot make the connection's wake-up pipe: \(error)")
            }
        }

        /// Stops the exchange: the head's waiter gets `CancellationError` at once, and the
        /// thread stops whatever it waits for (connecting, sending, reading, room to deliver).
        func cancel() {
            state.withLock { state in
                state.cancelled = true
                if !state.released { POSIX.signalWakePipe(wake.write) }
            }
            state.broadcast()
            deliverHead(.failure(CancellationError()))
        }

        /// Closes the wake-up pipe: the thread is done with it.
        func release() {
            state.withLock { state in
                guard !state.released else { return }
                state.released = true
                POSIX.close(wake.read)
                POSIX.close(wake.write)
            }
        }

        func awaitHead(_ waiter: CheckedContinuation<HTTPResponseHead, any Error>) {
            let early: Result<HTTPResponseHead, any Error>? = state.withLock { state in
                defer { state.early = nil }
                if state.early == nil { state.headWaiter = waiter }
                return state.early
            }
            if let early { waiter.resume(with: early) }
        }

        /// Delivers the head (or the failure before it); the first call wins.
        private func deliverHead(_ result: Result<HTTPResponseHead, any Error>) {
            let waiter: CheckedContinuation<HTTPResponseHead, any Error>? = state.withLock { state in
                guard !state.headDelivered else { return nil }
                state.headDelivered = true
                defer { state.headWaiter = nil }
                if state.headWaiter == nil { state.early = result }
                return state.headWaiter
            }
            waiter?.resume(with: result)
        }

        /// The reader took `count` bytes: reading may go on once enough room is free.
        func taken(_ count: Int) {
            let room = state.withLock { state in
                state.waiting -= count
                return state.waiting <= window / 2
            }
            if room { state.signal() }
        }

        /// Counts a chunk as waiting, then blocks while more than the window waits unread.
        /// Returns `false` once the exchange is cancelled.
        private func admit(_ count: Int) -> Bool {
            let waiting = state.withLock { state in
                state.waiting += count
                return state.waiting
            }
            statistics.noteUnread(waiting)
            return state.waitWithLock(until: { state in
                state.waiting > window && !state.cancelled ? nil : !state.cancelled
            })
        }

        private var isCancelled: Bool { state.withLock { $0.cancelled } }

        /// The thread's body: connects (or reuses a connection), sends, and reads the response
        /// into `body` until it ends, fails or is cancelled.
        func run(
            _ bytes: [UInt8], method: String, to target: Target, pool: ConnectionPool,
            body: AsyncThrowingStream<Data, any Error>.Continuation
        ) {
            defer { release() }
            var outcome: Result<Void, any Error>
            var attempt = 0
            repeat {
                attempt += 1
                let reused = attempt == 1 ? pool.take(target.key) : nil
                outcome = exchange(bytes, method: method, to: target, over: reused, pool: pool, body: body)
                // A kept-alive connection the server closed before it answered: once more, on a new one.
                if case .failure(let error as StaleConnection) = outcome {
                    outcome = .failure(error.underlying)
                    if reused != nil, !isCancelled { continue }
                }
                break
            } while attempt < 2
            switch outcome {
            case .success:
                body.finish()
            case .failure(let error):
                let failure: any Error = isCancelled ? CancellationError() : error
                deliverHead(.failure(failure))
                body.finish(throwing: failure)
            }
        }

        /// A reused connection that failed before any byte of its response arrived.
        private struct StaleConnection: Error {
            var underlying: any Error
        }

        private func exchange(
            _ bytes: [UInt8], method: String, to target: Target, over reused: Int32?, pool: ConnectionPool,
            body: AsyncThrowingStream<Data, any Error>.Continuation
        ) -> Result<Void, any Error> {
            let socket: Int32
            if let reused {
                socket = reused
            } else {
                do throws(SocketFailure) {
                    socket = try POSIX.connectTCP(host: target.host, port: target.port, wake: wake.read)
                    statistics.noteConnection()
                } catch {
                    return .failure(Self.describe(error, "cannot connect to \(target.authority)"))
                }
            }
            var keep = false
            defer { if !keep { POSIX.close(socket) } }
            do throws(SocketFailure) {
                try POSIX.sendAll(socket, bytes, wake: wake.read)
            } catch {
                let failure = Self.describe(error, "cannot send the request to \(target.authority)")
                return .failure(reused != nil ? StaleConnection(underlying: failure) : failure)
            }
            var parser = HTTP1ResponseParser(requestMethod: method)
            var received = 0
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
            defer { buffer.deallocate() }
            while true {
                let count: Int
                do throws(SocketFailure) {
                    count = try POSIX.receive(socket, into: buffer, wake: wake.read)
                } catch {
                    let failure = Self.describe(error, "the connection to \(target.authority) failed")
                    return .failure(reused != nil && received == 0 ? StaleConnection(underlying: failure) : failure)
                }
                received += count
                let events: [HTTP1ResponseParser.Event]
                do throws(HTTP1ResponseParser.Malformed) {
                    events = count == 0 ? try parser.finish() : try parser.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                } catch {
                    let failure = HTTPClientError(.network, "\(target.authority) sent a broken HTTP response: \(error)")
                    return .failure(reused != nil && received == 0 ? StaleConnection(underlying: failure) : failure)
                }
                // A reader that stopped (or closed the response) mid-batch ends the exchange,
                // unless the batch completes the response: then the connection is clean and kept.
                var stopped = false
                for event in events {
                    switch event {
                    case .head(let status, let headers):
                        deliverHead(.success(HTTPResponseHead(status: status, headers: headers)))
                    case .body(let chunk):
                        guard !chunk.isEmpty, !stopped else { continue }
                        body.yield(Data(chunk))
                        if !admit(chunk.count) { stopped = true }
                    case .end(let reusable):
                        if reusable {
                            keep = true
                            pool.put(socket, for: target.key)
                        }
                        return stopped ? .failure(CancellationError()) : .success(())
                    }
                }
                if stopped { return .failure(CancellationError()) }
            }
        }

        private static func describe(_ failure: SocketFailure, _ what: String) -> any Error {
            switch failure {
            case .cancelled: CancellationError()
            case .failed(let reason): HTTPClientError(.network, "\(what): \(reason)")
            }
        }
    }

    // MARK: Kept-alive connections

    /// Idle connections kept for the next request to the same host and port.
    final class ConnectionPool: Sendable {
        /// The idle connections by host and port; `nil` once closed.
        private let idle = LockedValue<[String: [Int32]]?>([:])
        let maximumIdle: Int

        init(maximumIdle: Int) {
            self.maximumIdle = maximumIdle
        }

        deinit {
            closeAll()
        }

        /// An idle connection to `key` the server has not closed, if there is one.
        func take(_ key: String) -> Int32? {
            while let descriptor = idle.withLock({ $0?[key]?.popLast() }) {
                if POSIX.isIdleConnectionUsable(descriptor) { return descriptor }
                POSIX.close(descriptor)
            }
            return nil
        }

        /// Keeps a connection whose response is complete, or closes it when the pool is full or closed.
        func put(_ descriptor: Int32, for key: String) {
            let kept = idle.withLock { idle in
                guard idle != nil, idle?[key, default: []].count ?? 0 < maximumIdle else { return false }
                idle?[key, default: []].append(descriptor)
                return true
            }
            if !kept { POSIX.close(descriptor) }
        }

        func closeAll() {
            let all = idle.withLock { idle in
                defer { idle = nil }
                return (idle ?? [:]).values.flatMap { $0 }
            }
            for descriptor in all { POSIX.close(descriptor) }
        }
    }
}
