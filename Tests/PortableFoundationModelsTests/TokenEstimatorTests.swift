#if !canImport(FoundationModels)
// PortableFoundationModels is empty where Apple's FoundationModels exists, and its API carries
// no availability of its own, so these tests build wherever the portable module has content.
import Foundation
import PortableFoundationModels
import Testing

/// Characters per token of `text` under the portable estimate.
private func charactersPerToken(_ text: String) -> Double {
    Double(text.count) / Double(max(1, TokenEstimator.tokenCount(for: text)))
}

/// Tool parameter schemas of the kind MCP servers bridge, as the token counts render them.
private func schemaTexts() throws -> [String] {
    let weather = try GenerationSchema(
        root: DynamicGenerationSchema(
            name: "get_weather_arguments", description: "Arguments for the weather tool",
            properties: [
                .init(name: "city", description: "The city to look up", schema: DynamicGenerationSchema(type: String.self)),
                .init(
                    name: "days", description: "How many days to forecast",
                    schema: DynamicGenerationSchema(type: Int.self, guides: [.range(1...14)]), isOptional: true),
            ]), dependencies: [])
    let search = try GenerationSchema(
        root: DynamicGenerationSchema(
            name: "search_files_arguments",
            properties: [
                .init(name: "query", description: "Text to search for", schema: DynamicGenerationSchema(type: String.self)),
                .init(
                    name: "path", description: "The directory to search in", schema: DynamicGenerationSchema(type: String.self),
                    isOptional: true),
                .init(name: "limit", schema: DynamicGenerationSchema(type: Int.self, guides: [.range(1...100)]), isOptional: true),
                .init(name: "caseSensitive", schema: DynamicGenerationSchema(type: Bool.self), isOptional: true),
                .init(
                    name: "kind", description: "What to search",
                    schema: DynamicGenerationSchema(name: "SearchKind", anyOf: ["files", "directories", "both"]), isOptional: true),
            ]), dependencies: [])
    return try [weather, search].map(encodeSorted)
}

@Suite("TokenEstimator")
struct TokenEstimatorTests {
    static let prose = [
        """
        The quick brown fox jumps over the lazy dog. Apple's on-device language model has a context window \
        of 4,096 tokens per session, which covers the instructions, every prompt and response, and the \
        definitions, calls and outputs of tools. When a session runs out of room it throws an error, and \
        the app has to start a new session with a shorter transcript.
        """,
        """
        Tools let the model gather information or take actions. Give the model a maximum of three to five \
        tools to choose from, and keep each tool description and guide description to a short phrase. If \
        your app always needs the data a tool returns, run the tool yourself before calling the model and \
        put its output in the prompt instead.
        """,
        """
        It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of \
        foolishness, it was the epoch of belief, it was the epoch of incredulity, it was the season of \
        Light, it was the season of Darkness, it was the spring of hope, it was the winter of despair.
        """,
    ]

    @Test("English prose comes out near 4 characters per token", arguments: prose)
    func englishProse(_ text: String) {
        let ratio = charactersPerToken(text)
        #expect((3.5...4.7).contains(ratio), "\(ratio) characters per token")
    }

    @Test("JSON schemas come out near 3 to 3.5 characters per token")
    func jsonSchemas() throws {
        for json in try schemaTexts() {
            let ratio = charactersPerToken(json)
            #expect((2.9...3.8).contains(ratio), "\(ratio) characters per token in \(json)")
        }
    }

    @Test(
        "CJK text costs about one token per character",
        arguments: [
            "東京の天気は晴れです。明日は雨が降るでしょう。",
            "今天北京的天气很好，我们去公园散步吧。",
            "서울의 날씨는 맑습니다",
        ])
    func cjk(_ text: String) {
        let characters = text.filter { !$0.isWhitespace }.count
        let tokens = TokenEstimator.tokenCount(for: text)
        #expect(
            (Double(characters) * 0.9...Double(characters) * 1.1).contains(Double(tokens)), "\(tokens) tokens for \(characters) characters")
    }

    @Test("Empty and blank texts cost nothing; anything else at least one token")
    func emptyAndSmall() {
        #expect(TokenEstimator.tokenCount(for: "") == 0)
        #expect(TokenEstimator.tokenCount(for: " \n\t ") == 0)
        #expect(TokenEstimator.tokenCount(for: "a") == 1)
        #expect(TokenEstimator.tokenCount(for: "7") == 1)
        #expect(TokenEstimator.tokenCount(for: "?") == 1)
        #expect(TokenEstimator.tokenCount(for: "🙂") == 1)
    }

    @Test("Long words, long numbers and punctuation cost more than short ones")
    func runsGrowWithLength() {
        #expect(TokenEstimator.tokenCount(for: "cat") < TokenEstimator.tokenCount(for: "internationalization"))
        #expect(TokenEstimator.tokenCount(for: "42") < TokenEstimator.tokenCount(for: "3141592653"))
        #expect(TokenEstimator.tokenCount(for: ",") < TokenEstimator.tokenCount(for: "!?!?!?!?!?"))
        // A change of case starts a new word piece, as in camelCase keys.
        #expect(TokenEstimator.tokenCount(for: "isCaseSensitive") > TokenEstimator.tokenCount(for: "iscasesensitive"))
        // Accented letters weigh more than ASCII ones.
        #expect(TokenEstimator.tokenCount(for: "éèêëàâîïôûù") > TokenEstimator.tokenCount(for: "eeeeaaiiouu"))
    }

    @Test(
        "The estimate adds up across whitespace",
        arguments: [
            ("Hello there,", "general Kenobi!"),
            (#"{"city":"Paris"}"#, "12°C and sunny"),
            ("東京", "2026-10-01"),
        ])
    func additive(_ first: String, _ second: String) {
        let whole = TokenEstimator.tokenCount(for: first + "\n" + second)
        #expect(whole == TokenEstimator.tokenCount(for: first) + TokenEstimator.tokenCount(for: second))
    }
}
#endif
