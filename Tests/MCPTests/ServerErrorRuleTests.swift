import MCP
import Testing

/// One request and the exact reply the server must give, then the connection must still answer ping.
struct ReplyCase: Sendable, CustomTestStringConvertible {
    let name: String
    let request: JSONValue
    let reply: JSONValue

    var testDescription: String { name }

    static let all: [ReplyCase] = [
        ReplyCase(
            name: "unknown method",
            request: ["jsonrpc": "2.0", "id": 1, "method": "resources/list"],
            reply: ["jsonrpc": "2.0", "id": 1, "error": ["code": -32601, "message": "Method not found: resources/list"]]),
        ReplyCase(
            name: "unknown tool",
            request: ["jsonrpc": "2.0", "id": "u", "method": "tools/call", "params": ["name": "nope", "arguments": [:]]],
            reply: ["jsonrpc": "2.0", "id": "u", "error": ["code": -32602, "message": "Unknown tool: nope"]]),
        ReplyCase(
            name: "name missing",
            request: ["jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": ["arguments": ["text": "x"]]],
            reply: ["jsonrpc": "2.0", "id": 2, "error": ["code": -32602, "message": "\"name\" is required"]]),
        ReplyCase(
            name: "name not a string",
            request: ["jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": ["name": 7]],
            reply: ["jsonrpc": "2.0", "id": 3, "error": ["code": -32602, "message": "\"name\" must be a string"]]),
        ReplyCase(
            name: "params missing",
            request: ["jsonrpc": "2.0", "id": 4, "method": "tools/call"],
            reply: ["jsonrpc": "2.0", "id": 4, "error": ["code": -32602, "message": "tools/call needs params with a \"name\""]]),
        ReplyCase(
            name: "arguments not an object",
            request: ["jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": ["name": "echo", "arguments": "oops"]],
            reply: ["jsonrpc": "2.0", "id": 5, "error": ["code": -32602, "message": "\"arguments\" must be an object, not string"]]),
        ReplyCase(
            name: "arguments of the wrong type",
            request: ["jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": ["name": "add", "arguments": ["a": "1", "b": 2]]],
            reply: [
                "jsonrpc": "2.0", "id": 6,
                "result": [
                    "content": [
                        [
                            "type": "text",
                            "text": "Invalid arguments for tool add: /a: expected integer, found string \"1\" (schema: /properties/a/type)",
                        ]
                    ],
                    "isError": true,
                ],
            ]),
        ReplyCase(
            name: "required argument missing",
            request: ["jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": ["name": "echo", "arguments": [:]]],
            reply: [
                "jsonrpc": "2.0", "id": 7,
                "result": [
                    "content": [
                        [
                            "type": "text",
                            "text": "Invalid arguments for tool echo: (root): missing required property \"text\" (schema: /required)",
                        ]
                    ],
                    "isError": true,
                ],
            ]),
        ReplyCase(
            name: "handler throws",
            request: ["jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": ["name": "fail"]],
            reply: [
                "jsonrpc": "2.0", "id": 8,
                "result": ["content": [["type": "text", "text": .string(MCPServer.internalFailureMessage)]], "isError": true],
            ]),
        ReplyCase(
            name: "string id echoed exactly",
            request: ["jsonrpc": "2.0", "id": "abc-😀", "method": "ping"],
            reply: ["jsonrpc": "2.0", "id": "abc-😀", "result": [:]]),
        ReplyCase(
            name: "large integer id echoed exactly",
            request: ["jsonrpc": "2.0", "id": 9_007_199_254_740_993, "method": "ping"],
            reply: ["jsonrpc": "2.0", "id": 9_007_199_254_740_993, "result": [:]]),
        ReplyCase(
            name: "structured result mirrors its JSON in text",
            request: ["jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": ["name": "add", "arguments": ["a": 2, "b": 40]]],
            reply: [
                "jsonrpc": "2.0", "id": 9,
                "result": ["content": [["type": "text", "text": "{\"sum\":42}"]], "structuredContent": ["sum": 42], "isError": false],
            ]),
    ]
}

@Suite("Server error rule")
struct ServerErrorRuleTests {
    @Test(arguments: ReplyCase.all)
    func exactReply(_ testCase: ReplyCase) async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            let reply = try await peer.request(testCase.request)
            #expect(reply == testCase.reply, "\(reply)")
            try await peer.expectPing()
        }
    }

    @Test("the same replies come from handle(_:) directly", arguments: ReplyCase.all)
    func directHandle(_ testCase: ReplyCase) async throws {
        let server = try await TestServers.make()
        let reply = await server.handle(json: testCase.request)
        #expect(reply == testCase.reply)
    }

    @Test("a message that is not JSON-RPC gets -32600; only a JSON-RPC 2.0 request's id names the answer")
    func invalidRequests() async throws {
        let server = try await TestServers.make()
        let missingVersion = await server.handle(json: ["id": 1, "method": "ping"] as JSONValue)
        #expect(
            missingVersion == [
                "jsonrpc": "2.0", "id": nil,
                "error": ["code": -32600, "message": "Invalid Request: the \"jsonrpc\" member must be \"2.0\""],
            ])
        let numericMethod = await server.handle(json: ["jsonrpc": "2.0", "id": 2, "method": 42] as JSONValue)
        #expect(
            numericMethod == [
                "jsonrpc": "2.0", "id": nil,
                "error": ["code": -32600, "message": "Invalid Request: \"method\" must be a string, not integer"],
            ])
        let scalarParams = await server.handle(json: ["jsonrpc": "2.0", "id": 4, "method": "ping", "params": 1] as JSONValue)
        #expect(
            scalarParams == [
                "jsonrpc": "2.0", "id": 4,
                "error": ["code": -32600, "message": "Invalid Request: \"params\" must be an object or an array, not integer"],
            ])
        let nullID = await server.handle(json: ["jsonrpc": "2.0", "id": nil, "method": "ping"] as JSONValue)
        #expect(
            nullID == [
                "jsonrpc": "2.0", "id": nil,
                "error": ["code": -32600, "message": "Invalid Request: \"id\" must be a string or an integer, not null"],
            ])
        let scalar = await server.handle(json: .int(3))
        #expect(
            scalar == [
                "jsonrpc": "2.0", "id": nil,
                "error": ["code": -32600, "message": "Invalid Request: a message must be a JSON object, not integer"],
            ])
    }

    @Test("a notification never gets a response")
    func notificationsGetNoResponse() async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            try await peer.send(["jsonrpc": "2.0", "method": "notifications/initialized"])
            try await peer.send(["jsonrpc": "2.0", "method": "tools/call", "params": ["name": "echo", "arguments": ["text": "x"]]])
            try await peer.send(["jsonrpc": "2.0", "method": "no/such/notification"])
            // The next thing on the wire must be the ping's reply, not a reply to a notification.
            try await peer.expectPing(id: 1)
        }
        #expect(await server.handle(.notification(JSONRPCNotification(method: "ping"))) == nil)
    }

    @Test("a 1 MB argument is accepted and echoed")
    func megabyteArgument() async throws {
        let server = try await TestServers.make()
        let text = String(repeating: "0123456789abcdef", count: 65_536)
        try await RawPeer.with(server) { peer in
            let reply = try await peer.request([
                "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["name": "echo", "arguments": ["text": .string(text)]],
            ])
            #expect(reply["result"]?["content"]?[0]?["text"]?.stringValue == text)
            try await peer.expectPing()
        }
    }
}

@Suite("Batches")
struct BatchTests {
    static let batch: JSONValue = [
        ["jsonrpc": "2.0", "id": 1, "method": "ping"],
        ["jsonrpc": "2.0", "method": "notifications/initialized"],
        ["jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": ["name": "echo", "arguments": ["text": "b"]]],
        ["jsonrpc": "2.0", "id": 3, "method": 5],
    ]

    @Test("processed when 2025-03-26 was negotiated")
    func processedUnder20250326() async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            let initialize = try await peer.request([
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": ["protocolVersion": "2025-03-26", "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]],
            ])
            #expect(initialize["result"]?["protocolVersion"] == "2025-03-26")
            let reply = try await peer.request(Self.batch)
            #expect(
                reply == [
                    ["jsonrpc": "2.0", "id": 1, "result": [:]],
                    ["jsonrpc": "2.0", "id": 2, "result": ["content": [["type": "text", "text": "b"]], "isError": false]],
                    [
                        "jsonrpc": "2.0", "id": nil,
                        "error": ["code": -32600, "message": "Invalid Request: \"method\" must be a string, not integer"],
                    ],
                ])
            try await peer.expectPing()
        }
    }

    @Test("refused with -32600 otherwise", arguments: [nil, "2024-11-05", "2025-06-18", "2025-11-25"] as [String?])
    func refusedOtherwise(version: String?) async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            if let version {
                _ = try await peer.request([
                    "jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": ["protocolVersion": .string(version), "capabilities": [:], "clientInfo": ["name": "t", "version": "1"]],
                ])
            }
            let reply = try await peer.request(Self.batch)
            let uses = version.map { "this connection uses \($0)" } ?? "this connection has not negotiated it"
            #expect(
                reply == [
                    "jsonrpc": "2.0", "id": nil,
                    "error": [
                        "code": -32600,
                        "message": .string("Invalid Request: JSON-RPC batches are only allowed in protocol version 2025-03-26; \(uses)"),
                    ],
                ])
            try await peer.expectPing()
        }
    }
}
