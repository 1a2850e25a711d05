package import MCPCore

/// Shortens text a server wrote for people to the gist the on-device model needs.
///
/// Servers describe their tools for people and for large models: Python docstrings with
/// `Args:` and `Returns:` sections, Markdown, code samples. The on-device model has 4,096
/// tokens for everything, so the bridge gives it less. ``compacted(_:maximumCharacters:maximumSentences:)``:
/// 1. drops docstring sections: a line that starts with a label such as `Args:`,
///    `Arguments:`, `Parameters:`, `Returns:`, `Yields:`, `Raises:`, `Example:`, `Examples:`,
///    `Note:`, `Notes:`, `See also:` or `Usage:` (Google style, `**bold**` or not), or a
///    label underlined with `---` (NumPy style), and the lines that belong to it (more
///    indented ones, and the rest of its paragraph); a Markdown heading with such a label,
///    up to the next heading of its level; a sentence inside a paragraph that starts with
///    such a label (but `Note:`, which there is more often a caveat than a section);
/// 2. drops Markdown: fenced code blocks, other headings, rules, list markers (each item
///    becomes a sentence), quote markers, `**`, backticks; a link or an image becomes its text;
/// 3. collapses whitespace and blank lines to single spaces;
/// 4. keeps whole leading sentences while they fit the limit; when even the first does not,
///    cuts it at a word and ends it with `…`.
///
/// When dropping sections leaves nothing, the sections are kept (the text is then only
/// cleaned of markup and cut). Lengths are in characters (grapheme clusters), so a cut never
/// splits one. Only the first 16,384 characters are read (or four times the limit, if that is
/// more), each once or a bounded number of times, so a hostile server's huge description
/// costs little.
///
/// The bridge compacts the tool description it gives the model to
/// ``ContextBudget/descriptionCharacters`` and each parameter description in the lowered
/// schema to its first sentence within ``parameterCharacters``; the server's own text stays
/// in `MCPBridgedTool/definition` for display, and arguments are still validated against
/// the server's schema.
public enum DescriptionCompactor {
    /// The longest parameter description the model reads, in characters.
    public static let parameterCharacters = 100

    /// `text` without docstring sections and markup, within `maximumCharacters`, in whole
    /// leading sentences where they fit.
    ///
    /// ```swift
    /// DescriptionCompactor.compacted("Get the weather.\n\n    Args:\n        city: The city.", maximumCharacters: 300)
    /// // "Get the weather."
    /// ```
    ///
    /// - Parameters:
    ///   - text: A description as a server wrote it.
    ///   - maximumCharacters: The longest result; `0` or less gives an empty string.
    ///   - maximumSentences: The most sentences kept.
    /// - Returns: The compacted text; empty when `text` has nothing but markup.
    public static func compacted(_ text: String, maximumCharacters: Int, maximumSentences: Int = .max) -> String {
        guard maximumCharacters > 0, maximumSentences > 0 else { return "" }
        let (scaled, overflow) = maximumCharacters.multipliedReportingOverflow(by: 4)
        let input = String(text.prefix(max(minimumRead, overflow ? Int.max : scaled)))
        var kept = sentences(in: input, dropsSections: true)
        if kept.isEmpty {
            kept = sentences(in: input, dropsSections: false)
        }
        return fitted(kept.prefix(maximumSentences), maximumCharacters: maximumCharacters)
    }

    /// The fewest leading characters of a text that compaction reads.
    static let minimumRead = 16_384

    // MARK: The bridge's uses

    /// The description the model reads for `tool`: its description (else its title, else a
    /// sentence naming it), cleaned of invisible characters when `cleans` is on and
    /// compacted to the budget's ``ContextBudget/descriptionCharacters``.
    ///
    /// With `compacts` off it is what the bridge gave before compaction existed: the cleaned
    /// text cut at a word (for measuring what compaction saves).
    package static func modelDescription(
        of tool: MCPCore.ToolDefinition, budget: ContextBudget, cleans: Bool, compacts: Bool = true
    ) -> String {
        func clean(_ text: String) -> String { cleans ? UntrustedText.cleaned(text) : text }
        let fallback = "Calls the tool \(tool.name)."
        guard compacts else {
            return budget.shortened(clean(tool.description ?? tool.title ?? fallback))
        }
        for text in [tool.description, tool.title, fallback].compactMap({ $0 }) {
            let compact = compacted(clean(text), maximumCharacters: budget.descriptionCharacters)
            if !compact.isEmpty { return compact }
        }
        return ""
    }

    /// A parameter's description as the model reads it: its first sentence within
    /// ``parameterCharacters``, or `nil` when nothing is left or it only repeats `name`
    /// (`"path": "The path"`, `"extra_names": "Extra Names"`), which the model reads anyway.
    package static func parameterDescription(_ text: String, name: String) -> String? {
        let compact = compacted(text, maximumCharacters: parameterCharacters, maximumSentences: 1)
        if compact.isEmpty || repeatsName(compact, name) { return nil }
        return compact
    }

    /// Whether `text` says no more than `name`: the same letters and digits, ignoring case,
    /// separators and a leading article (`"The file path."` repeats `file_path` and `filePath`).
    static func repeatsName(_ text: String, _ name: String) -> Bool {
        var words = text.split { !$0.isLetter && !$0.isNumber }.map { $0.lowercased() }
        if let first = words.first, words.count > 1, ["the", "a", "an"].contains(first) {
            words.removeFirst()
        }
        let folded = words.joined()
        let foldedName = name.filter { $0.isLetter || $0.isNumber }.lowercased()
        return !folded.isEmpty && folded == foldedName
    }

    // MARK: Blocks

    /// Labels that start a docstring section (lowercased, without the colon).
    static let sectionLabels: Set<String> = [
        "args", "arguments", "parameters", "params", "parameter", "keyword args", "keyword arguments", "kwargs",
        "other parameters", "returns", "return", "yields", "raises", "throws", "exceptions", "example", "examples",
        "note", "notes", "see also", "usage",
    ]

    /// Where a section being dropped started.
    private enum Section {
        /// A docstring section at this indentation.
        case block(indent: Int)
        /// A Markdown heading section at this level.
        case heading(level: Int)
    }

    /// The text's sentences, markup removed, in order.
    static func sentences(in text: String, dropsSections: Bool) -> [String] {
        blocks(in: text, dropsSections: dropsSections).flatMap(splitSentences).filter { sentence in
            !(dropsSections && startsWithSectionLabel(sentence, keepingNotes: true))
        }
    }

    /// Paragraphs and list items, each on one line with markup removed.
    static func blocks(in text: String, dropsSections: Bool) -> [String] {
        var blocks: [String] = []
        var current: [Substring] = []
        var inListItem = false
        func flush() {
            let block = inlineCleaned(current.joined(separator: " "))
            if !block.isEmpty { blocks.append(block) }
            current = []
            inListItem = false
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var fence: Substring?
        var section: Section?
        var sawBlank = false
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingWhitespace
            let indent = raw.prefix { $0 == " " || $0 == "\t" }.count
            if let open = fence {
                if line.hasPrefix(open) { fence = nil }
                continue
            }
            if line.hasPrefix("```") || line.hasPrefix("~~~") {
                flush()
                fence = line.prefix(3)
                continue
            }
            if line.isEmpty {
                flush()
                sawBlank = true
                continue
            }
            if let (level, title) = heading(line) {
                flush()
                if case .heading(let open)? = section, level > open { continue }
                section = dropsSections && isSectionLabel(title) ? .heading(level: level) : nil
                continue
            }
            if case .heading? = section { continue }
            if isRule(line) {
                flush()
                continue
            }
            if dropsSections && isSectionHeader(line, next: index + 1 < lines.count ? lines[index + 1].trimmingWhitespace : "") {
                flush()
                section = .block(indent: indent)
                sawBlank = false
                continue
            }
            if case .block(let headerIndent)? = section {
                // More indented lines, and the rest of the header's paragraph, belong to it.
                if indent > headerIndent || !sawBlank { continue }
                section = nil
            }
            // As in CommonMark, only a list that starts at 1 interrupts a paragraph
            // (a wrapped line of prose can start with "32) ").
            if let (item, number) = listItem(line), current.isEmpty || inListItem || number == nil || number == 1 {
                flush()
                current = [item]
                inListItem = true
            } else if line.hasPrefix(">") {
                current.append(line.drop { $0 == ">" || $0 == " " })
            } else {
                current.append(line)
            }
        }
        flush()
        return blocks
    }

    /// The level and text of a Markdown heading (`## Title ##`).
    private static func heading(_ line: Substring) -> (Int, Substring)? {
        let level = line.prefix { $0 == "#" }.count
        guard (1...6).contains(level), line.dropFirst(level).first?.isWhitespace ?? true else { return nil }
        let title = line.dropFirst(level).trimmingWhitespace
        return (level, title.prefix(title.count - title.reversed().prefix { $0 == "#" }.count).trimmingWhitespace)
    }

    /// Whether `line` is only `-`, `=`, `*` or `_` (three or more): a rule or an underline.
    private static func isRule(_ line: Substring) -> Bool {
        let marks = line.filter { !$0.isWhitespace }
        guard marks.count >= 3, let first = marks.first, "-=*_".contains(first) else { return false }
        return marks.allSatisfy { $0 == first }
    }

    /// Whether `title` (a heading, a label) names a docstring section.
    private static func isSectionLabel(_ title: some StringProtocol) -> Bool {
        let label = String(title.filter { $0 != "*" && $0 != "_" }).trimmingWhitespace
        let bare = label.hasSuffix(":") ? label.dropLast() : label[...]
        return sectionLabels.contains(bare.trimmingWhitespace.lowercased())
    }

    /// Whether `line` starts a docstring section: `Args:`, `**Returns:** …`, or a label
    /// underlined by `next` (`Parameters` over `----------`).
    private static func isSectionHeader(_ line: Substring, next: Substring) -> Bool {
        if startsWithSectionLabel(line) { return true }
        return isSectionLabel(line) && isRule(next) && !next.contains("*") && !next.contains("_")
    }

    /// Whether `text` starts with a section label and a colon (`Returns: the issue.`);
    /// `Note:` does not count when `keepingNotes` is on.
    private static func startsWithSectionLabel(_ text: some StringProtocol, keepingNotes: Bool = false) -> Bool {
        let head = String(text.prefix(24).filter { $0 != "*" })
        guard let colon = head.firstIndex(of: ":") else { return false }
        let label = head[..<colon].trimmingWhitespace.lowercased()
        return sectionLabels.contains(label) && !(keepingNotes && (label == "note" || label == "notes"))
    }

    /// The text of a list item (`- a`, `* a`, `+ a`, `• a`, `1. a`, `2) a`) and its number,
    /// or `nil`.
    private static func listItem(_ line: Substring) -> (Substring, Int?)? {
        if let first = line.first, "-*+•·".contains(first), line.dropFirst().first?.isWhitespace == true {
            return (line.dropFirst().trimmingWhitespace, nil)
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        let rest = line.dropFirst(digits.count)
        if (1...3).contains(digits.count), let number = Int(digits), let mark = rest.first, mark == "." || mark == ")",
            rest.dropFirst().first?.isWhitespace == true
        {
            return (rest.dropFirst().trimmingWhitespace, number)
        }
        return nil
    }

    // MARK: Inline markup

    /// `text` with links and images as their text, `**` and backticks removed and
    /// whitespace collapsed.
    static func inlineCleaned(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let character = rest.first {
            if character == "!" || character == "[", let (label, after) = link(in: rest) {
                result += label
                rest = after
                continue
            }
            if character == "`" {
                rest = rest.dropFirst()
                continue
            }
            if rest.hasPrefix("**") {
                rest = rest.dropFirst(2)
                continue
            }
            result.append(character)
            rest = rest.dropFirst()
        }
        return result.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The label of a link or image at the start of `text` (`[label](url)`, `![alt](url)`)
    /// and what follows it.
    ///
    /// The label and the address are looked for within a bounded distance, so text full of
    /// brackets is still read in linear time.
    private static func link(in text: Substring) -> (Substring, Substring)? {
        let open = text.first == "!" ? text.dropFirst() : text
        guard open.first == "[", let close = open.prefix(maximumLinkLabel + 2).firstIndex(of: "]") else { return nil }
        let label = open[open.index(after: open.startIndex)..<close]
        let after = open[open.index(after: close)...]
        guard after.first == "(", let end = after.prefix(maximumLinkAddress + 2).firstIndex(of: ")"), !label.contains("[") else {
            return nil
        }
        return (label, after[after.index(after: end)...])
    }

    /// The longest link label and address recognised, in characters.
    private static let maximumLinkLabel = 200
    private static let maximumLinkAddress = 1_000

    // MARK: Sentences

    /// Abbreviations that never end a sentence.
    private static let inlineAbbreviations: Set<String> = ["e.g.", "i.e.", "eg.", "ie.", "cf.", "viz."]
    /// Abbreviations that end a sentence only when a capital follows.
    private static let abbreviations: Set<String> = ["etc.", "vs.", "approx.", "incl."]

    /// `block` split after `.`, `!` or `?` and a space (not after `e.g.` or `i.e.`, nor
    /// after `etc.` or an initial followed by a lowercase word), and after `。`, `！` or `？`.
    static func splitSentences(_ block: String) -> [String] {
        var sentences: [String] = []
        var start = block.startIndex
        var index = block.startIndex
        while index < block.endIndex {
            let character = block[index]
            var end: String.Index?
            if "。！？".contains(character) {
                end = block.index(after: index)
            } else if ".!?".contains(character) {
                var after = block.index(after: index)
                while after < block.endIndex, "\"')]”’".contains(block[after]) { after = block.index(after: after) }
                if after < block.endIndex, block[after].isWhitespace, endsSentence(block, at: index, next: after) {
                    end = after
                }
            }
            if let end {
                let sentence = block[start..<end].trimmingWhitespace
                if !sentence.isEmpty { sentences.append(String(sentence)) }
                start = end
                index = end
            } else {
                index = block.index(after: index)
            }
        }
        let last = block[start...].trimmingWhitespace
        if !last.isEmpty { sentences.append(String(last)) }
        return sentences
    }

    /// Whether the full stop at `index` ends a sentence, given the space at `next`.
    private static func endsSentence(_ block: String, at index: String.Index, next: String.Index) -> Bool {
        guard block[index] == "." else { return true }
        let token = block[..<block.index(after: index)].reversed().prefix { !$0.isWhitespace }.reversed()
        let word = token.drop { !$0.isLetter }
        let lowered = String(word).lowercased()
        if inlineAbbreviations.contains(lowered) { return false }
        let isInitial = word.count == 2 && (word.first?.isLetter ?? false)
        guard abbreviations.contains(lowered) || isInitial else { return true }
        let following = block[next...].first { !$0.isWhitespace }
        return following?.isUppercase ?? true
    }

    /// Leading `sentences` joined while they fit `maximumCharacters`; the first cut at a
    /// word when even it does not fit.
    private static func fitted(_ sentences: ArraySlice<String>, maximumCharacters: Int) -> String {
        var result = ""
        var count = 0
        for sentence in sentences {
            let joiner: String
            if result.isEmpty || result.last.map({ "。！？".contains($0) }) == true {
                joiner = ""
            } else {
                joiner = hasFinalPunctuation(result) ? " " : ". "
            }
            let added = joiner.count + sentence.count
            guard count + added <= maximumCharacters else { break }
            result += joiner + sentence
            count += added
        }
        if result.isEmpty, let first = sentences.first {
            return cut(first, maximumCharacters: maximumCharacters)
        }
        return result
    }

    /// Whether `text` ends like a sentence or a clause (so the next one needs no full stop).
    private static func hasFinalPunctuation(_ text: String) -> Bool {
        let trailing = text.reversed().drop { "\"')]”’".contains($0) }
        guard let last = trailing.first else { return false }
        return ".!?…:;。！？".contains(last)
    }

    /// `text` cut to `maximumCharacters` at a word (when one ends in the second half), with `…`.
    static func cut(_ text: String, maximumCharacters: Int) -> String {
        guard text.count > maximumCharacters else { return text }
        guard maximumCharacters > 1 else { return maximumCharacters == 1 ? "…" : "" }
        let prefix = text.prefix(maximumCharacters - 1)
        var kept = prefix[...]
        if !text[prefix.endIndex].isWhitespace, let space = prefix.lastIndex(where: \.isWhitespace),
            prefix.distance(from: prefix.startIndex, to: space) >= prefix.count / 2
        {
            kept = prefix[..<space]
        }
        let trimmed = kept.reversed().drop { $0.isWhitespace || ",;:-–—(/".contains($0) }
        let body = trimmed.isEmpty ? kept : kept.prefix(trimmed.count)
        return String(body) + "…"
    }
}
