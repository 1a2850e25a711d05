extension ToolRelevance {
    /// A prompt read once for ranking: its tokens, its file-system paths and its words, shared
    /// by every reader of a turn's prompt.
    ///
    /// The ranking reads a prompt several ways: its words as terms, its capitalised tokens as
    /// names, the shapes of its tokens (file names, times, revisions) and its words again for
    /// typing slips. Each reads from this one split instead of splitting the prompt itself.
    struct PromptText {
        /// The prompt as written.
        let original: String
        /// The prompt's tokens: what stands between whitespace, paths included.
        let tokens: [Substring]
        /// `tokens`, lowercased.
        let lowercasedTokens: [String]
        /// The tokens that are not paths.
        let textTokens: [Substring]
        /// The prompt's file-system paths (`~/code/site`, `./app`, `/var/backups`): a token that
        /// starts, after any opening quotes or parenthesis, with `~/`, `./`, `../`, or `/` and a
        /// letter.
        let paths: [String]
        /// The words (``ToolRelevance/words(in:)``) of the tokens that are not paths.
        let words: [String]
        /// The words of the paths.
        let pathWords: [String]

        init(_ prompt: String) {
            original = prompt
            tokens = prompt.split(whereSeparator: \.isWhitespace)
            lowercasedTokens = tokens.map { $0.lowercased() }
            var paths: [String] = []
            var textTokens: [Substring] = []
            for token in tokens {
                if let path = Self.path(token) {
                    paths.append(path)
                } else {
                    textTokens.append(token)
                }
            }
            self.paths = paths
            self.textTokens = textTokens
            words = ToolRelevance.words(in: textTokens.joined(separator: " "))
            pathWords = ToolRelevance.words(in: paths.joined(separator: " "))
        }

        /// The path `token` writes, without its opening quotes; `nil` when it is none.
        private static func path(_ token: Substring) -> String? {
            let bare = token.drop { "(\"'`".contains($0) }
            let isPath =
                ["~/", "./", "../"].contains { bare.hasPrefix($0) }
                || bare.first == "/" && bare.dropFirst().first?.isLetter == true
            return isPath && bare.count > 2 ? String(bare) : nil
        }
    }
}
