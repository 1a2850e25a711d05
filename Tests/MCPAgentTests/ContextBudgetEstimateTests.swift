import MCPAgent
import Testing

@Suite("ContextBudget: the token estimate where a model cannot count")
struct ContextBudgetEstimateTests {
    let budget = ContextBudget.onDevice

    @Test("A blank text costs nothing; any other text at least one token")
    func blankAndSmall() {
        #expect(budget.tokens(for: "") == 0)
        #expect(budget.tokens(for: " \n\t") == 0)
        #expect(budget.tokens(for: "a") == 1)
    }

    @Test("English prose comes out near 4 characters a token, as the budget's ratio says")
    func prose() {
        let text = """
            Tools let the model gather information or take actions. Give the model a maximum of three to five \
            tools to choose from, and keep each tool description and guide description to a short phrase.
            """
        let ratio = Double(text.count) / Double(budget.tokens(for: text))
        #expect((3.5...4.7).contains(ratio), "\(ratio) characters a token")
    }

    @Test("Chinese and Japanese cost about a token a character, not a quarter of one")
    func cjk() {
        let text = "今天北京的天气很好，我们去公园散步吧。"
        #expect(budget.tokens(for: text) >= text.count * 9 / 10)
        #expect(budget.tokens(for: text) > budget.tokens(forCharacters: text.count) * 3)
    }

    @Test("JSON costs more tokens than prose of the same length")
    func json() {
        let schema = #"{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}"#
        let prose = String("The weather tool looks up the forecast for a city over the next few days and then".prefix(schema.count))
        #expect(budget.tokens(for: schema) > budget.tokens(for: prose))
    }
}
