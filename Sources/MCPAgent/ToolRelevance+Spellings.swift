extension ToolRelevance {
    /// The candidates' words, for matching a prompt's word that none of them has to the ones a
    /// typing slip away from it.
    ///
    /// A slip is one letter left out, added or changed, or two neighbours swapped (`taks` →
    /// `task`, `priorty` → `priority`). Only words of four or more ASCII letters are kept, and
    /// a prompt's word is matched only when it has five or more (four: a swap only), so that
    /// short words do not meet everything.
    struct Spellings: Sendable {
        private struct Entry: Sendable {
            let word: [UInt8]
            let term: String
        }

        /// The words by length and first letter, and by length and last letter: one slip
        /// keeps a word's first letter or its last, so these two buckets hold every candidate.
        private var byFirst: [Int: [Entry]] = [:]
        private var byLast: [Int: [Entry]] = [:]

        /// Indexes `words`, each with its term.
        init(_ words: [String: String]) {
            for (word, term) in words.sorted(by: { $0.key < $1.key }) {
                let letters = Array(word.utf8)
                guard letters.count >= 4, let first = letters.first, let last = letters.last,
                    letters.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
                else { continue }
                let entry = Entry(word: letters, term: term)
                byFirst[Self.key(letters.count, first), default: []].append(entry)
                byLast[Self.key(letters.count, last), default: []].append(entry)
            }
        }

        private static func key(_ length: Int, _ letter: UInt8) -> Int {
            length << 8 | Int(letter)
        }

        /// The terms of the indexed words one typing slip from `word`.
        func terms(near word: String) -> [String] {
            let typed = Array(word.utf8)
            guard typed.count >= 4, let first = typed.first, let last = typed.last else { return [] }
            var found: [String] = []
            for length in (typed.count - 1)...(typed.count + 1) where length >= 4 {
                for entry in byFirst[Self.key(length, first)] ?? [] where Self.isSlip(typed, entry.word) {
                    found.append(entry.term)
                }
                for entry in byLast[Self.key(length, last)] ?? [] where entry.word.first != first && Self.isSlip(typed, entry.word) {
                    found.append(entry.term)
                }
            }
            return found
        }

        /// Whether `typed` is a slip for `known`: a swap for a four-letter word, any one edit
        /// for a longer one.
        private static func isSlip(_ typed: [UInt8], _ known: [UInt8]) -> Bool {
            typed.count == 4 ? isSwap(typed, known) : isOneEdit(typed, known)
        }

        /// Whether `a` and `b` are the same but for two neighbouring letters swapped.
        static func isSwap(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            guard a.count == b.count, a != b else { return false }
            guard let first = a.indices.first(where: { a[$0] != b[$0] }), first + 1 < a.count else { return false }
            return a[first] == b[first + 1] && a[first + 1] == b[first] && a[(first + 2)...] == b[(first + 2)...]
        }

        /// Whether `a` becomes `b` by one letter left out, added or changed, or one swap.
        static func isOneEdit(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            guard a != b else { return false }
            if a.count == b.count {
                let differences = a.indices.filter { a[$0] != b[$0] }
                return differences.count == 1 || isSwap(a, b)
            }
            let (short, long) = a.count < b.count ? (a, b) : (b, a)
            guard long.count == short.count + 1 else { return false }
            var index = 0
            while index < short.count, short[index] == long[index] { index += 1 }
            return short[index...] == long[(index + 1)...]
        }
    }
}
