import Foundation
import JSONCore
import OnDeviceMCPTestSupport
import PortableFoundationModels
import Testing

@testable import ChatCompletions

extension RealModelTests {
    /// A prompt on which SmolLM2, greedy and without repetition controls, loops
    /// (`* "help"\n* "hugging face"\n…` to the token limit).
    static let loopingPrompt = "What are the tags? Output them as [tag]; [tag]; ..."

    /// The server's count of the tokens it predicted so far.
    static func predictedTokens(_ root: URL) async throws -> Double {
        let metrics = try #require(URL(string: "metrics", relativeTo: root))
        let line = try await Self.text(metrics).split(separator: "\n").first { $0.hasPrefix("llamacpp:tokens_predicted_total ") }
        return try #require(line.flatMap { Double($0.split(separator: " ").last ?? "") })
    }

    @Test(
        "llama.cpp: a prompt SmolLM2 loops on without repetition controls is cut as degenerate, the server stopping well before the limit; with the default controls it is answered"
    )
    func degenerateOutput() async throws {
        try await ModelServer.with { root in
            try await withHangGuard(Self.hangLimit, "a looping answer") {
                var configuration = ChatCompletionsConfiguration(
                    defaultOptions: GenerationOptions(temperature: 0, maximumResponseTokens: 600))
                configuration.repetitionControls = .none
                let bare = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                #expect(bare.server == .llamaCpp)
                let before = try await Self.predictedTokens(root)
                do {
                    let answer = try await LanguageModelSession(model: bare).respond(to: Self.loopingPrompt).content
                    Issue.record("the loop was not cut: \(answer)")
                } catch let failure as ChatCompletionsError where failure == .degenerateOutput {
                    let output = try #require(failure.degeneration)
                    print("real model loop: \(failure)")
                    #expect(output.kind == .repeatedText)
                    #expect(!output.unit.isEmpty)
                }
                // The request was stopped when the loop showed, having predicted far fewer than
                // the 600 tokens it was allowed. The server has one slot: this request (at most 4
                // tokens) is answered only once the stopped one ended.
                let short = LanguageModelSession(model: bare)
                _ = try await short.respond(to: "Say hi.", options: GenerationOptions(maximumResponseTokens: 4))
                let predicted = try await Self.predictedTokens(root) - before
                #expect(predicted < 300, "the server predicted \(predicted) tokens")

                configuration.repetitionControls = RepetitionControls()
                let controlled = try await ChatCompletionsModel.connect(to: root, configuration: configuration)
                let answer = try await LanguageModelSession(model: controlled).respond(to: Self.loopingPrompt).content
                print("real model answer with repetition controls: \(answer.prefix(200))")
                #expect(!answer.isEmpty)
            }
        }
    }
}
