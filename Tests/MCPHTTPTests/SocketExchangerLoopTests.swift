import Foundation
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import HTTPClientCore

/// The socket exchanger on an event loop of its own (and, for comparison, on threads): no
/// thread per exchange, every registration given back, the window held, sockets closed.
@Suite("Socket exchanger on the event loop")
struct SocketExchangerLoopTests {
    static let hangLimit = Sanitizers.stretched(.seconds(60))

    /// Which engine a test runs on.
    enum EngineChoice: String, CaseIterable, CustomTestStringConvertible {
        case loop
        case threads

        var testDescription: String { rawValue }
    }

    /// An exchanger on a loop of its own (returned, for its counts), or on threads.
    private func makeExchanger(_ choice: EngineChoice, window: Int = 256 << 10) throws -> (SocketExchanger, EventLoop?) {
        switch choice {
        case .loop:
            let loop = try #require(EventLoop.makeLoop(), "Linux has epoll")
            return (SocketExchanger(window: window, engine: .loop(loop)), loop)
        case .threads:
            return (SocketExchanger(window: window, engine: .threads), nil)
        }
    }

    /// Returns once the loop has run every job queued before the call (deregistrations among them).
    private func settle(_ loop: EventLoop?) async throws {
        guard let loop else { return }
        try await withHangGuard(Self.hangLimit, "the loop's queued jobs") {
            await withCheckedContinuation { continuation in loop.execute { continuation.resume() } }
        }
    }

    private func get(_ url: URL) -> HTTPRequest {
        HTTPRequest(method: "GET", url: url, headers: [], body: nil)
    }

    private static var threadCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    @Test(
        "Responses in flight at once cost registrations on the loop, not threads; closing them gives every registration back",
        .enabled(if: HTTPPeer.enabled, "needs .venv/bin/python (scripts/bootstrap-python.sh)"),
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "counts threads in /proc/self/task"),
        .serialized, arguments: EngineChoice.allCases)
    func threadsPerExchange(engine: EngineChoice) async throws {
        let count = 32
        try await HTTPPeer.with("hostile_http_server.py", ["--mode", "hang-mid-stream"]) { peer in
            let (exchanger, loop) = try makeExchanger(engine)
            defer { exchanger.shutdown() }
            let url = try peer.url()
            let before = Self.threadCount
            let responses = try await withHangGuard(Self.hangLimit, "\(count) heads") {
                try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                    for id in 0..<count { group.addTask { try await exchanger.exchange(SocketExchangerTests.post(url, id: id)) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            // Every response is still streaming (the server sent one event and waits).
            let during = Self.threadCount
            switch engine {
            case .loop:
                #expect(loop?.registrationCount == count)
                // The loop's own thread (and whatever the other tests started meanwhile), not one per exchange.
                #expect(during - before < count / 2, "threads: \(before) before, \(during) with \(count) responses in flight")
            case .threads:
                #expect(during - before >= count / 2, "threads: \(before) before, \(during) with \(count) responses in flight")
            }
            for response in responses { response.close() }
            try await settle(loop)
            #expect(loop?.registrationCount ?? 0 == 0)
        }
    }

    @Test(
        "A flooding server is held back by TCP while the reader takes nothing: no more than the window and one read wait unread",
        arguments: EngineChoice.allCases)
    func windowHoldsUnderFlood(engine: EngineChoice) async throws {
        let window = 256 << 10
        let total = 64 << 20
        let (exchanger, loop) = try makeExchanger(engine, window: window)
        defer { exchanger.shutdown() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let report = OneShot<LoopbackHTTPServer.Connection.Flood>()
        let statistics = exchanger.statistics
        async let served = server.serve { connection in
            guard connection.readRequestHead() else { return LoopbackHTTPServer.Connection.Flood.failed }
            return connection.flood(total: total, reportedTo: report) { statistics.paused.current != nil }
        }
        let response = try await withHangGuard(Self.hangLimit, "the head") { try await exchanger.exchange(get(try server.url())) }
        // The reader takes nothing: reading pauses, and the server finds no room.
        let flood = try await withHangGuard(Self.hangLimit, "the server held back") { await report.wait() }
        guard case .heldBack(let sent) = flood else {
            Issue.record("the server was not held back: \(String(describing: flood))")
            response.close()
            return
        }
        #expect(sent < total)
        try await settle(loop)
        #expect(statistics.peakUnreadBytes <= window + (64 << 10))
        // Then the reader takes everything: nothing is lost, and the bound held throughout.
        let read = try await withHangGuard(Self.hangLimit, "reading the flood") {
            var read = 0
            for try await chunk in response.body { read += chunk.count }
            return read
        }
        #expect(read == total)
        #expect(await served == .heldBack(sent: sent))
        #expect(statistics.peakUnreadBytes <= window + (64 << 10))
        try await settle(loop)
        #expect(loop?.registrationCount ?? 0 == 0)
    }

    /// How a test stops a response in the middle of its body.
    enum Stop: String, CaseIterable, CustomTestStringConvertible {
        /// `HTTPResponse.close()`.
        case close
        /// The task reading the body is cancelled.
        case cancelReader

        var testDescription: String { rawValue }
    }

    @Test(
        "A response stopped in the middle of its body closes its socket: the server sees the connection end",
        arguments: EngineChoice.allCases, Stop.allCases)
    func stopMidBody(engine: EngineChoice, stop: Stop) async throws {
        let (exchanger, loop) = try makeExchanger(engine)
        defer { exchanger.shutdown() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let closed = Task {
            await server.serve { connection in
                guard connection.readRequestHead() else { return false }
                connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
                return connection.waitForClose()
            }
        }
        let response = try await withHangGuard(Self.hangLimit, "the head") { try await exchanger.exchange(get(try server.url())) }
        let first = OneShot<Void>()
        let reader = Task {
            var iterator = response.body.makeAsyncIterator()
            let chunk = try await iterator.next()
            first.fulfill(())
            #expect(chunk == Data("hello".utf8))
            // Waits for the rest, which never comes.
            return try await iterator.next()
        }
        try await withHangGuard(Self.hangLimit, "the first chunk") { _ = await first.wait() }
        switch stop {
        case .close: response.close()
        case .cancelReader: reader.cancel()
        }
        let outcome = try await withHangGuard(Self.hangLimit, "the reader ending") { await reader.result }
        switch stop {
        case .close: #expect(throws: CancellationError.self) { try outcome.get() }
        // A cancelled reader's stream ends (as every AsyncThrowingStream's does).
        case .cancelReader: #expect(try outcome.get() == nil)
        }
        let sawClose = try await withHangGuard(Self.hangLimit, "the server seeing the close") { await closed.value }
        #expect(sawClose == true)
        try await settle(loop)
        #expect(loop?.registrationCount ?? 0 == 0)
    }

    @Test(
        "A completed response's connection goes back to the pool (off the loop) and carries the next request",
        arguments: EngineChoice.allCases)
    func keptAlive(engine: EngineChoice) async throws {
        let (exchanger, loop) = try makeExchanger(engine)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let served = Task {
            await server.serve { connection in
                var answered = 0
                while connection.readRequestHead() {
                    answered += 1
                    connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                }
                return answered
            }
        }
        for _ in 0..<3 {
            let text = try await withHangGuard(Self.hangLimit, "a request") {
                let response = try await exchanger.exchange(get(try server.url()))
                var body = Data()
                for try await chunk in response.body { body.append(chunk) }
                return String(decoding: body, as: UTF8.self)
            }
            #expect(text == "ok")
            try await settle(loop)
            #expect(loop?.registrationCount ?? 0 == 0)
        }
        #expect(exchanger.statistics.connectionsOpened == 1)
        // Shutting down closes the idle connection: the server's loop ends.
        exchanger.shutdown()
        let answered = try await withHangGuard(Self.hangLimit, "the server seeing the close") { await served.value }
        #expect(answered == 3)
    }

    @Test(
        "A kept-alive connection the server closes instead of answering is retried once, on a new connection",
        arguments: EngineChoice.allCases)
    func staleConnectionRetried(engine: EngineChoice) async throws {
        let (exchanger, loop) = try makeExchanger(engine)
        defer { exchanger.shutdown() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let served = Task {
            // The first connection answers once, then takes the second request and closes.
            let first = await server.serve { connection in
                guard connection.readRequestHead() else { return false }
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst")
                return connection.readRequestHead()
            }
            let second = await server.serve { connection in
                guard connection.readRequestHead() else { return false }
                return connection.write("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond")
            }
            return first == true && second == true
        }
        for expected in ["first", "second"] {
            let text = try await withHangGuard(Self.hangLimit, "the \(expected) request") {
                let response = try await exchanger.exchange(get(try server.url()))
                var body = Data()
                for try await chunk in response.body { body.append(chunk) }
                return String(decoding: body, as: UTF8.self)
            }
            #expect(text == expected)
        }
        #expect(try await withHangGuard(Self.hangLimit, "the server") { await served.value })
        #expect(exchanger.statistics.connectionsOpened == 2)
        try await settle(loop)
        #expect(loop?.registrationCount ?? 0 == 0)
    }

    @Test("A name is looked up off the loop (on the resolver's thread) and connected to", arguments: EngineChoice.allCases)
    func resolvesNames(engine: EngineChoice) async throws {
        let (exchanger, loop) = try makeExchanger(engine)
        defer { exchanger.shutdown() }
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        async let served: Bool? = server.serve { connection in
            guard connection.readRequestHead() else { return false }
            return connection.write("HTTP/1.1 204 No Content\r\n\r\n")
        }
        let port = try #require(URLComponents(url: try server.url(), resolvingAgainstBaseURL: false)?.port)
        let url = try #require(URL(string: "http://localhost:\(port)/"))
        let status = try await withHangGuard(Self.hangLimit, "the response") {
            let response = try await exchanger.exchange(get(url))
            // Its end comes after its socket has left the loop (or gone back to the pool).
            for try await _ in response.body {}
            return response.head.status
        }
        #expect(status == 204)
        #expect(await served == true)
        try await settle(loop)
        #expect(loop?.registrationCount ?? 0 == 0)
    }
}
