import Foundation
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCP

/// Per-call result limits: enforced while a reply is read over stdio, estimated in process.
@Suite("Result limits")
struct ResultLimitTests {
    /// Where a call runs.
    enum Path: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case inProcess = "in process"
        case pipes = "over pipes"
        var testDescription: String { rawValue }
    }

    struct LimitCase: Sendable, CustomTestStringConvertible {
        let path: Path
        let resultCharacters: Int
        let limit: Int?
        let refused: Bool
        var testDescription: String {
            "\(path.rawValue): \(resultCharacters) characters, limit \(limit.map(String.init) ?? "none") → \(refused ? "refused" : "read")"
        }
    }

    static let limitCases: [LimitCase] = Path.allCases.flatMap { path in
        [
            LimitCase(path: path, resultCharacters: 1_000, limit: nil, refused: false),
            LimitCase(path: path, resultCharacters: 1_000, limit: 64 * 1024, refused: false),
            LimitCase(path: path, resultCharacters: 200_000, limit: 64 * 1024, refused: true),
            LimitCase(path: path, resultCharacters: 4 * 1024 * 1024, limit: 64 * 1024, refused: true),
            LimitCase(path: path, resultCharacters: 4 * 1024 * 1024, limit: 1, refused: true),
        ]
    }

    /// A server whose `blob` tool returns `size` characters of text.
    static func blobServer() async throws -> MCPServer {
        let server = MCPServer(name: "blobs", version: "1")
        try await server.register(
            name: "blob", description: "Returns size characters",
            inputSchema: ["type": "object", "properties": ["size": ["type": "integer"]]]
        ) { arguments, _ in
            .text(String(repeating: "x", count: arguments["size"]?.intValue ?? 0))
        }
        return server
    }

    /// Runs `body` with a client of the blob server on `path`.
    static func withClient(_ path: Path, _ body: @Sendable (MCPClient) async throws -> Void) async throws {
        let server = try await blobServer()
        switch path {
        case .inProcess:
            let client = try await MCPClient.connect(to: server)
            try await body(client)
            await client.close()
        case .pipes:
            let toServer = try POSIX.makePipe()
            let toClient = try POSIX.makePipe()
            let serverEnd = try FileDescriptorTransport(readingFrom: toServer.read, writingTo: toClient.write)
            let clientEnd = try FileDescriptorTransport(readingFrom: toClient.read, writingTo: toServer.write)
            let serving = Task { try await server.run(on: serverEnd) }
            let client = try await MCPClient.connect(over: clientEnd, configuration: MCPClient.Configuration(requestTimeout: .seconds(30)))
            try await body(client)
            await client.close()
            try await withHangGuard { try await serving.value }
        }
    }

    @Test(
        "A result over the call's limit fails with resultTooLarge; the connection goes on",
        arguments: limitCases.filter { $0.path == .inProcess })
    func limits(_ testCase: LimitCase) async throws {
        try await checkLimit(testCase)
    }

    /// The same over pipes to a real server.
    @Test(
        "Over pipes, a result over the call's limit fails with resultTooLarge; the connection goes on",
        arguments: limitCases.filter { $0.path == .pipes })
    func limitsOverPipes(_ testCase: LimitCase) async throws {
        try await checkLimit(testCase)
    }

    func checkLimit(_ testCase: LimitCase) async throws {
        try await Self.withClient(testCase.path) { client in
            let call: @Sendable () async throws -> CallToolResult = {
                try await client.callTool(
                    name: "blob", arguments: ["size": .int(testCase.resultCharacters)], maximumResultBytes: testCase.limit)
            }
            if testCase.refused {
                await #expect(throws: MCPClientError.resultTooLarge) { try await withHangGuard { try await call() } }
            } else {
                let result = try await withHangGuard { try await call() }
                #expect(result.text.utf8.count == testCase.resultCharacters)
            }
            // The next call on the same connection is unaffected.
            let after = try await withHangGuard { try await client.callTool(name: "blob", arguments: ["size": 3]) }
            #expect(after.text == "xxx")
        }
    }

    /// A peer streams a 64 MiB reply, pausing after its first 2 MiB until the client has
    /// refused it: if the reader kept the reply until its end, the refusal would wait for
    /// bytes that never come, and the hang guard would fire. So the reply is refused while it
    /// is read, having held no more than the limit and one read's worth of it; the rest is
    /// skipped, and the reply to the next request is read normally.
    @Test("A 64 MiB reply is refused while it is read, with bounded memory")
    func hugeReplyRefusedWhileRead() async throws {
        let toPeer = try POSIX.makePipe()
        let fromPeer = try POSIX.makePipe()
        let transport = try FileDescriptorTransport(readingFrom: fromPeer.read, writingTo: toPeer.write)
        let channel = TransportChannel(transport: transport, streams: NotificationStreams())
        channel.start()
        let refused = OneShot<Void>()
        let peerDone = OneShot<Void>()
        let totalBytes = 64 * 1024 * 1024
        let peerWrite = fromPeer.write
        let peerRead = toPeer.read
        // The peer: a blocking reader and writer on a thread of its own.
        let thread = Thread {
            defer {
                POSIX.close(peerWrite)
                peerDone.fulfill(())
            }
            let head = Array(#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":""#.utf8)
            let chunk = [UInt8](repeating: UInt8(ascii: "z"), count: 1024 * 1024)
            do {
                // The reply comes after the request, as it would from a server.
                let byte = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
                defer { byte.deallocate() }
                while try POSIX.read(peerRead, into: byte) == 1, byte[0] != 0x0A {}
                try POSIX.writeAll(peerWrite, head)
                var written = head.count
                for _ in 0..<2 {
                    try POSIX.writeAll(peerWrite, chunk)
                    written += chunk.count
                }
                // Wait for the client's verdict before sending the rest (a blocking wait on
                // this thread, for an event: the refusal).
                let semaphore = DispatchSemaphore(value: 0)
                Task {
                    _ = await refused.wait()
                    semaphore.signal()
                }
                semaphore.wait()
                while written < totalBytes {
                    try POSIX.writeAll(peerWrite, chunk)
                    written += chunk.count
                }
                try POSIX.writeAll(peerWrite, Array(#""}]}}"#.utf8) + [0x0A])
                try POSIX.writeAll(peerWrite, Array(#"{"jsonrpc":"2.0","id":2,"result":{"ok":true}}"#.utf8) + [0x0A])
            } catch {
                return
            }
        }
        thread.start()
        await #expect(throws: MCPClientError.resultTooLarge) {
            try await withHangGuard(.seconds(60)) {
                try await channel.request("tools/call", params: ["name": "big"], progress: nil, timeout: nil, resultLimit: 1024 * 1024)
            }
        }
        refused.fulfill(())
        let next = try await withHangGuard(.seconds(60)) {
            try await channel.request("tools/call", params: ["name": "small"], progress: nil, timeout: nil, resultLimit: 1024)
        }
        #expect(next == ["ok": true])
        _ = try await withHangGuard(.seconds(60)) { await peerDone.wait() }
        await channel.close()
        POSIX.close(toPeer.read)
    }

    @Test("The framer cuts a line at its own limit as soon as it passes it", arguments: [1, 10, 100])
    func framerLineLimit(_ limit: Int) {
        var framer = LineFramer(maximumFrameLength: 1000)
        framer.append(Array(#"{"id":7,"#.utf8))
        #expect(framer.next() == nil)
        #expect(framer.pendingLinePrefix.map { Array($0) } == Array(#"{"id":7,"#.utf8))
        framer.limitCurrentLine(to: limit)
        framer.append([UInt8](repeating: UInt8(ascii: "a"), count: limit + 1))
        guard case .oversized(_, let length)? = framer.next() else {
            Issue.record("expected an oversized report")
            return
        }
        #expect(length == nil)
        #expect(framer.reportedLimit == limit)
        // The next line has the framer's limit again.
        framer.append(Array("\n".utf8) + [UInt8](repeating: UInt8(ascii: "b"), count: 500) + Array("\n".utf8))
        #expect(framer.next() == .line(ArraySlice([UInt8](repeating: UInt8(ascii: "b"), count: 500))))
    }

    @Test("The in-process size estimate stops counting past its limit")
    func boundedEstimate() {
        let big = JSONValue.array(Array(repeating: .string(String(repeating: "q", count: 100)), count: 10_000))
        #expect(big.estimatedByteCount(upTo: 1_000) > 1_000)
        #expect(big.estimatedByteCount(upTo: 1_000) < 2_000)
        #expect(big.estimatedByteCount(upTo: Int.max) == big.estimatedByteCount)
    }
}
