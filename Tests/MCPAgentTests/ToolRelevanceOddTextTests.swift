import OnDeviceMCPTestSupport
import Testing

@testable import MCPAgent

/// Prompts are whatever a person types or pastes: the ranking must take any text.
@Suite("Tool relevance: any text, however odd")
struct ToolRelevanceOddTextTests {
    /// Pieces the prompt readers look at closely: paths, numbers, operators, ordinals,
    /// apostrophes, marks, emoji, and words near the candidates' words.
    static let pieces: [String] = [
        "~/", "./", "../", "/", "~", ".", "..", "-", "-33.8568", "151.2153", "46.5197,7.9638", "lat", "sqrt(", "(", ")",
        "*", "^", "%", "=", "2", "10", "4pm", ":", "#", "@", "https://", "www.", ".com", "how", "much", "the", "second",
        "one", "hit", "taks", "task", "priorty", "reomve", "rolling", "out", "checked", "off", "get", "rid", "of", "to-do",
        "file", "a", "open", "HEAD~2", "ENG-310", "Mark", "is", "é", "ß", "日本語", "😀", "\u{301}", "\u{200B}", "\n", "\t",
        " ", "  ", "'", "\"", ",", "?", "ĲSSEL", "ǅ",
    ]

    static let candidates = [
        ToolCandidate(name: "create_task", server: "tasks", description: "Create a task with a priority.", tokens: 60),
        ToolCandidate(name: "remove_item", server: "tasks", description: "Remove an item from a list.", tokens: 60),
        ToolCandidate(name: "read_text_file", server: "files", description: "Read a file under a path.", tokens: 60),
        ToolCandidate(name: "maps_geocode", server: "maps", description: "Turn an address into coordinates.", tokens: 60),
        ToolCandidate(name: "calculate", server: "calc", description: "Evaluate an arithmetic expression.", tokens: 60),
        ToolCandidate(name: "日本語_検索", server: "jp", description: "日本語のテキストを検索する。", tokens: 60),
    ]

    @Test("Random prompts made of tricky pieces are ranked without a fault, and the same prompt ranks the same", arguments: 0..<8)
    func oddPrompts(_ seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        let relevance = ToolRelevance(Self.candidates, embedding: nil)
        for _ in 0..<250 {
            let count = Int.random(in: 0...24, using: &generator)
            let separators = ["", " ", "", "/"]
            let prompt = (0..<count).map { _ in
                (Self.pieces.randomElement(using: &generator) ?? "") + (separators.randomElement(using: &generator) ?? "")
            }.joined()
            let scores = relevance.scores(for: prompt)
            #expect(scores.count == Self.candidates.count)
            #expect(scores.allSatisfy { $0.isFinite && $0 >= 0 }, "\(prompt.debugDescription)")
            #expect(relevance.scores(for: prompt) == scores, "\(prompt.debugDescription)")
            let ranking = relevance.ranking(for: prompt, recentlyUsed: ["calculate"])
            #expect(Set(ranking.map(\.index)) == Set(Self.candidates.indices))
        }
    }
}
