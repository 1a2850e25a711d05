import MCP
import Testing

/// What a caller reads when a handler throws, and what the app hears.
@Suite("Tool errors")
struct ToolErrorDisclosureTests {
    struct DatabaseLocked: Error, CustomStringConvertible {
        var description: String { "sqlite: /private/var/mobile/app.db is locked by pid 412" }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let disclosure: ToolErrorDisclosure
        let error: @Sendable () -> any Error
        let expectedText: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "an internal error, by default: a generic failure", disclosure: .modelFacing, error: { DatabaseLocked() },
            expectedText: MCPServer.internalFailureMessage),
        Case(
            name: "an error meant for the model, by default: its message", disclosure: .modelFacing,
            error: { ToolUsageError("No note is called 'Trip'; call notes_list to see the titles.") },
            expectedText: "No note is called 'Trip'; call notes_list to see the titles."),
        Case(
            name: "an internal error, every error disclosed: its description", disclosure: .everyError,
            error: { DatabaseLocked() }, expectedText: "sqlite: /private/var/mobile/app.db is locked by pid 412"),
        Case(
            name: "an error meant for the model, every error disclosed: still its message", disclosure: .everyError,
            error: { ToolUsageError("Use a date after 2020.") }, expectedText: "Use a date after 2020."),
    ]

    @Test("A thrown error becomes the text its rule allows, and reaches the app whole", arguments: cases)
    func disclosure(_ test: Case) async throws {
        let failures = LockedList<ToolFailure>()
        let server = MCPServer(name: "s", version: "1", toolErrors: test.disclosure, onToolFailure: { failures.append($0) })
        try await server.register(name: "notes_get", description: "Gets a note") { _, _ in throw test.error() }
        let client = try await MCPClient.connect(to: server)
        let result = try await client.callTool(name: "notes_get")
        #expect(result.isError)
        #expect(result.text == test.expectedText)
        let failure = try #require(failures.values.first)
        #expect(failures.values.count == 1)
        #expect(failure.tool == "notes_get")
        #expect(failure.messageSent == test.expectedText)
        #expect(String(describing: failure.error) == String(describing: test.error()))
        #expect(server.toolErrorDisclosure == test.disclosure)
        await client.close()
    }

    @Test("Over a connection the generic failure is what the peer receives, with the request's id reported")
    func overConnection() async throws {
        let failures = LockedList<ToolFailure>()
        let server = MCPServer(name: "s", version: "1", onToolFailure: { failures.append($0) })
        try await server.register(name: "notes_get", description: "Gets a note") { _, _ in throw DatabaseLocked() }
        let (serverEnd, clientEnd) = InProcessTransport.makePair()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run(on: serverEnd) }
            let client = try await MCPClient.connect(to: .transport { clientEnd })
            let result = try await client.callTool(name: "notes_get")
            #expect(result.text == MCPServer.internalFailureMessage)
            #expect(!result.text.contains("sqlite"))
            #expect(failures.values.first?.requestID != nil)
            await client.close()
            try await group.waitForAll()
        }
    }

    @Test("A call cancelled by its caller is not reported as a failure")
    func cancellationIsNotAFailure() async throws {
        let failures = LockedList<ToolFailure>()
        let server = MCPServer(name: "s", version: "1", onToolFailure: { failures.append($0) })
        try await server.register(name: "stop", description: "Cancelled") { _, _ in throw CancellationError() }
        let client = try await MCPClient.connect(to: server)
        let result = try await client.callTool(name: "stop")
        #expect(result.isError)
        #expect(failures.values.isEmpty)
        await client.close()
    }
}
