// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

extension LanguageModelSession.Response where Content == String {
    /// A refusal's explanation `text` as a response: the text, and one response entry (of
    /// `LanguageModelSession.GenerationError.Refusal` and of `LanguageModelError.Refusal`).
    static func refusalExplanation(_ text: String) -> Self {
        let entry = Transcript.Entry.response(
            Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: text))]))
        return Self(content: text, rawContent: GeneratedContent(kind: .string(text)), transcriptEntries: [entry][...])
    }
}
#endif
