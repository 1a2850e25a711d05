#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// Keeps only the most recent entries of the history in each request (as Apple's
/// foundation-models-utilities writes its rolling window: a modifier applied with `modifier(_:)`).
struct RollingWindow: LanguageModelSession.DynamicProfileModifier {
    let entries: Int

    func body(content: Content) -> some LanguageModelSession.DynamicProfile {
        content.historyTransform { history in
            Array(history.suffix(entries))
        }
    }
}

/// Leaves out tool calls and outputs that an answer already used, keeping the latest exchange.
struct DropCompletedToolCalls: LanguageModelSession.DynamicProfileModifier {
    func body(content: Content) -> some LanguageModelSession.DynamicProfile {
        content.historyTransform { history in
            let lastOutput =
                history.lastIndex { entry in
                    switch entry {
                    case .response, .toolCalls: true
                    default: false
                    }
                } ?? history.startIndex
            let completed = history.prefix(upTo: lastOutput).filter { entry in
                switch entry {
                case .toolCalls, .toolOutput: false
                default: true
                }
            }
            return completed + history.suffix(from: lastOutput)
        }
    }
}

extension LanguageModelSession.DynamicProfile {
    func rollingWindow(entries: Int) -> some LanguageModelSession.DynamicProfile {
        modifier(RollingWindow(entries: entries))
    }

    func droppingCompletedToolCalls() -> some LanguageModelSession.DynamicProfile {
        modifier(DropCompletedToolCalls())
    }
}

/// History transforms change what the model sees, never the session's transcript.
@Suite("27: history transforms")
struct HistoryTransformTests {
    @Test("A rolling window sends the last entries after the instructions; the transcript keeps everything", arguments: [1, 2, 3])
    func rollingWindow(_ size: Int) async throws {
        let model = ProviderModel([.text("One."), .text("Two."), .text("Three.")])
        let session = LanguageModelSession(
            profile: LanguageModelSession.Profile { Instructions("Be brief.") }.model(model).rollingWindow(entries: size))
        for prompt in ["First", "Second", "Third"] { try await session.respond(to: prompt) }
        let last = try #require(model.requests.last)
        let history = ["First", "One.", "Second", "Two.", "Third"]
        #expect(last.transcript.map(\.text) == ["Be brief."] + history.suffix(size))
        #expect(session.transcript.count == 7, "the session's transcript is not trimmed")
    }

    @Test("Completed tool calls are left out of later requests, the latest exchange kept whole")
    func dropCompletedToolCalls() async throws {
        let model = ProviderModel([.call("weather"), .text("Mild."), .call("weather"), .text("Still mild.")])
        let profile = LanguageModelSession.Profile { EchoTool("weather") { _ in "12°C" } }.model(model).droppingCompletedToolCalls()
        let session = LanguageModelSession(profile: profile)
        try await session.respond(to: "Weather?")
        try await session.respond(to: "And now?")
        let kinds = model.requests.map(\.transcript.kinds)
        #expect(kinds[1] == ["instructions", "prompt", "toolCalls", "toolOutput"], "the call in progress is kept")
        #expect(kinds[2] == ["instructions", "prompt", "response", "prompt"], "the completed call is gone")
        #expect(kinds[3] == ["instructions", "prompt", "response", "prompt", "toolCalls", "toolOutput"])
        #expect(
            session.transcript.kinds == [
                "instructions", "prompt", "toolCalls", "toolOutput", "response", "prompt", "toolCalls", "toolOutput", "response",
            ])
    }

    @Test("Transforms chain, innermost first: drop completed calls, then keep a window")
    func chained() async throws {
        let model = ProviderModel([.call("weather"), .text("Mild."), .text("Bye.")])
        let profile = LanguageModelSession.Profile { EchoTool("weather") }
            .model(model)
            .droppingCompletedToolCalls()
            .rollingWindow(entries: 3)
        let session = LanguageModelSession(profile: profile)
        try await session.respond(to: "Weather?")
        try await session.respond(to: "Thanks")
        // Dropped first: prompt, answer, prompt. Windowed first, the window would start at the tool output.
        #expect(model.requests.last?.transcript.map(\.text) == ["", "Weather?", "Mild.", "Thanks"])
    }

    @Test("historyTransform on a profile directly, filtering reasoning out of requests")
    func filteringReasoning() async throws {
        let model = ProviderModel([
            .events([.reasoning(action: .appendText("Hmm", tokenCount: 1)), .response(action: .appendText("A", tokenCount: 1))]),
            .text("B"),
        ])
        let profile = LanguageModelSession.Profile { Instructions("Hi.") }
            .model(model)
            .historyTransform { entries in entries.filter { if case .reasoning = $0 { false } else { true } } }
        let session = LanguageModelSession(profile: profile)
        try await session.respond(to: "One")
        try await session.respond(to: "Two")
        #expect(model.requests[1].transcript.kinds == ["instructions", "prompt", "response", "prompt"])
        #expect(session.transcript.kinds == ["instructions", "prompt", "reasoning", "response", "prompt", "response"])
    }
}
#endif
