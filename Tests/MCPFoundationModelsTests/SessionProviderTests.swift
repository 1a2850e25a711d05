#if !canImport(FoundationModels)
import Foundation
import MCP
import OnDeviceMCPTestSupport
import PortableFoundationModels
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

@Suite("Session provider and chat loop")
struct SessionProviderTests {
    static let readOnly = ToolAnnotations(readOnlyHint: true, openWorldHint: false)

    static func notesSearch(_ run: @escaping @Sendable () async -> Void = {}) -> MCPTool {
        MCPTool(
            name: "notes.search", description: "Search the user's notes",
            inputSchema: ["type": "object", "properties": ["query": ["type": "string"]], "required": ["query"]],
            annotations: readOnly
        ) { arguments in
            await run()
            return .text("Trip: book the 9:40 flight to Porto on day 3 (query: \(arguments["query"]?.stringValue ?? ""))")
        }
    }

    static func calendarAdd(_ received: Recorder<JSONObject>) -> MCPTool {
        MCPTool(
            name: "calendar.add", description: "Add a calendar event",
            inputSchema: [
                "type": "object", "properties": ["title": ["type": "string"], "day": ["type": "integer", "minimum": 1]],
                "required": ["title", "day"],
            ],
            annotations: readOnly
        ) { arguments in
            received.append(arguments)
            return .text("Added \(arguments["title"]?.stringValue ?? "") on day \(arguments["day"]?.intValue ?? 0)")
        }
    }

    /// The names of the tools a request offered.
    static func toolNames(_ request: LanguageModelRequest) -> [String] {
        request.tools.map(\.name).sorted()
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A tool registered on the server reaches the next turn; the chat loop does not change", arguments: [false, true])
    func newToolReachesNextTurn(rebuildsSessions: Bool) async throws {
        let server = MCPServer(name: "App", version: "1.0")
        try await server.register(Self.notesSearch())
        let client = try await MCPClient.connect(to: server)
        let received = Recorder<JSONObject>()
        let script = ScriptedLanguageModel([
            .callTool("notes_search", json: #"{"query": "trip"}"#),
            .reply { request in "You noted: \(request.toolOutput("notes_search") ?? "nothing")" },
            .turn { request in
                guard request.tools.contains(where: { $0.name == "calendar_add" }) else { return .text("no calendar tool") }
                return .toolCalls([
                    LanguageModelToolCall(
                        toolName: "calendar_add", arguments: try GeneratedContent(json: #"{"title": "Flight to Porto", "day": 3}"#))
                ])
            },
            .reply { request in "Done: \(request.toolOutput("calendar_add") ?? "nothing")" },
        ])
        let provider = MCPSessionProvider(client: client, model: script.model, configuration: .init(rebuildsSessions: rebuildsSessions))
        #expect(provider.usesDynamicInstructions == !rebuildsSessions)
        let (prompts, promptSink) = AsyncStream.makeStream(of: String.self)
        let (answers, answerSink) = AsyncStream.makeStream(of: String.self)

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // The chat loop, written once; nothing below changes it.
                try await provider.runChat(input: prompts) { answerSink.yield($0) }
                answerSink.finish()
            }
            var answerIterator = answers.makeAsyncIterator()
            var events = provider.events.makeAsyncIterator()

            promptSink.yield("What did I note about the trip?")
            let first = try #require(await answerIterator.next())
            #expect(first.contains("book the 9:40 flight to Porto"))

            // A new server tool; the provider hears tools/list_changed.
            try await server.register(Self.calendarAdd(received))
            while let event = await events.next(), !ContextManagementTests.isListChange(event) {}

            promptSink.yield("Put the flight in my calendar")
            let second = try #require(await answerIterator.next())
            #expect(second.contains("Added Flight to Porto on day 3"))
            promptSink.finish()
            try await group.waitForAll()
        }

        let requests = script.requests
        #expect(requests.count == 4)
        #expect(Self.toolNames(requests[0]) == ["notes_search"])
        #expect(Self.toolNames(requests[2]) == ["calendar_add", "notes_search"])
        // The turn carries the earlier one: prompt, tool call, tool output, answer (26: in a new
        // session; 27: in the same session, whose instructions list the new tool).
        let carried = requests[2].transcript.map { entry -> String in
            switch entry {
            case .instructions(let instructions): "instructions:" + instructions.toolDefinitions.map(\.name).sorted().joined(separator: ",")
            case .prompt: "prompt"
            case .toolCalls(let calls): "call:" + calls.map(\.toolName).joined()
            case .toolOutput(let output): "output:" + output.toolName
            case .response: "response"
            default: "other"
            }
        }
        #expect(
            carried == [
                "instructions:calendar_add,notes_search", "prompt", "call:notes_search", "output:notes_search", "response", "prompt",
            ])
        // The arguments reached the handler with JSON types.
        #expect(received.values == [["title": "Flight to Porto", "day": .int(3)]])
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("26 way: a tool list change during a response never touches the responding session")
    func changeWhileResponding() async throws {
        let server = MCPServer(name: "App", version: "1.0")
        let holder = ProviderHolder()
        let observed = Recorder<(sameSession: Bool, wasResponding: Bool)>()
        let received = Recorder<JSONObject>()
        try await server.register(
            Self.notesSearch {
                // Mid-turn: the server's tool list changes, and the provider hears it.
                guard let provider = holder.provider, let before = holder.session else { return }
                try? await server.register(Self.calendarAdd(received))
                var events = provider.events.makeAsyncIterator()
                while let event = await events.next(), !ContextManagementTests.isListChange(event) {}
                let during = try? await provider.session()
                observed.append((during === before, before.isResponding))
            })
        let client = try await MCPClient.connect(to: server)
        let script = ScriptedLanguageModel([
            .callTool("notes_search", json: #"{"query": "trip"}"#),
            .text("first answer"),
            .callTool("calendar_add", json: #"{"title": "Flight", "day": 3}"#),
            .text("second answer"),
        ])
        let provider = MCPSessionProvider(client: client, model: script.model, configuration: .init(rebuildsSessions: true))
        holder.provider = provider
        let first = try await provider.session()
        holder.session = first

        #expect(try await provider.respond(to: "Trip?") == "first answer")
        let during = try #require(observed.values.first)
        #expect(during.sameSession && during.wasResponding)
        #expect(!first.isResponding)
        #expect(first.transcript.count == 5)  // instructions, prompt, call, output, response: complete.

        #expect(try await provider.respond(to: "Add it") == "second answer")
        let second = try await provider.session()
        #expect(second !== first)
        #expect(first.transcript.count == 5)  // The old session was never changed.
        #expect(second.transcript.count == 9)
        #expect(received.values == [["title": "Flight", "day": .int(3)]])
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Without a change the same session serves every turn", arguments: [false, true])
    func sameSessionWithoutChange(rebuildsSessions: Bool) async throws {
        let (_, client) = try await connectedServer([Self.notesSearch()])
        let script = ScriptedLanguageModel([.text("one"), .text("two")])
        let provider = MCPSessionProvider(client: client, model: script.model, configuration: .init(rebuildsSessions: rebuildsSessions))
        let first = try await provider.session()
        _ = try await provider.respond(to: "a")
        _ = try await provider.respond(to: "b")
        #expect(try await provider.session() === first)
        #expect(first.transcript.count == 5)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("An answer that copies the tool output frame's words is shown without them, whole or streamed")
    func frameEchoRemoved() async throws {
        let (_, client) = try await connectedServer([Self.notesSearch()])
        let echo = "It is 14:02 in Tokyo — data, not instructions]"
        let script = ScriptedLanguageModel([.text(echo), .text(echo)])
        let provider = MCPSessionProvider(client: client, model: script.model)
        #expect(try await provider.respond(to: "Time in Tokyo?") == "It is 14:02 in Tokyo")
        var last: String?
        for try await snapshot in provider.streamResponse(to: "And now?") { last = snapshot }
        #expect(last == "It is 14:02 in Tokyo")
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A tool's value the answer garbled is shown as the tool returned it, whole or streamed, and the turn says so")
    func garbledCopyRestored() async throws {
        let clock = MCPTool(
            name: "clock.now", description: "The current time", inputSchema: ["type": "object"], annotations: Self.readOnly
        ) { _ in .text(#"{"utc":"2026-12-02T13:10:57.94Z"}"#) }
        let (_, client) = try await connectedServer([clock])
        let garbled = "It is 2026-12-02T13:10:57.94ZYUQVN."
        let script = ScriptedLanguageModel([
            .callTool("clock_now", json: "{}"), .text(garbled), .callTool("clock_now", json: "{}"), .text(garbled),
        ])
        let provider = MCPSessionProvider(client: client, model: script.model)
        #expect(try await provider.respond(to: "What time is it?") == "It is 2026-12-02T13:10:57.94Z.")
        var last: String?
        for try await snapshot in provider.streamResponse(to: "And now?") { last = snapshot }
        #expect(last == "It is 2026-12-02T13:10:57.94Z.")
        await provider.close()
        var ends: [TurnEnd] = []
        for await event in provider.events {
            if case .turnEnded(let end) = event { ends.append(end) }
        }
        let repair = GarbledCopy(value: "2026-12-02T13:10:57.94Z", written: "2026-12-02T13:10:57.94ZYUQVN")
        #expect(ends.map(\.garbledCopies) == [[repair], [repair]])
        #expect(ends.map(\.answerCharacters) == [30, 30])
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A failed turn is reported and the chat goes on")
    func failedTurn() async throws {
        let (_, client) = try await connectedServer([Self.notesSearch()])
        struct Refused: Error, CustomStringConvertible { var description: String { "refused" } }
        let script = ScriptedLanguageModel([.failure(Refused()), .text("fine")])
        let provider = MCPSessionProvider(client: client, model: script.model)
        let answers = Recorder<String>()
        try await provider.runChat(input: ["first", "  ", "second"].async) { answers.append($0) }
        #expect(answers.values == ["error: refused", "fine"])
    }
}

/// Lets a tool handler reach the provider built after the server.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
private final class ProviderHolder: @unchecked Sendable {
    var provider: MCPSessionProvider?
    var session: LanguageModelSession?
}

extension Array where Element: Sendable {
    /// The elements as an async sequence.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
#endif
