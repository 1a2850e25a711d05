import Foundation
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCP

/// MCP roots: the client declares and answers them, a tool reads them, in each era.
@Suite("Roots")
struct RootsTests {
    /// A connection to test on.
    struct Connection: Sendable, CustomTestStringConvertible {
        let name: String
        let overPipes: Bool
        let version: ProtocolVersion
        var testDescription: String { name }
    }

    static let connections = [
        Connection(name: "in process, 2025-11-25", overPipes: false, version: .v2025_11_25),
        Connection(name: "in process, 2026-07-28", overPipes: false, version: .v2026_07_28),
        Connection(name: "over pipes, 2025-11-25", overPipes: true, version: .v2025_11_25),
        Connection(name: "over pipes, 2024-11-05", overPipes: true, version: .v2024_11_05),
        Connection(name: "over pipes, 2026-07-28", overPipes: true, version: .v2026_07_28),
    ]

    /// A server whose `roots` tool returns the client's roots, one URI a line, and counts its runs.
    static func rootsServer(runs: RunCounter) async throws -> MCPServer {
        let server = MCPServer(name: "roots", version: "1")
        try await server.register(name: "roots", description: "Lists the client's roots") { _, context in
            runs.increment()
            do {
                let roots = try await context.roots()
                return .text(roots.map { "\($0.uri) \($0.name ?? "-")" }.joined(separator: "\n"))
            } catch ToolContextError.rootsUnavailable {
                return .error("no roots: unavailable")
            }
        }
        return server
    }

    static func withClient(
        _ connection: Connection, roots: [Root]?, runs: RunCounter, _ body: @Sendable (MCPClient) async throws -> Void
    ) async throws {
        let server = try await rootsServer(runs: runs)
        let configuration = MCPClient.Configuration(
            handshake: .version(connection.version), requestTimeout: .seconds(30), roots: roots)
        if connection.overPipes {
            let toServer = try POSIX.makePipe()
            let toClient = try POSIX.makePipe()
            let serverEnd = try FileDescriptorTransport(readingFrom: toServer.read, writingTo: toClient.write)
            let clientEnd = try FileDescriptorTransport(readingFrom: toClient.read, writingTo: toServer.write)
            let serving = Task { try await server.run(on: serverEnd) }
            let client = try await MCPClient.connect(over: clientEnd, configuration: configuration)
            try await body(client)
            await client.close()
            try await withHangGuard { try await serving.value }
        } else {
            let client = try await MCPClient.connect(to: server, configuration: configuration)
            try await body(client)
            await client.close()
        }
    }

    @Test("A tool reads the client's roots, and the new ones after setRoots", arguments: connections)
    func toolReadsRoots(_ connection: Connection) async throws {
        let runs = RunCounter()
        let first = [Root(path: "/work/project", name: "Project"), Root(path: "/tmp/a b")]
        try await Self.withClient(connection, roots: first, runs: runs) { client in
            let result = try await withHangGuard { try await client.callTool(name: "roots") }
            #expect(!result.isError)
            #expect(result.text == "file:///work/project Project\nfile:///tmp/a%20b -")
            try await client.setRoots([Root(path: "/srv/data", name: "Data")])
            #expect(client.roots == [Root(path: "/srv/data", name: "Data")])
            let changed = try await withHangGuard { try await client.callTool(name: "roots") }
            #expect(changed.text == "file:///srv/data Data")
        }
        // 2026-07-28 has no server-to-client requests: each call ran once to ask, once with the answer.
        #expect(runs.value == (connection.version.isModern ? 4 : 2))
    }

    @Test("Without roots in its configuration, the client declares none and the tool is told", arguments: connections)
    func noRootsDeclared(_ connection: Connection) async throws {
        try await Self.withClient(connection, roots: nil, runs: RunCounter()) { client in
            let result = try await withHangGuard { try await client.callTool(name: "roots") }
            #expect(result.isError)
            #expect(result.text == "no roots: unavailable")
        }
    }

    @Test("A tool called through handle(_:) has no client to ask")
    func directHandleHasNoClient() async throws {
        let server = try await Self.rootsServer(runs: RunCounter())
        let reply = await server.handle(
            .request(JSONRPCRequest(id: 1, method: "tools/call", params: ["name": "roots"])))
        guard case .response(let response)? = reply else {
            Issue.record("expected a response, got \(String(describing: reply))")
            return
        }
        #expect(response.result["isError"] == true)
    }

    /// The handshake-era wire: the client declares `roots.listChanged`, answers `roots/list`
    /// and announces changes; a hand-written server records what arrives.
    @Test("Handshake era: capability, roots/list answer and list_changed on the wire")
    func handshakeWire() async throws {
        let (clientEnd, serverEnd) = InProcessTransport.makePair()
        let seen = AsyncStream<JSONValue>.makeStream()
        let peer = Task {
            do {
                for try await inbound in serverEnd.receive() {
                    guard case .message(let message) = inbound else { continue }
                    seen.continuation.yield(message.json)
                    if case .request(let request) = message, request.method == "initialize" {
                        try await serverEnd.send(
                            .response(JSONRPCResponse(id: request.id, result: ScriptedServer.initializeResult)))
                    }
                }
            } catch {}
            seen.continuation.finish()
        }
        let client = try await MCPClient.connect(
            over: clientEnd,
            configuration: MCPClient.Configuration(handshake: .version(.v2025_11_25), roots: [Root(path: "/r", name: "R")]))
        var messages = seen.stream.makeAsyncIterator()
        let initialize = try #require(await messages.next())
        #expect(initialize["params"]?["capabilities"]?["roots"] == ["listChanged": true])
        #expect(await messages.next()?["method"] == "notifications/initialized")

        try await serverEnd.send(.request(JSONRPCRequest(id: 77, method: "roots/list")))
        let answer = try #require(await messages.next())
        #expect(answer == ["jsonrpc": "2.0", "id": 77, "result": ["roots": [["uri": "file:///r", "name": "R"]]]])

        try await client.setRoots([])
        #expect(await messages.next()?["method"] == "notifications/roots/list_changed")
        try await serverEnd.send(.request(JSONRPCRequest(id: 78, method: "roots/list")))
        #expect(await messages.next()?["result"] == ["roots": []])

        await client.close()
        await serverEnd.close()
        await peer.value
    }

    @Test("The 2026-07-28 envelope declares roots without listChanged")
    func modernCapability() {
        let configuration = MCPClient.Configuration(roots: [])
        #expect(configuration.declaredCapabilities(modern: true).json["roots"] == .object([:]))
        #expect(configuration.declaredCapabilities(modern: false).json["roots"] == ["listChanged": true])
        #expect(MCPClient.Configuration().declaredCapabilities(modern: false).json["roots"] == nil)
    }

    struct URICase: Sendable, CustomTestStringConvertible {
        let uri: String
        let path: String?
        var testDescription: String { uri }
    }

    @Test(
        "A root's URI gives its path only for a local file:// URI",
        arguments: [
            URICase(uri: "file:///home/me", path: "/home/me"),
            URICase(uri: "file://localhost/home/me", path: "/home/me"),
            URICase(uri: "file:///a%20b/%C3%A9", path: "/a b/é"),
            URICase(uri: "FILE:///upper", path: "/upper"),
            URICase(uri: "file://server/share", path: nil),
            URICase(uri: "https://example.com/", path: nil),
            URICase(uri: "file:///nul%00byte", path: nil),
            URICase(uri: "file:///bad%C0%AE", path: nil),
            URICase(uri: "file:///half%2", path: nil),
            URICase(uri: "file:///q?x=1", path: nil),
        ])
    func rootPaths(_ testCase: URICase) {
        #expect(Root(uri: testCase.uri).path == testCase.path)
    }
}

/// Counts a tool's runs from many tasks.
final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
