#if !canImport(FoundationModels)
import Foundation
import MCP
import OnDeviceMCPTestSupport
import PortableFoundationModels
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

/// Conversations that outgrow the 4,096-token context, tools that come and go, many
/// servers: the provider keeps every turn answerable.
@Suite("Context management")
struct ContextManagementTests {
    static let readOnly = ToolAnnotations(readOnlyHint: true, openWorldHint: false)

    /// A read-only tool whose every output is about `characters` long.
    static func reportTool(characters: Int) -> MCPTool {
        MCPTool(
            name: "report_fetch", description: "Fetch a report by number",
            inputSchema: ["type": "object", "properties": ["number": ["type": "integer"]], "required": ["number"]],
            annotations: readOnly
        ) { arguments in
            let number = arguments["number"]?.intValue ?? 0
            let line = "Report \(number): quarterly figures, revenue up, costs steady, churn down. "
            return .text(String(repeating: line, count: characters / line.count + 1))
        }
    }

    /// A model that, for each prompt "Turn N", fetches report N and then answers "Answer N".
    static func reportingModel(contextSize: Int = 4096) -> ScriptedLanguageModel {
        ScriptedLanguageModel(contextSize: contextSize) { request in
            let number = Int(request.promptText.split(separator: " ").last ?? "") ?? 0
            if request.toolResults.isEmpty {
                return .toolCalls([
                    LanguageModelToolCall(
                        toolName: "report_fetch", arguments: GeneratedContent(properties: ["number": number]))
                ])
            }
            return .text("Answer \(number): the report says revenue is up.")
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "50 turns with large tool outputs at 4,096 tokens: no turn fails and the latest turns are intact; unmanaged, it overflows",
        arguments: Self.ways)
    func longConversation(rebuildsSessions: Bool) async throws {
        let (_, client) = try await connectedServer([Self.reportTool(characters: 6000)])
        let model = Self.reportingModel()
        let provider = MCPSessionProvider(client: client, model: model.model, configuration: .init(rebuildsSessions: rebuildsSessions))
        var answers: [String] = []
        for turn in 1...50 {
            answers.append(try await provider.respond(to: "Turn \(turn)"))
        }
        #expect(answers.count == 50)
        #expect(answers.last == "Answer 50: the report says revenue is up.")
        // Every request the model received fit its context.
        for request in model.requests {
            let tokens = try await model.model.tokenCount(for: Array(request.transcript))
            #expect(tokens <= 4096)
        }
        // The latest two turns are intact: prompt, call, the whole output as the tool gave it, answer.
        let session = try await provider.session()
        let history = MCPSessionProvider.history(of: session.transcript)
        let turns = TrimmingHistoryPolicy.turns(of: history)
        let latest = try #require(turns.last)
        #expect(latest.count == 4)
        for turn in turns.suffix(2) {
            for entry in turn {
                if case .toolOutput(let output) = entry {
                    #expect(!output.segments.description.contains(TrimmingHistoryPolicy.removedMarker))
                }
            }
        }

        // The same conversation in one session, unmanaged, overflows.
        let unmanagedModel = Self.reportingModel()
        let tool = try MCPBridgedTool(tool: try #require(await client.listTools().first), client: client)
        let unmanaged = LanguageModelSession(
            model: unmanagedModel.model, tools: [tool], instructions: MCPSessionProvider.defaultInstructions)
        var overflowTurn: Int?
        for turn in 1...50 {
            do {
                _ = try await unmanaged.respond(to: "Turn \(turn)")
            } catch LanguageModelSession.GenerationError.exceededContextWindowSize {
                overflowTurn = turn
                break
            }
        }
        let overflowedAt = try #require(overflowTurn)
        print("Unmanaged, the 50-turn conversation overflows at turn \(overflowedAt); managed, all 50 turns are answered.")
        #expect(overflowedAt < 50)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("An overflow the provider did not foresee is recovered: the turn is answered with a shorter history", arguments: Self.ways)
    func overflowRecovered(rebuildsSessions: Bool) async throws {
        // The model counts every character as a token: the provider's estimate is far too low.
        let model = ScriptedLanguageModel(contextSize: 4096, tokenCounter: { $0.count }) { request in
            request.toolResults.isEmpty && request.promptText.hasPrefix("Turn")
                ? .toolCalls([LanguageModelToolCall(toolName: "report_fetch", arguments: GeneratedContent(properties: ["number": 1]))])
                : .text("ok")
        }
        let (_, client) = try await connectedServer([Self.reportTool(characters: 1500)])
        let provider = MCPSessionProvider(client: client, model: model.model, configuration: .init(rebuildsSessions: rebuildsSessions))
        var events = provider.events.makeAsyncIterator()
        var recovered = false
        for turn in 1...6 {
            #expect(try await provider.respond(to: "Turn \(turn)") == "ok")
        }
        await provider.close()
        while let event = await events.next() {
            if let reasons = Self.reasons(event), reasons.contains(.overflowRecovered) || reasons.contains(.trimmed) {
                recovered = true
            }
        }
        #expect(recovered)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "An overflow the model's backend throws itself (a real model's tokenizer) is recovered like the session's own", arguments: Self.ways
    )
    func backendOverflowRecovered(rebuildsSessions: Bool) async throws {
        // The session estimates 4 characters per token and never finds a request too long;
        // the backend's "tokenizer" counts 2, and it throws Apple's overflow error itself,
        // as a backend for a real model does when the model's server rejects a request.
        let realTokens: @Sendable (LanguageModelRequest) -> Int = { request in
            request.transcript.reduce(0) { $0 + $1.description.count } / 2
        }
        let model = ScriptedLanguageModel(contextSize: 4096) { request in
            let tokens = realTokens(request)
            if tokens > 4096 {
                throw LanguageModelSession.GenerationError.exceededContextWindowSize(
                    .init(
                        debugDescription:
                            "This model's maximum context length is 4096 tokens. However, your messages resulted in \(tokens) tokens."))
            }
            let number = Int(request.promptText.split(separator: " ").last ?? "") ?? 0
            if request.toolResults.isEmpty {
                return .toolCalls([
                    LanguageModelToolCall(toolName: "report_fetch", arguments: GeneratedContent(properties: ["number": number]))
                ])
            }
            return .text("Answer \(number)")
        }
        let (_, client) = try await connectedServer([Self.reportTool(characters: 1500)])
        let provider = MCPSessionProvider(client: client, model: model.model, configuration: .init(rebuildsSessions: rebuildsSessions))
        var events = provider.events.makeAsyncIterator()
        for turn in 1...8 {
            #expect(try await provider.respond(to: "Turn \(turn)") == "Answer \(turn)")
        }
        await provider.close()
        var recoveries = 0
        while let event = await events.next() {
            if let reasons = Self.reasons(event), reasons.contains(.overflowRecovered) { recoveries += 1 }
        }
        #expect(recoveries >= 1)
        // The backend did reject a request, and each rejected turn was answered after a recovery.
        let rejected = model.requests.filter { realTokens($0) > 4096 }.count
        #expect(rejected >= 1)
        #expect(rejected == recoveries)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Tool output is cut to the room the turn has left, so the turn fits without an overflow", arguments: Self.ways)
    func outputCutToRoomLeft(rebuildsSessions: Bool) async throws {
        let (_, client) = try await connectedServer([Self.reportTool(characters: 12_000)])
        let model = Self.reportingModel(contextSize: 2000)
        // Each tool may return 8,000 characters; the context has room for far less.
        let budget = ContextBudget(toolOutputTokens: 2000)
        let provider = MCPSessionProvider(
            client: client, model: model.model, configuration: .init(budget: budget, rebuildsSessions: rebuildsSessions))
        #expect(try await provider.respond(to: "Turn 1") == "Answer 1: the report says revenue is up.")
        await provider.close()
        var finishes: [ToolCallFinish] = []
        var reasons: [SessionBuild.Reason] = []
        for await event in provider.events {
            if case .toolCallFinished(let finish) = event { finishes.append(finish) }
            reasons += Self.reasons(event) ?? []
        }
        let finish = try #require(finishes.first)
        #expect(finish.wasCut)
        #expect(finish.outputCharacters < budget.toolOutputCharacters)
        #expect(reasons == [.firstTurn])
        let output = try #require(model.requests.last?.toolResults.first?.text)
        #expect(output.contains("characters left out"))
        // Head and tail: the last line of the report is still there.
        #expect(output.contains("churn down."))
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("20 turns while the server adds and removes tools: the same loop, each new tool offered from the next turn", arguments: Self.ways)
    func toolsComeAndGo(rebuildsSessions: Bool) async throws {
        let server = MCPServer(name: "App", version: "1.0")
        try await server.register(Self.reportTool(characters: 100))
        let client = try await MCPClient.connect(to: server)
        let offered = Recorder<[String]>()
        let model = ScriptedLanguageModel { request in
            offered.append(request.tools.map(\.name).sorted())
            return .text("turn done")
        }
        let provider = MCPSessionProvider(client: client, model: model.model, configuration: .init(rebuildsSessions: rebuildsSessions))
        var events = provider.events.makeAsyncIterator()
        var expected: [[String]] = []
        var registered: [String] = ["report_fetch"]
        for turn in 1...20 {
            if turn % 3 == 0 {
                let name = "extra_\(turn)"
                try await server.register(
                    MCPTool(name: name, description: "Extra tool \(turn)", annotations: Self.readOnly) { _ in .text("x") })
                registered.append(name)
                while let event = await events.next(), !Self.isListChange(event) {}
            } else if turn % 5 == 0, let removed = registered.last(where: { $0 != "report_fetch" }) {
                await server.unregister(removed)
                registered.removeAll { $0 == removed }
                while let event = await events.next(), !Self.isListChange(event) {}
            }
            expected.append(registered.sorted())
            #expect(try await provider.respond(to: "Turn \(turn)") == "turn done")
        }
        #expect(offered.values == expected)
    }

    /// Both ways of serving a conversation: one session with dynamic instructions (27), and a
    /// new session for each change (26).
    static let ways = [false, true]

    /// The reasons of a session built (26) or of a change of what the model sees (27).
    static func reasons(_ event: AgentEvent) -> [SessionBuild.Reason]? {
        switch event {
        case .sessionBuilt(let build): build.reasons
        case .contextChanged(let change): change.reasons
        default: nil
        }
    }

    static func isListChange(_ event: AgentEvent) -> Bool {
        if case .toolListChanged = event { true } else { false }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "Two servers with the same tool name: both offered under unique names that stay the same across tool list changes",
        arguments: Self.ways)
    func manyServers(rebuildsSessions: Bool) async throws {
        func search(_ what: String) -> MCPTool {
            MCPTool(
                name: "search", description: "Search the user's \(what)",
                inputSchema: ["type": "object", "properties": ["query": ["type": "string"]]], annotations: Self.readOnly
            ) { _ in .text("found in \(what)") }
        }
        let (notesServer, notes) = try await connectedServer([search("notes")])
        let (_, mail) = try await connectedServer([search("mail")])
        let model = ScriptedLanguageModel { request in
            if request.toolResults.isEmpty, request.promptText.contains("mail") {
                return .toolCalls([LanguageModelToolCall(toolName: "mail_search", arguments: GeneratedContent(properties: ["query": "x"]))])
            }
            return .text(request.toolResults.map(\.text).joined())
        }
        let provider = MCPSessionProvider(
            servers: [.init(name: "notes", client: notes), .init(name: "mail", client: mail)], model: model.model,
            configuration: .init(rebuildsSessions: rebuildsSessions))
        let answer = try await provider.respond(to: "look in my mail")
        #expect(answer.contains("found in mail"))
        #expect(model.requests[0].tools.map(\.name).sorted() == ["mail_search", "notes_search"])
        // A rebuild (a new tool on one server) keeps both names.
        try await notesServer.register(
            MCPTool(name: "notes_list", description: "List notes", annotations: Self.readOnly) { _ in .text("") })
        await provider.toolListDidChange(server: "notes")
        _ = try await provider.respond(to: "anything else?")
        #expect(model.requests.last?.tools.map(\.name).sorted() == ["mail_search", "notes_list", "notes_search"])
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("With more tools than fit, a turn gets the ones its prompt needs, and every exclusion has a reason", arguments: Self.ways)
    func perTurnChoice(rebuildsSessions: Bool) async throws {
        var tools: [MCPTool] = []
        for topic in ["weather", "calendar", "notes", "mail", "contacts", "music", "photos", "maps", "reminders", "files"] {
            tools.append(
                MCPTool(
                    name: "\(topic)_lookup", description: "Look up the user's \(topic)",
                    inputSchema: ["type": "object", "properties": ["query": ["type": "string"]]], annotations: Self.readOnly
                ) { _ in .text(topic) })
        }
        let (_, client) = try await connectedServer(tools)
        let model = ScriptedLanguageModel { _ in .text("ok") }
        let provider = MCPSessionProvider(
            client: client, model: model.model, configuration: .init(pinnedTools: ["files_lookup"], rebuildsSessions: rebuildsSessions))
        _ = try await provider.respond(to: "What's the weather tomorrow?")
        let first = model.requests[0].tools.map(\.name)
        #expect(first.count <= 5)
        #expect(first.contains("weather_lookup"))
        #expect(first.first == "files_lookup")
        let selection = await provider.selection
        #expect(selection.excluded.count == 10 - first.count)
        #expect(selection.excluded.allSatisfy { !$0.reason.isEmpty })
        _ = try await provider.respond(to: "Play some music")
        let second = model.requests[1].tools.map(\.name)
        #expect(second.contains("music_lookup"))
        #expect(second.contains("files_lookup"))
        // The new set came with the first turn carried (26: in a new session; 27: the same one).
        let carried = model.requests[1].transcript.compactMap { entry -> String? in
            if case .prompt(let prompt) = entry { return prompt.segments.description }
            return nil
        }
        #expect(carried.count == 2)
        #expect(carried.first?.contains("weather") == true)
        await provider.close()
        var reasons: [[SessionBuild.Reason]] = []
        var excluded: [ToolSelection.Exclusion] = []
        for await event in provider.events {
            switch event {
            case .sessionBuilt(let build):
                reasons.append(build.reasons)
                excluded = build.excluded
                #expect(build.carriesTranscript == (build.reasons != [.firstTurn]))
            case .contextChanged(let change):
                reasons.append(change.reasons)
                excluded = change.excluded
            default:
                break
            }
        }
        #expect(reasons == [[.firstTurn], [.toolSetChanged]])
        #expect(!excluded.isEmpty)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "Tool calls are reported: started with redacted arguments, finished with size and duration, declined with the reason",
        arguments: Self.ways)
    func toolCallEvents(rebuildsSessions: Bool) async throws {
        let write = MCPTool(
            name: "notes_add", description: "Add a note", inputSchema: ["type": "object", "properties": ["text": ["type": "string"]]],
            annotations: ToolAnnotations(readOnlyHint: false)
        ) { _ in .text("added") }
        let read = MCPTool(
            name: "notes_get", description: "Get a note", inputSchema: ["type": "object", "properties": ["text": ["type": "string"]]],
            annotations: Self.readOnly
        ) { _ in .text("the note") }
        let (_, client) = try await connectedServer([write, read])
        let model = ScriptedLanguageModel([
            .callTool("notes_get", json: #"{"text": "key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"}"#),
            .text("read"),
            .callTool("notes_add", json: #"{"text": "hello"}"#),
            .text("tried"),
        ])
        let provider = MCPSessionProvider(client: client, model: model.model, configuration: .init(rebuildsSessions: rebuildsSessions))
        _ = try await provider.respond(to: "get my note")
        _ = try await provider.respond(to: "add a note")
        await provider.close()
        var started: [ToolCallStart] = []
        var finished: [ToolCallFinish] = []
        var declined: [ToolCallDecline] = []
        for await event in provider.events {
            switch event {
            case .toolCallStarted(let start): started.append(start)
            case .toolCallFinished(let finish): finished.append(finish)
            case .toolCallDeclined(let decline): declined.append(decline)
            default: break
            }
        }
        let start = try #require(started.first)
        #expect(started.count == 1)
        #expect(start.tool == "notes_get")
        #expect(!start.arguments.contains("sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"))
        #expect(start.arguments.contains("[redacted"))
        let finish = try #require(finished.first)
        #expect(finish.tool == "notes_get" && !finish.isError && finish.outputCharacters > 0 && !finish.wasCut)
        #expect(declined.map(\.tool) == ["notes_add"])
        #expect(declined.first?.reason.isEmpty == false)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Answers stream through the provider and the chat loop", arguments: Self.ways)
    func streaming(rebuildsSessions: Bool) async throws {
        let (_, client) = try await connectedServer([Self.reportTool(characters: 100)])
        let model = ScriptedLanguageModel { _ in .text("The report is in.") }
        let provider = MCPSessionProvider(client: client, model: model.model, configuration: .init(rebuildsSessions: rebuildsSessions))
        var last = ""
        for try await snapshot in provider.streamResponse(to: "Turn 1") {
            #expect(snapshot.count >= last.count)
            last = snapshot
        }
        #expect(last == "The report is in.")
        let partials = Recorder<String>()
        let answers = Recorder<String>()
        try await provider.runChat(input: ["Turn 2"].async, partial: { partials.append($0) }) { answers.append($0) }
        #expect(answers.values == ["The report is in."])
        #expect(partials.values.last == "The report is in.")
    }

    #if !canImport(FoundationModels)
    /// A backend that shows part of an answer, then overflows, the first time; then answers.
    final class OverflowAfterPartial: LanguageModelBackend, @unchecked Sendable {
        // Safety: `attempts` is touched only with `lock` held.
        private let lock = NSLock()
        private var attempts = 0

        func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
            try await respond(to: request) { _ in }
        }

        func respond(
            to request: LanguageModelRequest, partialAnswer: @escaping @Sendable (GeneratedContent) -> Void
        ) async throws -> LanguageModelTurn {
            let attempt: Int = lock.withLock {
                attempts += 1
                return attempts
            }
            if attempt == 1 {
                partialAnswer(GeneratedContent("A long ans"))
                throw LanguageModelSession.GenerationError.exceededContextWindowSize(.init(debugDescription: "The answer did not fit."))
            }
            partialAnswer(GeneratedContent("Short"))
            return .text("Short answer")
        }
    }

    @Test("An overflow after part of a streamed answer was shown is recovered: the answer starts again", arguments: Self.ways)
    func streamingOverflowRecovered(rebuildsSessions: Bool) async throws {
        let (_, client) = try await connectedServer([Self.reportTool(characters: 100)])
        let provider = MCPSessionProvider(
            client: client, model: SystemLanguageModel(backend: OverflowAfterPartial()),
            configuration: .init(rebuildsSessions: rebuildsSessions))
        var snapshots: [String] = []
        for try await snapshot in provider.streamResponse(to: "Turn 1") { snapshots.append(snapshot) }
        #expect(snapshots.first == "A long ans")
        #expect(snapshots.last == "Short answer")
        await provider.close()
    }
    #endif

    @Test("The history policy removes old tool outputs first, then old turns, and keeps the latest turns")
    func trimmingPolicy() {
        func turn(_ number: Int, output: Int) -> [Transcript.Entry] {
            [
                .prompt(Transcript.Prompt(segments: [.text(.init(content: "Turn \(number)"))])),
                .toolCalls(
                    Transcript.ToolCalls([
                        Transcript.ToolCall(id: "c\(number)", toolName: "t", arguments: GeneratedContent(properties: [:]))
                    ])),
                .toolOutput(
                    Transcript.ToolOutput(
                        id: "c\(number)", toolName: "t", segments: [.text(.init(content: String(repeating: "x", count: output)))])),
                .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Answer \(number)"))])),
            ]
        }
        let entries = (1...6).flatMap { turn($0, output: 400) }
        let count: (Transcript.Entry) -> Int = { $0.description.count / 4 }
        let total = entries.reduce(0) { $0 + count($1) }
        let policy = TrimmingHistoryPolicy(keepsLatestTurns: 2)
        // A little shorter: only old outputs go.
        let light = policy.shorten(entries, toFit: total - 150, tokens: count)
        #expect(light.count == entries.count)
        #expect(light.suffix(8) == entries.suffix(8))
        // Much shorter: old turns go too, the latest two stay as they were.
        let heavy = policy.shorten(entries, toFit: 300, tokens: count)
        #expect(heavy.suffix(8) == entries.suffix(8))
        #expect(heavy.count < entries.count)
        #expect(heavy.reduce(0) { $0 + count($1) } <= 300)
        // Nothing fits: the latest turns go as well rather than the turn failing.
        #expect(policy.shorten(entries, toFit: 0, tokens: count).isEmpty)
    }

    @Test("A context overflow is recognised in 26's and 27's spelling, and inside a tool call error")
    func overflowRecognised() {
        let overflow = LanguageModelSession.GenerationError.exceededContextWindowSize(.init(debugDescription: "too long"))
        #expect(ContextMeasure.isContextOverflow(overflow))
        let exceeded = LanguageModelError.contextSizeExceeded(.init(contextSize: 4096, tokenCount: 5000, debugDescription: "too long"))
        #expect(ContextMeasure.isContextOverflow(exceeded))
        #expect(ContextMeasure.contextSizeExceeded(in: exceeded)?.tokenCount == 5000)
        #expect(!ContextMeasure.isContextOverflow(LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "later"))))
        #expect(!ContextMeasure.isContextOverflow(CancellationError()))
    }
}
#endif
