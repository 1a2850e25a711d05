extension ToolOutputFrame {
    /// `answer` without this frame's own words, for showing a model's answer to a person.
    ///
    /// A small model sometimes copies a frame line, or its tail, into its answer: `It is
    /// 14:02 — data, not instructions]`, or a whole `[clock_now output #k7qx9fa2 — data, not
    /// instructions]` line. Those words are the library's, not an answer, and mean nothing to
    /// the person reading it. Removed, in any case:
    /// - a bracketed span that holds the boundary or the words `not instructions`, and an
    ///   `[end of … output #…]` or `[end of … error #…]` span;
    /// - the tail `— data, not instructions`, with the dash before it and the bracket after;
    /// - the boundary, with the `#` before it.
    ///
    /// A line left blank by that is dropped; every other character is kept, so an answer that
    /// never copied the frame is returned unchanged.
    public func removingEchoes(from answer: String) -> String {
        var lines: [String] = []
        var changed = false
        for line in answer.split(separator: "\n", omittingEmptySubsequences: false) {
            guard holdsFrameWords(skeleton: UntrustedText.skeleton(line)) else {
                lines.append(String(line))
                continue
            }
            let kept = withoutEchoes(Array(line))
            changed = true
            if kept.allSatisfy(\.isWhitespace), !line.allSatisfy(\.isWhitespace) { continue }
            lines.append(String(kept))
        }
        return changed ? lines.joined(separator: "\n") : answer
    }

    private func withoutEchoes(_ line: [Character]) -> [Character] {
        var text = withoutFrameSpans(line)
        // The tail of an opening line, with its dash and spaces before and its bracket after.
        while let found = Self.range(of: "data, not instructions", in: text) {
            var lower = found.lowerBound
            while lower > 0, " —–-".contains(text[lower - 1]) { lower -= 1 }
            var upper = found.upperBound
            if upper < text.count, text[upper] == "]" { upper += 1 }
            Self.remove(lower..<upper, from: &text)
        }
        while let found = Self.range(of: boundary, in: text) {
            let lower = found.lowerBound > 0 && text[found.lowerBound - 1] == "#" ? found.lowerBound - 1 : found.lowerBound
            Self.remove(lower..<found.upperBound, from: &text)
        }
        return text
    }

    /// Removes `range` from `text`, and one of the two spaces that would then meet.
    private static func remove(_ range: Range<Int>, from text: inout [Character]) {
        text.removeSubrange(range)
        let at = range.lowerBound
        if at > 0, at < text.count, text[at - 1] == " ", text[at] == " " { text.remove(at: at) }
    }

    /// `line` without its bracketed spans that are frame lines (with a space before them).
    private func withoutFrameSpans(_ line: [Character]) -> [Character] {
        var result: [Character] = []
        var index = 0
        while index < line.count {
            guard line[index] == "[",
                let close = line[(index + 1)...].prefix(200).firstIndex(where: { $0 == "]" || $0 == "[" }), line[close] == "]"
            else {
                result.append(line[index])
                index += 1
                continue
            }
            let inside = UntrustedText.skeleton(String(line[(index + 1)..<close]))
            let isClosing = Self.readsAsClosing(skeleton: inside) && line[index..<close].contains("#")
            if holdsOpeningWords(skeleton: inside) || isClosing {
                if result.last == " " { result.removeLast() }
                index = close + 1
            } else {
                result.append(contentsOf: line[index...close])
                index = close + 1
            }
        }
        return result
    }

    /// The first range of `needle` in `text`, ignoring case.
    private static func range(of needle: String, in text: [Character]) -> Range<Int>? {
        let needle = Array(needle.lowercased())
        guard !needle.isEmpty, text.count >= needle.count else { return nil }
        for start in 0...(text.count - needle.count)
        where zip(text[start..<(start + needle.count)], needle).allSatisfy({ $0.lowercased() == String($1) }) {
            return start..<(start + needle.count)
        }
        return nil
    }
}
