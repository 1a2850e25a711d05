/// Ranks tools by how relevant they are to a prompt: a BM25 score per field of each tool's
/// definition, an optional sentence embedding, and a boost for tools the conversation used
/// recently.
///
/// Text becomes *terms* (``terms(in:)``): words split at anything but letters and digits, at
/// camelCase humps and between letters and digits (`getUserIDs` → `get`, `user`, `ids`;
/// `repo_path`, `repo-path` and `repo.path` → `repo`, `path`), lowercased, without one-letter
/// words and common English stop words, lightly stemmed (``stem(_:)``) so that `notes` and
/// `note`, `searching` and `search`, `created` and `create` are the same term.
///
/// **Fields.** Each tool is seven fields, each scored on its own and then weighed, so that one
/// field cannot make up for another by volume:
///
/// | field | weight |
/// |---|---|
/// | name (the model's name and the name on the server) | 3 |
/// | title (its words the name does not have: a title most often repeats the name) | 2 |
/// | the description's lead: its first sentence, at most 24 terms | 1.5 |
/// | the rest of the description | 0.1 |
/// | the server's label | 0.5 |
/// | parameter names | 0.8 |
/// | parameter descriptions | 0.2 |
///
/// A field's score for a term saturates (BM25, k1 = 1.2) and is normalised by the field's
/// length against that field's average over the candidates, fully for the rest of the
/// description: a description ten times longer than the others does not match ten times more.
/// The inverse document frequency is taken over the candidates given, so a word every tool
/// shares (`gitlab` among 30 GitLab tools) counts little and a word only one tool has counts much.
///
/// **Implied terms.** A prompt's words also bring, at half weight,
/// - two adjacent words that are not stop words, written as one (`time zone` → `timezone`,
///   `look up` → `lookup`), and what that one word points at (`money back` → `refund`);
/// - the other members of their group in ``synonymGroups`` (`folder` → `directory`, `save` →
///   `write`, `remove` → `delete`);
/// - the terms a request word points at (`inside` → `read`, `content`; `how many` → `count`,
///   `query`; `who changed` → `log`);
/// - for a word no candidate has, the candidates' words one typing slip from it (`taks` →
///   `task`, `priorty` → `priority`: a letter left out, added or changed, or two swapped).
///
/// A file-system path (`~/projects/reports`, `./app`, `/var/backups`) says where, not what to
/// do: its words count at half weight, and it implies `path`.
///
/// A tool whose matches are all actions (get, add, save, delete, and their synonyms), none a
/// word for what it acts on, keeps four fifths of its score: in `remember that Mark is my
/// manager`, a short tool named for adding a reaction should not outrank the knowledge graph's.
///
/// **Embedding.** Where a ``SentenceEmbedding`` is given (on Apple platforms the default is
/// NaturalLanguage's English sentence embedding, see ``platformEmbedding``), each tool's name,
/// title and description lead are embedded once, and a tool's cosine similarity to the prompt,
/// relative to the other candidates', adds to its lexical score (see ``Tuning/semanticWeight``).
/// Elsewhere (Linux) the lexical score is used alone.
///
/// A ranking (``ranking(for:recentlyUsed:)``) also counts the tools the conversation used: the
/// most recently used one scores at least what a strong match of one distinctive word scores,
/// the ones before it ½, ¼ and ⅛ of that. So a follow-up such as "and in Paris?", whose words
/// match nothing or only words many tools share, keeps the tool the conversation is using,
/// while a prompt with words of its own ("list the milestones") still ranks the tool it names
/// first. Ranked scores are relative to the first tool's, which is 1.
///
/// Results are deterministic: they depend on the candidates' order and text (and the
/// embedding's vectors) only, never on hashing.
public struct ToolRelevance: Sendable {
    /// A candidate's place in a ranking.
    public struct Ranked: Hashable, Sendable {
        /// The candidate's position in the list the relevance was built from.
        public var index: Int
        /// Its relevance as a share of the first tool's (1 for the first; 0 when nothing relates
        /// it to the prompt).
        public var score: Double
    }

    /// The weights and constants of the ranking; for evaluations that compare settings.
    @_spi(Tuning) public struct Tuning: Hashable, Sendable {
        /// BM25 saturation: how fast repeated matches in one field stop adding.
        public var k1 = 1.2
        /// Weight of a match in each field (``Field``'s order).
        public var fieldWeights: [Double] = [3, 2, 1.5, 0.1, 0.5, 0.8, 0.2]
        /// Length normalisation (BM25's b) of each field.
        public var lengthNormalisation: [Double] = [0.3, 0.3, 0.5, 1, 0.3, 0.5, 0.75]
        /// How many terms of a description's first sentence count as its lead.
        public var leadTerms = 24
        /// The weight of a term the prompt only implies (a joined pair, a synonym, an implication).
        public var impliedWeight = 0.5
        /// The share of its lexical score a tool keeps when the prompt's terms it matches are
        /// all actions (get, add, save, delete, and their synonyms) and none names
        /// what it acts on (1: no difference).
        public var actionOnlyShare = 0.8
        /// Share of a term's inverse document frequency taken over servers instead of tools
        /// (0: over tools only). A word only one server's tools use tells which server is meant.
        public var serverFrequencyShare = 0.0
        /// What the embedding's similarity adds, in units of a strong lexical match, for the
        /// candidate most similar to the prompt (others in proportion above the average).
        public var semanticWeight = 0.5
        /// The least score of the most recently used tool, in shares of a strong match;
        /// each older distinct tool's is half of the one after it.
        public var recencyShare = 1.0
        /// How many of the most recently used distinct tools have a least score.
        public var recencyWindow = 4
        /// What being on the server of the most recently used tool adds, in shares of a strong
        /// match (half that for the server of the tool before it, and so on): a follow-up
        /// ("open the first one") usually wants another tool of the server in use.
        public var serverAffinity = 0.5

        public init() {}

        public static let standard = Tuning()
    }

    /// The fields of a tool's definition, in the order of the tuning's weights.
    @_spi(Tuning) public enum Field: Int, CaseIterable, Sendable {
        case name, title, lead, details, server, parameterNames, parameterDescriptions
    }

    /// The candidates, in the order given.
    public let candidates: [ToolCandidate]
    private let tuning: Tuning
    /// Each candidate's terms with their weighed, saturated, normalised field scores summed.
    private let documents: [[String: Double]]
    /// Each term's inverse document frequency.
    private let inverseFrequency: [String: Double]
    /// Each candidate's embedding vector, normalised to length 1 (empty without an embedding).
    private let vectors: [[Double]?]
    private let embedding: (any SentenceEmbedding)?
    /// The candidates' words, for a prompt's word none of them has (a typing slip).
    private let spellings: Spellings
    /// The lexical score of a strong match: a word of the prompt that only one candidate has,
    /// once in its name.
    let strongMatch: Double

    /// Indexes `candidates` with the platform's sentence embedding, if it has one
    /// (``platformEmbedding``); IDF is computed over them.
    public init(_ candidates: [ToolCandidate]) {
        self.init(candidates, embedding: Self.platformEmbedding, tuning: .standard)
    }

    /// Indexes `candidates` with `embedding` as a second signal (`nil`: the lexical score alone).
    public init(_ candidates: [ToolCandidate], embedding: (any SentenceEmbedding)?) {
        self.init(candidates, embedding: embedding, tuning: .standard)
    }

    /// Indexes `candidates` with the given weights; for evaluations.
    @_spi(Tuning) public init(_ candidates: [ToolCandidate], embedding: (any SentenceEmbedding)?, tuning: Tuning) {
        self.candidates = candidates
        self.tuning = tuning
        self.embedding = embedding
        var terms = TermCache()
        var fields = [[[String]]](repeating: [], count: Field.allCases.count)
        for candidate in candidates {
            let name = terms.terms(in: candidate.name)
            let (lead, details) = Self.splitDescription(candidate.description, leadTerms: tuning.leadTerms, terms: &terms)
            let byField: [[String]] = [
                name + terms.terms(in: candidate.toolNameOnServer).filter { !name.contains($0) },
                terms.terms(in: candidate.title ?? "").filter { !name.contains($0) },
                lead,
                details,
                terms.terms(in: candidate.server ?? ""),
                candidate.parameterNames.flatMap { terms.terms(in: $0) },
                candidate.parameterDescriptions.flatMap { terms.terms(in: $0) },
            ]
            for (field, list) in byField.enumerated() { fields[field].append(list) }
        }
        let k1 = tuning.k1
        var documents = candidates.map { _ in [String: Double]() }
        for (field, fieldTerms) in fields.enumerated() {
            let totalLength = fieldTerms.reduce(0) { $0 + $1.count }
            guard totalLength > 0 else { continue }
            let averageLength = Double(totalLength) / Double(candidates.count)
            let weight = tuning.fieldWeights[field]
            let b = tuning.lengthNormalisation[field]
            for (index, terms) in fieldTerms.enumerated() where !terms.isEmpty {
                let normaliser = (1 - b) + b * Double(terms.count) / averageLength
                var counts: [String: Int] = [:]
                for term in terms { counts[term, default: 0] += 1 }
                for (term, count) in counts {
                    let frequency = Double(count)
                    documents[index][term, default: 0] += weight * frequency * (k1 + 1) / (frequency + k1 * normaliser)
                }
            }
        }
        self.documents = documents
        spellings = Spellings(terms.spellings)
        inverseFrequency = Self.inverseFrequencies(
            documents: documents, servers: candidates.map { $0.server ?? "" }, serverShare: tuning.serverFrequencyShare)
        let count = Double(candidates.count)
        strongMatch = Self.logarithm(1 + (count - 0.5) / 1.5) * tuning.fieldWeights[Field.name.rawValue]
        if let embedding {
            // What the tool is for, in words: its name's words, its title and its description's lead.
            let texts = candidates.map { candidate in
                [
                    Self.words(in: candidate.toolNameOnServer).joined(separator: " "), candidate.title ?? "",
                    Self.leadSentence(of: candidate.description),
                ].filter { !$0.isEmpty }.joined(separator: ". ")
            }
            vectors = embedding.vectors(for: texts).map { $0.flatMap(Self.unitVector) }
        } else {
            vectors = candidates.map { _ in nil }
        }
    }

    /// Each candidate's lexical score for `prompt`, in the candidates' order (0 when no term matches).
    public func scores(for prompt: String) -> [Double] {
        let text = PromptText(prompt)
        var terms = Self.queryTerms(in: text, impliedWeight: tuning.impliedWeight)
        // A word no candidate has may be a slip of the keyboard for one they have.
        var seen = Set(terms.map(\.term))
        for word in text.words + text.pathWords
        where !Self.stopWords.contains(word) && inverseFrequency[Self.stem(word)] == nil {
            for term in spellings.terms(near: word) where seen.insert(term).inserted {
                terms.append((term, tuning.impliedWeight))
            }
        }
        let weighted = terms.compactMap { term, weight -> (term: String, weight: Double)? in
            inverseFrequency[term].map { (term, weight * $0) }
        }
        return documents.map { document in
            var score = 0.0
            var matchesObject = false
            for (term, weight) in weighted {
                if let match = document[term] {
                    score += weight * match
                    matchesObject = matchesObject || !Self.actionTerms.contains(term)
                }
            }
            // Only actions in common (`add`, `save`), nothing the tool acts on: a weaker match.
            return matchesObject ? score : score * tuning.actionOnlyShare
        }
    }

    /// Each candidate's similarity to `prompt` by the embedding, from 0 (the candidates'
    /// average or less) to 1 (the most similar); all 0 without an embedding.
    func similarities(for prompt: String) -> [Double] {
        guard let embedding, let query = embedding.vector(for: prompt).flatMap(Self.unitVector) else {
            return candidates.map { _ in 0 }
        }
        let cosines = vectors.map { vector -> Double? in
            guard let vector, vector.count == query.count else { return nil }
            return zip(vector, query).reduce(0) { $0 + $1.0 * $1.1 }
        }
        let known = cosines.compactMap { $0 }
        guard let top = known.max(), !known.isEmpty else { return candidates.map { _ in 0 } }
        let average = known.reduce(0, +) / Double(known.count)
        guard top > average else { return candidates.map { _ in 0 } }
        return cosines.map { cosine in cosine.map { max(0, ($0 - average) / (top - average)) } ?? 0 }
    }

    /// The candidates from most to least relevant to `prompt`, given the tools the
    /// conversation used (model names, most recent last).
    ///
    /// A tool among the last four distinct tools of `recentlyUsed` scores at least what a
    /// strong match of one distinctive word scores (a word only one candidate has, once in its
    /// name) for the most recent, half that for the one before, and so on; a prompt that names
    /// another tool's distinctive words still ranks that tool first. Ranked scores are relative
    /// to the first tool's, which is 1. Ties go to the more recently used tool, then to the
    /// earlier candidate.
    public func ranking(for prompt: String, recentlyUsed: [String] = []) -> [Ranked] {
        let lexical = scores(for: prompt)
        let similarity = similarities(for: prompt)
        var recency: [String: Int] = [:]
        for name in recentlyUsed.reversed() where recency[name] == nil {
            recency[name] = recency.count
        }
        // Each server's youngest age among the recently used tools.
        var serverAge: [String: Int] = [:]
        for candidate in candidates {
            guard let server = candidate.server, let age = recency[candidate.name], age < tuning.recencyWindow else { continue }
            serverAge[server] = min(serverAge[server] ?? age, age)
        }
        let unit = strongMatch > 0 ? strongMatch : 1
        let scored = lexical.indices.map { index -> (index: Int, score: Double, age: Int) in
            let age = recency[candidates[index].name] ?? Int.max
            // In units of a strong match, so that the embedding and recency weigh the same in
            // catalogs of any size.
            var score = lexical[index] / unit
            if score > 0 || similarity[index] > 0 {
                score += tuning.semanticWeight * similarity[index]
            }
            if let server = candidates[index].server, let serverAge = serverAge[server] {
                score += tuning.serverAffinity / Double(1 << serverAge)
            }
            if age < tuning.recencyWindow {
                score = max(score, tuning.recencyShare / Double(1 << age))
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
    /// weight 1; synonyms, implied terms and adjacent words joined (when neither is a stop
    /// word) at `impliedWeight`.
    static func queryTerms(
        in prompt: PromptText, impliedWeight: Double = Tuning.standard.impliedWeight
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
        let (words, joinedVerbs) = Self.joiningParticles(prompt.words)
        let names = Self.properNames(in: prompt.textTokens)
        for (position, word) in words.enumerated() {
            if position > 0, let reading = readingsAfter[word], reading.after.contains(words[position - 1]) {
                // The word before changes what it asks for (`are running`, `I keep forgetting`):
                // its reading's terms instead of its own.
                for term in reading.terms { add(term, impliedWeight) }
            } else if !stopWords.contains(word) {
                let term = stem(word)
                add(term, 1)
                // A name (`Mark`, `Will`) is not the verb it spells, and a verb with its particle
                // (`set up`) means what the two mean together, not what the verb alone does.
                for related in names.contains(word) || joinedVerbs.contains(position) ? [] : relatedTerms[term] ?? [] {
                    add(related, impliedWeight)
                }
            } else {
                // A stop word is no term, but some ask for something (`where` → find, `who` → log).
                for related in relatedTerms[stem(word)] ?? [] {
                    add(related, impliedWeight)
                }
            }
            if position + 1 < words.count, Self.isJoinable(word), Self.isJoinable(words[position + 1]) {
                let joined = stem(word + words[position + 1])
                add(joined, impliedWeight)
                // A pair that means more than its words (`money back` → refund).
                for related in relatedTerms[joined] ?? [] {
                    add(related, impliedWeight)
                }
            }
        }
        for term in patternTerms(in: prompt) {
            add(stem(term), impliedWeight)
        }
        // A path's folders name where, not what to do: `~/projects/reports` is no request
        // about projects or reports. Its words count as implied terms.
        for word in prompt.pathWords where !stopWords.contains(word) {
            add(stem(word), impliedWeight)
        }
        if !prompt.paths.isEmpty { add("path", impliedWeight) }
        return order.map { ($0, weights[$0] ?? 0) }
    }

    /// The lowercased words `tokens` write as names: capitalised (`Mark`, not `MARK` or
    /// `mark`) where a sentence does not start, or where it does when an auxiliary follows
    /// (`Mark is my manager`, `Will doesn't…`): a command's verb is never followed by one.
    static func properNames(in tokens: [Substring]) -> Set<String> {
        var names: Set<String> = []
        var sentenceStart = true
        for (position, token) in tokens.enumerated() {
            let word = token.drop { !$0.isLetter }
            // At a sentence's start, the next word decides (read only there).
            let subject =
                !sentenceStart
                || position + 1 < tokens.count
                    && auxiliaries.contains(tokens[position + 1].lowercased().filter { $0.isLetter || $0 == "'" })
            if subject, let first = word.first, first.isUppercase, word.dropFirst().allSatisfy({ $0.isLowercase || !$0.isLetter }),
                word.count > 1
            {
                names.insert(String(word.prefix { $0.isLetter }).lowercased())
            }
            sentenceStart = token.last.map { ".!?:".contains($0) } ?? false
        }
        return names
    }

    /// Verbs that follow a sentence's subject and never a command's verb.
    private static let auxiliaries: Set<String> = [
        "is", "isn't", "was", "wasn't", "has", "hasn't", "had", "does", "doesn't", "did", "didn't", "will", "won't",
        "can't", "cannot", "should", "would", "wants", "needs", "said", "says", "thinks", "likes", "lives", "works",
    ]

    /// `words` with a verb and its particle written as one where tools name the action so
    /// (`check out` → `checkout`, `log in` → `login`, `set up` → `setup`, `sign up` → `signup`,
    /// `rolling out` → `rollout`), the words kept too. A short object may stand between them (`add those up`, `look it
    /// up`, `back them up`), and `any more` is `anymore`. `joinedVerbs`: where, in the words
    /// returned, the verbs joined with their particle are.
    private static func joiningParticles(_ words: [String]) -> (words: [String], joinedVerbs: Set<Int>) {
        var result: [String] = []
        var joinedVerbs: Set<Int> = []
        for (position, word) in words.enumerated() {
            result.append(word)
            if word == "any", position + 1 < words.count, words[position + 1] == "more" {
                result.append("anymore")
            }
            // The verb in any form: `rolling out`, `checked off`.
            let verb = particleVerbs[word] != nil ? word : stem(word)
            guard let particles = particleVerbs[verb] else { continue }
            if position + 1 < words.count, particles.contains(words[position + 1]) {
                joinedVerbs.insert(result.count - 1)
                result.append(verb + words[position + 1])
            } else if position + 2 < words.count, separableObjects.contains(words[position + 1]),
                particles.contains(words[position + 2])
            {
                joinedVerbs.insert(result.count - 1)
                result.append(verb + words[position + 2])
            }
        }
        return (result, joinedVerbs)
    }

    /// The short objects that may part a verb from its particle (`add those up`).
    private static let separableObjects: Set<String> = [
        "it", "them", "this", "that", "these", "those", "everything", "all", "him", "her", "me", "us",
    ]

    private static let particleVerbs: [String: Set<String>] = [
        "check": ["out", "in", "off"], "log": ["in", "out"], "set": ["up"], "sign": ["up", "in", "out"], "look": ["up"],
        "back": ["up"], "clean": ["up"], "roll": ["back", "out"], "shut": ["down"], "write": ["to"], "put": ["on", "out"], "start": ["up"],
        "add": ["up"], "catch": ["up"], "take": ["away", "off", "down"], "pop": ["up"], "get": ["at"], "blow": ["up"], "blew": ["up"],
        "go": ["to"],
    ]

    /// ``synonymGroups`` and ``implications`` by stemmed term: the stems a prompt's term brings.
    private static let relatedTerms: [String: [String]] = {
        var table: [String: [String]] = [:]
        func add(_ term: String, _ related: [String]) {
            for other in related where other != term && !(table[term] ?? []).contains(other) {
                table[term, default: []].append(other)
            }
        }
        for group in synonymGroups {
            let stems = group.map(stem)
            for term in stems { add(term, stems) }
        }
        for (word, implied) in implications {
            add(stem(word), implied.map(stem))
        }
        return table
    }()

    /// A description's first sentence of prose, as text (see ``leadRange(of:)``).
    static func leadSentence(of description: String) -> String {
        String(description[leadRange(of: description)])
    }

    /// Where a description's first sentence of prose is: the text up to the first line break,
    /// or the first full stop followed by a space. A sentence that is only a heading or a
    /// list marker (`🎯 Purpose:`, `## Usage`, `1.`), fewer than three words or ending in a
    /// colon, says nothing of what the tool does: the lead is the next sentence, without the
    /// list marker it starts with.
    static func leadRange(of description: String) -> Range<String.Index> {
        var start = description.startIndex
        var fallback: Range<String.Index>?
        while start < description.endIndex {
            var end = description.endIndex
            var index = start
            while index < description.endIndex {
                let character = description[index]
                let next = description.index(after: index)
                if character == "\n" || (character == "." && (next == description.endIndex || description[next] == " ")) {
                    end = index
                    break
                }
                index = next
            }
            let sentence = description[start..<end]
            let body = sentence.drop { !$0.isLetter }
            let words = body.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).count
            let isHeading = words < 3 || sentence.last { !$0.isWhitespace } == ":"
            if fallback == nil { fallback = start..<end }
            if !isHeading { return body.startIndex..<end }
            start = end < description.endIndex ? description.index(after: end) : end
        }
        return fallback ?? description.startIndex..<description.startIndex
    }

    /// A description's terms split into its lead (its first sentence of prose, at most
    /// `leadTerms` terms) and the rest.
    private static func splitDescription(
        _ description: String, leadTerms: Int, terms: inout TermCache
    ) -> (lead: [String], details: [String]) {
        let range = leadRange(of: description)
        var lead = terms.terms(in: String(description[range]))
        var details = terms.terms(in: String(description[..<range.lowerBound]) + " " + String(description[range.upperBound...]))
        if lead.count > leadTerms {
            details = Array(lead[leadTerms...]) + details
            lead.removeLast(lead.count - leadTerms)
        }
        return (lead, details)
    }

    /// Inverse document frequencies over the candidates, mixed with those over servers
    /// (`serverShare` of the whole).
    private static func inverseFrequencies(documents: [[String: Double]], servers: [String], serverShare: Double) -> [String: Double] {
        var frequency: [String: Int] = [:]
        var serverSets: [String: Set<String>] = [:]
        for (index, document) in documents.enumerated() {
            for term in document.keys {
                frequency[term, default: 0] += 1
                if serverShare > 0 { serverSets[term, default: []].insert(servers[index]) }
            }
        }
        let count = Double(documents.count)
        let serverCount = Double(Set(servers).count)
        var result: [String: Double] = [:]
        for (term, documentFrequency) in frequency {
            let toolIDF = logarithm(1 + (count - Double(documentFrequency) + 0.5) / (Double(documentFrequency) + 0.5))
            if serverShare > 0, serverCount > 1 {
                let servers = Double(serverSets[term]?.count ?? 0)
                let serverIDF = logarithm(1 + (serverCount - servers + 0.5) / (servers + 0.5))
                result[term] = (1 - serverShare) * toolIDF + serverShare * serverIDF
            } else {
                result[term] = toolIDF
            }
        }
        return result
    }

    /// `vector` scaled to length 1; `nil` for an empty or zero vector.
    private static func unitVector(_ vector: [Double]) -> [Double]? {
        let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard length > 0, length.isFinite else { return nil }
        return vector.map { $0 / length }
    }
}
