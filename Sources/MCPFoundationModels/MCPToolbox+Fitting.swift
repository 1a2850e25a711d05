internal import MCPPlatform

#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif

// Fitting a request into the model's context: the history the model sees, the counts it is
// fitted with, and what an overflow teaches.

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension MCPToolbox {
    /// The history the model sees for the next request: `history` shortened by the
    /// configuration's ``HistoryPolicy`` when the request would not fit the context.
    ///
    /// The fixed part of a request is the configuration's instructions, the chosen tools'
    /// definitions and ``ContextBudget/responseTokens``. A history that does not fit is
    /// shortened to three quarters of the room (half after an overflow), and that shortened
    /// view is kept, with what came after appended, while it fits: the model sees the same
    /// start request after request, which keeps its cache. Sets the room tool output may take.
    /// What the session stores is not changed.
    public func fit(_ history: [Transcript.Entry]) -> [Transcript.Entry] {
        var change: ContextChange?
        let fitted: [Transcript.Entry] = state.withLock { state in
            let contextSize = measure.contextSize
            let fixed = fixedTokens(state, toolTokens: state.selection.tokens)
            let room = max(0, contextSize - fixed)
            let correction = state.correction
            let cached = state.entryTokens
            let budget = configuration.budget
            let cost = { (entry: Transcript.Entry) -> Int in
                let counted = cached[Self.cacheKey(entry)] ?? budget.tokens(for: entry.description)
                return Int((Double(counted) * correction).rounded(.up))
            }
            var view = history
            if let previous = state.view, previous.sourceIDs.count <= history.count,
                zip(previous.sourceIDs, history).allSatisfy({ $0 == $1.id })
            {
                view = previous.entries + history[previous.sourceIDs.count...]
            }
            var total = view.reduce(0) { $0 + cost($1) }
            let squeezed = state.squeeze
            if total > room || squeezed {
                let before = fixed + total
                view = configuration.historyPolicy.shorten(history, toFit: squeezed ? room / 2 : room * 3 / 4, tokens: cost)
                if !squeezed, !Self.keepsLatestTurn(of: history, in: view) {
                    // The latest turn is cut only as far as it must be.
                    view = configuration.historyPolicy.shorten(history, toFit: room, tokens: cost)
                }
                total = view.reduce(0) { $0 + cost($1) }
                state.view = (history.map(\.id), view)
                state.squeeze = false
                if view.count != history.count || fixed + total != before {
                    change = ContextChange(
                        reasons: squeezed ? [.overflowRecovered, .trimmed] : [.trimmed], tools: state.offered ?? [],
                        excluded: state.selection.excluded, historyEntries: history.count, visibleEntries: view.count,
                        tokens: fixed + total, contextSize: contextSize)
                }
            } else if view.count == history.count {
                state.view = nil
            }
            state.lastTokens = fixed + total
            // The turn is the latest prompt's: its rounds of tool calls are one turn.
            let prompt = history.latestPromptIndex.map { history[$0] }
            monitor.setRoom(
                remainingCharacters: Int(Double(max(0, contextSize - fixed - total)) * Self.charactersPerToken(state, budget: budget)),
                turn: prompt?.id ?? "")
            return view
        }
        if let change { eventSink.yield(.contextChanged(change)) }
        return fitted
    }

    /// Records that the model reported an overflow: counts are scaled up to what the model
    /// counted, and the next ``fit(_:)`` shortens to half of the room. Returns whether a retry
    /// can help (the history is not already as short as it gets).
    @available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
    @discardableResult
    public func contextDidOverflow(_ overflow: LanguageModelError.ContextSizeExceeded) -> Bool {
        contextDidOverflow(reportedTokens: overflow.tokenCount)
    }

    /// As ``contextDidOverflow(_:)``, for a model that does not say how many tokens it counted
    /// (26's `exceededContextWindowSize`).
    @discardableResult
    func contextDidOverflow(reportedTokens: Int?) -> Bool {
        state.withLock { state in
            if let reported = reportedTokens, state.lastTokens > 0, reported > state.lastTokens {
                state.correction = min(4, state.correction * Double(reported) / Double(state.lastTokens))
            }
            state.squeeze = true
            return true
        }
    }

    /// Counts, with the model's counter, the entries of `history` not counted yet, and the
    /// instructions, so that ``fit(_:)`` works on counts rather than estimates.
    public func count(_ history: some Collection<Transcript.Entry>) async {
        if state.withLock({ $0.instructionsTokens }) == nil {
            let entry = Transcript.Entry.instructions(
                Transcript.Instructions(
                    segments: [.text(Transcript.TextSegment(content: configuration.instructions))], toolDefinitions: []))
            let counted = await measure.tokens(for: [entry])
            state.withLock { $0.instructionsTokens = counted }
        }
        for entry in history {
            let key = Self.cacheKey(entry)
            guard state.withLock({ $0.entryTokens[key] }) == nil else { continue }
            let counted = await measure.tokens(for: [entry])
            let characters = entry.description.count
            state.withLock { state in
                state.entryTokens[key] = counted
                state.countedCharacters += characters
                state.countedTokens += counted
            }
        }
    }

    /// The characters a token holds, as the model counted what it counted so far (at most the
    /// budget's figure), so that tool output cut to a room in characters fits that room in tokens.
    static func charactersPerToken(_ state: State, budget: ContextBudget) -> Double {
        let configured = Double(budget.charactersPerToken)
        guard state.countedTokens > 0, state.countedCharacters > 0 else { return configured }
        return max(1, min(configured, Double(state.countedCharacters) / Double(state.countedTokens)))
    }

    /// The tokens of `entries`, each counted once by the model's counter.
    func tokens(of entries: [Transcript.Entry]) async -> Int {
        await count(entries)
        return entries.reduce(0) { $0 + cachedTokens(of: $1) }
    }

    /// An entry's counted tokens, or its estimate.
    func cachedTokens(of entry: Transcript.Entry) -> Int {
        state.withLock { $0.entryTokens[Self.cacheKey(entry)] } ?? configuration.budget.tokens(for: entry.description)
    }

    /// The tokens of the configuration's instructions, counted once.
    func instructionsTokens() async -> Int {
        await count([])
        return state.withLock { $0.instructionsTokens } ?? configuration.budget.tokens(for: configuration.instructions)
    }

    /// The tokens of a request with `history` (as the model would see it) and tools costing
    /// `toolTokens`.
    func estimate(_ state: State, history: [Transcript.Entry], toolTokens: Int) -> Int {
        let budget = configuration.budget
        let seen = state.view.map { $0.entries + history.dropFirst($0.sourceIDs.count) } ?? history
        return fixedTokens(state, toolTokens: toolTokens)
            + seen.reduce(0) { $0 + (state.entryTokens[Self.cacheKey($1)] ?? budget.tokens(for: $1.description)) }
    }

    /// The instructions, the tools' definitions and the room for the answer.
    func fixedTokens(_ state: State, toolTokens: Int) -> Int {
        let budget = configuration.budget
        let instructions = state.instructionsTokens ?? budget.tokens(for: configuration.instructions)
        return Int((Double(instructions + toolTokens) * state.correction).rounded(.up)) + budget.responseTokens
    }

    /// Whether `view` ends with the latest turn of `history` (from its last prompt) unchanged.
    static func keepsLatestTurn(of history: [Transcript.Entry], in view: [Transcript.Entry]) -> Bool {
        let start = history.latestPromptIndex ?? history.startIndex
        let latest = history[start...]
        guard view.count >= latest.count else { return false }
        return zip(latest, view.suffix(latest.count)).allSatisfy { cacheKey($0) == cacheKey($1) }
    }

    static func cacheKey(_ entry: Transcript.Entry) -> String {
        "\(entry.id):\(entry.description.count)"
    }
}
