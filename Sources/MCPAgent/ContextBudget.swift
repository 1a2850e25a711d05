internal import TokenEstimation

/// How much of the on-device model's context a session's tools may use.
///
/// The on-device model has a 4,096-token context shared by instructions, tool definitions
/// (name, description and parameters schema), prompts, tool calls, tool output and
/// responses (Apple TN3193). Where the model cannot count, tokens are estimated with
/// ``tokens(for:)``, the package's one estimate (PortableFoundationModels' `TokenEstimator`
/// counts with the same rule): runs of letters, digits and punctuation as a BPE tokenizer
/// splits them, about 4 characters a token for English prose, 3 for JSON schemas and 1 for
/// Chinese or Japanese (TN3193 gives 3–4 for English and about 1 for CJK). A tool costs the
/// tokens of its name, description and encoded parameters schema.
///
/// Each turn gets the tools most relevant to its prompt while they fit ``toolTokens`` and
/// number at most ``maximumTools`` (TN3193: 3–5 tools); tool output is cut to
/// ``toolOutputTokens`` and to what is left of the context; ``responseTokens`` are kept free
/// for the answer. Where the model can count its tokens (`SystemLanguageModel.tokenCount(for:)`,
/// 26.4 and later, and the portable backends), its counts are used and the estimate is only
/// the fallback. ``charactersPerToken`` turns token limits into the character limits text is
/// cut to (``toolOutputCharacters``).
public struct ContextBudget: Hashable, Sendable {
    /// The model's whole context, in tokens, when the model does not report its own
    /// (`SystemLanguageModel.contextSize`, 26.4 and later; the portable backends).
    public var contextTokens: Int
    /// The share of the context for tool definitions.
    public var toolTokens: Int
    /// The most tools a session gets.
    public var maximumTools: Int
    /// The most one tool output may take.
    public var toolOutputTokens: Int
    /// The longest tool description offered, in characters; longer ones are cut at a word.
    public var descriptionCharacters: Int
    /// Characters per token, for turning a limit in tokens into a limit in characters (tool
    /// output is cut by characters); estimates of a text use ``tokens(for:)``.
    public var charactersPerToken: Int
    /// Tokens kept free for the model's answer when a turn is fitted into the context.
    public var responseTokens: Int

    public init(
        contextTokens: Int = 4096, toolTokens: Int = 1536, maximumTools: Int = 5,
        toolOutputTokens: Int = 512, descriptionCharacters: Int = 300, charactersPerToken: Int = 4,
        responseTokens: Int = 400
    ) {
        self.contextTokens = contextTokens
        self.toolTokens = toolTokens
        self.maximumTools = maximumTools
        self.toolOutputTokens = toolOutputTokens
        self.descriptionCharacters = descriptionCharacters
        self.charactersPerToken = max(1, charactersPerToken)
        self.responseTokens = max(0, responseTokens)
    }

    /// The budget for Apple's on-device model.
    public static let onDevice = ContextBudget()

    /// The same limits as characters.
    public var toolOutputCharacters: Int { toolOutputTokens * charactersPerToken }

    /// The estimated tokens of `text`, for a model that cannot count its own: the package's
    /// one estimate (see ``ContextBudget``). Zero for an empty or blank text.
    public func tokens(for text: String) -> Int {
        TokenEstimate.tokenCount(for: text)
    }

    /// The tokens of `characters` characters at ``charactersPerToken`` (rounded up): for a
    /// length without its text. A text is estimated with ``tokens(for:)``.
    public func tokens(forCharacters characters: Int) -> Int {
        (characters + charactersPerToken - 1) / charactersPerToken
    }

    /// `text` cut to ``descriptionCharacters`` at a word boundary, with `…`.
    func shortened(_ text: String) -> String {
        guard text.count > descriptionCharacters else { return text }
        let prefix = text.prefix(descriptionCharacters - 1)
        let cut = prefix.lastIndex(of: " ").map { prefix[..<$0] } ?? prefix
        return cut + "…"
    }
}
