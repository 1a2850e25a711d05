import MCP
import Testing

@testable import MCPAgent

/// The selector's and the relevance index's properties over the captured tool lists
/// (``SelectionCorpus``), which live with this target's fixtures.
@Suite("Tool selection over the corpus")
struct ToolSelectorCorpusTests {
    @Test("Scores do not depend on hashing: two indexes of the same tools agree exactly")
    func deterministic() {
        let candidates = SelectionCorpus.candidates
        let prompt = "list the merge requests of project 5 and their pipelines"
        #expect(ToolRelevance(candidates).scores(for: prompt) == ToolRelevance(candidates).scores(for: prompt))
    }

    @Test("Selecting from an index gives what selecting from the candidates does", arguments: SelectionPrompts.all.prefix(10))
    func fromIndex(_ prompt: SelectionPrompt) {
        let selector = ToolSelector(maximumTools: 5, tokenBudget: 1536, pinned: ["git_status"])
        let candidates = SelectionCorpus.candidates
        #expect(
            selector.select(candidates, prompt: prompt.prompt, recentlyUsed: ["fetch"])
                == selector.select(from: SelectionCorpus.relevance, prompt: prompt.prompt, recentlyUsed: ["fetch"]))
    }
}
