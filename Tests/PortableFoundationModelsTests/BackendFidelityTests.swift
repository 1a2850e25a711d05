#if !canImport(FoundationModels)
// PortableFoundationModels is empty where Apple's FoundationModels exists, and its API carries
// no availability of its own, so these tests build wherever the portable module has content.
import Foundation
@_spi(Portable) import PortableFoundationModels
import Testing

/// A generation error's case and message, to compare errors (`GenerationError` is not Equatable).
private func summary(_ error: (any Error)?) -> String? {
    guard let error = error as? LanguageModelSession.GenerationError else { return nil }
    let name =
        switch error {
        case .exceededContextWindowSize: "exceededContextWindowSize"
        case .assetsUnavailable: "assetsUnavailable"
        case .guardrailViolation: "guardrailViolation"
        case .unsupportedGuide: "unsupportedGuide"
        case .unsupportedLanguageOrLocale: "unsupportedLanguageOrLocale"
        case .decodingFailure: "decodingFailure"
        case .rateLimited: "rateLimited"
        case .concurrentRequests: "concurrentRequests"
        case .refusal: "refusal"
        }
    return "\(name): \(error.failureReason ?? "")"
}

/// The refusal in a `GenerationError.refusal`, or `nil` for any other error.
private func refusal(in error: (any Error)?) -> LanguageModelSession.GenerationError.Refusal? {
    guard case .refusal(let refusal, _)? = error as? LanguageModelSession.GenerationError else { return nil }
    return refusal
}

/// What a model backend needs of Apple's 26.x generation surface: sampling modes it can read,
/// null schemas, response metadata and schema names, refusals with explanations, and its own
/// errors passed through the session unchanged.
@Suite("Model backend fidelity")
struct BackendFidelityTests {
    // MARK: GenerationOptions

    @Test(
        "A sampling mode's parameters are readable by a backend",
        arguments: [
            (GenerationOptions.SamplingMode.greedy, GenerationOptions.SamplingMode.Strategy.greedy),
            (.random(top: 40), .randomTopK(40, seed: nil)),
            (.random(top: 5, seed: 7), .randomTopK(5, seed: 7)),
            (.random(probabilityThreshold: 0.9), .randomProbabilityThreshold(0.9, seed: nil)),
            (.random(probabilityThreshold: 0.5, seed: 42), .randomProbabilityThreshold(0.5, seed: 42)),
        ])
    func samplingStrategy(_ mode: GenerationOptions.SamplingMode, _ strategy: GenerationOptions.SamplingMode.Strategy) async throws {
        #expect(mode.strategy == strategy)
        // The 26 and 27 names are one value.
        let options = GenerationOptions(samplingMode: mode, temperature: 0.3, maximumResponseTokens: 50)
        #expect(options.sampling == mode)
        #expect(options == GenerationOptions(sampling: mode, temperature: 0.3, maximumResponseTokens: 50))
        var changed = GenerationOptions()
        changed.sampling = mode
        #expect(changed.samplingMode == mode)
        changed.samplingMode = nil
        #expect(changed.sampling == nil)
        // A backend reads the options of its request.
        let model = ScriptedLanguageModel { request in
            let read =
                request.options.samplingMode?.strategy == strategy && request.options.temperature == 0.3
                && request.options.maximumResponseTokens == 50
            return .text(read ? "read" : "not read")
        }
        let session = LanguageModelSession(model: model.model)
        #expect(try await session.respond(to: "Hi", options: options).content == "read")
        // The prompt entry keeps them, through the transcript's JSON form too.
        let decoded = try JSONDecoder().decode(Transcript.self, from: try JSONEncoder().encode(session.transcript))
        let prompt = decoded.compactMap { entry -> Transcript.Prompt? in
            if case .prompt(let prompt) = entry { return prompt }
            return nil
        }.first
        #expect(prompt?.options.samplingMode?.strategy == strategy)
    }

    @Test("Options without a sampling mode leave it to the model")
    func defaultOptions() {
        let options = GenerationOptions(temperature: 0)
        #expect(options.samplingMode == nil)
        #expect(options.sampling == nil)
        #expect(options.maximumResponseTokens == nil)
        #expect(GenerationOptions() == GenerationOptions(samplingMode: nil))
    }

    // MARK: null

    @Test("DynamicGenerationSchema.null encodes as {\"type\":\"null\"}, alone and as a choice")
    func nullSchemaEncodes() throws {
        #expect(try encodeSorted(try GenerationSchema(root: .null, dependencies: [])) == #"{"type":"null"}"#)
        let schema = try GenerationSchema(
            root: DynamicGenerationSchema(
                name: "Args",
                properties: [
                    .init(name: "note", schema: DynamicGenerationSchema(name: "Note", anyOf: [.init(type: String.self), .null])),
                    .init(name: "nothing", schema: .null),
                ]),
            dependencies: [])
        let json = try encodeSorted(schema)
        #expect(
            json
                == ##"{"$defs":{"Note":{"anyOf":[{"type":"string"},{"type":"null"}],"title":"Note"}},"additionalProperties":false,"properties":{"note":{"$ref":"#/$defs/Note"},"nothing":{"type":"null"}},"required":["note","nothing"],"title":"Args","type":"object","x-order":["note","nothing"]}"##
        )
        // Apple's JSON form decodes back to the same schema.
        let decoded = try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
        #expect(try encodeSorted(decoded) == json)
    }

    @Test(
        "Generated content is validated against a null schema",
        arguments: [
            (GeneratedContent(kind: .null), GeneratedContent(kind: .null), true),
            (GeneratedContent(kind: .null), GeneratedContent("text"), true),
            (GeneratedContent("x"), GeneratedContent(kind: .null), false),
            (GeneratedContent(kind: .null), GeneratedContent(3), false),
            (GeneratedContent(kind: .number(1)), GeneratedContent(kind: .null), false),
        ])
    func nullValidation(_ nothing: GeneratedContent, _ note: GeneratedContent, _ valid: Bool) throws {
        let schema = try GenerationSchema(
            root: DynamicGenerationSchema(
                name: "Args",
                properties: [
                    .init(name: "nothing", schema: .null),
                    .init(name: "note", schema: DynamicGenerationSchema(name: "Note", anyOf: [.init(type: String.self), .null])),
                ]),
            dependencies: [])
        let violations = schema.violations(in: GeneratedContent(properties: ["nothing": nothing, "note": note]))
        #expect(violations.isEmpty == valid, "\(violations)")
        if !nothing.isNull {
            #expect(violations.contains { $0.path == "/nothing" && $0.message.hasPrefix("expected null") })
        }
    }

    @Test("GeneratedContent's null: Kind.null, JSON null, and nil optionals")
    func generatedNull() throws {
        let null = GeneratedContent(kind: .null)
        #expect(null.jsonString == "null")
        #expect(try GeneratedContent(json: "null").kind == .null)
        #expect(try GeneratedContent(json: #"{"a":null}"#).value(String?.self, forProperty: "a") == nil)
        let missing: String? = nil
        #expect(missing.generatedContent == null)
    }

    @Test("A session accepts null where the response schema allows it and rejects it elsewhere")
    func sessionWithNull() async throws {
        let nullable = try GenerationSchema(
            root: DynamicGenerationSchema(name: "Maybe", anyOf: [.init(type: Int.self), .null]), dependencies: [])
        let model = ScriptedLanguageModel([.content(GeneratedContent(kind: .null)), .content(GeneratedContent(kind: .null))])
        let session = LanguageModelSession(model: model.model)
        let response = try await session.respond(to: "Any number?", schema: nullable)
        #expect(response.content.kind == .null)
        let integer = try GenerationSchema(root: DynamicGenerationSchema(type: Int.self), dependencies: [])
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: "A number?", schema: integer)
        }
        #expect(summary(error)?.hasPrefix("decodingFailure") == true)
    }

    // MARK: Transcript

    @Test("Transcript.Response.metadata is 27's [String: GeneratedContent]: what the provider said, empty by default")
    func responseMetadata() {
        var response = Transcript.Response(assetIDs: ["asset-1", "asset-2"], segments: [])
        #expect(response.metadata.isEmpty)
        #expect(response.assetIDs == ["asset-1", "asset-2"])
        response.metadata = ["model": GeneratedContent("m-1")]
        #expect(response.metadata["model"] == GeneratedContent("m-1"))
    }

    @Test("A structured segment is named by schemaName, which the transcript's JSON form keeps")
    func structuredSegmentSchemaName() throws {
        var segment = Transcript.StructuredSegment(id: "s1", schemaName: "Weather", content: GeneratedContent(properties: ["celsius": 12]))
        #expect(segment.schemaName == "Weather")
        segment.schemaName = "Forecast"
        #expect(segment.schemaName == "Forecast")
        let transcript = Transcript(entries: [.response(Transcript.Response(assetIDs: [], segments: [.structure(segment)]))])
        let decoded = try JSONDecoder().decode(Transcript.self, from: try JSONEncoder().encode(transcript))
        #expect(decoded == transcript)
        guard case .response(let response)? = decoded.first, case .structure(let restored)? = response.segments.first else {
            Issue.record("no structured segment in \(decoded)")
            return
        }
        #expect(restored.schemaName == "Forecast")
    }

    @Test("A structured response is named by the type it was generated as")
    func structuredResponseSchemaName() async throws {
        let model = ScriptedLanguageModel([.content(GeneratedContent(kind: .number(3)))])
        let session = LanguageModelSession(model: model.model)
        let response = try await session.respond(to: "Three?", generating: Int.self)
        #expect(response.content == 3)
        guard case .response(let entry)? = response.transcriptEntries.last, case .structure(let segment)? = entry.segments.first else {
            Issue.record("no structured response in \(response.transcriptEntries)")
            return
        }
        #expect(segment.schemaName == "Int")
    }

    // MARK: Refusal

    static let refusalText = "I can't help with picking locks, but a locksmith can."

    @Test("A backend's refusal reaches the caller with its explanation, awaited and streamed")
    func refusalWithExplanation() async throws {
        let model = ScriptedLanguageModel { request in
            throw LanguageModelSession.GenerationError.refusal(
                .init(transcriptEntries: Array(request.transcript), explanation: Self.refusalText),
                .init(debugDescription: "The model refused: content policy."))
        }
        let session = LanguageModelSession(model: model.model)
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: "How do I pick a lock?")
        }
        #expect(summary(error) == "refusal: The model refused: content policy.")
        let refused = try #require(refusal(in: error))
        let explanation = try await refused.explanation
        #expect(explanation.content == Self.refusalText)
        #expect(explanation.rawContent == GeneratedContent(kind: .string(Self.refusalText)))
        guard case .response(let entry)? = explanation.transcriptEntries.first else {
            Issue.record("no response entry in \(explanation.transcriptEntries)")
            return
        }
        #expect(explanation.transcriptEntries.count == 1)
        #expect(entry.segments == [.text(Transcript.TextSegment(id: entry.segments.first?.id ?? "", content: Self.refusalText))])
        #expect(try await refused.explanationStream.collect().content == Self.refusalText)
        var snapshots: [String] = []
        for try await snapshot in refused.explanationStream { snapshots.append(snapshot.content) }
        #expect(snapshots == [Self.refusalText])
        #expect(!session.isResponding)
    }

    @Test("Without an explanation, a refusal explains with the last response among its entries, or throws")
    func refusalFromTranscript() async throws {
        let answered = LanguageModelSession.GenerationError.Refusal(transcriptEntries: [
            .prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Why?"))])),
            .response(Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: "Not that."))])),
        ])
        #expect(try await answered.explanation.content == "Not that.")
        let silent = LanguageModelSession.GenerationError.Refusal(transcriptEntries: [])
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            _ = try await silent.explanation
        }
        #expect(refusal(in: error) != nil)
    }

    // MARK: Backend errors

    static let backendErrors: [LanguageModelSession.GenerationError] = [
        .exceededContextWindowSize(
            .init(
                debugDescription: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.")),
        .rateLimited(.init(debugDescription: "429 Too Many Requests; retry after 20 s.")),
        .guardrailViolation(.init(debugDescription: "The prompt was flagged by the provider's moderation.")),
        .refusal(.init(transcriptEntries: [], explanation: "No."), .init(debugDescription: "Refused.")),
        .assetsUnavailable(.init(debugDescription: "The model server is not reachable.")),
    ]

    @Test("A backend's GenerationError passes through the session unchanged", arguments: backendErrors)
    func backendErrorPassesThrough(_ thrown: LanguageModelSession.GenerationError) async throws {
        let model = ScriptedLanguageModel([.failure(thrown), .failure(thrown), .text("fine")])
        let session = LanguageModelSession(model: model.model)
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: "Hello")
        }
        #expect(summary(error) == summary(thrown))
        #expect(!session.isResponding)
        // The same through a stream.
        let streamed = await #expect(throws: LanguageModelSession.GenerationError.self) {
            for try await _ in session.streamResponse(to: "Hello") {}
        }
        #expect(summary(streamed) == summary(thrown))
        // The session still asks its backend, which decides whether the next request fits.
        #expect(try await session.respond(to: "Hello again").content == "fine")
    }

    @Test("A backend's overflow after a tool call is not wrapped in a ToolCallError, and keeps the backend's message")
    func overflowAfterToolCall() async throws {
        let overflow = LanguageModelSession.GenerationError.exceededContextWindowSize(
            .init(
                debugDescription: "This model's maximum context length is 8192 tokens. However, you requested 8300 tokens."))
        let weather = try cityTool { city in "12°C in \(city)" }
        let model = ScriptedLanguageModel([
            .callTool("get_weather", arguments: GeneratedContent(properties: ["city": "Paris"])),
            .failure(overflow),
        ])
        let session = LanguageModelSession(model: model.model, tools: [weather])
        let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: "Weather in Paris?")
        }
        #expect(summary(error) == summary(overflow))
        #expect(model.requests.count == 2)
        #expect(model.requests.last?.toolOutput("get_weather") == "12°C in Paris")
    }
}

extension GeneratedContent {
    fileprivate var isNull: Bool { kind == .null }
}
#endif
