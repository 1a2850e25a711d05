import Foundation
import MCPFoundationModels

extension SelectionEvaluation {
    /// Each catalog's servers, tools and tokens, and any tool the product does not offer.
    static func describeCatalogs(_ catalogs: [Catalog]) {
        for catalog in catalogs {
            let tokens = catalog.candidates.reduce(0) { $0 + $1.tokens }
            print(
                "catalog \(catalog.name): \(catalog.candidates.count) tools of \(catalog.servers.count) servers, "
                    + "\(grouped(tokens)) tokens of definitions in all")
            let parts = catalog.servers.map { server in
                let tools = catalog.candidates.filter { $0.server == server }
                let largest = tools.map(\.tokens).max() ?? 0
                return "\(server) \(tools.count) (\(grouped(tools.reduce(0) { $0 + $1.tokens })), largest \(grouped(largest)))"
            }
            print("  tools (tokens, largest definition) per server: " + parts.joined(separator: ", "))
            for refused in catalog.notOffered {
                print("  not offered by the product: \(refused.tool): \(refused.reason)")
            }
        }
        print("")
    }

    /// Hit rates, tools and tokens per turn and the rank of the first needed tool, for each set
    /// and catalog; then each server's hit rate in the development set, and in the held-out set
    /// too when `heldOutByServer` (so that a look at one server's development figures does not
    /// show its held-out ones unasked).
    static func report(_ outcomes: [Outcome], catalogs: [Catalog], heldOutByServer: Bool) {
        print(
            Stats.row(
                [
                    ("set", 5), ("catalog", 8), ("prompts", 8), ("hits", 5), ("hit rate", 9), ("tools/turn", 11), ("max", 4),
                    ("tokens/turn", 12), ("max", 6), ("1st needed rank", 16), ("max", 4), ("unranked", 9),
                ], leftColumns: 2))
        for set in PromptSet.allCases {
            let inSet = outcomes.filter { $0.prompt.set == set }
            print(summaryRow(set.rawValue, "all", inSet))
            for catalog in catalogs {
                print(summaryRow(set.rawValue, catalog.name, inSet.filter { $0.prompt.catalog == catalog.name }))
            }
        }
        print("")
        print("per server (its prompts: those needing one of its tools; a hit: one of those tools selected)")
        let sets: [PromptSet] = heldOutByServer ? PromptSet.allCases : [.dev]
        print(Stats.row([("server", 12)] + sets.map { ($0.rawValue, 16) }))
        var servers: [String] = []
        for catalog in catalogs {
            for server in catalog.servers where !servers.contains(server) { servers.append(server) }
        }
        for server in servers {
            let cells = sets.map { set -> (String, Int) in
                let mine = outcomes.filter { $0.prompt.set == set && $0.prompt.servers.contains(server) }
                guard !mine.isEmpty else { return ("-", 16) }
                let hits = mine.filter { $0.hit(onServer: server) }.count
                return ("\(hits)/\(mine.count) \(percent(Double(hits) / Double(mine.count)))", 16)
            }
            print(Stats.row([(server, 12)] + cells))
        }
        if !heldOutByServer {
            print("(--held-out-by-server adds the held-out set's column)")
        }
        print("")
    }

    /// One row of the summary table.
    static func summaryRow(_ set: String, _ catalog: String, _ outcomes: [Outcome]) -> String {
        guard !outcomes.isEmpty else { return Stats.row([(set, 5), (catalog, 8), ("0", 8)], leftColumns: 2) }
        let count = Double(outcomes.count)
        let hits = outcomes.filter(\.hit).count
        let tools = outcomes.map(\.choice.selected.count)
        let tokens = outcomes.map(\.choice.tokens)
        let ranks = outcomes.compactMap(\.rankOfFirstNeeded)
        let meanRank = ranks.isEmpty ? "-" : oneDecimal(Double(ranks.reduce(0, +)) / Double(ranks.count))
        return Stats.row(
            [
                (set, 5), (catalog, 8), ("\(outcomes.count)", 8), ("\(hits)", 5), (percent(Double(hits) / count), 9),
                (oneDecimal(Double(tools.reduce(0, +)) / count), 11), ("\(tools.max() ?? 0)", 4),
                (grouped(Int((Double(tokens.reduce(0, +)) / count).rounded())), 12), (grouped(tokens.max() ?? 0), 6),
                (meanRank, 16), (ranks.max().map(String.init) ?? "-", 4), ("\(outcomes.count - ranks.count)", 9),
            ], leftColumns: 2)
    }

    /// The development set's misses: the prompt, what it needs, what it got, and why the
    /// best-ranked needed tool was left out. Never called with test prompts.
    static func listMisses(_ outcomes: [Outcome]) {
        let misses = outcomes.filter { !$0.hit && $0.prompt.set == .dev }
        print("### Development-set misses (\(misses.count) of \(outcomes.count))")
        print("")
        for miss in misses {
            let needed = miss.prompt.needs.map(\.description).joined(separator: " | ")
            let got = miss.choice.selected.map(\.name).joined(separator: ", ")
            let recent =
                miss.prompt.recentlyUsed.isEmpty ? "" : " after \(miss.prompt.recentlyUsed.map(\.description).joined(separator: ", "))"
            print("- [\(miss.prompt.catalog)] \"\(miss.prompt.text)\"\(recent)")
            print("  needs \(needed); got \(got.isEmpty ? "no tool" : got)")
            let best = miss.choice.ranking.first { miss.neededNames.values.contains($0) }
            if let best, let rank = miss.rankOfFirstNeeded {
                let reason = miss.choice.excluded.first { $0.name == best }?.reason ?? "?"
                print("  \(best) ranks \(rank): \(reason)")
            } else {
                print("  no needed tool is ranked at all")
            }
        }
        print("")
    }
}
