#if !canImport(FoundationModels)
// PortableFoundationModels is empty where Apple's FoundationModels exists, and its API carries
// no availability of its own, so these tests build wherever the portable module has content.
import Foundation
import PortableFoundationModels
import Testing

/// The chat-template framing each rendered piece costs (documented on the session's counts).
private let framing = 4

/// A text of about 500 estimated tokens, more than a 300-token context holds.
private let longText = String(repeating: "The weather in Paris is mild today, with a light breeze. ", count: 40)

/// A backend that says nothing about its context or tokens.
private struct PlainBackend: LanguageModelBackend {
    func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn { .text("ok") }
}

/// The message of an `exceededContextWindowSize` error, or `nil` for any other error.
private func overflowMessage(_ error: (any Error)?) -> String? {
    guard case .exceededContextWindowSize(let context)? = error as? LanguageModelSession.GenerationError else { return nil }
    return context.debugDescription
}

private func overflow(_ tokens: Int, _ size: Int) -> String {
    "Content contains \(tokens) tokens, which exceeds the maximum allowed context size of \(size)."
}

/// What makes a turn overflow a 300-token context.
enum OverflowCause: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case prompt, toolOutput, answer

    var testDescription: String { rawValue }

    /// A script (whose later steps answer anything asked after the overflow), the session's tools
    /// and the prompt that overflows.
    func setUp() throws -> (ScriptedLanguageModel, [any Tool], String) {
        let weather = try cityTool { city in self == .toolOutput ? longText : "12°C in \(city)" }
        let steps: [ScriptedLanguageModel.Step] =
            switch self {
            case .prompt: [.text("Hello"), .text("Hello")]
            case .toolOutput:
                [.callTool("get_weather", arguments: GeneratedContent(properties: ["city": "Paris"])), .text("Mild"), .text("Hi")]
            case .answer: [.text(longText), .text("Hi")]
            }
        return (ScriptedLanguageModel(steps, contextSize: 300), [weather], self == .prompt ? longText : "Weather in Paris?")
    }
}

@Suite("Context size and token counts")
struct ContextTests {
    // MARK: contextSize

    @Test("contextSize defaults to 4096")
    func defaultContextSize() {
        #expect(SystemLanguageModel.default.contextSize == 4096)
        #expect(SystemLanguageModel(useCase: .contentTagging).contextSize == 4096)
        #expect(SystemLanguageModel(backend: PlainBackend()).contextSize == 4096)
        #expect(ScriptedLanguageModel([]).model.contextSize == 4096)
        #expect(ScriptedLanguageModel([], contextSize: 300).model.contextSize == 300)
        #expect(ScriptedLanguageModel(contextSize: 8192) { _ in .text("ok") }.model.contextSize == 8192)
    }

    // MARK: tokenCount(for:)

    static let models: [SystemLanguageModel] = [
        SystemLanguageModel.default, SystemLanguageModel(backend: PlainBackend()), ScriptedLanguageModel([]).model,
    ]

    @Test("Every tokenCount(for:) overload counts something", arguments: models)
    func overloadsArePositive(_ model: SystemLanguageModel) async throws {
        let weather = try cityTool { $0 }
        #expect(try await model.tokenCount(for: "What is the weather in Paris?") > framing)
        #expect(try await model.tokenCount(for: Prompt("What is the weather in Paris?")) > framing)
        #expect(try await model.tokenCount(for: Instructions("Answer in one sentence.")) > framing)
        #expect(try await model.tokenCount(for: [weather]) > framing)
        #expect(try await model.tokenCount(for: weather.parameters) > framing)
        let entries: [Transcript.Entry] = [.prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))]))]
        #expect(try await model.tokenCount(for: entries) > framing)
        #expect(try await model.tokenCount(for: Transcript(entries: entries)) == model.tokenCount(for: entries))
        #expect(try await model.tokenCount(for: [] as [Transcript.Entry]) == 0)
    }

    @Test("A model without a backend counts with the portable estimate")
    func noBackendUsesTheEstimate() async throws {
        let text = "Summarize the forecast for the week."
        #expect(try await SystemLanguageModel.default.tokenCount(for: text) == TokenEstimator.tokenCount(for: text) + framing)
    }

    @Test("Counts render what the model reads", arguments: [false, true])
    func rendering(_ includesSchema: Bool) async throws {
        // A counter of characters shows exactly which text each count reads.
        let model = ScriptedLanguageModel([], tokenCounter: { $0.count }).model
        let tool = try cityTool { $0 }
        let schemaJSON = try encodeSorted(tool.parameters)
        #expect(try await model.tokenCount(for: "Hello") == 5 + framing)
        #expect(try await model.tokenCount(for: Instructions("Be brief.")) == 9 + framing)
        #expect(try await model.tokenCount(for: Instructions("")) == 0)
        #expect(try await model.tokenCount(for: tool.parameters) == schemaJSON.count + framing)
        let definition =
            includesSchema
            ? #"{"name":"get_weather","description":"A test tool","parameters":\#(schemaJSON)}"#
            : #"{"name":"get_weather","description":"A test tool"}"#
        let tools: [any Tool] = includesSchema ? [tool] : [SchemaFreeTool(base: tool)]
        #expect(try await model.tokenCount(for: tools) == definition.count + framing)
        let call = Transcript.ToolCall(id: "1", toolName: "get_weather", arguments: GeneratedContent(properties: ["city": "Paris"]))
        let entries: [Transcript.Entry] = [
            .toolCalls(Transcript.ToolCalls([call])),
            .toolOutput(Transcript.ToolOutput(id: "1", toolName: "get_weather", segments: [.text(.init(content: "12°C"))])),
            .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Mild."))])),
        ]
        let callText = #"{"name":"get_weather","arguments":{"city":"Paris"}}"#
        #expect(try await model.tokenCount(for: entries) == callText.count + 4 + 5 + 3 * framing)
    }

    @Test("The parts add up to the whole", arguments: models)
    func partsAddUp(_ model: SystemLanguageModel) async throws {
        let weather = try cityTool { $0 }
        let instructions = Instructions("Answer in one sentence. Use the weather tool for live data.")
        let prompt = Prompt("What is the weather in Paris this week?")
        let schema = try objectSchema("Forecast", [.init(name: "summary", schema: DynamicGenerationSchema(type: String.self))])
        let whole: [Transcript.Entry] = [
            .instructions(
                Transcript.Instructions(
                    segments: [.text(.init(content: "Answer in one sentence. Use the weather tool for live data."))],
                    toolDefinitions: [Transcript.ToolDefinition(tool: weather)])),
            .prompt(
                Transcript.Prompt(
                    segments: [.text(.init(content: "What is the weather in Paris this week?"))],
                    responseFormat: Transcript.ResponseFormat(schema: schema))),
        ]
        let parts =
            try await model.tokenCount(for: instructions) + model.tokenCount(for: [weather])
            + model.tokenCount(for: prompt) + model.tokenCount(for: schema)
        #expect(try await model.tokenCount(for: whole) == parts)
    }

    @Test("A session's transcript counts entry by entry")
    func transcriptAddsUp() async throws {
        let weather = try cityTool { city in "12°C in \(city)" }
        let script = ScriptedLanguageModel([
            .callTool("get_weather", arguments: GeneratedContent(properties: ["city": "Paris"])),
            .text("It is 12°C in Paris."),
        ])
        let session = LanguageModelSession(model: script.model, tools: [weather], instructions: "Be brief.")
        try await session.respond(to: "Weather in Paris?")
        let transcript = session.transcript
        #expect(transcript.count == 5)
        var sum = 0
        for entry in transcript { sum += try await script.model.tokenCount(for: [entry]) }
        #expect(try await script.model.tokenCount(for: transcript) == sum)
    }

    // MARK: The session's context

    @Test("A long prompt overflows a 300-token context")
    func longPrompt() async throws {
        let script = ScriptedLanguageModel([.text("never")], contextSize: 300)
        let session = LanguageModelSession(model: script.model, instructions: "Be brief.")
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: longText)
        }
        let tokens = try await script.model.tokenCount(for: session.transcript)
        #expect(tokens > 300)
        #expect(overflowMessage(error) == overflow(tokens, 300))
        #expect(error?.errorDescription?.contains(overflow(tokens, 300)) == true)
        #expect(script.requests.isEmpty, "the model is not asked")
        #expect(!session.isResponding)
    }

    @Test("A request that fits exactly is sent")
    func exactFit() async throws {
        let probe = ScriptedLanguageModel([], tokenCounter: { $0.count }).model
        let size = try await probe.tokenCount(for: "1234567890")
        let script = ScriptedLanguageModel([.text("")], contextSize: size + framing, tokenCounter: { $0.count })
        let session = LanguageModelSession(model: script.model)
        #expect(try await session.respond(to: "1234567890").content == "")
        let tight = ScriptedLanguageModel([.text("")], contextSize: size - 1, tokenCounter: { $0.count })
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await LanguageModelSession(model: tight.model).respond(to: "1234567890")
        }
    }

    @Test("A large tool output overflows in the middle of a turn")
    func largeToolOutput() async throws {
        let (script, tools, prompt) = try OverflowCause.toolOutput.setUp()
        let session = LanguageModelSession(model: script.model, tools: tools, instructions: "Use tools.")
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: prompt)
        }
        let tokens = try await script.model.tokenCount(for: session.transcript)
        #expect(overflowMessage(error) == overflow(tokens, 300))
        #expect(script.requests.count == 1, "the first request fit; the one with the tool output was not sent")
        // The turn's prompt, tool call and output stay in the transcript.
        let kinds = session.transcript.map { entry -> String in
            switch entry {
            case .instructions: "instructions"
            case .prompt: "prompt"
            case .toolCalls: "toolCalls"
            case .toolOutput: "toolOutput"
            case .response: "response"
            default: "other"
            }
        }
        #expect(kinds == ["instructions", "prompt", "toolCalls", "toolOutput"])
        #expect(!session.isResponding)
    }

    @Test("An answer that does not fit overflows")
    func longAnswer() async throws {
        let (script, tools, prompt) = try OverflowCause.answer.setUp()
        let session = LanguageModelSession(model: script.model, tools: tools)
        let before = try await script.model.tokenCount(for: session.transcript) + script.model.tokenCount(for: prompt)
        #expect(before < 300, "the request itself fits")
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: prompt)
        }
        let tokens = try await script.model.tokenCount(for: session.transcript)
        #expect(tokens > 300)
        #expect(overflowMessage(error) == overflow(tokens, 300))
        #expect(script.requests.count == 1)
        if case .response(let answer)? = session.transcript.last {
            #expect(answer.segments == [.text(.init(id: answer.segments.first?.id ?? "", content: longText))])
        } else {
            Issue.record("the answer that overflowed stays in the transcript")
        }
        #expect(!session.isResponding)
    }

    @Test("A structured request counts its response schema")
    func schemaCounts() async throws {
        let schema = try objectSchema("Forecast", [.init(name: "summary", schema: DynamicGenerationSchema(type: String.self))])
        let schemaJSON = try encodeSorted(schema)
        let script = ScriptedLanguageModel([.text("never")], contextSize: 20, tokenCounter: { $0.count })
        let session = LanguageModelSession(model: script.model)
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: "Hi", schema: schema)
        }
        #expect(overflowMessage(error) == overflow(2 + framing + schemaJSON.count + framing, 20))
    }

    @Test("An overflowed session keeps failing", arguments: OverflowCause.allCases)
    func overflowedSessionKeepsFailing(_ cause: OverflowCause) async throws {
        let (script, tools, prompt) = try cause.setUp()
        let session = LanguageModelSession(model: script.model, tools: tools, instructions: "Be brief.")
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: prompt)
        }
        let asked = script.requests.count
        for _ in 0..<2 {
            let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
                try await session.respond(to: "Hi")
            }
            let tokens = try await script.model.tokenCount(for: session.transcript)
            #expect(overflowMessage(error) == overflow(tokens, 300))
            #expect(!session.isResponding)
        }
        #expect(script.requests.count == asked, "an overflowed session does not ask its model again")
    }

    @Test("A new session from a shortened transcript responds again", arguments: OverflowCause.allCases)
    func shortenedTranscriptWorks(_ cause: OverflowCause) async throws {
        let (script, tools, prompt) = try cause.setUp()
        let session = LanguageModelSession(model: script.model, tools: tools, instructions: "Be brief.")
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: prompt)
        }
        // Keep the instructions and a summary of what happened.
        var entries = session.transcript.filter { if case .instructions = $0 { true } else { false } }
        entries.append(.response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "We talked about Paris."))])))
        let fresh = LanguageModelSession(model: script.model, tools: tools, transcript: Transcript(entries: entries))
        let response = try await fresh.respond(to: "Hi")
        #expect(!response.content.isEmpty)
        #expect(fresh.transcript.count == entries.count + 2)
    }

    @Test("A custom token counter decides what fits")
    func customCounter() async throws {
        // Counting one token per text, a long prompt fits.
        let lenient = ScriptedLanguageModel([.text("ok")], contextSize: 300, tokenCounter: { _ in 1 })
        #expect(try await LanguageModelSession(model: lenient.model).respond(to: longText).content == "ok")
        #expect(try await lenient.model.tokenCount(for: longText) == 1 + framing)
        // Counting a token per character, a 300-character prompt does not.
        let strict = ScriptedLanguageModel([.text("ok")], contextSize: 300, tokenCounter: { $0.count })
        let prompt = String(repeating: "x", count: 300)
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await LanguageModelSession(model: strict.model).respond(to: prompt)
        }
        #expect(overflowMessage(error) == overflow(300 + framing, 300))
    }

    @Test("Streaming overflows the same way")
    func streaming() async throws {
        let script = ScriptedLanguageModel([.text("never"), .text("never")], contextSize: 300)
        let session = LanguageModelSession(model: script.model)
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            for try await _ in session.streamResponse(to: longText) {}
        }
        let tokens = try await script.model.tokenCount(for: session.transcript)
        #expect(overflowMessage(error) == overflow(tokens, 300))
        #expect(!session.isResponding)
        let again = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.streamResponse(to: "Hi").collect()
        }
        #expect(overflowMessage(again) != nil)
        #expect(!session.isResponding)
        #expect(script.requests.isEmpty)
    }
}

/// A tool whose schema is not put in the instructions.
private struct SchemaFreeTool: Tool {
    let base: ClosureTool
    var name: String { base.name }
    var description: String { base.description }
    var parameters: GenerationSchema { base.parameters }
    var includesSchemaInInstructions: Bool { false }
    func call(arguments: GeneratedContent) async throws -> String { try await base.call(arguments: arguments) }
}
#endif
