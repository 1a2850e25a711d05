/// A sentence embedding: text to a vector, where texts that mean similar things get vectors
/// that point the same way.
///
/// ``ToolRelevance`` uses one, where the platform has one, as a second signal beside its
/// lexical score: a prompt that shares no word with the tool it needs ("is it raining in
/// Porto?" and `get_forecast`) can still rank it. On Apple platforms the default is
/// ``ToolRelevance/platformEmbedding``, NaturalLanguage's English sentence embedding; on Linux
/// there is none by default. An app can give its own (a model it ships, say) to
/// ``ToolRelevance/init(_:embedding:)``.
///
/// Vectors are compared by cosine similarity, so their length does not matter; every vector of
/// one embedding must have the same number of dimensions.
public protocol SentenceEmbedding: Sendable {
    /// The vector of `text`, or `nil` when the embedding has none for it (an unknown language,
    /// text it cannot read).
    func vector(for text: String) -> [Double]?

    /// The vectors of `texts`, in order; the default asks ``vector(for:)`` for each.
    ///
    /// An embedding that loads a model implements this to load it once for many texts.
    func vectors(for texts: [String]) -> [[Double]?]
}

extension SentenceEmbedding {
    public func vectors(for texts: [String]) -> [[Double]?] {
        texts.map { vector(for: $0) }
    }
}
