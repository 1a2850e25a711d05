import MCPPlatform
import Testing

@testable import MCP

/// A server running on a pipe transport, fed raw bytes, its replies read back as messages.
final class WirePeer: @unchecked Sendable {
    // Safety: `inputClosed` is read and written with `lock` held.
    private let input: Int32
    private let lock = Lock()
    private var inputClosed = false
    let replies: FileDescriptorTransport
    let serverTransport: FileDescriptorTransport

    init(maximumFrameLength: Int = FileDescriptorTransport.defaultMaximumFrameLength) throws {
        let toServer = try POSIX.makePipe()
        let fromServer = try POSIX.makePipe()
        let unused = try POSIX.makePipe()
        input = toServer.write
        serverTransport = try FileDescriptorTransport(
            readingFrom: toServer.read, writingTo: fromServer.write, maximumFrameLength: maximumFrameLength)
        replies = try FileDescriptorTransport(readingFrom: fromServer.read, writingTo: unused.write)
        POSIX.close(unused.read)
    }

    func write(_ text: String) throws {
        try POSIX.writeAll(input, Array(text.utf8))
    }

    /// Closes the server's input once; later calls do nothing (a second `close` could close
    /// a descriptor number that another test has been given since).
    func endInput() {
        let mustClose = lock.withLock {
            defer { inputClosed = true }
            return !inputClosed
        }
        if mustClose { POSIX.close(input) }
    }

    /// Runs the server on the pipes while `body` talks to it; ends the input afterwards.
    static func with(
        _ server: MCPServer, maximumFrameLength: Int = FileDescriptorTransport.defaultMaximumFrameLength,
        _ body: (WirePeer, inout AsyncThrowingStream<InboundMessage, any Error>.AsyncIterator) async throws -> Void
    ) async throws {
        let peer = try WirePeer(maximumFrameLength: maximumFrameLength)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run(on: peer.serverTransport) }
            var replies = peer.replies.receive().makeAsyncIterator()
            try await body(peer, &replies)
            peer.endInput()
            try await group.waitForAll()
            await peer.replies.close()
        }
    }
}

/// Raw input lines, and the exact reply the server must write (nil: no reply at all).
struct WireCase: Sendable, CustomTestStringConvertible {
    let name: String
    let lines: String
    let reply: JSONValue?
    var testDescription: String { name }

    static let all: [WireCase] = [
        WireCase(
            // Text that is not JSON is answered with id null, whatever id it seems to hold.
            name: "malformed JSON", lines: #"{"jsonrpc":"2.0","id":1,"method":"#,
            reply: [
                "jsonrpc": "2.0", "id": nil,
                "error": ["code": -32700, "message": "Parse error: invalid JSON at byte 33: unexpected end of input: expected a value"],
            ]),
        WireCase(
            name: "not JSON at all", lines: "hello server",
            reply: [
                "jsonrpc": "2.0", "id": nil,
                "error": ["code": -32700, "message": "Parse error: invalid JSON at byte 0: expected a value, found 'h'"],
            ]),
        WireCase(
            name: "a JSON array (batch) without 2025-03-26",
            lines: #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
            reply: [
                "jsonrpc": "2.0", "id": nil,
                "error": [
                    "code": -32600,
                    "message":
                        "Invalid Request: JSON-RPC batches are only allowed in protocol version 2025-03-26; this connection has not negotiated it",
                ],
            ]),
        WireCase(name: "an empty line", lines: "", reply: nil),
        WireCase(name: "whitespace and CR only", lines: " \t\r", reply: nil),
        WireCase(
            name: "missing jsonrpc", lines: #"{"id":5,"method":"ping"}"#,
            reply: [
                "jsonrpc": "2.0", "id": nil,
                "error": ["code": -32600, "message": "Invalid Request: the \"jsonrpc\" member must be \"2.0\""],
            ]),
        WireCase(
            name: "non-string method", lines: #"{"jsonrpc":"2.0","id":"m","method":["ping"]}"#,
            reply: [
                "jsonrpc": "2.0", "id": nil,
                "error": ["code": -32600, "message": "Invalid Request: \"method\" must be a string, not array"],
            ]),
        WireCase(
            name: "unknown method", lines: #"{"jsonrpc":"2.0","id":6,"method":"prompts/list"}"#,
            reply: ["jsonrpc": "2.0", "id": 6, "error": ["code": -32601, "message": "Method not found: prompts/list"]]),
        WireCase(
            name: "unknown tool", lines: #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope"}}"#,
            reply: ["jsonrpc": "2.0", "id": 7, "error": ["code": -32602, "message": "Unknown tool: nope"]]),
        WireCase(
            name: "name missing", lines: #"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{}}"#,
            reply: ["jsonrpc": "2.0", "id": 8, "error": ["code": -32602, "message": "\"name\" is required"]]),
        WireCase(
            name: "arguments not an object",
            lines: #"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":[1]}}"#,
            reply: ["jsonrpc": "2.0", "id": 9, "error": ["code": -32602, "message": "\"arguments\" must be an object, not array"]]),
        WireCase(
            name: "arguments of the wrong type",
            lines: #"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"text":42}}}"#,
            reply: [
                "jsonrpc": "2.0", "id": 10,
                "result": [
                    "content": [
                        [
                            "type": "text",
                            "text":
                                "Invalid arguments for tool echo: /text: expected string, found integer 42 (schema: /properties/text/type)",
                        ]
                    ],
                    "isError": true,
                ],
            ]),
        WireCase(name: "a notification", lines: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, reply: nil),
        WireCase(name: "a notification for a request method", lines: #"{"jsonrpc":"2.0","method":"tools/list"}"#, reply: nil),
        WireCase(name: "a stray response", lines: #"{"jsonrpc":"2.0","id":77,"result":{}}"#, reply: nil),
        WireCase(
            name: "CRLF line ending", lines: "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\"}\r",
            reply: ["jsonrpc": "2.0", "id": 11, "result": [:]]),
    ]
}

@Suite("Bad input over stdio framing")
struct StdioBadInputTests {
    @Test(arguments: WireCase.all)
    func exactReplyThenPing(_ testCase: WireCase) async throws {
        let server = try await TestServers.make()
        try await WirePeer.with(server) { peer, replies in
            try peer.write(testCase.lines + "\n")
            try peer.write(#"{"jsonrpc":"2.0","id":"after","method":"ping"}"# + "\n")
            // Requests are answered concurrently, so the ping's reply may come first.
            let pong = InboundMessage.message(.response(JSONRPCResponse(id: "after", result: [:])))
            var received: [InboundMessage] = []
            for _ in 0..<(testCase.reply == nil ? 1 : 2) {
                received.append(try #require(try await replies.next()))
            }
            #expect(received.contains(pong), "\(received)")
            if let expected = testCase.reply {
                #expect(received.contains(.message(try JSONRPCMessage(expected))), "\(received)")
            }
        }
    }

    @Test("a 1 MB argument goes through and the connection goes on")
    func megabyteArgument() async throws {
        let server = try await TestServers.make()
        let text = String(repeating: "abcdefgh", count: 131_072)
        try await WirePeer.with(server) { peer, replies in
            try peer.write(
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":""# + text + "\"}}}\n")
            try peer.write(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"# + "\n")
            // Requests are answered concurrently: the ping may overtake the echo.
            var echoed: String?
            var pinged = false
            for _ in 0..<2 {
                guard case .message(.response(let response))? = try await replies.next() else {
                    Issue.record("expected two responses")
                    return
                }
                if response.id == 1 {
                    echoed = response.result["content"]?[0]?["text"]?.stringValue
                } else {
                    pinged = response.id == 2 && response.result == [:]
                }
            }
            #expect(echoed?.utf8.count == text.utf8.count)
            #expect(echoed == text, "the echoed text differs")
            #expect(pinged)
        }
    }

    @Test("a frame over the limit gets -32600 with the id from its first bytes, and the connection goes on")
    func oversizedFrame() async throws {
        let server = try await TestServers.make()
        try await WirePeer.with(server, maximumFrameLength: 4096) { peer, replies in
            let huge = String(repeating: "x", count: 10_000)
            try peer.write(
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":""# + huge + "\"}}}\n")
            try peer.write(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"# + "\n")
            #expect(
                try await replies.next()
                    == .message(
                        .errorResponse(
                            JSONRPCErrorResponse(
                                id: 1,
                                error: JSONRPCError(
                                    code: .invalidRequest, message: "Invalid Request: message is longer than the limit of 4096 bytes")))))
            #expect(try await replies.next() == .message(.response(JSONRPCResponse(id: 2, result: [:]))))
        }
    }

    @Test("end of input ends run(on:) once the last answer is out")
    func endOfInput() async throws {
        let server = try await TestServers.make()
        try await WirePeer.with(server) { peer, replies in
            try peer.write(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"last"}}}"# + "\n")
            peer.endInput()
            let reply = try #require(try await replies.next())
            #expect(
                reply
                    == .message(
                        .response(JSONRPCResponse(id: 1, result: ["content": [["type": "text", "text": "last"]], "isError": false]))))
            #expect(try await replies.next() == nil)
        }
    }
}
