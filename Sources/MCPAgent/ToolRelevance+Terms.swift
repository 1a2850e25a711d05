extension ToolRelevance {
    /// Whether `word` may be joined with its neighbour into one term: letters only, not a stop word.
    static func isJoinable(_ word: String) -> Bool {
        !stopWords.contains(word) && word.allSatisfy(\.isLetter)
    }

    /// The terms of `text`: its words without stop words, stemmed.
    public static func terms(in text: String) -> [String] {
        words(in: text).filter { !stopWords.contains($0) }.map(stem)
    }

    /// ``terms(in:)`` with each distinct word's term remembered, for indexing much text.
    struct TermCache {
        /// The term of each word seen; `nil` for a stop word.
        private var known: [String: String?] = [:]

        /// Every word seen that is not a stop word, with its term.
        var spellings: [String: String] { known.compactMapValues { $0 } }

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
    /// plural `-s` is dropped (not `-ss`, `-us`, `-is`); `-ation` becomes `-ate` when three or
    /// more letters remain (`creation` → `create`); then `-ing` or `-ed` is dropped when
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
        // -ation(s) → -ate, so that `creation` meets `create` and `location` meets `locate`.
        if ends("ation"), letters.count >= 8 {
            replaceSuffix(5)
            letters += Array("ate".utf8)
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
