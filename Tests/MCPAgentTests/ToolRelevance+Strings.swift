@testable import MCPAgent

extension ToolRelevance {
    /// The terms of `prompt` as a turn reads them, for tests that write prompts as strings.
    static func queryTerms(in prompt: String) -> [(term: String, weight: Double)] {
        queryTerms(in: PromptText(prompt))
    }

    /// The terms the shapes of `prompt`'s text imply, for tests that write prompts as strings.
    static func patternTerms(in prompt: String) -> [String] {
        patternTerms(in: PromptText(prompt))
    }

    /// The names `prompt` writes, outside its paths, for tests that write prompts as strings.
    static func properNames(in prompt: String) -> Set<String> {
        properNames(in: PromptText(prompt).textTokens)
    }
}
