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
/// `contextSize`, both from 26.4; before that, and when a count fails, the estimate is
/// ``ContextBudget/tokens(for:)`` of the same text (the package's one estimate, documented in
/// ``ContextBudget``). A third-party `LanguageModel` (27) counts through the app's
/// ``TokenCounter`` when it gives one, else by the estimate. The portable backends count for
/// real (their own tokenizer or estimate), so everything here runs on Linux.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct ContextMeasure: Sendable {
    /// Who counts.
    enum Counter: Sendable {
        /// The system model (or, on Linux, a portable backend behind it).
        case system(SystemLanguageModel)
        /// The app's counter for its model.
        case custom(TokenCounter)
        /// Nobody: the budget's estimate.
        case estimate
    }

    let counter: Counter
    let budget: ContextBudget

    init(model: SystemLanguageModel, budget: ContextBudget) {
        self.init(counter: .system(model), budget: budget)
    }

    init(counter: Counter, budget: ContextBudget) {
        self.counter = counter
        self.budget = budget
    }

    /// Counts for `model`: with the app's counter when the configuration has one, else with
    /// the system model's own, else by estimate.
    @available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
    init(model: some LanguageModel, configuration: MCPSessionProvider.Configuration) {
        if let custom = configuration.tokenCounter {
            self.init(counter: .custom(custom), budget: configuration.budget)
        } else if let system = model as? SystemLanguageModel {
            self.init(counter: .system(system), budget: configuration.budget)
        } else {
            self.init(counter: .estimate, budget: configuration.budget)
        }
    }

    /// The model's context size, or the budget's when the model does not say (before 26.4,
    /// or 0 from a model whose assets are broken).
    var contextSize: Int {
        switch counter {
        case .system(let model):
            if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *) {
                let size = model.contextSize
                if size > 0 { return size }
            }
        case .custom(let custom):
            if custom.contextSize > 0 { return custom.contextSize }
        case .estimate:
            break
        }
        return budget.contextTokens
    }

    /// Whether counts come from the model rather than the estimate.
    var countsExactly: Bool {
        if case .estimate = counter { false } else { true }
    }

    /// The tokens of these tools' definitions.
    func tokens(forTools tools: [any Tool]) async -> Int {
        guard !tools.isEmpty else { return 0 }
        switch counter {
        case .system(let model):
            if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *), let count = try? await model.tokenCount(for: tools) {
                return count
            }
        case .custom(let custom):
            var total = 0
            for tool in tools {
                guard let count = try? await custom.count(Self.text(of: tool)) else { return estimated(tools) }
                total += count
            }
            return total
        case .estimate:
            break
        }
        return estimated(tools)
    }

    private func estimated(_ tools: [any Tool]) -> Int {
        tools.reduce(0) { $0 + Self.estimatedTokens(of: $1, budget: budget) }
    }

    /// The tokens of `entries`.
    func tokens(for entries: [Transcript.Entry]) async -> Int {
        guard !entries.isEmpty else { return 0 }
        switch counter {
        case .system(let model):
            if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *), let count = try? await model.tokenCount(for: entries) {
                return count
            }
        case .custom(let custom):
            if let count = try? await custom.count(entries.map(\.description).joined(separator: "\n")) { return count }
        case .estimate:
            break
        }
        return entries.reduce(0) { $0 + budget.tokens(for: $1.description) }
    }

    /// The tokens of a prompt's text.
    func tokens(forPrompt text: String) async -> Int {
        switch counter {
        case .system(let model):
            if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *), let count = try? await model.tokenCount(for: Prompt(text)) {
                return count
            }
        case .custom(let custom):
            if let count = try? await custom.count(text) { return count }
        case .estimate:
            break
        }
        return budget.tokens(for: text)
    }

    /// A tool's definition as text: its name, description and encoded parameters schema.
    static func text(of tool: any Tool) -> String {
        let schema = (try? JSONEncoder().encode(tool.parameters)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return tool.name + "\n" + tool.description + "\n" + schema
    }

    /// The estimated tokens of a tool's name, description and encoded parameters schema: the
    /// fallback wherever the model cannot count.
    static func estimatedTokens(of tool: any Tool, budget: ContextBudget) -> Int {
        budget.tokens(for: text(of: tool))
    }

    /// Whether `error` says the request did not fit the model's context: 26's
    /// `GenerationError.exceededContextWindowSize`, or 27's
    /// `LanguageModelError.contextSizeExceeded`, also inside a tool call's error.
    static func isContextOverflow(_ error: any Error) -> Bool {
        if let generation = error as? LanguageModelSession.GenerationError,
            case .exceededContextWindowSize = generation
        {
            return true
        }
        if let toolError = error as? LanguageModelSession.ToolCallError {
            return isContextOverflow(toolError.underlyingError)
        }
        if #available(iOS 27.0, macOS 27.0, visionOS 27.0, *) {
            return contextSizeExceeded(in: error) != nil
        }
        return false
    }

    /// The sizes 27's `LanguageModelError.contextSizeExceeded` reports, when `error` is (or a
    /// tool call's error holds) that error.
    @available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
    static func contextSizeExceeded(in error: any Error) -> LanguageModelError.ContextSizeExceeded? {
        if let toolError = error as? LanguageModelSession.ToolCallError {
            return contextSizeExceeded(in: toolError.underlyingError)
        }
        guard let error = error as? LanguageModelError, case .contextSizeExceeded(let exceeded) = error else { return nil }
        return exceeded
    }
}
