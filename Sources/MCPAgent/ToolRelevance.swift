/// Ranks tools by how relevant they are to a prompt: BM25F over the words of their names,
/// titles, descriptions and parameters, plus a boost for tools the conversation used recently.
///
/// Text becomes *terms* (``terms(in:)``): words split at anything but letters and digits, at
/// camelCase humps and between letters and digits (`getUserIDs` → `get`, `user`, `ids`;
/// `repo_path`, `repo-path` and `repo.path` → `repo`, `path`), lowercased, without one-letter
/// words and common English stop words, lightly stemmed (``stem(_:)``) so that `notes` and
/// `note`, `searching` and `search`, `created` and `create` are the same term.
///
/// A tool's score for a prompt is BM25F (Robertson & Zaragoza, 2009) with the inverse
/// document frequency taken over the candidates given, so a word every tool shares (`gitlab`
/// among 60 GitLab tools) counts little and a word only one tool has counts much. The fields
/// weigh, per occurrence: name 3 (the model name and the server's name), title 2, description 1,
/// server label 0.75, parameter names 0.5, parameter descriptions 0.25. The prompt's terms also
/// bring, at half weight,
/// - two adjacent words that are not stop words, written as one (`time zone` → `timezone`,
///   `look up` → `lookup`);
/// - the other members of a small table of common verbs (``synonymGroups``): get, fetch, read,
///   show, list; create, add, new, make; delete, remove; update, edit, modify, change;
///   find, search, lookup, query.
///
/// A ranking (``ranking(for:recentlyUsed:)``) also counts the tools the conversation used: the
/// most recently used one scores at least what a strong match of one distinctive word scores,
/// the ones before it ½, ¼ and ⅛ of that. So a follow-up such as "and in Paris?", whose words
/// match nothing or only words many tools share, keeps the tool the conversation is using,
/// while a prompt with words of its own ("list the milestones") still ranks the tool it names
/// first. Ranked scores are relative to the first tool's, which is 1.
///
/// Results are deterministic: they depend on the candidates' order and text only, never on
/// hashing.
public struct ToolRelevance: Sendable {
    /// A candidate's place in a ranking.
    public struct Ranked: Hashable, Sendable {
        /// The candidate's position in the list the relevance was built from.
        public var index: Int
        /// Its relevance as a share of the first tool's (1 for the first; 0 when nothing relates
        /// it to the prompt).
        public var score: Double
    }

    /// The weights and constants of the ranking.
    struct Tuning: Hashable, Sendable {
        /// BM25 saturation: how fast repeated matches stop adding.
        var k1 = 1.2
        /// Weight per occurrence in the name, title, description, server label, parameter
        /// names and parameter descriptions.
        var fieldWeights: [Double] = [3, 2, 1, 0.75, 0.5, 0.25]
        /// Length normalisation (BM25's b) of the same fields.
        var lengthNormalisation: [Double] = [0.3, 0.3, 0.75, 0.3, 0.75, 0.75]
        /// The weight of a term the prompt only implies (a joined pair of words, a synonym).
        var impliedWeight = 0.5
        /// The least score of the most recently used tool, in shares of `strongMatch`;
        /// each older distinct tool's is half of the one after it.
        var recencyShare = 1.0
        /// How many of the most recently used distinct tools have a least score.
        var recencyWindow = 4

        static let standard = Tuning()
    }

    /// A candidate's terms with their BM25F-weighted frequencies.
    private struct Document: Sendable {
        var weights: [String: Double] = [:]
    }

    /// The candidates, in the order given.
    public let candidates: [ToolCandidate]
    private let tuning: Tuning
    private let documents: [Document]
    private let documentFrequency: [String: Int]
    /// The lexical score of a strong match: a word of the prompt that only one candidate has,
    /// once in its name.
    let strongMatch: Double

    /// Indexes `candidates`; IDF is computed over them.
    public init(_ candidates: [ToolCandidate]) {
        self.init(candidates, tuning: .standard)
    }

    init(_ candidates: [ToolCandidate], tuning: Tuning) {
        self.candidates = candidates
        self.tuning = tuning
        var terms = TermCache()
        // The fields, in the order of the tuning's weights.
        let fields: [[[String]]] = [
            candidates.map { candidate in
                let name = terms.terms(in: candidate.name)
                return name + terms.terms(in: candidate.toolNameOnServer).filter { !name.contains($0) }
            },
            candidates.map { terms.terms(in: $0.title ?? "") },
            candidates.map { terms.terms(in: $0.description) },
            candidates.map { terms.terms(in: $0.server ?? "") },
            candidates.map { $0.parameterNames.flatMap { terms.terms(in: $0) } },
            candidates.map { $0.parameterDescriptions.flatMap { terms.terms(in: $0) } },
        ]
        var documents = candidates.map { _ in Document() }
        for (field, fieldTerms) in fields.enumerated() {
            let totalLength = fieldTerms.reduce(0) { $0 + $1.count }
            guard totalLength > 0 else { continue }
            let averageLength = Double(totalLength) / Double(candidates.count)
            let weight = tuning.fieldWeights[field]
            let b = tuning.lengthNormalisation[field]
            for (index, terms) in fieldTerms.enumerated() {
                let normaliser = (1 - b) + b * Double(terms.count) / averageLength
                for term in terms {
                    documents[index].weights[term, default: 0] += weight / normaliser
                }
            }
        }
        var frequency: [String: Int] = [:]
        for document in documents {
            for term in document.weights.keys {
                frequency[term, default: 0] += 1
            }
        }
        self.documents = documents
        documentFrequency = frequency
        let count = Double(candidates.count)
        let nameWeight = tuning.fieldWeights[0]
        strongMatch =
            Self.logarithm(1 + (count - 0.5) / 1.5) * nameWeight * (tuning.k1 + 1) / (nameWeight + tuning.k1)
    }

    /// Each candidate's lexical score for `prompt`, in the candidates' order (0 when no term matches).
    public func scores(for prompt: String) -> [Double] {
        let query = Self.queryTerms(in: prompt, impliedWeight: tuning.impliedWeight)
        let count = Double(documents.count)
        let k1 = tuning.k1
        let weighted = query.compactMap { term, weight -> (term: String, weight: Double)? in
            guard let frequency = documentFrequency[term] else { return nil }
            let idf = Self.logarithm(1 + (count - Double(frequency) + 0.5) / (Double(frequency) + 0.5))
            return (term, weight * idf)
        }
        return documents.map { document in
            var score = 0.0
            for (term, weight) in weighted {
                guard let frequency = document.weights[term] else { continue }
                score += weight * frequency * (k1 + 1) / (frequency + k1)
            }
            return score
        }
    }

    /// The candidates from most to least relevant to `prompt`, given the tools the
    /// conversation used (model names, most recent last).
    ///
    /// A tool among the last four distinct tools of `recentlyUsed` scores at least what a
    /// strong match of one distinctive word scores (a word only one candidate has, once in its
    /// name) for the most recent, half that for the one before, and so on; a prompt that names
    /// another tool's distinctive words still ranks that tool first. Ranked scores are relative to the first tool's, which is 1.
    /// Ties go to the more recently used tool, then to the earlier candidate.
    public func ranking(for prompt: String, recentlyUsed: [String] = []) -> [Ranked] {
        let lexical = scores(for: prompt)
        var recency: [String: Int] = [:]
        for name in recentlyUsed.reversed() where recency[name] == nil {
            recency[name] = recency.count
        }
        let scored = lexical.indices.map { index -> (index: Int, score: Double, age: Int) in
            let age = recency[candidates[index].name] ?? Int.max
            var score = lexical[index]
            if age < tuning.recencyWindow {
                score = max(score, strongMatch * tuning.recencyShare / Double(1 << age))
            }
            return (index, score, age)
        }
        let top = scored.map(\.score).max() ?? 0
        return scored.sorted { left, right in
            if left.score != right.score { return left.score > right.score }
            if left.age != right.age { return left.age < right.age }
            return left.index < right.index
        }.map { Ranked(index: $0.index, score: top > 0 ? $0.score / top : 0) }
    }

    /// The prompt's terms with their weights, in order of first appearance: its own terms at
    /// weight 1, synonyms and adjacent words joined (when neither is a stop word) at `impliedWeight`.
    static func queryTerms(
        in prompt: String, impliedWeight: Double = Tuning.standard.impliedWeight
    ) -> [(term: String, weight: Double)] {
        var order: [String] = []
        var weights: [String: Double] = [:]
        func add(_ term: String, _ weight: Double) {
            if let known = weights[term] {
                weights[term] = max(known, weight)
            } else {
                order.append(term)
                weights[term] = weight
            }
        }
        let words = Self.words(in: prompt)
        for (position, word) in words.enumerated() {
            if !stopWords.contains(word) {
                let term = stem(word)
                add(term, 1)
                for synonym in synonyms[term] ?? [] {
                    add(synonym, impliedWeight)
                }
            }
            if position + 1 < words.count, Self.isJoinable(word), Self.isJoinable(words[position + 1]) {
                add(stem(word + words[position + 1]), impliedWeight)
            }
        }
        return order.map { ($0, weights[$0] ?? 0) }
    }

    // MARK: Terms

    /// Whether `word` may be joined with its neighbour into one term: letters only, not a stop word.
    private static func isJoinable(_ word: String) -> Bool {
        !stopWords.contains(word) && word.allSatisfy(\.isLetter)
    }

    /// The terms of `text`: its words without stop words, stemmed.
    public static func terms(in text: String) -> [String] {
        words(in: text).filter { !stopWords.contains($0) }.map(stem)
    }

    /// ``terms(in:)`` with each distinct word's term remembered, for indexing much text.
    private struct TermCache {
        /// The term of each word seen; `nil` for a stop word.
        private var known: [String: String?] = [:]

        mutating func terms(in text: String) -> [String] {
            ToolRelevance.words(in: text).compactMap { word in
                if let term = known[word] { return term }
                let term = stopWords.contains(word) ? nil : stem(word)
                known[word] = .some(term)
                return term
            }
        }
    }

    /// The lowercased words of `text`, split at anything but letters and digits, at camelCase
    /// humps and between letters and digits; words of one letter or digit are dropped.
    ///
    /// An uppercase run before lowercase letters ends one letter early (`HTTPServer` → `http`,
    /// `server`) unless the lowercase part is a single plural `s` (`IDs` → `ids`). Letters
    /// without case (`漢字`) make words too; emoji and punctuation separate them.
    static func words(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        let kinds = scalars.map(CharacterKind.init)
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var length = 0
        var isASCII = true
        var previous = CharacterKind.separator
        func finish() {
            if length > 1 {
                words.append(isASCII ? String(word) : String(word).lowercased())
            }
            word = String.UnicodeScalarView()
            length = 0
            isASCII = true
            previous = .separator
        }
        for (index, scalar) in scalars.enumerated() {
            let kind = kinds[index]
            switch kind {
            case .separator:
                finish()
                continue
            case .mark:
                // A combining mark belongs to the letter before it.
                if length > 0 {
                    word.append(scalar)
                    isASCII = false
                }
                continue
            default:
                break
            }
            if length > 0 {
                let startsLowercaseWord =
                    index + 2 < kinds.count && kinds[index + 1] == .lowercase && kinds[index + 2] == .lowercase
                if (previous == .digit) != (kind == .digit)
                    || (previous == .lowercase && kind == .uppercase)
                    || (previous == .uppercase && kind == .uppercase && startsLowercaseWord)
                {
                    finish()
                }
            }
            if scalar.isASCII {
                // ASCII letters are lowercased here; other text is lowercased as a whole word.
                let value = scalar.value
                word.append(kind == .uppercase ? Unicode.Scalar(UInt8(value + 32)) : scalar)
            } else {
                word.append(scalar)
                isASCII = false
            }
            length += 1
            previous = kind
        }
        finish()
        return words
    }

    /// What a Unicode scalar is to the word splitter.
    private enum CharacterKind: Equatable {
        case lowercase, uppercase, caseless, digit, mark, separator

        init(_ scalar: Unicode.Scalar) {
            switch scalar.value {
            case 0x61...0x7A: self = .lowercase
            case 0x41...0x5A: self = .uppercase
            case 0x30...0x39: self = .digit
            case 0..<0x80: self = .separator
            default:
                let properties = scalar.properties
                switch properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark: self = .mark
                case .decimalNumber: self = .digit
                default:
                    if properties.isLowercase {
                        self = .lowercase
                    } else if properties.isUppercase {
                        self = .uppercase
                    } else if properties.isAlphabetic {
                        self = .caseless
                    } else {
                        self = .separator
                    }
                }
            }
        }
    }

    /// `word` with a light suffix stemming, so that inflections of a word meet.
    ///
    /// In order: plural `-ies` → `-y`, `-sses`/`-ches`/`-shes`/`-xes`/`-zes` lose `-es`, other
    /// plural `-s` is dropped (not `-ss`, `-us`, `-is`); then `-ing` or `-ed` is dropped when
    /// a stem of three or more letters with a vowel remains (`-ied` → `-y`), and a doubled
    /// final consonant is undone (`mapping` → `map`, but `filled` → `fill`), or else `-ly` is
    /// dropped when four or more letters remain (`securely` → `secure`); last, a final `-e` is
    /// dropped so `create`, `created` and `creating` all become `creat`. Words of three letters
    /// or fewer, and words that are not all ASCII letters, are kept as they are.
    public static func stem(_ word: String) -> String {
        var letters = Array(word.utf8)
        guard letters.count > 3, letters.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else {
            return word
        }
        func ends(_ suffix: StaticString) -> Bool {
            let count = suffix.utf8CodeUnitCount
            guard letters.count > count else { return false }
            return suffix.withUTF8Buffer { letters.suffix(count).elementsEqual($0) }
        }
        func replaceSuffix(_ count: Int, with replacement: UInt8? = nil) {
            letters.removeLast(count)
            if let replacement { letters.append(replacement) }
        }
        // Plurals.
        if ends("ies"), letters.count > 4 {
            replaceSuffix(3, with: UInt8(ascii: "y"))
        } else if ends("sses") || ends("ches") || ends("shes") || ends("xes") || ends("zes") {
            replaceSuffix(2)
        } else if ends("s"), !ends("ss"), !ends("us"), !ends("is") {
            replaceSuffix(1)
        }
        // -ing, -ed, -ly.
        var strippedVerb = false
        if ends("ied"), letters.count > 4 {
            replaceSuffix(3, with: UInt8(ascii: "y"))
        } else if ends("eed") {
            // `speed`, `feed`, `seed`: not the past of a shorter word.
        } else if ends("ing"), isStem(letters.dropLast(3)) {
            replaceSuffix(3)
            strippedVerb = true
        } else if ends("ed"), isStem(letters.dropLast(2)) {
            replaceSuffix(2)
            strippedVerb = true
        } else if ends("ly"), letters.count >= 6 {
            replaceSuffix(2)
        }
        if strippedVerb, letters.count > 2, let last = letters.last, letters[letters.count - 2] == last,
            !"aeioulsz".utf8.contains(last)
        {
            replaceSuffix(1)
        }
        if letters.count > 3, letters.last == UInt8(ascii: "e") {
            replaceSuffix(1)
        }
        return String(decoding: letters, as: UTF8.self)
    }

    /// Whether `letters` can be what is left of a word after a suffix: three letters or more, one a vowel.
    private static func isStem(_ letters: ArraySlice<UInt8>) -> Bool {
        letters.count >= 3 && letters.contains { "aeiouy".utf8.contains($0) }
    }

    /// Words that say nothing about which tool is meant.
    static let stopWords: Set<String> = [
        "about", "again", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "being",
        "both", "but", "by", "can", "could", "did", "do", "does", "doing", "don", "each", "eg", "either", "etc", "for",
        "from", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "ie", "if", "in", "into",
        "is", "it", "its", "just", "let", "lets", "like", "may", "me", "might", "mine", "must", "my", "need", "no", "nor",
        "not", "of", "off", "ok", "okay", "on", "onto", "or", "our", "ours", "out", "over", "please", "pls", "shall",
        "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "then", "there",
        "these", "they", "this", "those", "to", "too", "us", "very", "via", "want", "was", "we", "were", "what",
        "when", "where", "which", "while", "who", "whom", "whose", "why", "will", "with", "would", "you", "your", "yours",
    ]

    /// Common verbs that name the same action; a prompt's term brings the others of its group at
    /// half weight. Kept small on purpose: every entry must be right for almost any tool.
    public static let synonymGroups: [[String]] = [
        ["get", "fetch", "read", "show", "list"],
        ["create", "add", "new", "make"],
        ["delete", "remove"],
        ["update", "edit", "modify", "change"],
        ["find", "search", "lookup", "query"],
    ]

    /// ``synonymGroups`` by stemmed term: the other stems of its group.
    private static let synonyms: [String: [String]] = {
        var table: [String: [String]] = [:]
        for group in synonymGroups {
            let stems = group.map(stem)
            for term in stems {
                table[term, default: []] += stems.filter { $0 != term }
            }
        }
        return table
    }()

    /// The natural logarithm of `x` (0 for `x` ≤ 0), from the standard library alone.
    ///
    /// `ln x = k ln 2 + 2 artanh((m − 1) / (m + 1))` for `x = m·2^k`, `m` in [1, 2); the series
    /// converges fast since `(m − 1) / (m + 1)` ≤ ⅓.
    static func logarithm(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return 0 }
        let ln2 = 0.693_147_180_559_945_3
        let exponent = x.exponent
        let mantissa = x.significand
        let y = (mantissa - 1) / (mantissa + 1)
        let y2 = y * y
        var power = y
        var sum = 0.0
        var n = 1.0
        while power / n > 1e-17 {
            sum += power / n
            power *= y2
            n += 2
        }
        return Double(exponent) * ln2 + 2 * sum
    }
}
