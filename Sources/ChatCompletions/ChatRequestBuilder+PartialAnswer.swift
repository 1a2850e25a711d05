// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
extension ChatRequestBuilder {
    /// The answer so far in a streamed answer's `content`, read as its shape says; `nil` while
    /// there is none to show (nothing yet, a guided step that is a tool call, or a native answer
    /// whose tool calls began).
    ///
    /// A guided step shows its `answer` once that is the step's first key: the step's JSON is
    /// parsed as a prefix (open strings and containers closed), so a text answer grows as the
    /// model writes it.
    static func partialAnswer(content: String, shape: AnswerShape, callsStarted: Bool) -> GeneratedContent? {
        guard !content.isEmpty else { return nil }
        switch shape {
        case .text:
            return GeneratedContent(kind: .string(content))
        case .native:
            return callsStarted ? nil : GeneratedContent(kind: .string(content))
        case .content:
            return try? GeneratedContent(json: content)
        case .guided(let structured):
            guard let step = try? GeneratedContent(json: content),
                case .structure(let properties, let keys) = step.kind, keys.first == "answer",
                let answer = properties["answer"]
            else { return nil }
            if structured { return answer }
            guard case .string = answer.kind else { return nil }
            return answer
        }
    }
}
