#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// The 27 transcript and option values, outside a session.
@Suite("27: transcript pieces, options and schema names")
struct Transcript27Tests {
    static let prompt = Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "Hi"))]))
    static let answer = Transcript.Entry.response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Hello"))]))
    static let thought = Transcript.Entry.reasoning(
        Transcript.Reasoning(
            metadata: ["effort": "low"], segments: [.text(.init(content: "Greeting."))], signature: Data([1, 2])))
    static let instructions = Transcript.Entry.instructions(
        Transcript.Instructions(segments: [.text(.init(content: "Be brief."))], toolDefinitions: []))

    @Test("A transcript is mutable entry by entry and range by range")
    func mutableTranscript() {
        var transcript = Transcript()
        transcript.append(Self.instructions)
        transcript.append(contentsOf: [Self.prompt, Self.answer])
        transcript.replaceSubrange(2..<3, with: [Self.thought, Self.answer])
        #expect(transcript.kinds == ["instructions", "prompt", "reasoning", "response"])
        transcript[1] = Self.answer
        transcript.remove(at: 2)
        #expect(transcript.kinds == ["instructions", "response", "response"])
    }

    @Test("history is the entries after the leading instructions, as a view that writes back")
    func historyView() {
        var transcript = Transcript(entries: [Self.instructions, Self.prompt, Self.answer])
        var history = transcript.history
        #expect(history.map(\.kind) == ["prompt", "response"])
        #expect(history.startIndex == 0)
        history.append(Self.thought)
        history.replaceSubrange(0..<1, with: [Self.answer])
        history[history.startIndex] = Self.prompt
        transcript.history = history
        #expect(transcript.kinds == ["instructions", "prompt", "response", "reasoning"])
        transcript.history = [Self.answer]
        #expect(transcript.kinds == ["instructions", "response"])
        var bare = Transcript(entries: [Self.prompt])
        #expect(bare.history.count == 1, "without instructions, the history is everything")
        bare.history.removeAll()
        #expect(bare.isEmpty)
    }

    @Test("The JSON form keeps reasoning, attachments, metadata, context options and the tool-calling mode")
    func codable27() throws {
        var prompt = Transcript.Prompt(
            segments: [
                .text(.init(content: "What is this?")),
                .attachment(
                    Transcript.AttachmentSegment(
                        content: .image(Transcript.ImageAttachment(data: Data([0x89, 0x50]), contentType: "image/png")), label: "photo")),
            ],
            options: GenerationOptions(samplingMode: .greedy, toolCallingMode: .required))
        prompt.contextOptions = ContextOptions(includeSchemaInPrompt: false, reasoningLevel: .custom("max"))
        prompt.metadata = ["traceID": GeneratedContent("t-1")]
        var call = Transcript.ToolCall(id: "c1", toolName: "look", arguments: GeneratedContent(properties: ["q": "x"]))
        call.metadata = ["index": GeneratedContent(0)]
        var response = Transcript.Response(assetIDs: ["a"], segments: [.text(.init(content: "A photo."))])
        response.metadata = ["model": GeneratedContent("m-1")]
        let transcript = Transcript(entries: [
            .prompt(prompt), Self.thought, .toolCalls(Transcript.ToolCalls([call])), .response(response),
        ])
        let decoded = try JSONDecoder().decode(Transcript.self, from: try JSONEncoder().encode(transcript))
        #expect(decoded == transcript)
        guard case .prompt(let restored)? = decoded.first else {
            Issue.record("no prompt in \(decoded)")
            return
        }
        #expect(restored.options.toolCallingMode == .required)
        #expect(restored.contextOptions.reasoningLevel == .custom("max"))
    }

    @Test("A tool definition's parameters are readable and settable")
    func toolDefinitionParameters() throws {
        var definition = Transcript.ToolDefinition(tool: EchoTool("search"))
        let schema = try GenerationSchema(root: DynamicGenerationSchema(name: "Query", properties: []), dependencies: [])
        definition.parameters = schema
        #expect(definition.parameters.name == "Query")
    }

    @Test(
        "A schema's name is its root type's name",
        arguments: [
            ("object", "Forecast"), ("string enum", "Unit"), ("plain string", ""),
        ])
    func schemaName(_ kind: String, _ name: String) throws {
        let schema =
            switch kind {
            case "object": try GenerationSchema(root: DynamicGenerationSchema(name: "Forecast", properties: []), dependencies: [])
            case "string enum": try GenerationSchema(root: DynamicGenerationSchema(name: "Unit", anyOf: ["C", "F"]), dependencies: [])
            default: String.generationSchema
            }
        #expect(schema.name == name)
    }

    @Test(
        "A sampling mode's kind reads its parameters",
        arguments: [
            (GenerationOptions.SamplingMode.greedy, GenerationOptions.SamplingMode.Kind.greedy),
            (.random(top: 40, seed: 7), .randomTopK(40, seed: 7)),
            (.random(probabilityThreshold: 0.9), .randomProbabilityThreshold(0.9, seed: nil)),
        ])
    func samplingKind(_ mode: GenerationOptions.SamplingMode, _ kind: GenerationOptions.SamplingMode.Kind) {
        #expect(mode.kind == kind)
    }

    @Test("The tool-calling mode: the 4-argument initializer, its kinds, and GenerationOptions without it")
    func toolCallingMode() {
        let options = GenerationOptions(samplingMode: nil, temperature: 0.2, maximumResponseTokens: nil, toolCallingMode: .required)
        #expect(options.toolCallingMode?.kind == .required)
        #expect(GenerationOptions(temperature: 0.2).toolCallingMode == nil)
        #expect(options != GenerationOptions(temperature: 0.2))
        var changed = options
        changed.toolCallingMode = .disallowed
        #expect(changed.toolCallingMode == .disallowed)
        #expect([GenerationOptions.ToolCallingMode.allowed, .required, .disallowed].map(\.kind) == [.allowed, .required, .disallowed])
    }
}
#endif
