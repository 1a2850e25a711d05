#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// Token usage: per request wholesale, per response summed, per session accumulated.
@Suite("27: usage")
struct UsageTests {
    typealias Input = Channel.Usage.Input
    typealias Output = Channel.Usage.Output

    @Test("A usage update replaces the request's totals wholesale; deltas after it add to them")
    func wholesale() async throws {
        let model = ProviderModel([
            .events([
                .response(
                    action: .updateUsage(
                        input: Input(totalTokenCount: 100, cachedTokenCount: 60), output: Output(totalTokenCount: 0, reasoningTokenCount: 0)
                    )),
                .response(action: .appendText("Hello", tokenCount: 3)),
                .response(action: .appendText(" there", tokenCount: 2)),
                // The authoritative cumulative total replaces what the deltas credited.
                .response(
                    action: .updateUsage(
                        input: Input(totalTokenCount: 100, cachedTokenCount: 60),
                        output: Output(totalTokenCount: 4, reasoningTokenCount: 1),
                        metadata: ["cost": 0.5])),
                .response(action: .appendText("!", tokenCount: 1)),
            ])
        ])
        let session = LanguageModelSession(model: model)
        let usage = try await session.respond(to: "Hi").usage
        #expect(usage.input.totalTokenCount == 100)
        #expect(usage.input.cachedTokenCount == 60)
        #expect(usage.output.totalTokenCount == 5)
        #expect(usage.output.reasoningTokenCount == 1)
        #expect(usage.totalTokenCount == 105)
        #expect(usage.metadata["cost"] == GeneratedContent(0.5))
    }

    static func usage(_ input: Int, _ output: Int) -> Channel.Event {
        .response(
            action: .updateUsage(
                input: Input(totalTokenCount: input, cachedTokenCount: 0), output: Output(totalTokenCount: output, reasoningTokenCount: 0)))
    }

    @Test("A response adds up its requests; the session adds up its responses, failed ones included")
    func accumulation() async throws {
        let model = ProviderModel([
            .events([
                .toolCalls(
                    action: .updateUsage(
                        input: Input(totalTokenCount: 10, cachedTokenCount: 0), output: Output(totalTokenCount: 2, reasoningTokenCount: 0))),
                .toolCalls(action: .toolCall(id: "1", name: "lookup", action: .appendArguments("{}", tokenCount: 0))),
            ]),
            .events([Self.usage(20, 3), .response(action: .appendText("found", tokenCount: 0))]),
            .events([Self.usage(30, 4), .response(action: .appendText("again", tokenCount: 0))]),
            Step { _, channel in
                await channel.send(Self.usage(40, 0))
                throw LanguageModelError.timeout(.init(debugDescription: "slow"))
            },
        ])
        let session = LanguageModelSession(model: model, tools: [EchoTool("lookup")])
        let first = try await session.respond(to: "Look it up")
        #expect(first.usage.input.totalTokenCount == 30)
        #expect(first.usage.output.totalTokenCount == 5)
        let second = try await session.respond(to: "Again")
        #expect(second.usage.input.totalTokenCount == 30)
        #expect(session.usage.input.totalTokenCount == 60)
        #expect(session.usage.output.totalTokenCount == 9)
        await #expect(throws: LanguageModelError.self) { try await session.respond(to: "Slow") }
        #expect(session.usage.input.totalTokenCount == 100)
    }

    @Test("A 26 backend's usage: the counted request as input, the answer's estimated tokens as output")
    func backendUsage() async throws {
        let script = ScriptedLanguageModel([.text("Mild and dry.")], tokenCounter: { $0.count })
        let session = LanguageModelSession(model: script.model, dynamicInstructions: Instructions("Be brief."))
        let response = try await session.respond(to: "Weather?")
        let counted = try await script.model.tokenCount(for: Instructions("Be brief.")) + script.model.tokenCount(for: "Weather?")
        #expect(response.usage.input.totalTokenCount == counted)
        #expect(response.usage.output.totalTokenCount == TokenEstimator.tokenCount(for: "Mild and dry."))
        #expect(session.usage == response.usage)
    }
}
#endif
