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
        /// The tokens that name files (`notes.txt`, `design-notes.md`, `~/scans/receipt.png`),
        /// lowercased, without the punctuation around them: letters before a dot and a 2–4
        /// character extension after it, not an email or web address.
        let fileNames: [Substring]
        /// Whether a token names a host without a scheme (`news.ycombinator.com`): a web address.
        let namesHost: Bool
        /// The words (``ToolRelevance/words(in:)``) of the tokens that are neither paths nor file names.
        let words: [String]
        /// The words of the paths and file names: they name where or what, not what to do
        /// (`design-notes.md` asks nothing about notes).
        let pathWords: [String]

        init(_ prompt: String) {
            original = prompt
            tokens = prompt.split(whereSeparator: \.isWhitespace)
            lowercasedTokens = tokens.map { $0.lowercased() }
            var paths: [String] = []
            var fileNames: [Substring] = []
            var textTokens: [Substring] = []
            var wordTokens: [Substring] = []
            var pathLike: [String] = []
            var namesHost = false
            for (token, lowercased) in zip(tokens, lowercasedTokens) {
                // A file name ends in an extension; a host name in a web domain.
                let trimmed = Self.trimmed(lowercased)
                let ending = Self.dottedEnding(trimmed)
                let isHost = ending.map { ToolRelevance.webDomains.contains(String($0)) } ?? false
                namesHost = namesHost || isHost
                let name = ending != nil && !isHost ? trimmed : nil
                if let name { fileNames.append(name) }
                if let path = Self.path(token) {
                    paths.append(path)
                    pathLike.append(path)
                    continue
                }
                textTokens.append(token)
                if let name {
                    pathLike.append(String(name))
                } else {
                    wordTokens.append(token)
                }
            }
            self.paths = paths
            self.fileNames = fileNames
            self.namesHost = namesHost
            self.textTokens = textTokens
            words = ToolRelevance.words(in: wordTokens.joined(separator: " "))
            pathWords = ToolRelevance.words(in: pathLike.joined(separator: " "))
        }

        /// `token` without the punctuation around it (commas, quotes, brackets, `:`, `!`, `?`).
        static func trimmed(_ token: String) -> Substring {
            let edges: Set<Character> = [",", ";", ":", "!", "?", "(", ")", "'", "\"", "`"]
            var trimmed = Substring(token)
            while let first = trimmed.first, edges.contains(first) { trimmed.removeFirst() }
            while let last = trimmed.last, edges.contains(last) { trimmed.removeLast() }
            return trimmed
        }

        /// What follows the last dot of `name` when it could end a file or host name (2–4
        /// letters or digits, a letter among them, after a name with a letter); `nil` for an
        /// email address, a URL or a `www.` host.
        static func dottedEnding(_ name: Substring) -> Substring? {
            guard !name.contains("@"), !name.contains("://"), !name.hasPrefix("www.") else { return nil }
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
            let ending = name[name.index(after: dot)...]
            guard (2...4).contains(ending.count), ending.allSatisfy({ $0.isLetter || $0.isNumber }),
                ending.contains(where: { $0.isLetter }), name[..<dot].contains(where: { $0.isLetter })
            else { return nil }
            return ending
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
