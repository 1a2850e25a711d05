import MCP
import Testing

/// The 2026-07-28 envelope a test request carries.
func envelope(_ version: String = "2026-07-28", capabilities: JSONValue = [:]) -> JSONValue {
    [
        "io.modelcontextprotocol/protocolVersion": .string(version),
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": ["name": "era-test", "version": "1"],
    ]
}

let serverInfoMeta: JSONValue = ["io.modelcontextprotocol/serverInfo": ["name": "test-server", "version": "1.2.3"]]

@Suite("Protocol eras")
struct ProtocolEraTests {
    @Test(
        "initialize echoes a supported version and offers 2025-11-25 otherwise",
        arguments: [
            ("2024-11-05", "2024-11-05"), ("2025-03-26", "2025-03-26"), ("2025-06-18", "2025-06-18"),
            ("2025-11-25", "2025-11-25"), ("2099-01-01", "2025-11-25"), ("2026-07-28", "2025-11-25"),
        ])
    func initializeNegotiation(asked: String, answered: String) async throws {
        let server = try await TestServers.make()
        let reply = await server.handle(
            json: [
                "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": [
                    "protocolVersion": .string(asked), "capabilities": ["experimental": ["x": ["y": 1]]],
                    "clientInfo": ["name": "c", "version": "0"],
                ],
            ] as JSONValue)
        #expect(
            reply == [
                "jsonrpc": "2.0", "id": 1,
                "result": [
                    "protocolVersion": .string(answered),
                    "capabilities": ["tools": ["listChanged": true]],
                    "serverInfo": ["name": "test-server", "version": "1.2.3"],
                    "instructions": "Test tools.",
                ],
            ])
    }

    @Test("server/discover answers the modern way")
    func discover() async throws {
        let server = try await TestServers.make()
        let reply = await server.handle(
            json: ["jsonrpc": "2.0", "id": "d", "method": "server/discover", "params": ["_meta": envelope()]] as JSONValue)
        #expect(
            reply == [
                "jsonrpc": "2.0", "id": "d",
                "result": [
                    "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
                    "capabilities": ["tools": ["listChanged": true]],
                    "instructions": "Test tools.",
                    "ttlMs": 0, "cacheScope": "public", "resultType": "complete", "_meta": serverInfoMeta,
                ],
            ])
    }

    @Test("modern tools/list and tools/call carry resultType and serverInfo")
    func modernResults() async throws {
        let server = try await TestServers.make()
        let call = await server.handle(
            json: [
                "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": ["_meta": envelope(), "name": "echo", "arguments": ["text": "hi"]],
            ] as JSONValue)
        #expect(
            call == [
                "jsonrpc": "2.0", "id": 2,
                "result": [
                    "content": [["type": "text", "text": "hi"]], "isError": false, "resultType": "complete", "_meta": serverInfoMeta,
                ],
            ])
        let list = await server.handle(
            json: ["jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": ["_meta": envelope()]] as JSONValue)
        #expect(list?["result"]?["ttlMs"] == 0)
        #expect(list?["result"]?["cacheScope"] == "public")
        #expect(list?["result"]?["resultType"] == "complete")
        #expect(list?["result"]?["tools"]?.arrayValue?.count == 4)
    }

    /// A modern request and the exact error it must get.
    struct EnvelopeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let meta: JSONValue
        let error: JSONValue
        var testDescription: String { name }
    }

    static let envelopeCases: [EnvelopeCase] = [
        EnvelopeCase(
            name: "missing client capabilities",
            meta: ["io.modelcontextprotocol/protocolVersion": "2026-07-28"],
            error: [
                "code": -32602,
                "message": "params._meta is missing the required envelope key(s): io.modelcontextprotocol/clientCapabilities",
            ]),
        EnvelopeCase(
            name: "version not a string",
            meta: ["io.modelcontextprotocol/protocolVersion": 2026, "io.modelcontextprotocol/clientCapabilities": [:]],
            error: ["code": -32602, "message": "params._meta[\"io.modelcontextprotocol/protocolVersion\"] must be a string"]),
        EnvelopeCase(
            name: "unsupported version",
            meta: envelope("1900-01-01"),
            error: [
                "code": -32022, "message": "Unsupported protocol version",
                "data": ["supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], "requested": "1900-01-01"],
            ]),
        EnvelopeCase(
            name: "handshake version in an envelope",
            meta: envelope("2025-11-25"),
            error: [
                "code": -32022, "message": "Unsupported protocol version",
                "data": ["supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], "requested": "2025-11-25"],
            ]),
    ]

    @Test("a malformed envelope gets the ladder's error", arguments: envelopeCases)
    func envelopeErrors(_ testCase: EnvelopeCase) async throws {
        let server = try await TestServers.make()
        let reply = await server.handle(
            json: ["jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": ["_meta": testCase.meta]] as JSONValue)
        #expect(reply == ["jsonrpc": "2.0", "id": 7, "error": testCase.error])
    }

    @Test("a connection keeps its era")
    func eraIsLocked() async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            _ = try await peer.request(["jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": ["_meta": envelope()]])
            let initialize = try await peer.request([
                "jsonrpc": "2.0", "id": 2, "method": "initialize",
                "params": ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "c", "version": "0"]],
            ])
            #expect(
                initialize == [
                    "jsonrpc": "2.0", "id": 2,
                    "error": [
                        "code": -32022,
                        "message": "this connection serves the 2026-07-28 protocol; the initialize handshake is not accepted",
                        "data": ["supported": ["2026-07-28"], "requested": "2025-11-25"],
                    ],
                ])
            let bare = try await peer.request(["jsonrpc": "2.0", "id": 3, "method": "tools/list"])
            #expect(bare["error"]?["code"] == -32602)
            let ping = try await peer.request(["jsonrpc": "2.0", "id": 4, "method": "ping", "params": ["_meta": envelope()]])
            #expect(ping == ["jsonrpc": "2.0", "id": 4, "error": ["code": -32601, "message": "Method not found: ping"]])
        }
        try await RawPeer.with(server) { peer in
            _ = try await peer.request([
                "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": ["protocolVersion": "2025-06-18", "capabilities": [:], "clientInfo": ["name": "c", "version": "0"]],
            ])
            let enveloped = try await peer.request(["jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": ["_meta": envelope()]])
            #expect(
                enveloped == [
                    "jsonrpc": "2.0", "id": 2,
                    "error": [
                        "code": -32600,
                        "message":
                            "Invalid Request: this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope are not accepted on it",
                    ],
                ])
            try await peer.expectPing()
        }
    }

    @Test(
        "structured content is dropped for clients older than 2025-06-18",
        arguments: [
            ("2024-11-05", false), ("2025-03-26", false), ("2025-06-18", true), ("2025-11-25", true),
        ])
    func structuredContentByVersion(version: String, hasStructured: Bool) async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            _ = try await peer.request([
                "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": ["protocolVersion": .string(version), "capabilities": [:], "clientInfo": ["name": "c", "version": "0"]],
            ])
            let reply = try await peer.request([
                "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": ["name": "add", "arguments": ["a": 1, "b": 2]],
            ])
            #expect((reply["result"]?["structuredContent"] != nil) == hasStructured)
            #expect(reply["result"]?["content"]?[0]?["text"] == "{\"sum\":3}")
        }
    }
}

@Suite("Tool list changes")
struct ToolListChangeTests {
    @Test("an initialized handshake-era connection hears of added and removed tools")
    func legacyNotification() async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            _ = try await peer.request([
                "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "c", "version": "0"]],
            ])
            try await peer.send(["jsonrpc": "2.0", "method": "notifications/initialized"])
            try await peer.expectPing()
            try await server.register(name: "new_tool", description: "New") { _, _ in .text("new") }
            #expect(try await peer.next() == ["jsonrpc": "2.0", "method": "notifications/tools/list_changed"])
            #expect(await server.unregister("new_tool"))
            #expect(try await peer.next() == ["jsonrpc": "2.0", "method": "notifications/tools/list_changed"])
            #expect(await server.unregister("new_tool") == false)
        }
    }

    @Test("a modern connection hears of changes on its listen stream only")
    func modernListen() async throws {
        let server = try await TestServers.make()
        try await RawPeer.with(server) { peer in
            try await peer.send([
                "jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen",
                "params": ["_meta": envelope(), "notifications": ["toolsListChanged": true, "promptsListChanged": true]],
            ])
            #expect(
                try await peer.next() == [
                    "jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                    "params": [
                        "_meta": ["io.modelcontextprotocol/subscriptionId": "listen-1"], "notifications": ["toolsListChanged": true],
                    ],
                ])
            try await server.register(name: "new_tool", description: "New") { _, _ in .text("new") }
            #expect(
                try await peer.next() == [
                    "jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                    "params": ["_meta": ["io.modelcontextprotocol/subscriptionId": "listen-1"]],
                ])
            // Cancelling the listen request ends it without a response.
            try await peer.send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": "listen-1"]])
            let list = try await peer.request(["jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": ["_meta": envelope()]])
            #expect(list["id"] == 5)
        }
    }

    @Test("a client sees the change in its notification stream", arguments: Route.allCases)
    func clientStream(route: Route) async throws {
        let server = try await TestServers.make()
        for handshake in [MCPClient.Handshake.version(.v2025_11_25), .auto] {
            try await route.with(server, configuration: .init(handshake: handshake)) { client in
                var notifications = client.notifications.makeAsyncIterator()
                // A round trip after connecting: the server has now read notifications/initialized
                // (handshake era); a modern client returns from connect once its listen stream is open.
                _ = try await client.listTools()
                try await server.register(name: "added_\(handshake)", description: "Added") { _, _ in .text("") }
                #expect(await notifications.next() == .toolListChanged)
                #expect(try await client.listTools().contains { $0.name == "added_\(handshake)" })
            }
        }
    }
}
