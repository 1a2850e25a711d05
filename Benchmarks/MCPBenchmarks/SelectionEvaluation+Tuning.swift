@_spi(Tuning) import MCPAgent
import MCPFoundationModels

extension SelectionEvaluation {
    /// One setting of the ranking and the selector.
    struct Setting: Hashable, Sendable, CustomStringConvertible {
        var tuning = ToolRelevance.Tuning()
        var minimumRelevance = ToolSelector(tokenBudget: tokenBudget).minimumRelevance
        var maximumToolsPerServer = ToolSelector(tokenBudget: tokenBudget).maximumToolsPerServer

        var description: String {
            "details weight \(tuning.fieldWeights[ToolRelevance.Field.details.rawValue]), lead weight "
                + "\(tuning.fieldWeights[ToolRelevance.Field.lead.rawValue]), cut \(minimumRelevance), per server \(maximumToolsPerServer)"
        }

        /// The strategy that ranks and selects with this setting.
        var strategy: Strategy {
            Strategy(name: "setting: \(self)") { candidates in
                let relevance = ToolRelevance(candidates, embedding: nil, tuning: tuning)
                let selector = ToolSelector(
                    maximumTools: maximumTools, tokenBudget: tokenBudget, minimumRelevance: minimumRelevance,
                    maximumToolsPerServer: maximumToolsPerServer)
                return { prompt, recentlyUsed in
                    let selection = selector.select(from: relevance, prompt: prompt, recentlyUsed: recentlyUsed)
                    let ranking = relevance.ranking(for: prompt, recentlyUsed: recentlyUsed).map { candidates[$0.index].name }
                    return Choice(selected: selection.selected, excluded: selection.excluded, tokens: selection.tokens, ranking: ranking)
                }
            }
        }
    }

    /// The settings a fold of the leave-one-server-out run chooses among: the description's
    /// weights, the relative cut and one server's share of a turn (24 settings, the package's
    /// defaults among them).
    static let grid: [Setting] = {
        var settings: [Setting] = []
        for details in [0.1, 0.3] {
            for lead in [1.0, 1.5] {
                for cut in [0.2, 0.25, 0.3] {
                    for share in [3, 5] {
                        var setting = Setting()
                        setting.tuning.fieldWeights[ToolRelevance.Field.details.rawValue] = details
                        setting.tuning.fieldWeights[ToolRelevance.Field.lead.rawValue] = lead
                        setting.minimumRelevance = cut
                        setting.maximumToolsPerServer = share
                        settings.append(setting)
                    }
                }
            }
        }
        return settings
    }()

    /// A real leave-one-server-out: each fold picks the setting of ``grid`` with the most hits
    /// on its training prompts (development prompts that need none of the held-out server's
    /// tools; the package's defaults win ties), then is evaluated on the held-out server's prompts.
    static func gridTuned(catalogs: [Catalog]) -> Tuning {
        { training, _ in
            var best = Setting()
            var bestHits = evaluate(training, catalogs: catalogs, strategy: best.strategy).filter(\.hit).count
            for setting in grid where setting != best {
                let hits = evaluate(training, catalogs: catalogs, strategy: setting.strategy).filter(\.hit).count
                if hits > bestHits {
                    best = setting
                    bestHits = hits
                }
            }
            return best.strategy
        }
    }
}
