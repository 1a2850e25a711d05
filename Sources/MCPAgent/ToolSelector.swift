public import MCPCore

/// A tool a turn may get, as ``ToolSelector`` sees it.
///
/// Only text and a cost: no client, schema or FoundationModels type, so the CLI and tests can
/// build candidates from a listing alone. ``name`` is the model's name for the tool and must be
/// unique among the candidates of one selection; ``toolNameOnServer`` need not be (two servers may
/// both have a `search` tool).
public struct ToolCandidate: Hashable, Sendable {
    /// The model's name for the tool, unique among the candidates.
    public var name: String
    /// The tool's name on its server.
    public var toolNameOnServer: String
    /// A label for the server it came from, when there are several.
    public var server: String?
    /// The tool's title for people, if it has one.
    public var title: String?
    /// What the tool does.
    public var description: String
    /// The names of its parameters (the top-level properties of its input schema).
    public var parameterNames: [String]
    /// The descriptions of its parameters, weighted lower than the rest.
    public var parameterDescriptions: [String]
    /// What its definition costs in the model's context, in tokens.
    public var tokens: Int

    public init(
        name: String, toolNameOnServer: String? = nil, server: String? = nil, title: String? = nil, description: String,
        parameterNames: [String] = [], parameterDescriptions: [String] = [], tokens: Int
    ) {
        self.name = name
        self.toolNameOnServer = toolNameOnServer ?? name
        self.server = server
        self.title = title
        self.description = description
        self.parameterNames = parameterNames
        self.parameterDescriptions = parameterDescriptions
        self.tokens = tokens
    }

    /// A candidate for a tool a server listed.
    ///
    /// Takes the tool's title and description, and the names and descriptions of the top-level
    /// properties of its input schema, in the schema's order.
    ///
    /// - Parameters:
    ///   - tool: The tool as listed.
    ///   - name: The model's name for it (see ``ToolNameMap``), unique among the candidates.
    ///   - server: A label for its server, when there are several.
    ///   - tokens: What its definition costs in the context, as the caller estimates it.
    public init(tool: ToolDefinition, name: String, server: String? = nil, tokens: Int) {
        let properties = tool.inputSchema["properties"]?.objectValue
        self.init(
            name: name, toolNameOnServer: tool.name, server: server, title: tool.title, description: tool.description ?? "",
            parameterNames: properties?.keys ?? [],
            parameterDescriptions: properties?.values.compactMap { $0["description"]?.stringValue } ?? [],
            tokens: tokens)
    }
}

/// The tools one turn gets, and why each other candidate does not.
public struct ToolSelection: Hashable, Sendable {
    /// A candidate left out, and why.
    public struct Exclusion: Hashable, Sendable {
        /// The model's name for the tool.
        public var name: String
        /// The tool's name on its server.
        public var toolNameOnServer: String
        /// Why it was left out, for a person to read.
        public var reason: String

        public init(name: String, toolNameOnServer: String, reason: String) {
            self.name = name
            self.toolNameOnServer = toolNameOnServer
            self.reason = reason
        }
    }

    /// The tools, in the order the model gets them: the candidates' order when all of them
    /// fit, else pinned tools first, then by relevance.
    public var selected: [ToolCandidate]
    /// Every other candidate, in the candidates' order, each with its reason.
    public var excluded: [Exclusion]
    /// The tokens of the selected definitions.
    public var tokens: Int

    public init(selected: [ToolCandidate], excluded: [Exclusion], tokens: Int) {
        self.selected = selected
        self.excluded = excluded
        self.tokens = tokens
    }
}

/// Chooses the tools a turn gets when they do not all fit the context: pinned ones, then the
/// ones most relevant to the prompt, within a number of tools and a token budget.
///
/// Apple's on-device model has 4,096 tokens for instructions, tool definitions, the
/// conversation and the answer, and works best with 3–5 tools (TN3193). When every candidate
/// fits ``maximumTools`` and ``tokenBudget``, a turn gets them all, in their given order, so
/// the session need not change from turn to turn. Otherwise:
///
/// 1. pinned tools come first, in their given order, while they fit;
/// 2. the others follow by relevance to the prompt (see ``ToolRelevance``: words of the
///    prompt in the tool's name, title, description and parameters, plus a boost for tools
///    the conversation used recently), skipping any whose definition no longer fits the
///    tokens left, until ``maximumTools`` are chosen;
/// 3. a tool that nothing in the prompt matches and that was not used recently, or whose
///    relevance is under ``minimumRelevance`` of the best match's, is left out even when there
///    is room: its definition would only take context.
///
/// Ties in relevance go to the more recently used tool, then to the earlier candidate. The
/// result depends only on the arguments. Every candidate not selected is reported in
/// ``ToolSelection/excluded`` with its reason.
///
/// ```swift
/// let selector = ToolSelector(maximumTools: 5, tokenBudget: 1536, pinned: ["notes_search"])
/// let selection = selector.select(candidates, prompt: "what time is it in Tokyo?", recentlyUsed: ["git_log"])
/// selection.selected.map(\.name)  // ["notes_search", "get_current_time", "git_log", …]
/// selection.excluded.first?.reason  // "not among the 3 most relevant to this prompt that fit (rank 6 of 40 for this prompt); …"
/// ```
public struct ToolSelector: Hashable, Sendable {
    /// The most tools a turn gets (TN3193: 3–5).
    public var maximumTools: Int
    /// The tokens the selected definitions may use together.
    public var tokenBudget: Int
    /// Model names of tools every turn gets, if they fit at all.
    public var pinned: Set<String>
    /// The least relevance a tool needs to be chosen, as a share of the best match's
    /// (see ``ToolRelevance/Ranked/score``): a tool far less related to the prompt than the
    /// best one only takes context. 0 fills every place that fits.
    public var minimumRelevance: Double
    /// The most places tools of one server take while relevant tools of other servers wait
    /// (pinned tools count too); a verbose server cannot fill a turn alone. Places left over
    /// when no other server has a relevant tool go to that server's next tools.
    ///
    /// A tool over its server's share waits only for tools of other servers that are nearly
    /// as relevant as it (``serverShareYield``): the share settles near ties in favour of
    /// other servers, but when one server is what the prompt is about, its fourth tool goes
    /// before another server's weaker match.
    public var maximumToolsPerServer: Int

    /// How relevant, as a share of a waiting tool's score, another server's tool must be to go
    /// before a tool over its server's share (``maximumToolsPerServer``): nine tenths.
    ///
    /// Chosen on the selection evaluation's development prompts: one half (the value before)
    /// gave 9 fewer hits in 1,335, and no share at all 4 fewer.
    public static let serverShareYield = 0.9

    /// A selector.
    ///
    /// - Parameters:
    ///   - maximumTools: The most tools a turn gets.
    ///   - tokenBudget: The tokens the selected definitions may use together.
    ///   - pinned: Model names of tools every turn gets, if they fit at all.
    ///   - minimumRelevance: The least relevance, as a share of the best match's, a tool needs.
    ///   - maximumToolsPerServer: The most places one server's tools take while other servers'
    ///     relevant tools wait; by default three fifths of `maximumTools`, rounded up (3 of 5).
    public init(
        maximumTools: Int = 5, tokenBudget: Int, pinned: Set<String> = [], minimumRelevance: Double = 0.15,
        maximumToolsPerServer: Int? = nil
    ) {
        self.maximumTools = maximumTools
        self.tokenBudget = tokenBudget
        self.pinned = pinned
        self.minimumRelevance = minimumRelevance
        self.maximumToolsPerServer = maximumToolsPerServer ?? max(1, (maximumTools * 3 + 4) / 5)
    }

    /// The tools for a turn whose prompt is `prompt`.
    ///
    /// - Parameters:
    ///   - candidates: Every tool the turn may get; their `name`s should be unique (a repeated
    ///     name is treated as one name: pinned, or recently used, for each tool that has it).
    ///   - prompt: The user's prompt for this turn.
    ///   - recentlyUsed: Model names of the tools the conversation called, most recent last.
    /// - Returns: The selected tools and every other candidate with the reason it was left out.
    public func select(_ candidates: [ToolCandidate], prompt: String, recentlyUsed: [String] = []) -> ToolSelection {
        if let all = allFitting(candidates) { return all }
        return select(from: ToolRelevance(candidates), prompt: prompt, recentlyUsed: recentlyUsed)
    }

    /// The tools for a turn whose prompt is `prompt`, from candidates already indexed.
    ///
    /// The same as ``select(_:prompt:recentlyUsed:)`` with `relevance.candidates`; an app that
    /// keeps the index while the tool list is unchanged saves indexing the tools' text each turn.
    public func select(from relevance: ToolRelevance, prompt: String, recentlyUsed: [String] = []) -> ToolSelection {
        let candidates = relevance.candidates
        if let all = allFitting(candidates) { return all }
        let ranking = relevance.ranking(for: prompt, recentlyUsed: recentlyUsed)
        var rank = [Int](repeating: 0, count: candidates.count)
        for (position, ranked) in ranking.enumerated() {
            rank[ranked.index] = position + 1
        }
        var chosen: [Int] = []
        var reasons = [String?](repeating: nil, count: candidates.count)
        var used = 0
        let isPinned = candidates.map { pinned.contains($0.name) }

        for index in candidates.indices where isPinned[index] {
            let cost = candidates[index].tokens
            if maximumTools <= 0 {
                reasons[index] = Self.noToolsReason(maximumTools)
            } else if cost > tokenBudget {
                reasons[index] =
                    "pinned, but its definition (about \(cost) tokens) alone exceeds the \(tokenBudget)-token tool budget"
            } else if chosen.count >= maximumTools {
                reasons[index] = "pinned, but other pinned tools already take the \(Self.places(maximumTools))"
            } else if used + cost > tokenBudget {
                reasons[index] =
                    "pinned, but its definition (about \(cost) tokens) does not fit the \(tokenBudget - used) tokens left "
                    + "of the \(tokenBudget)-token tool budget after the other pinned tools"
            } else {
                chosen.append(index)
                used += cost
            }
        }
        let pinnedCount = chosen.count

        var perServer: [String: Int] = [:]
        for index in chosen {
            perServer[candidates[index].server ?? "", default: 0] += 1
        }
        // Takes the candidate at `index` if it qualifies and fits, or records why not;
        // `serverShareTaken`: it waited for its server's share and the places are now gone.
        func consider(_ index: Int, score: Double, serverShareTaken: Bool = false) {
            let cost = candidates[index].tokens
            let place = "rank \(rank[index]) of \(candidates.count) for this prompt"
            // Its share's reason only when another server's tools hold places; when its own
            // server's next tools filled them, it simply ranked too low.
            if serverShareTaken, chosen.count >= maximumTools, chosen.contains(where: { candidates[$0].server != candidates[index].server })
            {
                let server = candidates[index].server.map { "its server (\($0))" } ?? "its server"
                reasons[index] =
                    "\(server) already has \(Self.places(maximumToolsPerServer)) of this turn's, and relevant tools of other "
                    + "servers took the rest (\(place))"
            } else if cost > tokenBudget {
                reasons[index] = "its definition (about \(cost) tokens) alone exceeds the \(tokenBudget)-token tool budget (\(place))"
            } else if score <= 0 {
                reasons[index] = "nothing in this prompt matches it, and the conversation has not used it recently"
            } else if score < minimumRelevance {
                reasons[index] =
                    "it is much less related to this prompt than the best match (\(Self.percent(score)) of its "
                    + "relevance, under the \(Self.percent(minimumRelevance)) needed; \(place))"
            } else if chosen.count >= maximumTools {
                reasons[index] = Self.noPlaceReason(
                    maximumTools: maximumTools, pinnedCount: pinnedCount, relevantCount: chosen.count - pinnedCount, place: place)
            } else if used + cost > tokenBudget {
                reasons[index] =
                    "its definition (about \(cost) tokens) does not fit the \(tokenBudget - used) tokens left "
                    + "of the \(tokenBudget)-token tool budget (\(place))"
            } else {
                chosen.append(index)
                used += cost
                perServer[candidates[index].server ?? "", default: 0] += 1
            }
        }
        // Relevant tools of a server that has its share of places wait, to fill places left at the end.
        // They go first, though, before another server's tool clearly less relevant (``serverShareYield``).
        var waiting: [ToolRelevance.Ranked] = []
        var firstWaiting = 0
        for ranked in ranking where !isPinned[ranked.index] {
            let index = ranked.index
            if ranked.score > 0, ranked.score >= minimumRelevance, candidates[index].tokens <= tokenBudget,
                chosen.count < maximumTools, perServer[candidates[index].server ?? "", default: 0] >= maximumToolsPerServer
            {
                waiting.append(ranked)
            } else {
                while firstWaiting < waiting.count, chosen.count < maximumTools,
                    ranked.score < waiting[firstWaiting].score * Self.serverShareYield
                {
                    consider(waiting[firstWaiting].index, score: waiting[firstWaiting].score)
                    firstWaiting += 1
                }
                consider(index, score: ranked.score)
            }
        }
        for ranked in waiting[firstWaiting...] {
            consider(ranked.index, score: ranked.score, serverShareTaken: true)
        }

        let excluded = candidates.indices.compactMap { index in
            reasons[index].map {
                ToolSelection.Exclusion(name: candidates[index].name, toolNameOnServer: candidates[index].toolNameOnServer, reason: $0)
            }
        }
        return ToolSelection(selected: chosen.map { candidates[$0] }, excluded: excluded, tokens: used)
    }

    /// Every candidate, in order, when they all fit.
    private func allFitting(_ candidates: [ToolCandidate]) -> ToolSelection? {
        let tokens = candidates.reduce(0) { $0 + $1.tokens }
        guard candidates.count <= maximumTools, tokens <= tokenBudget else { return nil }
        return ToolSelection(selected: candidates, excluded: [], tokens: tokens)
    }

    /// `share` as a whole percentage, rounded down (so a share under a threshold never reads
    /// as the threshold), but at least 1 % when it is above 0.
    private static func percent(_ share: Double) -> String {
        let whole = Int((share * 100).rounded(.down))
        return "\(share > 0 ? max(1, whole) : whole) %"
    }

    /// "1 place", "5 places".
    private static func places(_ count: Int) -> String {
        count == 1 ? "1 place" : "\(count) places"
    }

    private static func noToolsReason(_ maximumTools: Int) -> String {
        "a turn gets no tools (the maximum is \(maximumTools))"
    }

    /// Why a relevant tool that fits is left out when the places are taken.
    private static func noPlaceReason(maximumTools: Int, pinnedCount: Int, relevantCount: Int, place: String) -> String {
        if maximumTools <= 0 {
            return noToolsReason(maximumTools)
        }
        if relevantCount == 0 {
            return "pinned tools take the \(places(maximumTools)) (\(place))"
        }
        let pinnedNote = pinnedCount == 0 ? "" : "; pinned tools take \(pinnedCount) of the \(places(maximumTools))"
        let chosen =
            relevantCount == 1
            ? "the most relevant tool to this prompt that fits"
            : "among the \(relevantCount) most relevant tools to this prompt that fit"
        return "not \(chosen) (\(place))\(pinnedNote)"
    }
}
