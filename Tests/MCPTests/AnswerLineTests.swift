import MCPCore
import Testing

@testable import MCP

/// A call's answer written straight to the text of its line (stdio and pipes) against the
/// answer built as a tree (any other transport): the same answers, for every kind of result,
/// in every protocol version, and for requests that are not steady-state calls.
@Suite("Answers written straight to text")
struct AnswerLineTests {
    static let versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]

    /// The requests after `initialize`: calls of every kind of result, calls that fail, and
    /// requests the line path hands to the tree.
    static let requests: [JSONValue] = [
        call(1, "text"),
        call(2, "structured"),
        call(3, "mixed"),
        call(4, "throws"),
        call(5, "text", arguments: ["unexpected": true]),
        call(6, "missing"),
        ["jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": ["arguments": [:]]],
        ["jsonrpc": "2.0", "id": "eight", "method": "tools/list"],
        call(9, "meta"),
        ["jsonrpc": "2.0", "id": 10, "method": "nope"],
    ]

    static func call(_ id: Int, _ name: String, arguments: JSONObject = [:]) -> JSONValue {
        ["jsonrpc": "2.0", "id": .int(id), "method": "tools/call", "params": ["name": .string(name), "arguments": .object(arguments)]]
    }

    static func makeServer() async throws -> MCPServer {
        let server = MCPServer(name: "lines", version: "1")
        let strict: JSONValue = ["type": "object", "additionalProperties": false]
        try await server.register(name: "text", description: "Text", inputSchema: strict) { _, _ in .text("a \"quoted\" line\nand é") }
        try await server.register(name: "structured", description: "Structured") { _, _ in .structured(["n": 1.5, "ok": true]) }
        try await server.register(name: "mixed", description: "Blocks") { _, _ in
            CallToolResult(content: [.text("one"), .image(data: "aGk=", mimeType: "image/png"), .other(["type": "x", "y": nil])])
        }
        try await server.register(name: "throws", description: "Fails") { _, _ in throw CancellationError() }
        try await server.register(name: "meta", description: "Meta") { _, _ in
            CallToolResult(content: [.text("m")], isError: true, meta: ["k": "v"])
        }
        return server
    }

    /// Every answer the server sends for `initialize` at `version` and then ``requests``, by id.
    static func answers(version: String, client: some Transport) async throws -> [String: JSONRPCMessage] {
        let initialize: JSONValue = [
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": ["protocolVersion": .string(version), "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]],
        ]
        var answers: [String: JSONRPCMessage] = [:]
        var inbound = client.receive().makeAsyncIterator()
        // The version is settled before the calls: requests run concurrently.
        try await client.send(JSONRPCMessage(initialize))
        guard case .message(let initialized)? = try await inbound.next() else { return answers }
        answers["0"] = initialized
        for request in requests { try await client.send(JSONRPCMessage(request)) }
        while answers.count < requests.count + 1 {
            guard case .message(let message)? = try await inbound.next() else { break }
            answers[message.id.map { "\($0)" } ?? "none"] = message
        }
        return answers
    }

    @Test("A pipe's answers are the in-process transport's, in every version", .timeLimit(.minutes(1)), arguments: versions)
    func lineAnswersMatchTreeAnswers(version: String) async throws {
        let server = try await Self.makeServer()
        let (treeClient, treeServer) = InProcessTransport.makePair()
        let treeServing = Task { try await server.run(on: treeServer) }
        let (lineClient, lineServer) = try makePipeConnectedPair()
        let lineServing = Task { try await server.run(on: lineServer) }

        let tree = try await Self.answers(version: version, client: treeClient)
        let line = try await Self.answers(version: version, client: lineClient)
        #expect(tree.count == Self.requests.count + 1)
        #expect(line == tree)
        // The text mirror only, before 2025-06-18.
        let structured = try #require(line["2"])
        guard case .response(let response) = structured else {
            Issue.record("the structured call failed: \(structured)")
            return
        }
        let readsStructured = version != "2024-11-05" && version != "2025-03-26"
        #expect((response.result["structuredContent"] != nil) == readsStructured)

        await treeClient.close()
        await lineClient.close()
        try await treeServing.value
        try await lineServing.value
    }
}

/// An answer the connection cannot carry (a number JSON cannot represent, or text longer than
/// the transport's frames) is replaced by the error that says why, for the same id, instead
/// of leaving the client waiting; the connection goes on. Calls take the line written straight
/// to text; a batch's answer takes the tree.
@Suite("Answers the connection cannot carry")
struct RefusedAnswerTests {
    @Test("A non-finite number and an over-long answer become -32603 errors naming the cause", .timeLimit(.minutes(1)))
    func refusedAnswersBecomeErrors() async throws {
        let server = MCPServer(name: "refused", version: "1")
        try await server.register(name: "nan", description: "Returns NaN") { _, _ in
            CallToolResult(content: [.text("n")], meta: ["x": .double(.nan)])
        }
        try await server.register(name: "long", description: "Returns a long text") { _, _ in .text(String(repeating: "a", count: 4_096)) }
        try await server.register(name: "short", description: "Returns a short text") { _, _ in .text("ok") }
        let (client, serverEnd) = try makePipeConnectedPair(maximumFrameLength: 1_024)
        let serving = Task { try await server.run(on: serverEnd) }
        var inbound = client.receive().makeAsyncIterator()
        // 2025-03-26, the version with batches.
        try await client.send(
            JSONRPCMessage([
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": ["protocolVersion": "2025-03-26", "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]],
            ]))
        _ = try await inbound.next()

        func nextError() async throws -> JSONRPCErrorResponse? {
            guard case .message(.errorResponse(let refused))? = try await inbound.next() else { return nil }
            return refused
        }
        try await client.send(JSONRPCMessage(AnswerLineTests.call(1, "nan")))
        let nan = try #require(try await nextError())
        #expect(nan.id == 1 && nan.error.code == .internalError)
        #expect(nan.error.message.contains("/result/_meta/x"), "\(nan.error.message)")

        try await client.send(JSONRPCMessage(AnswerLineTests.call(2, "long")))
        let long = try #require(try await nextError())
        #expect(long.id == 2 && long.error.code == .internalError)
        #expect(long.error.message.contains("limit of 1024 bytes"), "\(long.error.message)")

        try await client.send(JSONRPCMessage(.array([AnswerLineTests.call(3, "nan")])))
        let batch = try #require(try await nextError())
        #expect(batch.id == nil && batch.error.code == .internalError)
        #expect(batch.error.message.contains("/0/result/_meta/x"), "\(batch.error.message)")

        try await client.send(JSONRPCMessage(AnswerLineTests.call(4, "short")))
        guard case .message(.response(let short))? = try await inbound.next() else {
            Issue.record("the connection did not go on")
            return
        }
        #expect(short.id == 4)
        await client.close()
        try await serving.value
    }
}
