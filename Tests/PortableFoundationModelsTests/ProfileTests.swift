#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// Option values at the three levels of precedence, and the value the request gets.
struct PrecedenceCase: Sendable, CustomTestStringConvertible {
    var callSite: Double?
    var inner: Double?
    var outer: Double?
    var expected: Double?

    var testDescription: String {
        "call site \(callSite.map { "\($0)" } ?? "nil"), inner \(inner.map { "\($0)" } ?? "nil"), outer \(outer.map { "\($0)" } ?? "nil")"
    }
}

/// A profile that switches on the app's state.
struct SwitchingProfile: LanguageModelSession.DynamicProfile {
    let model: ProviderModel
    let state: AppState
    let log: EventLog

    var body: some LanguageModelSession.DynamicProfile {
        if state["mode"] == 0 {
            Profile { Instructions("Chat.") }
                .model(model)
                .onActivate { log.add("activate chat") }
                .onDeactivate { log.add("deactivate chat") }
        } else {
            Profile { Instructions("Research.") }
                .model(model)
                .onActivate { log.add("activate research") }
                .onDeactivate { log.add("deactivate research") }
        }
    }
}

/// A profile inside another, each with callbacks.
struct InnerProfile: LanguageModelSession.DynamicProfile {
    let model: ProviderModel
    let tools: [any Tool]
    let log: EventLog

    var body: some LanguageModelSession.DynamicProfile {
        Profile { tools }
            .model(model)
            .onPrompt { prompt in log.add("inner prompt: \(Transcript.Entry.prompt(prompt).text)") }
            .onReasoning { log.add("inner reasoning") }
            .onToolCall { call in log.add("inner call \(call.toolName)") }
            .onToolOutput { call, output in log.add("inner output \(call.toolName)=\(Transcript.Entry.toolOutput(output).text)") }
            .onResponse { response in log.add("inner response \(Transcript.Entry.response(response).text)") }
    }
}

/// A modifier with a session property of its own, as Apple's article writes one.
struct TopicTracker: LanguageModelSession.DynamicProfileModifier {
    @SessionProperty(\.topic) var topic

    func body(content: Content) -> some LanguageModelSession.DynamicProfile {
        content.onPrompt { prompt in
            if Transcript.Entry.prompt(prompt).text.contains("travel") { topic = "travel" }
        }
    }
}

/// Dynamic profiles: modifiers, precedence, models, callbacks, tool calling modes.
@Suite("27: dynamic profiles and their modifiers")
struct ProfileTests {
    static let precedence: [PrecedenceCase] = [
        PrecedenceCase(callSite: nil, inner: 0.2, outer: 0.9, expected: 0.2),
        PrecedenceCase(callSite: 0.5, inner: 0.2, outer: 0.9, expected: 0.5),
        PrecedenceCase(callSite: nil, inner: nil, outer: 0.9, expected: 0.9),
        PrecedenceCase(callSite: 0.5, inner: nil, outer: nil, expected: 0.5),
        PrecedenceCase(callSite: nil, inner: nil, outer: nil, expected: nil),
    ]

    @Test("Call-site options win over the innermost modifier, which wins over the outer ones", arguments: precedence)
    func modifierPrecedence(_ test: PrecedenceCase) async throws {
        let model = ProviderModel([.text("ok")])
        let profile = LanguageModelSession.Profile { Instructions("Hi.") }
            .model(model)
            .temperature(test.inner)
            .maximumResponseTokens(test.inner.map { _ in 10 })
            .temperature(test.outer)
            .maximumResponseTokens(test.outer.map { _ in 99 })
        let session = LanguageModelSession(profile: profile)
        try await session.respond(to: Prompt("Go"), options: GenerationOptions(temperature: test.callSite))
        let options = try #require(model.requests.first).generationOptions
        #expect(options.temperature == test.expected)
        #expect(options.maximumResponseTokens == (test.inner != nil ? 10 : test.outer != nil ? 99 : nil))
    }

    @Test("Every setting modifier reaches the request")
    func settings() async throws {
        let model = ProviderModel([.text("ok")])
        let profile = LanguageModelSession.Profile { Instructions("Hi.") }
            .model(model)
            .samplingMode(.random(probabilityThreshold: 0.9, seed: 1))
            .reasoningLevel(.deep)
            .toolCallingMode(.allowed)
            .maximumResponseTokens(80)
        try await LanguageModelSession(profile: profile).respond(to: "Go")
        let request = try #require(model.requests.first)
        #expect(request.generationOptions.samplingMode?.kind == .randomProbabilityThreshold(0.9, seed: 1))
        #expect(request.generationOptions.toolCallingMode == .allowed)
        #expect(request.generationOptions.maximumResponseTokens == 80)
        #expect(request.contextOptions.reasoningLevel == .deep)
    }

    @Test("The innermost .model wins; a profile without one uses the system model")
    func modelModifier() async throws {
        let inner = ProviderModel([.text("inner")])
        let outer = ProviderModel([.text("outer")])
        let profile = InnerProfile(model: inner, tools: [], log: EventLog()).model(outer)
        #expect(try await LanguageModelSession(profile: profile).respond(to: "Who?").content == "inner")
        #expect(outer.requests.isEmpty)
        let bare = LanguageModelSession(profile: LanguageModelSession.Profile { Instructions("Hi.") })
        await #expect(throws: LanguageModelSession.GenerationError.self, "the system model has no backend here") {
            try await bare.respond(to: "Hi")
        }
    }

    @Test("Switching profiles runs the old profile's onDeactivate, then the new one's onActivate, before the request")
    func activation() async throws {
        let state = AppState()
        let log = EventLog()
        let model = ProviderModel([.text("1"), .text("2"), .text("3"), .text("4")])
        let session = LanguageModelSession(profile: SwitchingProfile(model: model, state: state, log: log))
        for mode in [0, 0, 1, 0] {
            state["mode"] = mode
            try await session.respond(to: "turn")
            log.add("responded")
        }
        #expect(
            log.events == [
                "activate chat", "responded", "responded",
                "deactivate chat", "activate research", "responded",
                "deactivate research", "activate chat", "responded",
            ])
        #expect(model.requests.map { $0.transcript.first?.text } == ["Chat.", "Chat.", "Research.", "Chat."])
    }

    @Test("Callbacks of nested profiles accumulate and run innermost first, in the order of the turn")
    func callbacks() async throws {
        let log = EventLog()
        let weather = EchoTool("weather") { _ in
            log.add("tool runs")
            return "mild"
        }
        let model = ProviderModel([
            .events([
                .reasoning(action: .appendText("Need weather.", tokenCount: 1)),
                .toolCalls(action: .toolCall(id: "1", name: "weather", action: .appendArguments("{}", tokenCount: 1))),
            ]),
            .text("Mild."),
        ])
        let profile = InnerProfile(model: model, tools: [weather], log: log)
            .onPrompt { log.add("outer prompt") }
            .onReasoning { reasoning in log.add("outer reasoning \(Transcript.Entry.reasoning(reasoning).text)") }
            .onToolCall { log.add("outer call") }
            .onToolOutput { log.add("outer output") }
            .onResponse { log.add("outer response") }
        try await LanguageModelSession(profile: profile).respond(to: "Weather?")
        #expect(
            log.events == [
                "inner prompt: Weather?", "outer prompt",
                "inner reasoning", "outer reasoning Need weather.",
                "inner call weather", "outer call",
                "tool runs",
                "inner output weather=mild", "outer output",
                "inner response Mild.", "outer response",
            ])
    }

    @Test("onToolCall runs once for each call of a round, onToolOutput once for each output")
    func callbacksPerCall() async throws {
        let model = ProviderModel([
            .events([
                .toolCalls(action: .toolCall(id: "a", name: "weather", action: .appendArguments(#"{"city":"Paris"}"#, tokenCount: 1))),
                .toolCalls(action: .toolCall(id: "b", name: "weather", action: .appendArguments(#"{"city":"Rome"}"#, tokenCount: 1))),
            ]),
            .text("Both mild."),
        ])
        let answer = try await confirmation("one onToolCall per call", expectedCount: 2) { called in
            try await confirmation("one onToolOutput per output", expectedCount: 2) { output in
                let profile = LanguageModelSession.Profile { EchoTool("weather") }
                    .model(model)
                    .onToolCall { called() }
                    .onToolOutput { output() }
                let response = try await LanguageModelSession(profile: profile).respond(to: "Paris and Rome?")
                return response.content
            }
        }
        #expect(answer == "Both mild.")
    }

    @Test("A throwing onToolCall vetoes the call: the tool does not run and the response ends with the callback's error")
    func toolCallVeto() async throws {
        let ran = EventLog()
        let danger = EchoTool("delete_everything") { _ in
            ran.add("ran")
            return "deleted"
        }
        struct Vetoed: Error {}
        let model = ProviderModel([.call("delete_everything"), .text("never")])
        let profile = LanguageModelSession.Profile { danger }
            .model(model)
            .onToolCall { call in if call.toolName == "delete_everything" { throw Vetoed() } }
        let session = LanguageModelSession(profile: profile)
        await #expect(throws: Vetoed.self) { try await session.respond(to: "Clean up") }
        #expect(ran.events.isEmpty)
        #expect(model.requests.count == 1)
    }

    @Test("A throwing onPrompt ends the response before the model is asked")
    func promptCallbackThrows() async throws {
        let model = ProviderModel([.text("never")])
        let session = LanguageModelSession(
            profile: LanguageModelSession.Profile { Instructions("Hi.") }.model(model).onPrompt { throw Boom() })
        await #expect(throws: Boom.self) { try await session.respond(to: "Hi") }
        #expect(model.requests.isEmpty)
    }

    @Test("A callback writes the history through @SessionProperty: onResponse keeps the last two entries")
    func callbackWritesHistory() async throws {
        struct Trimming: LanguageModelSession.DynamicProfile {
            let model: ProviderModel
            @SessionProperty(\.history) var history
            var body: some LanguageModelSession.DynamicProfile {
                Profile { Instructions("Be brief.") }
                    .model(model)
                    .onResponse {
                        if history.count > 2 { history.removeFirst(history.count - 2) }
                    }
            }
        }
        let model = ProviderModel([.text("One."), .text("Two.")])
        let session = LanguageModelSession(profile: Trimming(model: model))
        try await session.respond(to: "First")
        try await session.respond(to: "Second")
        #expect(session.transcript.kinds == ["instructions", "prompt", "response"])
        #expect(session.transcript.map(\.text) == ["Be brief.", "Second", "Two."])
        #expect(model.requests[1].transcript.kinds == ["instructions", "prompt", "response", "prompt"])
    }

    @Test("A modifier's own session property: onPrompt sets the topic")
    func modifierProperty() async throws {
        let model = ProviderModel([.text("ok")])
        let session = LanguageModelSession(
            profile: LanguageModelSession.Profile { Instructions("Hi.") }.model(model).modifier(TopicTracker()))
        try await session.respond(to: "Plan my travel")
        #expect(session.properties.topic == "travel")
    }

    @Test(".disallowed enables no tool; the call site's mode wins over the profile's")
    func toolCallingModes() async throws {
        let model = ProviderModel([.text("no tools"), .call("search"), .text("found")])
        let session = LanguageModelSession(
            profile: LanguageModelSession.Profile { EchoTool("search") }.model(model).toolCallingMode(.disallowed))
        try await session.respond(to: "Hi")
        #expect(toolNames(model.requests[0]).isEmpty)
        #expect(model.requests[0].generationOptions.toolCallingMode == .disallowed)
        try await session.respond(to: Prompt("Search"), options: GenerationOptions(toolCallingMode: .allowed))
        #expect(model.requests.dropFirst().map(toolNames) == [["search"], ["search"]])
        #expect(model.requests.dropFirst().map(\.generationOptions.toolCallingMode) == [.allowed, .allowed])
    }

    @Test("With .required, an answer without a tool call ends the response with ToolCallingModeViolation")
    func requiredButAnswered() async throws {
        let model = ProviderModel([.text("I just know.")])
        let session = LanguageModelSession(model: model, tools: [EchoTool("search")])
        let error = await #expect(throws: LanguageModelSession.ToolCallingModeViolation.self) {
            try await session.respond(to: Prompt("Search"), options: GenerationOptions(toolCallingMode: .required))
        }
        #expect(error.map { Transcript.Entry.response($0.response).text } == "I just know.")
        #expect(session.transcript.last?.text == "I just know.", "the answer stays under the default policy")
    }

    @Test(".required with an exit condition: the tool is called once, then the mode changes and the model answers")
    func requiredWithExit() async throws {
        let state = AppState()
        struct OneSearch: LanguageModelSession.DynamicProfile {
            let model: ProviderModel
            let state: AppState
            var body: some LanguageModelSession.DynamicProfile {
                Profile { EchoTool("search") }
                    .model(model)
                    .toolCallingMode(state["called"] == 1 ? .disallowed : .required)
                    .onToolCall { state["called"] = 1 }
            }
        }
        let model = ProviderModel([.call("search"), .text("Found it.")])
        let response = try await LanguageModelSession(profile: OneSearch(model: model, state: state)).respond(to: "Find")
        #expect(response.content == "Found it.")
        #expect(model.requests.map { $0.generationOptions.toolCallingMode } == [.required, .disallowed])
        #expect(model.requests.map(toolNames) == [["search"], []])
    }

    @Test("The profile is evaluated again between a tool's output and the follow-up: its model and tools follow the state")
    func reevaluatedAfterToolOutput() async throws {
        let state = AppState()
        struct Phases: LanguageModelSession.DynamicProfile {
            let planner: ProviderModel
            let writer: ProviderModel
            let state: AppState
            var body: some LanguageModelSession.DynamicProfile {
                if state["phase"] == 0 {
                    Profile {
                        EchoTool("plan") { _ in
                            state["phase"] = 1
                            return "planned"
                        }
                    }
                    .model(planner)
                } else {
                    Profile { EchoTool("write") }.model(writer)
                }
            }
        }
        let planner = ProviderModel([.call("plan")])
        let writer = ProviderModel([.text("Written.")])
        let session = LanguageModelSession(profile: Phases(planner: planner, writer: writer, state: state))
        #expect(try await session.respond(to: "Write a plan").content == "Written.")
        #expect(planner.requests.map(toolNames) == [["plan"]])
        #expect(writer.requests.map(toolNames) == [["write"]])
        #expect(writer.requests[0].transcript.kinds == ["instructions", "prompt", "toolCalls", "toolOutput"])
    }

    @Test("Type-erased profiles answer as the profiles they erase")
    func erasedProfiles() async throws {
        let model = ProviderModel([.text("one"), .text("two")])
        let erased = LanguageModelSession(profile: LanguageModelSession.AnyDynamicProfile(erasing: Self.greeting(model)))
        #expect(try await erased.respond(to: "A").content == "one")
        let fromExistential = LanguageModelSession(profile: Self.erasedGreeting(model), history: earlierHistory())
        #expect(try await fromExistential.respond(to: "B").content == "two")
        #expect(model.requests[1].transcript.kinds == ["instructions", "prompt", "response", "prompt"])
    }

    static func greeting(_ model: ProviderModel) -> some LanguageModelSession.DynamicProfile {
        LanguageModelSession.Profile { Instructions("Hi.") }.model(model)
    }

    /// The greeting, erased from an existential.
    static func erasedGreeting(_ model: ProviderModel) -> LanguageModelSession.AnyDynamicProfile {
        let existential: any LanguageModelSession.DynamicProfile = greeting(model)
        return LanguageModelSession.AnyDynamicProfile(existential)
    }

    /// A history carried over from another session.
    private func earlierHistory() -> [Transcript.Entry] {
        [
            .prompt(Transcript.Prompt(segments: [.text(.init(content: "Earlier"))])),
            .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Before."))])),
        ]
    }
}
#endif
