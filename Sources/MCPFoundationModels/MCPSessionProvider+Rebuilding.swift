#if canImport(FoundationModels)
internal import FoundationModels
#else
internal import PortableFoundationModels
#endif

// The 26 way: a new session, continuing the transcript, when the tools, their choice or the
// history's fit change; never a change to a session, and never while it responds.

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension MCPSessionProvider {
    /// The current session when the tools, their choice for `prompt` and the history's fit
    /// are unchanged (or while it is responding), else a new one.
    func rebuiltSession(for prompt: String, model: SystemLanguageModel) async throws -> LanguageModelSession {
        toolbox.startWatching()
        if let current, current.isResponding { return current }
        try await toolbox.relistIfChanged()
        if let current, current.isResponding { return current }
        let (listed, generation) = toolbox.catalog
        let catalog = listed ?? ToolCatalog()
        var reasons: [SessionBuild.Reason] = []
        if current != nil, generation != currentGeneration { reasons.append(.toolsChanged) }
        let history = current.map { Self.history(of: $0.transcript) } ?? []
        let choice = toolbox.selector(for: catalog).select(
            from: catalog.relevance, prompt: prompt, recentlyUsed: MCPToolbox.recentlyUsed(history))
        var chosen = choice
        chosen.excluded = catalog.excluded + choice.excluded
        let tools = choice.selected.compactMap { catalog.tool(named: $0.name) }

        let fixed = await fixedTokens(toolTokens: choice.tokens, prompt: prompt)
        let historyTokens = await toolbox.tokens(of: history)
        let contextSize = toolbox.measure.contextSize
        var entries = history
        if current == nil {
            reasons.append(.firstTurn)
        } else if reasons.isEmpty, Set(choice.selected.map(\.name)) != Set(currentTools) {
            reasons.append(.toolSetChanged)
        }
        if fixed + historyTokens > contextSize {
            // Shorten well below the limit, so a long conversation is not rebuilt every turn.
            let room = max(0, contextSize - fixed)
            entries = configuration.historyPolicy.shorten(history, toFit: room * 3 / 4) { self.toolbox.cachedTokens(of: $0) }
            reasons.append(.trimmed)
        }
        toolbox.record(chosen)
        // The model reads the chosen tools' definitions: an untrusted server's are untrusted content.
        await dataFlowGuard.recordDefinitions(of: tools)
        if let current, reasons.isEmpty {
            startTurn(used: fixed + historyTokens, contextSize: contextSize)
            return current
        }
        let after = fixed + (entries.count == history.count ? historyTokens : await toolbox.tokens(of: entries))
        return build(
            model: model, tools: tools, generation: generation, history: entries, reasons: reasons, tokensBefore: fixed + historyTokens,
            tokensAfter: after, contextSize: contextSize)
    }

    /// A new session with `tools` and `history`, made current.
    private func build(
        model: SystemLanguageModel, tools: [MCPBridgedTool], generation: Int, history: [Transcript.Entry], reasons: [SessionBuild.Reason],
        tokensBefore: Int, tokensAfter: Int, contextSize: Int
    ) -> LanguageModelSession {
        let carries = current != nil
        let session: LanguageModelSession
        if carries {
            let transcript = Self.transcript(Transcript(entries: history), instructions: configuration.instructions, tools: tools)
            session = LanguageModelSession(model: model, tools: tools, transcript: transcript)
        } else {
            session = LanguageModelSession(model: model, tools: tools, instructions: configuration.instructions)
        }
        current = session
        currentTools = tools.map(\.name)
        currentGeneration = generation
        toolbox.eventSink.yield(
            .sessionBuilt(
                SessionBuild(
                    reasons: reasons, tools: currentTools, carriesTranscript: carries, tokensBefore: tokensBefore, tokensAfter: tokensAfter,
                    contextSize: contextSize, excluded: toolbox.selection.excluded)))
        startTurn(used: tokensAfter, contextSize: contextSize)
        return session
    }

    /// After an overflow: the conversation before the failed turn, shortened to half of the
    /// room, in a new session with the same tools.
    func rebuiltAfterOverflow(_ failed: LanguageModelSession, prompt: String) async -> LanguageModelSession {
        guard case .rebuilding(let model) = mode else { return failed }
        var history = Self.history(of: failed.transcript)
        if let start = history.latestPromptIndex {
            history.removeSubrange(start...)
        }
        let (catalog, generation) = toolbox.catalog
        let tools = currentTools.compactMap { catalog?.tool(named: $0) }
        let toolTokens = catalog?.candidates.filter { currentTools.contains($0.name) }.reduce(0) { $0 + $1.tokens } ?? 0
        let fixed = await fixedTokens(toolTokens: toolTokens, prompt: prompt)
        let historyTokens = await toolbox.tokens(of: history)
        let contextSize = toolbox.measure.contextSize
        let room = max(0, contextSize - fixed)
        let entries = configuration.historyPolicy.shorten(history, toFit: room / 2) { self.toolbox.cachedTokens(of: $0) }
        let after = fixed + (await toolbox.tokens(of: entries))
        // A session exists (the failed one), so the new one carries the shortened transcript.
        return build(
            model: model, tools: tools, generation: generation, history: entries, reasons: [.overflowRecovered],
            tokensBefore: fixed + historyTokens, tokensAfter: after, contextSize: contextSize)
    }

    /// Sets the room the turn's tool output may take: the context less what is used and the
    /// room kept for the answer.
    private func startTurn(used: Int, contextSize: Int) {
        let budget = configuration.budget
        let free = contextSize - used
        toolbox.monitor.startTurn(remainingCharacters: max(0, free) * budget.charactersPerToken)
    }

    /// The tokens of everything in a turn but the history: instructions, the tools'
    /// definitions (`toolTokens`, as the catalog counted them), the prompt and the room kept
    /// for the answer.
    private func fixedTokens(toolTokens: Int, prompt: String) async -> Int {
        let instructions = await toolbox.instructionsTokens()
        let promptTokens = prompt.isEmpty ? 0 : await toolbox.measure.tokens(forPrompt: prompt)
        return instructions + toolTokens + promptTokens + configuration.budget.responseTokens
    }

    /// `transcript` with its instructions entry (or a new first one) listing `tools`, so a
    /// session built from it describes the tools it really has.
    static func transcript(_ transcript: Transcript, instructions: String, tools: [MCPBridgedTool]) -> Transcript {
        let definitions = tools.map { Transcript.ToolDefinition(tool: $0) }
        var entries = Array(transcript)
        if let index = entries.firstIndex(where: { if case .instructions = $0 { true } else { false } }),
            case .instructions(let old) = entries[index]
        {
            entries[index] = .instructions(Transcript.Instructions(id: old.id, segments: old.segments, toolDefinitions: definitions))
        } else {
            let segments: [Transcript.Segment] = [.text(Transcript.TextSegment(content: instructions))]
            entries.insert(.instructions(Transcript.Instructions(segments: segments, toolDefinitions: definitions)), at: 0)
        }
        return Transcript(entries: entries)
    }
}
