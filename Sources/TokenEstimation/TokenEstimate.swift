/// The package's one estimate of how many tokens a BPE tokenizer makes of a text.
///
/// PortableFoundationModels' public `TokenEstimator` and MCPAgent's `ContextBudget` (the
/// fallback wherever a model cannot count its own tokens) both count with it, so a text costs
/// the same whoever estimates it. Its own target because PortableFoundationModels, which
/// stands in for Apple's framework, depends on nothing else of the package. Not a product.
///
/// The estimate reads the text as a byte-pair-encoding tokenizer roughly splits it, in runs of
/// one kind of character:
///
/// | run                                          | cost                                  |
/// | -------------------------------------------- | ------------------------------------- |
/// | whitespace                                   | free (BPE folds a space into the next word) |
/// | letters (a new run starts at a `aB` case change) | 1 per 6 letters, at least 1; a non-ASCII letter counts as 2 |
/// | digits                                       | 1 per 3 digits, at least 1            |
/// | ASCII punctuation and symbols                | 1 per 3 characters, at least 1 (`":"`, `","` and `{"` are single BPE tokens) |
/// | CJK ideographs, kana and Hangul              | 1 per character                       |
/// | any other character (emoji, symbols)         | 1 per Unicode scalar                  |
///
/// Calibration: English prose comes out near 4 characters per token (3.9 to 4.5 on the texts
/// in the tests), JSON schemas as `GenerationSchema` encodes them at 3.1 to 3.4, and Chinese or
/// Japanese at 1 token per character. Apple's TN3193 gives 3 to 4 characters per token for
/// English and about 1 per character for CJK. A letter run costs 1 per 6 letters rather than 1
/// per 4 because the 4 characters per token of prose include the spaces and punctuation around
/// the words: an English word averages under 5 letters and a tokenizer spends about 1.3 tokens
/// on it.
///
/// The estimate is additive across whitespace: the count of `a + " " + b` is the count of `a`
/// plus the count of `b`.
package enum TokenEstimate {
    /// Letters per token in a run of letters.
    static let lettersPerToken = 6
    /// Digits per token in a run of digits.
    static let digitsPerToken = 3
    /// ASCII punctuation characters per token in a run of punctuation.
    static let punctuationPerToken = 3

    /// The estimated number of tokens in `text`.
    ///
    /// Zero for an empty or all-whitespace text; otherwise at least 1. Linear in the text's length.
    package static func tokenCount(for text: String) -> Int {
        var tokens = 0
        var run = Run.none
        var units = 0
        var previousWasLowercase = false

        func close() {
            switch run {
            case .none: break
            case .letters: tokens += max(1, (units + lettersPerToken - 1) / lettersPerToken)
            case .digits: tokens += max(1, (units + digitsPerToken - 1) / digitsPerToken)
            case .punctuation: tokens += max(1, (units + punctuationPerToken - 1) / punctuationPerToken)
            }
            run = .none
            units = 0
        }

        for scalar in text.unicodeScalars {
            let kind = Kind(scalar)
            switch kind {
            case .whitespace:
                close()
            case .wholeToken:
                close()
                tokens += 1
            case .asciiLetter, .otherLetter:
                let isUppercase = scalar.properties.isUppercase
                if run != .letters || (isUppercase && previousWasLowercase) {
                    close()
                    run = .letters
                }
                units += kind == .asciiLetter ? 1 : 2
                previousWasLowercase = scalar.properties.isLowercase
                continue
            case .digit:
                if run != .digits {
                    close()
                    run = .digits
                }
                units += 1
            case .punctuation:
                if run != .punctuation {
                    close()
                    run = .punctuation
                }
                units += 1
            }
            previousWasLowercase = false
        }
        close()
        return tokens
    }

    private enum Run: Equatable {
        case none, letters, digits, punctuation
    }

    private enum Kind: Equatable {
        case whitespace, asciiLetter, otherLetter, digit, punctuation, wholeToken

        init(_ scalar: Unicode.Scalar) {
            let value = scalar.value
            if scalar.isASCII {
                switch value {
                case 0x41...0x5A, 0x61...0x7A: self = .asciiLetter
                case 0x30...0x39: self = .digit
                case 0x09...0x0D, 0x20: self = .whitespace
                case 0x21...0x7E: self = .punctuation
                default: self = .wholeToken  // other control characters
                }
                return
            }
            let properties = scalar.properties
            if properties.isWhitespace {
                self = .whitespace
            } else if Self.isCJK(scalar) {
                self = .wholeToken
            } else if properties.isAlphabetic {
                self = .otherLetter
            } else if properties.numericType == .decimal {
                self = .digit
            } else {
                self = .wholeToken
            }
        }

        /// Whether the scalar is a CJK ideograph, kana or Hangul: about one token each.
        static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
            if scalar.properties.isIdeographic { return true }
            switch scalar.value {
            case 0x1100...0x11FF,  // Hangul Jamo
                0x3040...0x30FF,  // Hiragana, Katakana
                0x3130...0x318F,  // Hangul Compatibility Jamo
                0x31F0...0x31FF,  // Katakana Phonetic Extensions
                0xAC00...0xD7AF,  // Hangul Syllables
                0xFF66...0xFF9F:  // Halfwidth Katakana
                return true
            default:
                return false
            }
        }
    }
}
