#if !canImport(FoundationModels)
// PortableFoundationModels is empty where Apple's FoundationModels exists, and its API carries
// no availability of its own, so these tests build wherever the portable module has content.
import Foundation
import PortableFoundationModels
import Testing

@Suite("Transcript")
struct TranscriptTests {
    @Test func codableRoundTrip() throws {
        let definition = Transcript.ToolDefinition(
            name: "get_weather", description: "Current weather",
            parameters: try objectSchema("get_weather_arguments", [.init(name: "city", schema: .init(type: String.self))]))
        let transcript = Transcript(entries: [
            .instructions(
                Transcript.Instructions(segments: [.text(Transcript.TextSegment(content: "Be brief."))], toolDefinitions: [definition])),
            .prompt(
                Transcript.Prompt(
                    segments: [.text(Transcript.TextSegment(content: "Weather in Paris?"))],
                    options: GenerationOptions(sampling: .random(top: 5, seed: 7), temperature: 0.5, maximumResponseTokens: 100),
                    responseFormat: Transcript.ResponseFormat(type: String.self))),
            .toolCalls(
                Transcript.ToolCalls([
                    Transcript.ToolCall(
                        id: "1", toolName: "get_weather", arguments: GeneratedContent(properties: ["city": "Paris", "days": 2]))
                ])),
            .toolOutput(
                Transcript.ToolOutput(
                    id: "1", toolName: "get_weather",
                    segments: [
                        .text(Transcript.TextSegment(content: "12°C")),
                        .structure(
                            Transcript.StructuredSegment(schemaName: "Weather", content: GeneratedContent(properties: ["celsius": 12]))),
                    ])),
            .response(Transcript.Response(assetIDs: ["a"], segments: [.text(Transcript.TextSegment(content: "It is 12°C."))])),
        ])
        let data = try JSONEncoder().encode(transcript)
        let decoded = try JSONDecoder().decode(Transcript.self, from: data)
        #expect(decoded == transcript)
        #expect(decoded.count == 5)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object?["type"] as? String == "FoundationModels.Transcript")
        #expect(object?["version"] as? String == "1.1")
        // Tool-call arguments are a JSON string, as in Apple's wire format.
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains(#""arguments":"{\"city\":\"Paris\",\"days\":2}""#))
    }

    @Test func entriesAreIdentifiableAndMutable() {
        var transcript = Transcript(entries: [.prompt(Transcript.Prompt(id: "p", segments: []))])
        #expect(transcript.first?.id == "p")
        transcript[0] = .response(Transcript.Response(id: "r", assetIDs: [], segments: [.text(.init(content: "hi"))]))
        #expect(transcript[0].id == "r")
        #expect(transcript[0].description == "Response: hi")
        #expect(Transcript().isEmpty)
    }
}
#endif
