internal import Foundation
internal import MCPPlatform

/// Sends plain `http://` requests over the transport's own TCP connections, reading each
/// response only as fast as its reader takes it.
///
/// This is the transport's answer to a server that floods: URLSession (on Linux, libcurl
/// under FoundationNetworking) receives a body as fast as the server sends it and queues it
/// for its delegate, whatever the reader does, so a 64 MiB answer can sit in memory before a
/// cancellation lands. Here reading a response stops once ``window`` bytes wait unread, so
/// TCP's own flow control holds the server back, and a cancellation or a dropped body stops
/// it at once.
///
/// What it speaks: HTTP/1.1 with `Content-Length` and chunked bodies and bodies that end with
/// the connection; connections kept alive and reused (a few per host); a reused connection
/// the server closed before answering is retried once on a new one. No redirects are followed
/// (a `3xx` is the response), no compression is asked for, no cookies are kept, and no proxy
/// is used — ``HTTPEngine/exchanger(for:maximumWaitingBytes:environment:)`` chooses URLSession when a proxy applies.
///
/// **Where it runs.** On Linux each exchange is a state machine on the process's event loop
/// (``MCPPlatform/EventLoop``): N responses in flight cost no thread of their own (names are
/// looked up on one shared resolver thread, address literals need none). Where there is no
/// loop (other systems, or a kernel that refused the loop's descriptors) each exchange has a
/// reading thread of its own that waits on its socket and a wake-up pipe (cancellation). Both
/// behave the same.
package final class SocketExchanger: HTTPExchanging, Sendable {
    /// Where exchanges run.
    enum Engine: Sendable {
        /// On this event loop, with no thread of their own.
        case loop(EventLoop)
        /// Each on a thread of its own.
        case threads
    }

    /// The most bytes of one response read ahead of its reader: reading pauses there until the
    /// reader takes some.
    let window: Int
    let engine: Engine
    private let pool: ConnectionPool
    /// How to cancel each exchange running, and whether ``shutdown()`` has come (`nil` then).
    private let live = LockedValue<[ObjectIdentifier: @Sendable () -> Void]?>([:])
    let statistics = Statistics()

    /// What the exchanger did, for tests: connections opened, the most bytes of one
    /// response that ever waited unread, and the first time reading paused for a reader.
    final class Statistics: Sendable {
        private let counts = LockedValue((opened: 0, peak: 0))
        /// Fulfilled when reading first paused because the window was full.
        let paused = OneShot<Void>()

        var connectionsOpened: Int { counts.withLock { $0.opened } }
        var peakUnreadBytes: Int { counts.withLock { $0.peak } }

        func noteConnection() { counts.withLock { $0.opened += 1 } }
        func noteUnread(_ count: Int) { counts.withLock { $0.peak = max($0.peak, count) } }
        func notePause() { paused.fulfill(()) }
    }

    /// An exchanger on the process's event loop where connections use it by default
    /// (``MCPPlatform/EventLoop/forConnections``: Linux, unless `ONDEVICE_MCP_TRANSPORT_LOOP=0`), else on threads.
    package convenience init(window: Int = 256 << 10, maximumIdleConnections: Int = 8) {
        self.init(
            window: window, maximumIdleConnections: maximumIdleConnections, engine: EventLoop.forConnections.map { .loop($0) } ?? .threads)
    }

    /// An exchanger on `engine` (tests choose a loop of their own, or threads).
    init(window: Int = 256 << 10, maximumIdleConnections: Int = 8, engine: Engine) {
        self.window = max(1, window)
        self.engine = engine
        pool = ConnectionPool(maximumIdle: maximumIdleConnections)
    }

    deinit {
        shutdown()
    }

    package func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let target = try Target(request.url)
        let bytes = try Self.serialize(request, to: target)
        switch engine {
        case .loop(let loop): return try await exchangeOnLoop(loop, bytes, method: request.method, to: target)
        case .threads: return try await exchangeOnThread(bytes, method: request.method, to: target)
        }
    }

    /// Starts an exchange on `loop` and waits for its head.
    private func exchangeOnLoop(_ loop: EventLoop, _ bytes: [UInt8], method: String, to target: Target) async throws -> HTTPResponse {
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let exchange = LoopExchange(
            loop: loop, request: bytes, method: method, target: target, window: window, pool: pool, statistics: statistics,
            body: continuation
        ) { [weak self] ended in
            self?.forget(ObjectIdentifier(ended))
        }
        guard admit(ObjectIdentifier(exchange), cancel: { exchange.cancel() }) else { throw CancellationError() }
        continuation.onTermination = { _ in exchange.cancel(finishingBody: false) }
        exchange.start()
        guard let head = await exchange.head.wait() else {
            exchange.cancel()
            throw CancellationError()
        }
        return HTTPResponse(head: try head.get(), body: HTTPBody(body) { exchange.taken($0) }, close: { exchange.cancel() })
    }

    /// Registers a running exchange for ``shutdown()``; `false` once it has come.
    private func admit(_ key: ObjectIdentifier, cancel: @escaping @Sendable () -> Void) -> Bool {
        live.withLock { live in
            guard live != nil else { return false }
            live?[key] = cancel
            return true
        }
    }

    /// Starts an exchange on a thread of its own and waits for its head.
    private func exchangeOnThread(_ bytes: [UInt8], method: String, to target: Target) async throws -> HTTPResponse {
        let exchange = try Exchange(window: window, statistics: statistics)
        let admitted = admit(ObjectIdentifier(exchange)) { exchange.cancel() }
        guard admitted else {
            exchange.release()
            throw CancellationError()
        }
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        continuation.onTermination = { _ in exchange.cancel(finishingBody: false) }
        let pool = pool
        do {
            try POSIX.startThread(named: "HTTPClientCore.connection") { [weak self] in
                exchange.run(bytes, method: method, to: target, pool: pool, body: continuation)
                self?.forget(ObjectIdentifier(exchange))
            }
        } catch {
            forget(ObjectIdentifier(exchange))
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
        for cancel in exchanges { cancel() }
        pool.closeAll()
    }

    private func forget(_ key: ObjectIdentifier) {
        _ = live.withLock { $0?.removeValue(forKey: key) }
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
