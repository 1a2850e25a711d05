// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
internal import TokenEstimation

// Portable only: Apple's framework has no such type. Its model counts with its own tokenizer.

/// A portable estimate of how many tokens a BPE tokenizer makes of a text.
///
/// `LanguageModelBackend.tokenCount(for:)` uses it unless a backend counts with its own
/// tokenizer, which a backend for a real model should do. It is the package's one estimate:
/// MCPAgent's `ContextBudget` estimates with the same rule where a model cannot count. The
/// estimate reads the text as a byte-pair-encoding tokenizer roughly splits it, in runs of one kind of character:
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
public enum TokenEstimator {
    /// The estimated number of tokens in `text`.
    ///
    /// Zero for an empty or all-whitespace text; otherwise at least 1. Linear in the text's length.
    public static func tokenCount(for text: String) -> Int {
        TokenEstimate.tokenCount(for: text)
    }
}
#endif
