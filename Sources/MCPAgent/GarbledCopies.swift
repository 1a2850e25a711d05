/// Finds, in a model's answer, values a tool returned that the model copied with letters or
/// digits glued onto their end, and restores them.
///
/// A small model copying a timestamp, an id or a URL from a tool's output sometimes keeps
/// writing after the value ends: the tool said `2026-12-02T13:10:57.94Z` and the answer reads
/// `2026-12-02T13:10:57.94ZYUQVN`. No detector of repetition catches that, and a person cannot
/// tell which characters are the tool's. `repairing(_:)` cuts the glued-on characters, so the
/// answer shows the value as the tool returned it, and reports each repair
/// (``GarbledCopy``) for the app to show.
///
/// What counts:
/// - **A value** is a word of a source (a tool's output, a prompt) of at least 8 characters,
///   made of ASCII letters, digits and `-:._/+@#%=~?&`, with a digit and with a character that is
///   not a digit, a period or a comma (a timestamp, an id, a version, a URL; not a plain number,
///   to which a unit can be glued: `1234.5678km`). Punctuation that ends a sentence or closes a
///   quote is not part of a word.
/// - **A garbled copy** is a word of the answer that is not a source's word, nor the start of
///   one, and that is a value followed directly by ASCII letters and digits alone (`…94ZYUQVN`;
///   not `2026-12-03T16:00`, a date the model went on to write a time after).
///
/// The longest value a word starts with is the one restored. Sources hold at most
/// ``maximumWords`` words (the first ones), so the work stays bounded whatever a tool returns.
/// A value changed inside (a digit swapped, a truncation) is not found: a model that rewrites
/// a value, converts it or rounds it writes a word that is no copy.
public struct GarbledCopies: Sendable {
    /// The most words taken from the sources.
    public static let maximumWords = 4_096
    /// The fewest characters of a value.
    public static let minimumValueLength = 8

    /// Every word of the sources, as written.
    private let words: Set<Substring>
    /// The words of at least ``minimumValueLength`` characters by their first ones, longest
    /// first: the candidates for a word of the answer are those it starts like.
    private let longWords: [Substring: [Substring]]

    /// The values of `sources`: the tool outputs an answer may copy from, and the prompts
    /// (a word the person wrote is never a garbled copy).
    public init(sources: [String]) {
        var words: Set<Substring> = []
        var remaining = Self.maximumWords
        for source in sources where remaining > 0 {
            for word in Self.words(of: source).prefix(remaining) {
                words.insert(word)
                remaining -= 1
            }
        }
        self.words = words
        longWords = Dictionary(grouping: words.filter { $0.count >= Self.minimumValueLength }) { $0.prefix(Self.minimumValueLength) }
            .mapValues { $0.sorted { $0.count > $1.count } }
        hasValues = words.contains(where: Self.isValue)
    }

    /// Whether the sources hold a value.
    private let hasValues: Bool

    /// Whether there is no value to look for.
    public var isEmpty: Bool { !hasValues }

    /// `answer` with each garbled copy restored to its value, and the repairs, in the order
    /// they occur; `answer` unchanged and no repair when there is no garbled copy.
    public func repairing(_ answer: String) -> (text: String, repairs: [GarbledCopy]) {
        guard hasValues else { return (answer, []) }
        var repairs: [GarbledCopy] = []
        var text = ""
        var kept = answer.startIndex
        for word in Self.words(of: answer) {
            guard let value = garbledValue(word) else { continue }
            repairs.append(GarbledCopy(value: String(value), written: String(word)))
            text += answer[kept..<word.startIndex]
            text += value
            kept = word.endIndex
        }
        guard !repairs.isEmpty else { return (answer, []) }
        text += answer[kept...]
        return (text, repairs)
    }

    /// The value `word` is a garbled copy of, if it is one.
    private func garbledValue(_ word: Substring) -> Substring? {
        guard word.count > Self.minimumValueLength, !words.contains(word),
            let candidates = longWords[word.prefix(Self.minimumValueLength)]
        else { return nil }
        // A copy the model cut short of a longer word of the sources is no garble.
        guard !candidates.contains(where: { $0.count > word.count && $0.hasPrefix(word) }),
            let value = candidates.first(where: { $0.count < word.count && word.hasPrefix($0) && Self.isValue($0) })
        else { return nil }
        return word.dropFirst(value.count).allSatisfy(Self.isLetterOrDigit) ? value : nil
    }

    // MARK: Words

    /// The characters of a word: ASCII letters, digits and the punctuation of timestamps, ids,
    /// versions and URLs.
    static func isWordCharacter(_ character: Character) -> Bool {
        guard character.isASCII else { return false }
        return isLetterOrDigit(character) || "-:._/+@#%=~?&".contains(character)
    }

    static func isLetterOrDigit(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber)
    }

    /// The words of `text`: runs of word characters, without the punctuation they start or end
    /// with (`2026-12-02T13:10:57Z.` is `2026-12-02T13:10:57Z`).
    static func words(of text: String) -> [Substring] {
        var words: [Substring] = []
        var start: String.Index?
        var index = text.startIndex
        func close(at end: String.Index) {
            guard let first = start else { return }
            start = nil
            let run = text[first..<end]
            guard let head = run.firstIndex(where: isLetterOrDigit), let tail = run.lastIndex(where: isLetterOrDigit) else { return }
            words.append(run[head...tail])
        }
        while index < text.endIndex {
            if isWordCharacter(text[index]) {
                if start == nil { start = index }
            } else {
                close(at: index)
            }
            index = text.index(after: index)
        }
        close(at: text.endIndex)
        return words
    }

    /// Whether `word` is a value: long enough, with a digit, and not a plain number.
    static func isValue(_ word: Substring) -> Bool {
        word.count >= minimumValueLength && word.contains(where: \.isNumber)
            && word.contains(where: { !$0.isNumber && $0 != "." && $0 != "," })
    }
}

/// A value a tool returned, as a model's answer garbled it, and as it was restored.
public struct GarbledCopy: Hashable, Sendable, CustomStringConvertible {
    /// The value as the tool returned it (what the answer now shows).
    public var value: String
    /// The word the model wrote: the value with letters or digits glued onto its end.
    public var written: String

    public init(value: String, written: String) {
        self.value = value
        self.written = written
    }

    /// `"2026-12-02T13:10:57.94ZYUQVN" for "2026-12-02T13:10:57.94Z"`.
    public var description: String { "\"\(written)\" for \"\(value)\"" }
}
