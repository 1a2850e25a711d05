#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// A third-party `LanguageModel` behind a session: what its executor gets, and how the session
/// keeps its executors.
@Suite("27: a LanguageModel and its executor behind a session")
struct ExecutorTests {
    @Test("A provider's streamed text is the response, recorded after the prompt")
    func textAnswer() async throws {
        let model = ProviderModel([.text("Hello", ", ", "world")])
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        let response = try await session.respond(to: "Hi")
        #expect(response.content == "Hello, world")
        #expect(session.transcript.kinds == ["instructions", "prompt", "response"])
        #expect(response.transcriptEntries.map(\.kind) == ["prompt", "response"])
        let request = try #require(model.requests.first)
        #expect(request.transcript.kinds == ["instructions", "prompt"])
        #expect(request.transcript.last?.text == "Hi")
        #expect(request.schema == nil)
        #expect(request.enabledToolDefinitions.isEmpty)
    }

    @Test("A String generated for a schema request is the JSON string the provider writes, unquoted; plain text stays as it is")
    func stringForSchemaRequest() async throws {
        let model = ProviderModel([.text(#""Hello, "#, #"world""#), .text("Plain words")])
        let session = LanguageModelSession(model: model)
        let quoted = try await session.respond(to: "Hi", generating: String.self)
        #expect(quoted.content == "Hello, world")
        #expect(model.requests.first?.schema != nil)
        let plain = try await session.respond(to: "Again", generating: String.self)
        #expect(plain.content == "Plain words")
    }

    @Test("respond gets the full transcript every time, never a delta")
    func fullTranscriptEveryTime() async throws {
        let weather = EchoTool("weather") { _ in "12°C" }
        let model = ProviderModel([.text("One."), .call("weather"), .text("It is 12°C."), .text("Three.")])
        let session = LanguageModelSession(model: model, tools: [weather], instructions: "Use tools.")
        try await session.respond(to: "First")
        try await session.respond(to: "Second")
        try await session.respond(to: "Third")
        let sizes = model.requests.map(\.transcript.count)
        #expect(sizes == [2, 4, 6, 8])
        // Each request's transcript starts with everything the previous one had.
        for (earlier, later) in zip(model.requests, model.requests.dropFirst()) {
            #expect(Array(later.transcript.prefix(earlier.transcript.count)) == Array(earlier.transcript))
        }
        #expect(model.requests[2].transcript.kinds == ["instructions", "prompt", "response", "prompt", "toolCalls", "toolOutput"])
        #expect(model.requests.allSatisfy { toolNames($0) == ["weather"] })
    }

    @Test("Options, context options and metadata reach the executor; the prompt entry keeps them")
    func requestCarriesOptions() async throws {
        let model = ProviderModel([.text("ok")])
        let session = LanguageModelSession(model: model)
        let options = GenerationOptions(
            samplingMode: .random(top: 40, seed: 7), temperature: 0.4, maximumResponseTokens: 64, toolCallingMode: .allowed)
        try await session.respond(
            to: Prompt("Hi"), options: options, contextOptions: ContextOptions(includeSchemaInPrompt: false, reasoningLevel: .moderate),
            metadata: ["traceID": "t-1", "attempt": 2])
        let request = try #require(model.requests.first)
        #expect(request.generationOptions == options)
        #expect(request.generationOptions.samplingMode?.kind == .randomTopK(40, seed: 7))
        #expect(request.contextOptions == ContextOptions(includeSchemaInPrompt: false, reasoningLevel: .moderate))
        #expect(request.metadata == ["traceID": GeneratedContent("t-1"), "attempt": GeneratedContent(2)])
        guard case .prompt(let prompt)? = session.transcript.first else {
            Issue.record("no prompt in \(session.transcript)")
            return
        }
        #expect(prompt.metadata["traceID"] == GeneratedContent("t-1"))
        #expect(prompt.contextOptions.reasoningLevel == .moderate)
        #expect(prompt.options == options)
    }

    @Test("A schema request carries the schema, described in the prompt unless the options say not")
    func schemaRequest() async throws {
        let schema = try GenerationSchema(
            root: DynamicGenerationSchema(name: "Forecast", properties: [.init(name: "celsius", schema: .init(type: Int.self))]),
            dependencies: [])
        let model = ProviderModel([.text(#"{"celsius":"#, "12}"), .text(#"{"celsius":3}"#)])
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(
            to: Prompt("Forecast?"), schema: schema, options: GenerationOptions(), contextOptions: ContextOptions())
        #expect(try response.content.value(Int.self, forProperty: "celsius") == 12)
        #expect(model.requests[0].schema?.name == "Forecast")
        #expect(model.requests[0].contextOptions.includeSchemaInPrompt == true)
        try await session.respond(to: Prompt("Again?"), schema: schema, contextOptions: ContextOptions(includeSchemaInPrompt: false))
        #expect(model.requests[1].contextOptions.includeSchemaInPrompt == false)
        // The answer is recorded as structured content.
        guard case .response(let answer)? = session.transcript.last, case .structure(let segment)? = answer.segments.first else {
            Issue.record("no structured answer in \(session.transcript)")
            return
        }
        #expect(segment.content == (try GeneratedContent(json: #"{"celsius":3}"#)))
    }

    @Test("One executor per distinct configuration per session, made when first needed and released with the session")
    func executorStore() async throws {
        let log = ExecutorLog()
        let script = ProviderScript([.text("a"), .text("b"), .text("a again"), .text("b again"), .text("fresh")])
        let useB = AppState()
        struct Switching: LanguageModelSession.DynamicProfile {
            let a: ProviderModel
            let b: ProviderModel
            let state: AppState
            var body: some LanguageModelSession.DynamicProfile {
                if state["b"] == 1 {
                    Profile { Instructions("B") }.model(b)
                } else {
                    Profile { Instructions("A") }.model(a)
                }
            }
        }
        let a = ProviderModel(name: "A", script: script, log: log)
        let b = ProviderModel(name: "B", script: script, log: log)
        do {
            let session = LanguageModelSession(profile: Switching(a: a, b: b, state: useB))
            #expect(log.names.isEmpty, "no executor before the first request")
            for turn in 0..<4 {
                useB["b"] = turn % 2
                try await session.respond(to: "turn \(turn)")
            }
            #expect(log.names == ["A", "B"], "equal configurations share one executor")
            #expect(log.alive == 2)
            // Another session has executors of its own.
            let other = LanguageModelSession(model: a)
            try await other.respond(to: "hi")
            #expect(log.names == ["A", "B", "A"])
        }
        #expect(log.alive == 0, "the executors go with their sessions")
    }

    @Test("prewarm makes the model's executor and prewarms it with the transcript")
    func prewarm() async throws {
        let log = ExecutorLog()
        let model = ProviderModel(script: ProviderScript([.text("ok")]), log: log)
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        session.prewarm()
        #expect(log.names == ["provider"])
        #expect(log.prewarms == [1])
        try await session.respond(to: "Hi")
        #expect(log.names == ["provider"], "the prewarmed executor answers")
    }

    @Test("An executor that cannot be made fails the response with its error, before anything is asked")
    func executorInitFails() async throws {
        let model = ProviderModel(name: "refuses-to-start", script: ProviderScript([.text("never")]))
        let session = LanguageModelSession(model: model)
        await #expect(throws: ProviderExecutor.Refused.self) {
            try await session.respond(to: "Hi")
        }
        #expect(model.requests.isEmpty)
        #expect(!session.isResponding)
    }

    @Test("respond returns only after the executor's respond returned (the request's task group ends with it)")
    func structuredEnd() async throws {
        let returned = AppState()
        let model = ProviderModel([
            Step { _, channel in
                await channel.send(.response(action: .appendText("done", tokenCount: 1)))
                // Still running after its last event; the session waits for it.
                await Task.yield()
                returned["returned"] = 1
            }
        ])
        let session = LanguageModelSession(model: model)
        try await session.respond(to: "Hi")
        #expect(returned["returned"] == 1)
    }

    @Test("A channel made with init() is a recorder: it keeps every event without waiting, and its reader ends at the last")
    func recorderChannel() async throws {
        let channel = Channel()
        for index in 0..<100 { await channel.send(.response(action: .appendText("\(index)", tokenCount: 1))) }
        var count = 0
        for await _ in channel { count += 1 }
        #expect(count == 100)
    }

    @Test("A provider's executor can be driven directly, as its own unit tests do")
    func executorDrivenDirectly() async throws {
        let model = ProviderModel([.text("direct")])
        let executor = try ProviderExecutor(configuration: model.executorConfiguration)
        let request = ExecutorRequest(
            id: UUID(), transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))]))]),
            enabledTools: [], generationOptions: GenerationOptions(), contextOptions: ContextOptions(), metadata: ["k": "v"])
        let channel = Channel()
        try await executor.respond(to: request, model: model, streamingInto: channel)
        var events = 0
        for await _ in channel { events += 1 }
        #expect(events == 1)
        #expect(model.requests.first?.metadata["k"] == GeneratedContent("v"))
    }
}
#endif
