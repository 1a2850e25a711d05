#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// The topic of a conversation, as a custom session property (written the long way: the
/// `@SessionPropertyEntry` macro needs swift-syntax).
struct TopicKey: SessionPropertyKey {
    static let defaultValue = "general"
}

extension SessionPropertyValues {
    var topic: String {
        get { self[TopicKey.self] }
        set { self[TopicKey.self] = newValue }
    }
}

/// Instructions whose tools follow the app's state.
struct StatefulInstructions: DynamicInstructions {
    let state: AppState
    let evaluations: EventLog
    @SessionProperty(\.history) var history
    @SessionProperty(\.topic) var topic

    var body: some DynamicInstructions {
        let _ = evaluations.add("history \(history.count)")
        Instructions("Topic: \(topic).")
        if state["stage"] == 0 {
            EchoTool("lookup") { _ in
                state["stage"] = 1
                return "looked up"
            }
        } else {
            EchoTool("summarize")
        }
    }
}

/// Every builder form in one body.
struct EveryForm: DynamicInstructions {
    struct Source: Identifiable {
        let id: String
    }

    var expert: Bool
    var persona: String?
    var note: Instructions?
    var extra: [any Tool]

    var body: some DynamicInstructions {
        Instructions {
            "You help."
            "Be exact."
        }
        EchoTool("search")
        extra
        if expert {
            Instructions("Expert mode.")
        }
        if let persona {
            Instructions("As \(persona).")
        } else {
            Instructions("Neutral.")
        }
        note
        ForEach([Source(id: "a"), Source(id: "b")]) { source in
            Instructions("Source \(source.id).")
        }
        ForEach(["x", "y"], id: \.self) { tag in
            Instructions("Tag \(tag).")
        }
        AnyDynamicInstructions(erasing: Instructions("Erased."))
        EmptyDynamicInstructions()
        if #available(macOS 27, iOS 27, *) {
            Instructions("Available.")
        }
    }
}

/// Dynamic instructions: evaluated before every model request, tools included.
@Suite("27: dynamic instructions")
struct DynamicInstructionsTests {
    @Test("The body is evaluated before every request, the follow-up after a tool's output included, and its tools change with it")
    func reevaluatedPerRequest() async throws {
        let state = AppState()
        let evaluations = EventLog()
        let model = ProviderModel([.call("lookup"), .text("Summarized."), .call("summarize"), .text("Done.")])
        let session = LanguageModelSession(model: model, dynamicInstructions: StatefulInstructions(state: state, evaluations: evaluations))
        try await session.respond(to: "Look it up")
        #expect(model.requests.map(toolNames) == [["lookup"], ["summarize"]], "the tool's output changed the tools of the follow-up")
        #expect(evaluations.events == ["history 1", "history 3"], "once per request, after the prompt and after the tool output")
        try await session.respond(to: "Summarize")
        #expect(model.requests.map(toolNames) == [["lookup"], ["summarize"], ["summarize"], ["summarize"]])
        #expect(evaluations.events.count == 4)
    }

    @Test("The evaluated instructions become the leading instructions entry, kept while they do not change")
    func instructionsEntry() async throws {
        let state = AppState()
        let model = ProviderModel([.text("One."), .text("Two."), .text("Three.")])
        let session = LanguageModelSession(model: model, dynamicInstructions: StatefulInstructions(state: state, evaluations: EventLog()))
        #expect(session.transcript.isEmpty, "nothing is evaluated before the first request")
        try await session.respond(to: "First")
        let first = try #require(session.transcript.first)
        #expect(first.text == "Topic: general.")
        guard case .instructions(let instructions) = first else { return }
        #expect(instructions.toolDefinitions.map(\.name) == ["lookup"])
        try await session.respond(to: "Second")
        #expect(session.transcript.first?.id == first.id, "unchanged instructions keep their entry")
        session.properties.topic = "travel"
        try await session.respond(to: "Third")
        #expect(session.transcript.first?.text == "Topic: travel.")
        #expect(session.transcript.first?.id != first.id)
        #expect(model.requests[2].transcript.first?.text == "Topic: travel.")
        #expect(session.transcript.kinds == ["instructions", "prompt", "response", "prompt", "response", "prompt", "response"])
    }

    @Test("Tools, tool arrays, if, if/else, optionals, ForEach (both forms), type erasure and availability build one set of instructions")
    func builderForms() async throws {
        let model = ProviderModel([.text("ok"), .text("ok")])
        let instructions = EveryForm(
            expert: true, persona: nil, note: Instructions("Note."), extra: [EchoTool("calculate"), EchoTool("search")])
        let session = LanguageModelSession(model: model, dynamicInstructions: instructions)
        try await session.respond(to: "Go")
        let request = try #require(model.requests.first)
        #expect(toolNames(request) == ["search", "calculate"], "a tool listed twice counts once")
        #expect(
            request.transcript.first?.text
                == [
                    "You help.", "Be exact.", "Expert mode.", "Neutral.", "Note.", "Source a.", "Source b.", "Tag x.", "Tag y.", "Erased.",
                    "Available.",
                ].joined(separator: "|"))
        let plain = LanguageModelSession(
            model: model, dynamicInstructions: EveryForm(expert: false, persona: "a pilot", note: nil, extra: []))
        try await plain.respond(to: "Go")
        #expect(model.requests[1].transcript.first?.text.hasPrefix("You help.|Be exact.|As a pilot.|Source a.") == true)
    }

    @Test("Session properties: a custom key's default and value, read in a body and written from the app")
    func customProperty() async throws {
        let model = ProviderModel([.text("ok")])
        let session = LanguageModelSession(
            model: model, dynamicInstructions: StatefulInstructions(state: AppState(), evaluations: EventLog()))
        #expect(session.properties.topic == "general")
        session.properties[TopicKey.self] = "maps"
        #expect(session.properties.topic == "maps")
        try await session.respond(to: "Hi")
        #expect(model.requests[0].transcript.first?.text == "Topic: maps.")
        // Another session has its own values.
        let other = LanguageModelSession(model: model)
        #expect(other.properties.topic == "general")
    }

    @Test("A tool reads the session's history through @SessionProperty; its writes are ignored")
    func toolReadsHistory() async throws {
        struct HistoryTool: Tool {
            let name = "history"
            let description = "Counts entries"
            var parameters: GenerationSchema { GeneratedContent.generationSchema }
            @SessionProperty(\.history) var history

            func call(arguments: GeneratedContent) async throws -> String {
                let count = history.count
                history = []
                return "\(count) entries"
            }
        }
        let model = ProviderModel([.call("history"), .text("ok")])
        let session = LanguageModelSession(model: model, tools: [HistoryTool()])
        try await session.respond(to: "How long?")
        #expect(session.transcript.first { $0.kind == "toolOutput" }?.text == "2 entries")
        #expect(session.transcript.kinds == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
        // Outside a session, the wrapper reads defaults.
        #expect(HistoryTool().history.isEmpty)
    }
}
#endif
