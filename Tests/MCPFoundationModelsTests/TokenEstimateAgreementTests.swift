#if !canImport(FoundationModels)
// Where Apple's framework exists the portable module (and its TokenEstimator) is empty.
import MCPAgent
import PortableFoundationModels
import Testing

@Suite("One token estimate: the budget's and the portable module's")
struct TokenEstimateAgreementTests {
    @Test(
        "ContextBudget and TokenEstimator give the same count for any text",
        arguments: [
            "",
            "The quick brown fox jumps over the lazy dog.",
            #"{"type":"object","properties":{"isCaseSensitive":{"type":"boolean"}}}"#,
            "東京の天気は晴れです。",
            "résumé 3141592653 🙂 !?!?",
        ])
    func agree(_ text: String) {
        #expect(ContextBudget.onDevice.tokens(for: text) == TokenEstimator.tokenCount(for: text))
    }
}
#endif
