#if canImport(FoundationModels)
internal import FoundationModels
#else
internal import PortableFoundationModels
#endif
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// Counts what a session puts in the model's context: with the model's own counter where it
/// has one, else with the budget's estimate.
///
/// On Apple platforms the counter is `SystemLanguageModel.tokenCount(for:)` and the size is
/// `contextSize`, both from 26.4; before that, and when a count fails, the estimate is the
/// characters of the same text at ``ContextBudget/charactersPerToken`` (documented in
/// ``ContextBudget``). The portable backends count for real (their own tokenizer or
/// estimate), so everything here runs on Linux.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct ContextMeasure: Sendable {
    let model: SystemLanguageModel
    let budget: ContextBudget

    /// The model's context size, or the budget's when the model does not say (before 26.4,
    /// or 0 from a model whose assets are broken).
    var contextSize: Int {
        if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *) {
            let size = model.contextSize
            if size > 0 { return size }
        }
        return budget.contextTokens
    }

    /// The tokens of these tools' definitions.
    func tokens(forTools tools: [any Tool]) async -> Int {
        guard !tools.isEmpty else { return 0 }
        if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *), let count = try? await model.tokenCount(for: tools) {
            return count
        }
        return tools.reduce(0) { $0 + Self.estimatedTokens(of: $1, budget: budget) }
    }

    /// The tokens of `entries`.
    func tokens(for entries: [Transcript.Entry]) async -> Int {
        guard !entries.isEmpty else { return 0 }
        if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *), let count = try? await model.tokenCount(for: entries) {
            return count
        }
        return entries.reduce(0) { $0 + budget.tokens(forCharacters: $1.description.count) }
    }

    /// The tokens of a prompt's text.
    func tokens(forPrompt text: String) async -> Int {
        if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *), let count = try? await model.tokenCount(for: Prompt(text)) {
            return count
        }
        return budget.tokens(forCharacters: text.count)
    }

    /// The characters of a tool's name, description and encoded parameters schema, at the
    /// budget's characters per token: the fallback wherever the model cannot count.
    static func estimatedTokens(of tool: any Tool, budget: ContextBudget) -> Int {
        let schema = (try? JSONEncoder().encode(tool.parameters).count) ?? 0
        return budget.tokens(forCharacters: tool.name.count + tool.description.count + schema)
    }

    /// Whether `error` says the request did not fit the model's context: 26's
    /// `GenerationError.exceededContextWindowSize`, or 27's
    /// `LanguageModelError.contextSizeExceeded` (recognised by its case name, because the 26
    /// SDKs have no such type to name).
    static func isContextOverflow(_ error: any Error) -> Bool {
        if let generation = error as? LanguageModelSession.GenerationError,
            case .exceededContextWindowSize = generation
        {
            return true
        }
        if let toolError = error as? LanguageModelSession.ToolCallError {
            return isContextOverflow(toolError.underlyingError)
        }
        let type = String(reflecting: Swift.type(of: error))
        guard type.hasSuffix("LanguageModelError") else { return false }
        let label = Mirror(reflecting: error).children.first?.label ?? String(describing: error)
        return label.hasPrefix("contextSizeExceeded")
    }
}
