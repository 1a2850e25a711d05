/// Counts tokens for a model the bridge cannot ask itself.
///
/// The bridge fits tools, history and tool output into the model's context. It counts with
/// `SystemLanguageModel`'s own counter (26.4 and later); a third-party `LanguageModel` (27)
/// has no counting API, so its tokens are estimated with ``ContextBudget/tokens(for:)``
/// unless the app gives a counter that asks the model (a tokenizer endpoint, a local
/// tokenizer):
///
/// ```swift
/// let counter = TokenCounter(contextSize: model.contextSize) { text in
///     try await model.tokenCount(for: text)
/// }
/// var configuration = MCPSessionProvider.Configuration()
/// configuration.tokenCounter = counter
/// ```
///
/// The text counted is the bridge's own rendering (a tool's name, description and schema; an
/// entry's text), not the model's chat template, so counts are close but not exact: leave the
/// budget's ``ContextBudget/responseTokens`` room for the difference.
public struct TokenCounter: Sendable {
    /// The model's context, in tokens; 0 uses ``ContextBudget/contextTokens``.
    public var contextSize: Int
    /// Counts the tokens of a text; a throw falls back to the estimate for that count.
    public var count: @Sendable (String) async throws -> Int

    public init(contextSize: Int, count: @escaping @Sendable (String) async throws -> Int) {
        self.contextSize = contextSize
        self.count = count
    }
}
