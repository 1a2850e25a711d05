import Foundation
import MCP
import MCPCore
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import HTTPClientCore
@testable import MCPHTTP

private let guardLimit: Duration = .seconds(30)

/// A handshake-era server: session `s-1`, `2025-11-25`, `tools/call` answered by `call`.
private func handshakeServer(
    session: String = "s-1", version: String = "2025-11-25",
    call: @escaping @Sendable (HTTPRequest, JSONRPCRequest) async throws -> FakeResponse = { _, request in
        .json(Scripted.toolResult(request.id, text: "ok"))
    }
) -> FakeExchanger.Handler {
    { request in
        switch (request.method, request.message) {
        case ("POST", .request(let rpc)?) where rpc.method == "server/discover":
            return .text(400, "Bad Request: Missing session ID")
        case ("POST", .request(let rpc)?) where rpc.method == "initialize":
            return .json(Scripted.initializeResult(rpc.id, version: version), headers: ["Mcp-Session-Id": session])
        case ("POST", .request(let rpc)?) where rpc.method == "tools/list":
            return .json(Scripted.toolsList(rpc.id))
        case ("POST", .request(let rpc)?):
            return try await call(request, rpc)
        case ("POST", _):
            return .accepted
        case ("GET", _):
            return FakeResponse(status: 405)
        default:
            return FakeResponse(status: 405)
        }
    }
}

// Generous timeouts: the scripted server answers at once, but a loaded machine (the whole
// suite on two cores) can starve a test for seconds, and a discover probe that times out
// would change the handshake under test.
private let quickClient = MCPClient.Configuration(requestTimeout: .seconds(60), discoverTimeout: .seconds(60))
private let handshakeClient = MCPClient.Configuration(handshake: .version(.v2025_11_25), requestTimeout: .seconds(60))

@Suite("HTTP client transport (scripted server)")
struct HTTPTransportTests {
    @Test("a JSON response goes to the inbound stream; the POST has MCP's headers")
    func jsonResponse() async throws {
        let (transport, fake) = try fakeTransport { request in
            guard case .request(let rpc)? = request.message else { return .accepted }
            return .json(Scripted.toolResult(rpc.id, text: "hi"))
        }
        var inbound = transport.receive().makeAsyncIterator()
        try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "echo"])))
        let messages = try await read(1, from: &inbound)
        #expect(messages == [Scripted.toolResult(1, text: "hi")])
        let post = try #require(fake.requests("POST").first)
        #expect(post.url == endpoint)
        #expect(post.header("accept") == "application/json, text/event-stream")
        #expect(post.header("content-type") == "application/json")
        await transport.close()
    }

    @Test("an event stream delivers progress before the result, in order; send returns after the result")
    func eventStreamResponse() async throws {
        let (transport, _) = try fakeTransport { request in
            guard case .request(let rpc)? = request.message else { return .accepted }
            return .events([Scripted.progress("t", 1), Scripted.progress("t", 2), Scripted.toolResult(rpc.id, text: "done")])
        }
        var inbound = transport.receive().makeAsyncIterator()
        try await transport.send(.request(JSONRPCRequest(id: 4, method: "tools/call", params: ["name": "slow"])))
        let messages = try await read(3, from: &inbound)
        #expect(messages == [Scripted.progress("t", 1), Scripted.progress("t", 2), Scripted.toolResult(4, text: "done")])
        await transport.close()
    }

    @Test("the event stream is read as it arrives, and closed once the response came")
    func incrementalEvents() async throws {
        let feed = Feed()
        let (transport, _) = try fakeTransport { _ in .sse(feed) }
        var inbound = transport.receive().makeAsyncIterator()
        let sending = Task { try await transport.send(.request(JSONRPCRequest(id: 8, method: "tools/call", params: ["name": "slow"]))) }
        feed.send("data: \(Scripted.progress("p", 1))\n\n")
        #expect(try await read(1, from: &inbound) == [Scripted.progress("p", 1)])
        feed.send("data: \(Scripted.toolResult(8, text: "r"))\n\n")
        try await withHangGuard(guardLimit, "send") { try await sending.value }
        #expect(try await read(1, from: &inbound) == [Scripted.toolResult(8, text: "r")])
        try await withHangGuard(guardLimit, "the stream's end") { await feed.terminated.wait() }
        await transport.close()
    }

    @Test("202 for a notification is all there is; 202 for a request is an error")
    func accepted() async throws {
        let (transport, _) = try fakeTransport { _ in .accepted }
        try await transport.send(.notification(JSONRPCNotification(method: "notifications/initialized")))
        await #expect(throws: HTTPTransportError.missingResponse) {
            try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/list")))
        }
        await transport.close()
    }

    @Test("callTool gets a 500 as HTTPTransportError.httpStatus with the start of the body")
    func serverError() async throws {
        let (transport, _) = try fakeTransport(
            handshakeServer { _, _ in .text(500, "Traceback (most recent call last): boom") })
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        let error = await #expect(throws: HTTPTransportError.httpStatus) { try await client.callTool(name: "echo") }
        #expect(error?.status == 500)
        #expect(error?.detail.contains("Traceback (most recent call last): boom") == true)
        // The connection goes on.
        #expect(try await client.listTools().map(\.name) == ["echo"])
        await client.close()
    }

    @Test("a JSON-RPC error sent with an error status is the server's answer")
    func jsonRPCErrorWithStatus() async throws {
        let (transport, _) = try fakeTransport(
            handshakeServer { _, rpc in .json(Scripted.error(rpc.id, code: -32602, message: "Unknown tool: nope"), status: 400) })
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        let error = await #expect(throws: JSONRPCError.self) { try await client.callTool(name: "nope") }
        #expect(error?.code == .invalidParams)
        await client.close()
    }

    @Test("a JSON batch (2025-03-26) is delivered message by message, in its order")
    func batchInOrder() async throws {
        let (transport, _) = try fakeTransport { request in
            guard case .request(let rpc)? = request.message else { return .accepted }
            let batch = "[\(Scripted.progress("t", 1)),\(Scripted.toolResult(rpc.id, text: "b")),\(Scripted.progress("t", 2))]"
            return FakeResponse(status: 200, headers: ["Content-Type": "application/json"], body: .chunks([Data(batch.utf8)]))
        }
        var inbound = transport.receive().makeAsyncIterator()
        try await transport.send(.request(JSONRPCRequest(id: 3, method: "tools/call", params: ["name": "b"])))
        #expect(
            try await read(3, from: &inbound) == [Scripted.progress("t", 1), Scripted.toolResult(3, text: "b"), Scripted.progress("t", 2)])
        await transport.close()
    }

    @Test("a redirect is not followed, and says where it pointed")
    func redirect() async throws {
        let (transport, _) = try fakeTransport { _ in FakeResponse(status: 307, headers: ["Location": "https://elsewhere.example/mcp"]) }
        let error = await #expect(throws: HTTPTransportError.httpStatus) {
            try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/list")))
        }
        #expect(error?.status == 307)
        #expect(error?.detail.contains("https://elsewhere.example/mcp") == true)
        await transport.close()
    }

    @Test("an authorization provider that throws fails the request before it is sent")
    func authorizationProviderFails() async throws {
        struct NoToken: Error {}
        var configuration = HTTPTransportConfiguration()
        configuration.authorization = { throw NoToken() }
        let (transport, fake) = try fakeTransport(with: configuration) { _ in .accepted }
        await #expect(throws: HTTPTransportError.authorizationFailed) {
            try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/list")))
        }
        #expect(fake.requests.values.isEmpty)
        await transport.close()
    }

    @Test("an HTML page with 200 is refused as the wrong content type")
    func htmlPage() async throws {
        let (transport, _) = try fakeTransport(
            handshakeServer { _, _ in .text(200, "<!doctype html><title>Sign in</title>", contentType: "text/html; charset=utf-8") })
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        let error = await #expect(throws: HTTPTransportError.unexpectedContentType) { try await client.callTool(name: "echo") }
        #expect(error?.detail.contains("text/html") == true)
        #expect(error?.detail.contains("Sign in") == true)
        await client.close()
    }

    @Test("401 fails connect with the challenge and the resource metadata URL")
    func unauthorized() async throws {
        let challenge = #"Bearer resource_metadata="https://auth.example/.well-known/oauth-protected-resource", scope="mcp""#
        let (transport, _) = try fakeTransport { _ in FakeResponse(status: 401, headers: ["WWW-Authenticate": challenge]) }
        let error = await #expect(throws: HTTPTransportError.unauthorized) {
            try await MCPClient.connect(over: transport, configuration: quickClient)
        }
        #expect(error?.challenge == challenge)
        #expect(error?.resourceMetadata?.absoluteString == "https://auth.example/.well-known/oauth-protected-resource")
    }

    @Test("authorization is asked for before each request")
    func authorizationPerRequest() async throws {
        let counter = Counter()
        var configuration = HTTPTransportConfiguration()
        configuration.authorization = { "Bearer token-\(counter.next())" }
        configuration.headers = ["X-App": "demo", "mcp-session-id": "forged"]
        let (transport, fake) = try fakeTransport(with: configuration, handshakeServer())
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        _ = try await client.listTools()
        await client.close()
        let posts = fake.requests("POST")
        #expect(posts.count >= 3)
        #expect(Set(posts.compactMap { $0.header("authorization") }).count == posts.count)
        #expect(posts.allSatisfy { $0.header("x-app") == "demo" })
        // The transport's own headers win.
        #expect(posts.allSatisfy { $0.header("mcp-session-id") != "forged" })
    }

    @Test("a body over the limit fails, and reading stops at the limit")
    func oversizedBody() async throws {
        var configuration = HTTPTransportConfiguration()
        configuration.maximumMessageBytes = 64 << 10
        let (transport, _) = try fakeTransport(with: configuration) { request in
            if request.rpcMethod == "tools/list" {
                // Declared too large: not read at all.
                return FakeResponse(
                    status: 200, headers: ["Content-Type": "application/json", "Content-Length": "99999999"],
                    body: .endless(chunkSize: 4096))
            }
            // Endless: only a reader that stops ends it.
            return FakeResponse(status: 200, headers: ["Content-Type": "application/json"], body: .endless(chunkSize: 4096))
        }
        try await withHangGuard(guardLimit, "oversized bodies") {
            await #expect(throws: HTTPTransportError.messageTooLarge) {
                try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "big"])))
            }
            await #expect(throws: HTTPTransportError.messageTooLarge) {
                try await transport.send(.request(JSONRPCRequest(id: 2, method: "tools/list")))
            }
        }
        await transport.close()
    }

    @Test("an event over the limit fails, and reading stops")
    func oversizedEvent() async throws {
        var configuration = HTTPTransportConfiguration()
        configuration.maximumEventBytes = 16 << 10
        let (transport, _) = try fakeTransport(with: configuration) { _ in
            FakeResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: .endless(chunkSize: 1000))
        }
        _ = try await withHangGuard(guardLimit, "an endless event") {
            await #expect(throws: HTTPTransportError.eventTooLarge) {
                try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "big"])))
            }
        }
        await transport.close()
    }

    @Test("a server that hangs before its headers, or mid-stream, fails at the idle timeout")
    func idleTimeout() async throws {
        var configuration = HTTPTransportConfiguration()
        configuration.idleTimeout = .milliseconds(300)
        let feed = Feed()
        let (transport, _) = try fakeTransport(with: configuration) { request in
            if request.rpcMethod == "tools/list" { try await hang() }
            return .sse(feed)
        }
        feed.send(": keep-alive\n\ndata: \(Scripted.progress("t", 1))\n\n")
        try await withHangGuard(guardLimit, "idle requests") {
            await #expect(throws: HTTPTransportError.idleTimeout) {
                try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/list")))
            }
            await #expect(throws: HTTPTransportError.idleTimeout) {
                try await transport.send(.request(JSONRPCRequest(id: 2, method: "tools/call", params: ["name": "x"])))
            }
        }
        _ = try await withHangGuard(guardLimit, "the stream's end") { await feed.terminated.wait() }
        await transport.close()
    }

    @Test("a stream that ends before the response fails the request, saying so")
    func streamEndsEarly() async throws {
        let (transport, _) = try fakeTransport { _ in .sse("data: \(Scripted.progress("t", 1))\n\ndata: {\"jsonrpc\":") }
        let error = await #expect(throws: HTTPTransportError.streamEnded) {
            try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "x"])))
        }
        #expect(error?.detail.contains("in the middle of an event") == true)
        await transport.close()
    }

    @Test(
        "credentials over plain http are refused except to this machine",
        arguments: [
            ("http://example.com/mcp", false), ("https://example.com/mcp", true), ("http://127.0.0.1:8000/mcp", true),
            ("http://localhost/mcp", true), ("http://[::1]:9000/mcp", true),
        ])
    func insecureCredentials(url: String, allowed: Bool) throws {
        var withToken = HTTPTransportConfiguration()
        withToken.authorization = { "Bearer secret" }
        var withCookie = HTTPTransportConfiguration()
        withCookie.headers = ["Cookie": "session=1"]
        for configuration in [withToken, withCookie] {
            let fake = FakeExchanger { _ in .accepted }
            if allowed {
                _ = try HTTPClientTransport(url: try #require(URL(string: url)), configuration: configuration, exchanger: fake)
            } else {
                #expect(throws: HTTPTransportError.insecureCredentials) {
                    try HTTPClientTransport(url: try #require(URL(string: url)), configuration: configuration, exchanger: fake)
                }
            }
        }
        // Without credentials, plain http anywhere is fine; with the opt-in, too.
        _ = try HTTPClientTransport(
            url: try #require(URL(string: url)), configuration: HTTPTransportConfiguration(), exchanger: FakeExchanger { _ in .accepted })
        withToken.allowsInsecureCredentials = true
        _ = try HTTPClientTransport(
            url: try #require(URL(string: url)), configuration: withToken, exchanger: FakeExchanger { _ in .accepted })
    }

    @Test("URLs that are not http(s), and limits that are not positive, are refused")
    func invalidConfiguration() throws {
        #expect(throws: TransportError.invalidConfiguration("")) {
            try HTTPClientTransport(url: try #require(URL(string: "ftp://example.com/mcp")))
        }
        var configuration = HTTPTransportConfiguration()
        configuration.maximumMessageBytes = 0
        #expect(throws: TransportError.invalidConfiguration("")) {
            try HTTPClientTransport(url: endpoint, configuration: configuration, exchanger: FakeExchanger { _ in .accepted })
        }
    }

    @Test("the handshake keeps the session id, sends it and the version, and close() DELETEs the session")
    func sessionAndDelete() async throws {
        let server = handshakeServer(session: "abc-123")
        // The standalone stream's GET is opened on its own task after notifications/initialized:
        // wait for it before closing (on a loaded machine the call can be answered first, and
        // the close would then come before the GET was ever made).
        let standaloneOpened = OneShot<Void>()
        let (transport, fake) = try fakeTransport { request in
            if request.method == "GET", request.header("mcp-session-id") != nil { standaloneOpened.fulfill(()) }
            return try await server(request)
        }
        let client = try await MCPClient.connect(over: transport, configuration: quickClient)
        #expect(client.protocolVersion == .v2025_11_25)
        _ = try await client.callTool(name: "echo")
        // A hang guard only: the GET comes at once on an idle machine.
        #expect(await standaloneOpened.wait(within: .seconds(60)) != nil, "the standalone stream's GET was never made")
        await client.close()
        let posts = fake.requests("POST")
        let initialize = try #require(posts.first { $0.rpcMethod == "initialize" })
        #expect(initialize.header("mcp-session-id") == nil)
        #expect(initialize.header("mcp-protocol-version") == nil)
        let call = try #require(posts.first { $0.rpcMethod == "tools/call" })
        #expect(call.header("mcp-session-id") == "abc-123")
        #expect(call.header("mcp-protocol-version") == "2025-11-25")
        let delete = try #require(fake.requests("DELETE").first)
        #expect(delete.header("mcp-session-id") == "abc-123")
        #expect(fake.shutdowns.count == 1)
        // GETs: the HTTP+SSE probe after the refused discover (no session), then the
        // standalone stream after notifications/initialized (refused with 405).
        let gets = fake.requests("GET")
        #expect(gets.count == 2)
        #expect(gets.last?.header("mcp-session-id") == "abc-123")
    }

    @Test("a 404 for the session: the transport redoes the handshake and sends the call again")
    func sessionExpiry() async throws {
        let sessions = Counter()
        let current = Recorded<String>()
        let (transport, fake) = try fakeTransport { request in
            switch request.message {
            case .request(let rpc)? where rpc.method == "initialize":
                let session = "s-\(sessions.next())"
                current.append(session)
                return .json(Scripted.initializeResult(rpc.id), headers: ["Mcp-Session-Id": session])
            case .request(let rpc)?:
                // Only the newest session is alive.
                guard request.header("mcp-session-id") == current.values.last else { return .text(404, "Session not found") }
                return .json(Scripted.toolResult(rpc.id, text: "after \(current.values.last ?? "")"))
            default:
                if request.method == "GET" { return FakeResponse(status: 405) }
                return .accepted
            }
        }
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        current.append("s-gone")  // the server forgets s-1
        let result = try await client.callTool(name: "echo")
        #expect(result.content.first?.text == "after s-2")
        await client.close()
        let initializes = fake.requests("POST").filter { $0.rpcMethod == "initialize" }
        #expect(initializes.count == 2)
        #expect(initializes.allSatisfy { $0.header("mcp-session-id") == nil })
        #expect(fake.postedMessages.filter { $0.description.contains("notifications/initialized") }.count == 2)
    }

    @Test("a session that stays gone after a new handshake fails the call with sessionExpired")
    func sessionStaysGone() async throws {
        let (transport, _) = try fakeTransport(handshakeServer { _, _ in .text(404, "Session not found") })
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        await #expect(throws: HTTPTransportError.sessionExpired) { try await client.callTool(name: "echo") }
        await client.close()
    }

    @Test("the GET stream delivers server messages and reopens with Last-Event-ID when it drops")
    func standaloneStreamReconnects() async throws {
        var configuration = HTTPTransportConfiguration()
        configuration.reconnectionDelay = .milliseconds(10)
        let gets = Counter()
        let lastEventIDs = Recorded<String?>()
        let changed = JSONRPCMessage.notification(JSONRPCNotification(method: "notifications/tools/list_changed"))
        let first = Feed()
        let later = Feed()
        let base = handshakeServer()
        let (transport, _) = try fakeTransport(with: configuration) { request in
            guard request.method == "GET" else { return try await base(request) }
            lastEventIDs.append(request.header("last-event-id"))
            return .sse(gets.next() == 1 ? first : later)
        }
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        let notifications = client.notifications
        // The first stream sends one event and drops; the second resumes after it.
        first.send("id: ev-1\ndata: \(changed)\n\n")
        first.finish()
        later.send("id: ev-2\ndata: \(changed)\n\n")
        try await withHangGuard(guardLimit, "two list changes") {
            var seen = 0
            for await notification in notifications where notification == .toolListChanged {
                seen += 1
                if seen == 2 { break }
            }
        }
        #expect(lastEventIDs.values.prefix(2) == [nil, "ev-1"])
        await client.close()
        try await withHangGuard(guardLimit, "the GET stream's end") { await later.terminated.wait() }
    }

    @Test("a POST stream that drops before its response is resumed with GET and Last-Event-ID")
    func postStreamResumes() async throws {
        var configuration = HTTPTransportConfiguration()
        configuration.reconnectionDelay = .milliseconds(10)
        let resumed = Recorded<String?>()
        let base = handshakeServer { _, rpc in .events([Scripted.progress("t", 1)], ids: ["p-1"]) }
        let callID = Recorded<RequestID>()
        let (transport, _) = try fakeTransport(with: configuration) { request in
            if case .request(let rpc)? = request.message, rpc.method == "tools/call" { callID.append(rpc.id) }
            if request.method == "GET" {
                guard let lastEventID = request.header("last-event-id") else { return FakeResponse(status: 405) }
                resumed.append(lastEventID)
                let id = callID.values.last ?? 0
                return .events([Scripted.progress("t", 2), Scripted.toolResult(id, text: "resumed")], ids: ["p-2", "p-3"])
            }
            return try await base(request)
        }
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        let result = try await client.callTool(name: "slow")
        #expect(result.content.first?.text == "resumed")
        #expect(resumed.values == ["p-1"])
        await client.close()
    }

    /// How a scripted stream stops early.
    enum Drop: String, Sendable, CaseIterable {
        /// The body ends cleanly.
        case end
        /// The connection drops: the body fails.
        case failure
        /// The connection drops in the middle of an event (after its `id` line).
        case midEvent
    }

    @Test(
        "a POST stream that ends, fails or is cut mid-event before its response resumes from its last complete event, each report once",
        arguments: Drop.allCases)
    func postStreamResumesAfterDrop(_ drop: Drop) async throws {
        var configuration = HTTPTransportConfiguration()
        configuration.reconnectionDelay = .milliseconds(10)
        let resumed = Recorded<String?>()
        let call = Recorded<JSONRPCRequest>()
        let base = handshakeServer { _, rpc in
            call.append(rpc)
            let token = rpc.params?["_meta"]?["progressToken"] ?? "t"
            let feed = Feed()
            feed.send("id: p-1\ndata: \(Scripted.progress(token, 1))\n\n")
            switch drop {
            case .end:
                feed.finish()
            case .failure:
                feed.fail(HTTPTransportError.make(.network, "the connection dropped"))
            case .midEvent:
                feed.send("id: p-2\ndata: {\"jsonrpc\":")
                feed.fail(HTTPTransportError.make(.network, "the connection dropped"))
            }
            return .sse(feed)
        }
        let (transport, _) = try fakeTransport(with: configuration) { request in
            guard request.method == "GET" else { return try await base(request) }
            guard let lastEventID = request.header("last-event-id"), let rpc = call.values.last else { return FakeResponse(status: 405) }
            resumed.append(lastEventID)
            let token = rpc.params?["_meta"]?["progressToken"] ?? "t"
            // The server replays what came after the id it is given.
            return .events([Scripted.progress(token, 2), Scripted.toolResult(rpc.id, text: "resumed")], ids: ["p-2", "p-3"])
        }
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        let progress = Recorded<Double>()
        let result = try await client.callTool(name: "slow") { report in progress.append(report.progress) }
        #expect(result.content.first?.text == "resumed")
        #expect(resumed.values == ["p-1"])
        #expect(progress.values == [1, 2])
        await client.close()
    }

    @Test("a POST stream that drops without an event id fails with the drop's error")
    func postStreamDropWithoutID() async throws {
        let (transport, fake) = try fakeTransport { _ in
            let feed = Feed()
            feed.send("data: \(Scripted.progress("t", 1))\n\n")
            feed.fail(HTTPTransportError.make(.network, "the connection dropped"))
            return .sse(feed)
        }
        await #expect(throws: HTTPTransportError.network) {
            try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "x"])))
        }
        #expect(fake.requests("GET").isEmpty)
        await transport.close()
    }

    @Test(
        "the GET stream that drops reopens after its last complete event, so nothing is missed or repeated",
        arguments: [Drop.failure, .midEvent])
    func standaloneStreamResumesAfterDrop(_ drop: Drop) async throws {
        var configuration = HTTPTransportConfiguration()
        configuration.reconnectionDelay = .milliseconds(10)
        let gets = Counter()
        let lastEventIDs = Recorded<String?>()
        let updated = { @Sendable (n: Int) in
            JSONRPCMessage.notification(
                JSONRPCNotification(method: "notifications/resources/updated", params: ["uri": .string("test://\(n)")]))
        }
        let later = Feed()
        let base = handshakeServer()
        // The first event waits until the test listens: a notification that arrives before
        // anyone subscribes is not kept for later subscribers.
        let subscribed = OneShot<Void>()
        let (transport, _) = try fakeTransport(with: configuration) { request in
            guard request.method == "GET" else { return try await base(request) }
            let lastEventID = request.header("last-event-id")
            lastEventIDs.append(lastEventID)
            if gets.next() == 1 {
                await subscribed.wait()
                let first = Feed()
                first.send("id: ev-1\ndata: \(updated(1))\n\n")
                if drop == .midEvent { first.send("id: ev-2\ndata: {\"jsonrpc\"") }
                first.fail(HTTPTransportError.make(.network, "the connection dropped"))
                return .sse(first)
            }
            // A server with an event store replays what came after the id; without one, everything.
            let replay = lastEventID == "ev-1" ? [2, 3] : [1, 2, 3]
            for n in replay { later.send("id: ev-\(n)\ndata: \(updated(n))\n\n") }
            return .sse(later)
        }
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        let notifications = client.notifications
        subscribed.fulfill(())
        let uris = try await withHangGuard(guardLimit, "three updates") {
            var uris: [String] = []
            for await notification in notifications {
                guard case .other(let other) = notification, let uri = other.params?["uri"]?.stringValue else { continue }
                uris.append(uri)
                if uri == "test://3" { break }
            }
            return uris
        }
        #expect(uris == ["test://1", "test://2", "test://3"])
        #expect(lastEventIDs.values.prefix(2) == [nil, "ev-1"])
        await client.close()
        try await withHangGuard(guardLimit, "the GET stream's end") { await later.terminated.wait() }
    }

    @Test("a 2026-07-28 client: headers from the envelope, no session, and cancelling closes the stream without a notification")
    func modernEra() async throws {
        let feed = Feed()
        let callArrived = OneShot<Void>()
        let (transport, fake) = try fakeTransport { request in
            switch request.message {
            case .request(let rpc)? where rpc.method == "server/discover":
                return .json(Scripted.discoverResult(rpc.id), headers: ["Mcp-Session-Id": "ignored"])
            case .request(let rpc)? where rpc.method == "tools/list":
                return .json(Scripted.toolsList(rpc.id))
            case .request(let rpc)? where rpc.method == "tools/call":
                callArrived.fulfill(())
                return .sse(feed)
            default:
                return .accepted
            }
        }
        let client = try await MCPClient.connect(over: transport, configuration: quickClient)
        #expect(client.protocolVersion == .v2026_07_28)
        _ = try await client.listTools()
        let call = Task { try await client.callTool(name: "wait") }
        feed.send(": ping\n\n")
        try await withHangGuard(guardLimit, "the call's POST") { await callArrived.wait() }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        try await withHangGuard(guardLimit, "the stream's end") { await feed.terminated.wait() }
        await client.close()
        let posts = fake.requests("POST")
        let list = try #require(posts.first { $0.rpcMethod == "tools/list" })
        #expect(list.header("mcp-protocol-version") == "2026-07-28")
        #expect(list.header("mcp-method") == "tools/list")
        #expect(list.header("mcp-session-id") == nil)
        let toolCall = try #require(posts.first { $0.rpcMethod == "tools/call" })
        #expect(toolCall.header("mcp-name") == "wait")
        #expect(!posts.contains { $0.rpcMethod == "notifications/cancelled" })
        #expect(fake.requests("GET").isEmpty)
        #expect(fake.requests("DELETE").isEmpty)
    }

    @Test("a 2026-07-28 call refused for a missing Mcp-Param header lists the tools and is sent again with it")
    func headerMismatchRelists() async throws {
        let schema: JSONValue = ["type": "object", "properties": ["region": ["type": "string", "x-mcp-header": "Region"]]]
        let (transport, fake) = try fakeTransport { request in
            switch request.message {
            case .request(let rpc)? where rpc.method == "server/discover":
                return .json(Scripted.discoverResult(rpc.id))
            case .request(let rpc)? where rpc.method == "tools/list":
                return .json(.response(JSONRPCResponse(id: rpc.id, result: ["tools": [["name": "locate", "inputSchema": schema]]])))
            case .request(let rpc)? where rpc.method == "tools/call":
                guard request.header("mcp-param-region") == "eu" else {
                    return .json(Scripted.error(rpc.id, code: -32020, message: "Mcp-Param-Region header is missing"), status: 400)
                }
                return .json(Scripted.toolResult(rpc.id, text: "region eu"))
            default:
                return .accepted
            }
        }
        let client = try await MCPClient.connect(over: transport, configuration: quickClient)
        // Called without listing first: the transport learns the header and retries.
        #expect(try await client.callTool(name: "locate", arguments: ["region": "eu"]).content.first?.text == "region eu")
        // Now it knows: the next call carries the header at once.
        #expect(try await client.callTool(name: "locate", arguments: ["region": "eu"]).content.first?.text == "region eu")
        await client.close()
        let calls = fake.requests("POST").filter { $0.rpcMethod == "tools/call" }
        #expect(calls.map { $0.header("mcp-param-region") } == [nil, "eu", "eu"])
        #expect(fake.requests("POST").filter { $0.rpcMethod == "tools/list" }.count == 1)
    }

    @Test("a request timeout (handshake era) stops reading the POST and tells the server")
    func timeoutCancels() async throws {
        let feed = Feed()
        // The caller gets its error first; the cancellation follows (best effort), so wait for it.
        let cancellationPosted = OneShot<Void>()
        let server = handshakeServer { _, _ in .sse(feed) }
        let (transport, fake) = try fakeTransport { request in
            if case .notification(let notification)? = request.message, notification.method == "notifications/cancelled" {
                cancellationPosted.fulfill(())
            }
            return try await server(request)
        }
        let client = try await MCPClient.connect(over: transport, configuration: handshakeClient)
        try await withHangGuard(guardLimit, "a timed-out call and its cancellation") {
            await #expect(throws: MCPClientError.timedOut) { try await client.callTool(name: "slow", timeout: .milliseconds(300)) }
            await feed.terminated.wait()
            _ = await cancellationPosted.wait()
        }
        await client.close()
        #expect(fake.postedMessages.contains { $0.description.contains("notifications/cancelled") })
    }

    @Test("a legacy Streamable HTTP server refuses the discover probe; the client falls back to initialize")
    func probeFallback() async throws {
        let (transport, fake) = try fakeTransport(handshakeServer())
        let client = try await MCPClient.connect(over: transport, configuration: quickClient)
        #expect(client.protocolVersion == .v2025_11_25)
        #expect(try await client.listTools().map(\.name) == ["echo"])
        await client.close()
        // The HTTP+SSE fallback was tried once (GET with no session, refused) before initialize.
        #expect(fake.requests.values.first?.rpcMethod == "server/discover")
    }

    @Test("an HTTP+SSE (2024-11-05) server: POST refused, GET gives the endpoint, messages come as events")
    func legacySSE() async throws {
        let stream = Feed()
        let (transport, fake) = try fakeTransport { request in
            if request.url == endpoint {
                if request.method == "GET" { return .sse(stream) }
                return .text(405, "Method Not Allowed")
            }
            // The message endpoint: answer on the event stream.
            switch request.message {
            case .request(let rpc)? where rpc.method == "initialize":
                stream.send("event: message\ndata: \(Scripted.initializeResult(rpc.id, version: "2024-11-05"))\n\n")
            case .request(let rpc)? where rpc.method == "tools/call":
                stream.send("event: message\ndata: \(Scripted.toolResult(rpc.id, text: "via sse"))\n\n")
            case .request(let rpc)?:
                stream.send("event: message\ndata: \(Scripted.error(rpc.id, code: -32601, message: "Method not found"))\n\n")
            default:
                break
            }
            return .accepted
        }
        stream.send("event: endpoint\ndata: /messages/?session_id=42\n\n")
        let client = try await MCPClient.connect(over: transport, configuration: quickClient)
        #expect(client.protocolVersion == .v2024_11_05)
        #expect(try await client.callTool(name: "echo").content.first?.text == "via sse")
        await client.close()
        let messagePosts = fake.requests("POST").filter { $0.url != endpoint }
        #expect(messagePosts.allSatisfy { $0.url.absoluteString == "http://127.0.0.1:9/messages/?session_id=42" })
        #expect(messagePosts.contains { $0.rpcMethod == "tools/call" })
        try await withHangGuard(guardLimit, "the event stream's end") { await stream.terminated.wait() }
    }

    @Test("an HTTP+SSE endpoint on another origin is refused")
    func legacyEndpointOrigin() async throws {
        let (transport, _) = try fakeTransport { request in
            if request.method == "GET" { return .sse("event: endpoint\ndata: https://evil.example/messages\n\n") }
            return .text(404, "Not Found")
        }
        await #expect(throws: HTTPTransportError.invalidEndpoint) {
            try await transport.send(.request(JSONRPCRequest(id: 1, method: "initialize", params: [:])))
        }
        await transport.close()
    }

    @Test("close() fails a send in progress, finishes the inbound stream, and later sends fail")
    func closeEndsEverything() async throws {
        let (transport, fake) = try fakeTransport { _ in try await hang() }
        let inbound = transport.receive()
        let sending = Task { try await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/list"))) }
        try await withHangGuard(guardLimit, "close") {
            // The POST is waiting for the server when the transport closes.
            await fake.firstRequest.wait()
            await transport.close()
            await #expect(throws: TransportError.closed) { try await sending.value }
            for try await _ in inbound {}
        }
        await #expect(throws: TransportError.closed) { try await transport.send(.notification(JSONRPCNotification(method: "x"))) }
    }

    @Test("a transport dropped without close() still shuts down its requests")
    func droppedTransport() async throws {
        let feed = Feed()
        let fake = FakeExchanger { _ in .sse(feed) }
        do {
            let transport = try HTTPClientTransport(url: endpoint, configuration: HTTPTransportConfiguration(), exchanger: fake)
            let sending = Task { try? await transport.send(.request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "x"]))) }
            try await withHangGuard(guardLimit, "the POST") { await fake.firstRequest.wait() }
            sending.cancel()
            // Each wait guarded on its own, so that a hang names its step.
            try await withHangGuard(guardLimit, "the cancelled send") { await sending.value }
        }
        try await withHangGuard(guardLimit, "the abandoned POST's end") { await feed.terminated.wait() }
        try await withHangGuard(guardLimit, "the abandoned transport's shutdown") { await fake.shutDown.wait() }
    }
}
