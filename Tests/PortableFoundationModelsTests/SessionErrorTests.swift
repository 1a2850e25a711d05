#if !canImport(FoundationModels)
import Foundation
@_spi(Portable) import PortableFoundationModels
import Testing

/// An executor step that signals when it starts, then waits for the test to let it go on.
final class Pause: Sendable {
    let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
    let (resume, resumeSignal) = AsyncStream.makeStream(of: Void.self)

    /// Waits until the step started.
    func waitUntilStarted() async {
        for await _ in started { return }
    }

    /// Lets the step go on.
    func proceed() {
        resumeSignal.yield()
    }

    /// A step that pauses, then sends `events`.
    func step(then events: [Channel.Event]) -> Step {
        Step { _, channel in
            self.startedSignal.yield()
            for await _ in self.resume { break }
            for event in events { await channel.send(event) }
        }
    }
}

/// Errors of a 27 session: its own, a provider's, a tool's, and what the transcript keeps.
@Suite("27: errors, the transcript error policy and cancellation")
struct SessionErrorTests {
    @Test("A second request while responding fails with LanguageModelSession.Error.concurrentRequests")
    func concurrentRequests() async throws {
        let pause = Pause()
        let model = ProviderModel([pause.step(then: [.response(action: .appendText("first", tokenCount: 1))])])
        let session = LanguageModelSession(model: model)
        async let first = session.respond(to: "first")
        await pause.waitUntilStarted()
        #expect(session.isResponding)
        await #expect(throws: LanguageModelSession.Error.concurrentRequests) {
            try await session.respond(to: "second")
        }
        pause.proceed()
        #expect(try await first.content == "first")
        #expect(session.transcript.kinds == ["prompt", "response"])
    }

    /// How the app writes the transcript.
    enum TranscriptWrite: String, CaseIterable, Sendable {
        case transcript, historyProperty
    }

    @Test(
        "Writing the transcript while responding ends the response with transcriptMutationWhileResponding; the written transcript stays",
        arguments: TranscriptWrite.allCases)
    func mutationWhileResponding(_ write: TranscriptWrite) async throws {
        let pause = Pause()
        let model = ProviderModel([pause.step(then: [.response(action: .appendText("late", tokenCount: 1))]), .text("fine")])
        let session = LanguageModelSession(model: model)
        session.transcriptErrorHandlingPolicy = .revertTranscript
        let response = Task { try await session.respond(to: "Hi") }
        await pause.waitUntilStarted()
        let summary = Transcript.Entry.response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Summary."))]))
        switch write {
        case .transcript: session.transcript = Transcript(entries: [summary])
        case .historyProperty: session.properties.history = [summary]
        }
        pause.proceed()
        await #expect(throws: LanguageModelSession.Error.transcriptMutationWhileResponding) {
            try await response.value
        }
        #expect(session.transcript == Transcript(entries: [summary]), "neither the late answer nor a revert touches what the app wrote")
        // Outside a response, the transcript can be changed freely.
        session.transcript.append(.prompt(Transcript.Prompt(segments: [.text(.init(content: "Added"))])))
        session.transcript.history.removeAll()
        #expect(session.transcript.isEmpty)
        #expect(try await session.respond(to: "Again").content == "fine")
    }

    /// Where a policy is set: on the session, by a profile modifier, or nowhere.
    enum PolicySource: String, CaseIterable, Sendable {
        case none, sessionRevert, sessionPreserve, modifierRevert, modifierOverSession
    }

    @Test("A failed response reverts or preserves the transcript as the policy says", arguments: PolicySource.allCases)
    func errorPolicy(_ source: PolicySource) async throws {
        let failing = EchoTool("fail") { _ in throw Boom() }
        let script = ProviderScript([.text("first answer"), .call("fail")])
        let model = ProviderModel(script: script)
        let session: LanguageModelSession
        switch source {
        case .none, .sessionRevert, .sessionPreserve:
            session = LanguageModelSession(model: model, tools: [failing])
            if source == .sessionRevert { session.transcriptErrorHandlingPolicy = .revertTranscript }
            if source == .sessionPreserve { session.transcriptErrorHandlingPolicy = .preserveTranscript }
        case .modifierRevert, .modifierOverSession:
            session = LanguageModelSession(
                profile: LanguageModelSession.Profile { [failing] as [any Tool] }.model(model).transcriptErrorHandlingPolicy(
                    .revertTranscript))
            if source == .modifierOverSession { session.transcriptErrorHandlingPolicy = .preserveTranscript }
        }
        try await session.respond(to: "One")
        let before = session.transcript
        let error = await #expect(throws: LanguageModelSession.ToolCallError.self) {
            try await session.respond(to: "Two")
        }
        #expect(error?.tool.name == "fail")
        #expect(error?.underlyingError is Boom)
        let reverts = source == .sessionRevert || source == .modifierRevert || source == .modifierOverSession
        if reverts {
            #expect(session.transcript == before)
        } else {
            #expect(Array(session.transcript.dropFirst(before.count)).map(\.kind) == ["prompt", "toolCalls"])
        }
        #expect(!session.isResponding)
    }

    static let providerErrors: [LanguageModelError] = [
        .contextSizeExceeded(.init(contextSize: 8192, tokenCount: 9000, debugDescription: "too long")),
        .rateLimited(.init(resetDate: Date(timeIntervalSince1970: 0), debugDescription: "429")),
        .guardrailViolation(.init(debugDescription: "flagged", metadata: ["category": "x"])),
        .refusal(.init(debugDescription: "no")),
        .unsupportedTranscriptContent(.init(unsupportedContent: [], debugDescription: "image")),
        .unsupportedGenerationGuide(.init(schemaName: "Forecast", debugDescription: "pattern")),
        .unsupportedLanguageOrLocale(.init(languageCode: Locale.LanguageCode("xx"), debugDescription: "xx")),
        .timeout(.init(debugDescription: "slow")),
    ]

    @Test("A provider's LanguageModelError reaches the caller unchanged", arguments: providerErrors)
    func providerErrorPassesThrough(_ thrown: LanguageModelError) async throws {
        let model = ProviderModel([.fail(thrown)])
        let session = LanguageModelSession(model: model)
        let error = await #expect(throws: LanguageModelError.self) { try await session.respond(to: "Hi") }
        #expect(error?.debugDescription == thrown.debugDescription)
        #expect(error?.errorDescription?.isEmpty == false)
        #expect(!session.isResponding)
    }

    @Test("A refusal explains itself with the provider's explanation, awaited and streamed; without one it throws the refusal")
    func refusalExplanation() async throws {
        let explained = LanguageModelError.Refusal(debugDescription: "declined", explanation: "I can't help with that.")
        #expect(try await explained.explanation.content == "I can't help with that.")
        #expect(try await explained.explanationStream.collect().content == "I can't help with that.")
        let silent = LanguageModelError.Refusal(debugDescription: "declined")
        await #expect(throws: LanguageModelError.self) { _ = try await silent.explanation }
    }

    @Test("An answer that is not JSON for the schema fails with a ParsingError carrying the raw text")
    func unparsableAnswer() async throws {
        let model = ProviderModel([.text("about twelve")])
        let session = LanguageModelSession(model: model)
        let error = await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session.respond(to: Prompt("Count"), generating: [Int].self, contextOptions: ContextOptions())
        }
        #expect(error?.rawContent == "about twelve")
    }

    @Test("A model that ends its turn with nothing but reasoning fails with a ParsingError")
    func noAnswer() async throws {
        let model = ProviderModel([.events([.reasoning(action: .appendText("Hmm", tokenCount: 1))])])
        await #expect(throws: GeneratedContent.ParsingError.self) {
            try await LanguageModelSession(model: model).respond(to: "Hi")
        }
    }

    @Test("A call to a tool the request did not enable fails the response")
    func unknownTool() async throws {
        let model = ProviderModel([.call("delete_everything")])
        let session = LanguageModelSession(model: model, tools: [EchoTool("search")])
        let error = await #expect(throws: GeneratedContent.ParsingError.self) { try await session.respond(to: "Hi") }
        #expect(error?.debugDescription.contains("'delete_everything'") == true)
    }

    @Test("Cancelling a response cancels the executor's request and ends respond with CancellationError")
    func cancellation() async throws {
        let ended = EventLog()
        let started = Pause()
        let model = ProviderModel([
            Step { _, channel in
                await channel.send(.response(action: .appendText("partial", tokenCount: 1)))
                started.startedSignal.yield()
                // Waits until its task is cancelled.
                let (never, keep) = AsyncStream.makeStream(of: Void.self)
                for await _ in never {}
                keep.finish()
                ended.add("cancelled: \(Task.isCancelled)")
                throw CancellationError()
            },
            .text("after"),
        ])
        let session = LanguageModelSession(model: model)
        let task = Task { try await session.respond(to: "Long") }
        await started.waitUntilStarted()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ended.events == ["cancelled: true"], "the executor's request ended before respond did")
        #expect(!session.isResponding)
        #expect(try await session.respond(to: "Next").content == "after")
    }
}
#endif
