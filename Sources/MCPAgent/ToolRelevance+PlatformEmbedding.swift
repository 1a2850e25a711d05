#if canImport(NaturalLanguage)
import NaturalLanguage
#endif

extension ToolRelevance {
    /// The sentence embedding ``init(_:)`` uses: NaturalLanguage's English sentence embedding on
    /// Apple platforms that have it, `nil` elsewhere (Linux), where tools are ranked by the
    /// lexical score alone.
    ///
    /// NaturalLanguage's embedding runs on the device, and its model ships with the OS (it may
    /// be missing on a device that has not downloaded the English assets, and then this is `nil`).
    public static var platformEmbedding: (any SentenceEmbedding)? {
        #if canImport(NaturalLanguage)
        return NaturalLanguageEmbedding.english
        #else
        return nil
        #endif
    }
}

#if canImport(NaturalLanguage)
/// NaturalLanguage's sentence embedding for one language.
///
/// `NLEmbedding` is not `Sendable`, so this value holds the language's name and asks
/// NaturalLanguage for the embedding on each call (once for a batch of texts) rather than keep
/// one across threads.
struct NaturalLanguageEmbedding: SentenceEmbedding {
    /// The language's code (`NLLanguage`'s raw value).
    let language: String

    /// English, when the OS has its sentence embedding.
    static var english: NaturalLanguageEmbedding? {
        NLEmbedding.sentenceEmbedding(for: .english) == nil ? nil : NaturalLanguageEmbedding(language: NLLanguage.english.rawValue)
    }

    func vector(for text: String) -> [Double]? {
        NLEmbedding.sentenceEmbedding(for: NLLanguage(rawValue: language))?.vector(for: text)
    }

    func vectors(for texts: [String]) -> [[Double]?] {
        guard let embedding = NLEmbedding.sentenceEmbedding(for: NLLanguage(rawValue: language)) else {
            return texts.map { _ in nil }
        }
        return texts.map { embedding.vector(for: $0) }
    }
}
#endif
