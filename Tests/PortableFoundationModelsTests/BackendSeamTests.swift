#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// The 26 backend seam (`SystemLanguageModel(backend:)`) behind the system model's executor.
@Suite("27: the 26 backend seam as an adapter behind SystemLanguageModel.Executor")
struct BackendSeamTests {
    @Test("A backend answers a 27 session (dynamic instructions) through the system model's executor, tool loop included")
    func backendBehindA27Session() async throws {
        let weather = try cityTool { city in "12°C in \(city)" }
        let script = ScriptedLanguageModel([
            .callTool("get_weather", arguments: GeneratedContent(properties: ["city": "Paris"])),
            .reply { request in "It is \(request.toolOutput("get_weather") ?? "?")." },
        ])
        struct Weather: DynamicInstructions {
            let tool: ClosureTool
            var body: some DynamicInstructions {
                Instructions("Use tools.")
                tool
            }
        }
        let session = LanguageModelSession(model: script.model, dynamicInstructions: Weather(tool: weather))
        let response = try await session.respond(to: "Weather in Paris?")
        #expect(response.content == "It is 12°C in Paris.")
        #expect(script.requests.count == 2)
        #expect(script.requests[0].instructionsText == "Use tools.")
        #expect(script.requests[0].tools.map(\.name) == ["get_weather"])
        #expect(script.requests[1].toolResults.map(\.text) == ["12°C in Paris"])
        #expect(session.transcript.kinds == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
        #expect(response.usage.input.totalTokenCount > 0)
    }

    @Test("A 27 session on a backend raises the 27 session errors; a 26 session keeps GenerationError")
    func errorDialects() async throws {
        let gate = Gate()
        let entered = AsyncStream<Void>.makeStream()
        let script = ScriptedLanguageModel { _ in
            entered.continuation.yield()
            await gate.wait()
            return .text("done")
        }
        let modern = LanguageModelSession(model: script.model, dynamicInstructions: Instructions("Hi."))
        async let first = modern.respond(to: "first")
        var iterator = entered.stream.makeAsyncIterator()
        await iterator.next()
        await #expect(throws: LanguageModelSession.Error.concurrentRequests) { try await modern.respond(to: "second") }
        await gate.open()
        #expect(try await first.content == "done")
    }

    @Test("The system model's executor can be driven directly: it asks the backend and streams its answer")
    func executorDirectly() async throws {
        let script = ScriptedLanguageModel([.text("direct")])
        let model = script.model
        let executor = SystemLanguageModel.Executor(configuration: model.executorConfiguration)
        executor.prewarm(model: model, transcript: Transcript())
        let request = LanguageModelExecutorGenerationRequest(
            id: UUID(), transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))]))]),
            enabledTools: [], generationOptions: GenerationOptions(), contextOptions: ContextOptions(), metadata: [:])
        let channel = LanguageModelExecutorGenerationChannel()
        try await executor.respond(to: request, model: model, streamingInto: channel)
        var events = 0
        for await _ in channel { events += 1 }
        #expect(events == 2, "usage, then the answer")
        #expect(script.requests.first?.promptText == "Hi")
    }

    @Test("Without a backend the system model's executor fails as the 26 session did")
    func noBackend() async throws {
        let request = LanguageModelExecutorGenerationRequest(
            id: UUID(), transcript: Transcript(), enabledTools: [], generationOptions: GenerationOptions(),
            contextOptions: ContextOptions(),
            metadata: [:])
        let executor = SystemLanguageModel.Executor(configuration: SystemLanguageModel.default.executorConfiguration)
        await #expect {
            try await executor.respond(to: request, model: .default, streamingInto: LanguageModelExecutorGenerationChannel())
        } throws: { error in
            guard case .assetsUnavailable = error as? LanguageModelSession.GenerationError else { return false }
            return true
        }
    }

    @Test("System models of one use case and guardrails share a configuration (and so an executor)")
    func systemConfiguration() {
        let backed = ScriptedLanguageModel([]).model
        #expect(backed.executorConfiguration == SystemLanguageModel.default.executorConfiguration)
        #expect(SystemLanguageModel(useCase: .contentTagging).executorConfiguration != SystemLanguageModel.default.executorConfiguration)
        #expect(
            SystemLanguageModel(guardrails: .permissiveContentTransformations).executorConfiguration
                != SystemLanguageModel.default.executorConfiguration)
    }

    @Test("A backend's partial answers stream through the executor as deltas, and the complete answer ends the stream")
    func partialAnswersThroughTheAdapter() async throws {
        let script = ScriptedLanguageModel([.streamedText(["The ", "sky ", "is ", "blue."])])
        let session = LanguageModelSession(model: script.model, dynamicInstructions: Instructions("Be brief."))
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: Prompt("Colour?"), contextOptions: ContextOptions()) {
            snapshots.append(snapshot.content)
        }
        #expect(snapshots.last == "The sky is blue.")
        for (earlier, later) in zip(snapshots, snapshots.dropFirst()) { #expect(later.hasPrefix(earlier)) }
        #expect(session.transcript.last?.text == "The sky is blue.")
    }
}
#endif
