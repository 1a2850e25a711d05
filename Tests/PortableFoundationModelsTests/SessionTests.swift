#if !canImport(FoundationModels)
// PortableFoundationModels is empty where Apple's FoundationModels exists, and its API carries
// no availability of its own, so these tests build wherever the portable module has content.
import Foundation
import PortableFoundationModels
import Testing

@Suite("LanguageModelSession")
struct SessionTests {
    @Test func defaultModelIsUnavailableWithoutABackend() async {
        #expect(SystemLanguageModel.default.availability == .unavailable(.deviceNotEligible))
        #expect(!SystemLanguageModel.default.isAvailable)
        #expect(SystemLanguageModel(useCase: .general).availability == .unavailable(.deviceNotEligible))
        let session = LanguageModelSession(instructions: "Be brief.")
        await #expect {
            try await session.respond(to: "Hello")
        } throws: { error in
            guard case .assetsUnavailable = error as? LanguageModelSession.GenerationError else { return false }
            return true
        }
        #expect(!session.isResponding)
    }

    @Test func modelWithBackendIsAvailable() {
        #expect(SystemLanguageModel(backend: ScriptedLanguageModel([])).availability == .available)
        let notReady = ScriptedLanguageModel([], availability: .unavailable(.modelNotReady))
        #expect(notReady.model.availability == .unavailable(.modelNotReady))
    }

    @Test func plainAnswerWithoutTools() async throws {
        let script = ScriptedLanguageModel([.text("Hello!")])
        let session = LanguageModelSession(model: script.model, instructions: "Be brief.")
        let response = try await session.respond(to: "Hi")
        #expect(response.content == "Hello!")
        #expect(response.rawContent == GeneratedContent("Hello!"))
        #expect(response.transcriptEntries.count == 2)
        #expect(script.requests.count == 1)
        #expect(script.requests[0].instructionsText == "Be brief.")
        #expect(script.requests[0].promptText == "Hi")
        #expect(script.requests[0].tools.isEmpty)
    }

    @Test func oneToolThenAnswerWithItsOutput() async throws {
        let weather = try cityTool { city in "12°C in \(city)" }
        let script = ScriptedLanguageModel([
            .callTool("get_weather", arguments: GeneratedContent(properties: ["city": "Paris", "days": 2])),
            .reply { request in "The forecast: \(request.toolOutput("get_weather") ?? "none")." },
        ])
        let session = LanguageModelSession(model: script.model, tools: [weather], instructions: "Use tools for live data.")
        let response = try await session.respond(to: "Weather in Paris?")
        #expect(response.content == "The forecast: 12°C in Paris.")

        // The model saw the tool, then its output.
        #expect(script.requests.count == 2)
        #expect(script.requests[0].tools.map(\.name) == ["get_weather"])
        #expect(script.requests[0].toolResults.isEmpty)
        #expect(script.requests[1].toolResults.map(\.text) == ["12°C in Paris"])

        // The transcript: instructions, prompt, tool calls, tool output, response.
        let entries = Array(session.transcript)
        #expect(entries.count == 5)
        guard entries.count == 5 else { return }
        guard case .instructions(let instructions) = entries[0] else {
            Issue.record("expected instructions")
            return
        }
        #expect(
            instructions.segments == [.text(Transcript.TextSegment(id: instructions.segments[0].id, content: "Use tools for live data."))])
        #expect(instructions.toolDefinitions.map(\.name) == ["get_weather"])
        #expect(instructions.toolDefinitions.map(\.description) == ["A test tool"])
        guard case .prompt(let prompt) = entries[1] else {
            Issue.record("expected the prompt")
            return
        }
        #expect(prompt.segments.count == 1)
        #expect(prompt.description == "Prompt: Weather in Paris?")
        guard case .toolCalls(let calls) = entries[2] else {
            Issue.record("expected tool calls")
            return
        }
        #expect(calls.map(\.toolName) == ["get_weather"])
        #expect(calls.first?.arguments.jsonString == #"{"city":"Paris","days":2}"#)
        guard case .toolOutput(let output) = entries[3] else {
            Issue.record("expected tool output")
            return
        }
        #expect(output.id == calls.first?.id)
        #expect(output.toolName == "get_weather")
        #expect(output.segments.count == 1)
        if case .text(let text)? = output.segments.first { #expect(text.content == "12°C in Paris") } else { Issue.record("expected text") }
        guard case .response(let answer) = entries[4] else {
            Issue.record("expected the response")
            return
        }
        #expect(answer.description == "Response: The forecast: 12°C in Paris.")

        // The response's entries start at its prompt.
        #expect(response.transcriptEntries.map(\.id) == entries[1...].map(\.id))
    }

    @Test(.timeLimit(.minutes(1)))
    func severalToolCallsRunConcurrently() async throws {
        // Each tool waits at a barrier that opens only when both are running: the calls overlap,
        // or the test never finishes.
        let barrier = Barrier(count: 2)
        let paris = try cityTool(name: "weather_a") { city in
            await barrier.arriveAndWait()
            return "A: \(city)"
        }
        let rome = try cityTool(name: "weather_b") { city in
            await barrier.arriveAndWait()
            return "B: \(city)"
        }
        let script = ScriptedLanguageModel([
            .toolCalls([
                LanguageModelToolCall(id: "1", toolName: "weather_a", arguments: GeneratedContent(properties: ["city": "Paris"])),
                LanguageModelToolCall(id: "2", toolName: "weather_b", arguments: GeneratedContent(properties: ["city": "Rome"])),
            ]),
            .reply { request in request.toolResults.map(\.text).joined(separator: "; ") },
        ])
        let session = LanguageModelSession(model: script.model, tools: [paris, rome])
        let response = try await session.respond(to: "Weather in Paris and Rome?")
        #expect(response.content == "A: Paris; B: Rome")
        let outputs = session.transcript.compactMap { entry -> String? in
            if case .toolOutput(let output) = entry { return "\(output.id):\(output.toolName)" }
            return nil
        }
        #expect(outputs == ["1:weather_a", "2:weather_b"])
        let callEntries = session.transcript.filter { if case .toolCalls = $0 { true } else { false } }
        #expect(callEntries.count == 1)
    }

    @Test func sameToolCalledTwiceInParallel() async throws {
        let counter = try cityTool { city in city.uppercased() }
        let script = ScriptedLanguageModel([
            .toolCalls([
                LanguageModelToolCall(toolName: "get_weather", arguments: GeneratedContent(properties: ["city": "a"])),
                LanguageModelToolCall(toolName: "get_weather", arguments: GeneratedContent(properties: ["city": "b"])),
            ]),
            .reply { request in request.toolResults.map(\.text).joined() },
        ])
        let session = LanguageModelSession(model: script.model, tools: [counter])
        #expect(try await session.respond(to: "x").content == "AB")
    }

    @Test func aThrowingToolEndsRespondWithToolCallError() async throws {
        let failing = try cityTool { _ in throw Boom() }
        let script = ScriptedLanguageModel([
            .callTool("get_weather", json: #"{"city":"Paris"}"#),
            .text("never reached"),
        ])
        let session = LanguageModelSession(model: script.model, tools: [failing])
        await #expect {
            try await session.respond(to: "Weather?")
        } throws: { error in
            guard let toolError = error as? LanguageModelSession.ToolCallError else { return false }
            return toolError.tool.name == "get_weather" && toolError.underlyingError is Boom
                && toolError.errorDescription?.contains("get_weather") == true
        }
        #expect(script.requests.count == 1)
        #expect(!session.isResponding)
        // The session can respond again afterwards.
        let next = ScriptedLanguageModel([.text("ok")])
        let again = LanguageModelSession(model: next.model, tools: [failing], transcript: session.transcript)
        #expect(try await again.respond(to: "And now?").content == "ok")
    }

    @Test(.timeLimit(.minutes(1)))
    func aSecondRespondWhileRespondingFails() async throws {
        let entered = AsyncStream<Void>.makeStream()
        let gate = Gate()
        let script = ScriptedLanguageModel { _ in
            entered.continuation.yield()
            await gate.wait()
            return .text("done")
        }
        let session = LanguageModelSession(model: script.model)
        async let first = session.respond(to: "first")
        var iterator = entered.stream.makeAsyncIterator()
        await iterator.next()
        #expect(session.isResponding)
        await #expect {
            try await session.respond(to: "second")
        } throws: { error in
            guard case .concurrentRequests = error as? LanguageModelSession.GenerationError else { return false }
            return true
        }
        await gate.open()
        #expect(try await first.content == "done")
        #expect(!session.isResponding)
        // Only the first prompt reached the transcript.
        #expect(session.transcript.count == 2)
    }

    @Test func argumentsAreValidatedBeforeTheToolRuns() async throws {
        let calls = Counter()
        let weather = try cityTool { city in
            await calls.increment()
            return city
        }
        let script = ScriptedLanguageModel([
            .callTool("get_weather", arguments: GeneratedContent(properties: ["city": "Paris", "days": 40]))
        ])
        let session = LanguageModelSession(model: script.model, tools: [weather])
        await #expect {
            try await session.respond(to: "Weather?")
        } throws: { error in
            guard case .decodingFailure(let context) = error as? LanguageModelSession.GenerationError else { return false }
            return context.debugDescription.contains("get_weather") && context.debugDescription.contains("/days")
                && context.debugDescription.contains("maximum 14")
        }
        #expect(await calls.value == 0)
    }

    @Test func unknownToolIsTheModelsFailure() async throws {
        let script = ScriptedLanguageModel([.callTool("nope")])
        let session = LanguageModelSession(model: script.model, tools: [try cityTool { $0 }])
        await #expect {
            try await session.respond(to: "x")
        } throws: { error in
            guard case .decodingFailure(let context) = error as? LanguageModelSession.GenerationError else { return false }
            return context.debugDescription.contains("'nope'")
        }
    }

    @Test func anExhaustedScriptSaysSo() async throws {
        let script = ScriptedLanguageModel([])
        let session = LanguageModelSession(model: script.model)
        await #expect(throws: ScriptedLanguageModel.ScriptError.exhausted(request: 1)) {
            try await session.respond(to: "x")
        }
    }

    @Test func structuredResponses() async throws {
        let schema = try objectSchema("Answer", [.init(name: "value", schema: .init(type: Int.self))])
        let script = ScriptedLanguageModel([
            .content(GeneratedContent(properties: ["value": 42])),
            .text(#"{"value":7}"#),
            .text("[1,2,3]"),
            .content(GeneratedContent(properties: ["value": "wrong"])),
        ])
        let session = LanguageModelSession(model: script.model)
        let first = try await session.respond(to: "Answer?", schema: schema)
        #expect(try first.content.value(Int.self, forProperty: "value") == 42)
        #expect(script.requests[0].schema != nil)
        let second = try await session.respond(to: "Again?", schema: schema)
        #expect(try second.content.value(Int.self, forProperty: "value") == 7)
        let numbers = try await session.respond(to: "Numbers?", generating: [Int].self)
        #expect(numbers.content == [1, 2, 3])
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: "Bad?", schema: schema)
        }
    }

    @Test func streamingYieldsTheCompleteResponse() async throws {
        let script = ScriptedLanguageModel([.text("streamed"), .text("collected")])
        let session = LanguageModelSession(model: script.model)
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "x") { snapshots.append(snapshot.content) }
        #expect(snapshots == ["streamed"])
        #expect(try await session.streamResponse(to: "y").collect().content == "collected")
    }

    @Test func builderInstructionsAndPrompts() async throws {
        let script = ScriptedLanguageModel([.reply { $0.promptText }])
        let session = LanguageModelSession(model: script.model) {
            "Rule one."
            "Rule two."
        }
        let response = try await session.respond {
            "Line one"
            if Bool.random() || true { "Line two" }
        }
        #expect(response.content == "Line one\nLine two")
        #expect(script.requests[0].instructionsText == "Rule one.\nRule two.")
    }

    @Test func toolsOutsideInstructionsAreStillCallable() async throws {
        struct Hidden: Tool {
            let description = "Trained-in tool"
            var includesSchemaInInstructions: Bool { false }
            var parameters: GenerationSchema { String.generationSchema }
            func call(arguments: GeneratedContent) async throws -> String { "hidden:\(try arguments.value(String.self))" }
        }
        let script = ScriptedLanguageModel([
            .callTool("Hidden", arguments: GeneratedContent("x")),
            .reply { $0.toolOutput("Hidden") ?? "" },
        ])
        let session = LanguageModelSession(model: script.model, tools: [Hidden()])
        #expect(session.transcript.isEmpty)
        #expect(try await session.respond(to: "go").content == "hidden:x")
    }
}

actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}

@Suite("LanguageModelSession from the main actor")
@MainActor
struct MainActorSessionTests {
    var prefix = "Say: "

    @Test func respondRunsFromTheMainActorWithABuilder() async throws {
        let script = ScriptedLanguageModel([.reply { $0.promptText }])
        let session = LanguageModelSession(model: script.model, tools: [], instructions: Instructions("Be brief."))
        let response = try await session.respond(options: GenerationOptions(temperature: 0)) {
            prefix + "hi"
        }
        #expect(response.content == "Say: hi")
        #expect(script.requests.first?.options == GenerationOptions(temperature: 0))
    }

    @Test func structuredToolOutputIsAttributedToTheTool() async throws {
        struct Lookup: Tool {
            let name = "lookup"
            let description = "Looks things up"
            var parameters: GenerationSchema { GeneratedContent.generationSchema }
            func call(arguments: GeneratedContent) async throws -> GeneratedContent {
                GeneratedContent(properties: ["found": true])
            }
        }
        let script = ScriptedLanguageModel([.callTool("lookup"), .reply { $0.toolOutput("lookup") ?? "" }])
        let session = LanguageModelSession(model: script.model, tools: [Lookup()])
        #expect(try await session.respond(to: "find").content == #"{"found":true}"#)
        let sources = session.transcript.compactMap { entry -> String? in
            guard case .toolOutput(let output) = entry, case .structure(let segment)? = output.segments.first else { return nil }
            return segment.schemaName
        }
        #expect(sources == ["lookup"])
    }
}
#endif
