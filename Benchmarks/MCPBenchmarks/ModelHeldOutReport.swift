#if !canImport(FoundationModels)
import ChatCompletions
import Foundation

/// The held-out evaluation's report: the models side by side (each prompt's line is printed as it runs).
enum HeldOutReport {
    typealias Outcome = HeldOutEvaluation.Outcome

    static func print(_ reports: [HeldOutEvaluation.ModelReport]) {
        let width = 22
        func row(_ label: String, _ cell: (HeldOutEvaluation.ModelReport) -> String) {
            Swift.print(Stats.row([(label, 44)] + reports.map { (cell($0), width) }))
        }
        Swift.print(Stats.row([("", 44)] + reports.map { ($0.model.name, width) }))
        func rate(_ outcomes: [Outcome], _ mark: (Outcome) -> Bool) -> String {
            ModelEvaluation.fraction(outcomes.filter(mark).count, outcomes.count)
        }
        func needing(_ report: HeldOutEvaluation.ModelReport) -> [Outcome] { report.outcomes.filter { $0.evaluation.tool != nil } }
        row("right tool (first call), all prompts") { rate($0.outcomes, \.rightTool) }
        row("  prompts needing a tool") { rate(needing($0), \.rightTool) }
        for tool in [ModelEvaluation.clock, ModelEvaluation.add, ModelEvaluation.search, ModelEvaluation.list, ModelEvaluation.delete] {
            row("    \(tool)") { rate($0.outcomes.filter { $0.evaluation.tool == tool }, \.rightTool) }
        }
        row("  prompts needing none (answered, no call)") { rate($0.outcomes.filter { $0.evaluation.tool == nil }, \.rightTool) }
        row("argument checks (right tool, valid, checks)") { rate(needing($0), \.rightArguments) }
        row("answer quality (all prompts)") { rate($0.outcomes, \.goodAnswer) }
        row("  prompts needing a tool") { rate(needing($0), \.goodAnswer) }
        row("  prompts needing none") { rate($0.outcomes.filter { $0.evaluation.tool == nil }, \.goodAnswer) }
        row("degenerate answers") { String($0.outcomes.filter { $0.degeneracy != nil }.count) }
        row("failed turns (at the token limit)") { report in
            let failed = report.outcomes.filter { $0.failure != nil }
            return "\(failed.count) (\(failed.filter(\.reachedTokenLimit).count))"
        }
        row("time per turn: median / p90 / max (s)") { report in
            let sorted = report.outcomes.map { $0.duration.nanoseconds / 1e9 }.sorted()
            return String(
                format: "%.1f / %.1f / %.1f", Stats.median(sorted), Stats.percentile(sorted, 0.9), sorted.last ?? .nan)
        }
        row("tokens generated per turn: median / max") { report in
            let tokens = report.outcomes.map { Double($0.generatedTokens) }
            return String(format: "%.0f / %.0f", Stats.median(tokens), tokens.max() ?? .nan)
        }
        row("tokens generated, all turns") { String($0.outcomes.reduce(0) { $0 + $1.generatedTokens }) }
        row("model requests per turn: median / max") { report in
            let counts = report.outcomes.map { Double($0.requests.count) }
            return String(format: "%.0f / %.0f", Stats.median(counts), counts.max() ?? .nan)
        }
        row("generation speed (tokens/s, median)") { report in
            let speeds = report.outcomes.flatMap(\.requests).compactMap { request -> Double? in
                guard let server = request.server, server.predictedTokens > 0, server.predicted > .zero else { return nil }
                return Double(server.predictedTokens) / (server.predicted.nanoseconds / 1e9)
            }
            return String(format: "%.0f", Stats.median(speeds))
        }
        row("load average before / after") {
            "\($0.loadBefore.split(separator: " ").first ?? "?") / \($0.loadAfter.split(separator: " ").first ?? "?")"
        }
        for readme in reports.first?.outcomes.filter(\.evaluation.readme).map(\.evaluation.id) ?? [] {
            row("\(readme): time, tool, answer") { report in
                guard let outcome = report.outcomes.first(where: { $0.evaluation.id == readme }) else { return "—" }
                return String(format: "%.1f s", outcome.duration.nanoseconds / 1e9) + (outcome.rightTool ? " right" : " wrong")
                    + (outcome.goodAnswer ? " good" : " bad")
            }
        }
        for report in reports where !report.restarts.isEmpty {
            Swift.print(
                "\(report.model.name): llama-server stopped (restarted, the prompt run again) during: \(report.restarts.joined(separator: "; "))"
            )
        }
        Swift.print("")
        Swift.print("right tool: the turn's first tool call names the prompt's tool (or one of its alsoRight); for a prompt that needs")
        Swift.print("none, the model answers without a call. argument checks: of the prompts needing a tool, a right first call whose")
        Swift.print("arguments validate against the tool's inputSchema and meet the prompt's checks. answer quality: the turn answered,")
        Swift.print("the answer is not degenerate (empty, over the set's character limit, or repeating itself) and shows what the")
        Swift.print("prompt expects (a word of the note, the zone's time at a minute of the turn, ...). Times: the whole turn,")
        Swift.print("MCPSessionProvider.respond(to:), on this machine at the load shown.")
    }

    /// One prompt's line: the marks, the first call, the time and the answer.
    static func detail(_ outcome: Outcome) -> String {
        let evaluation = outcome.evaluation
        let marks = [
            outcome.rightTool ? "tool" : "-",
            evaluation.tool == nil ? "" : (outcome.rightArguments ? "args" : "-"),
            outcome.goodAnswer ? "answer" : "-",
        ].filter { !$0.isEmpty }.joined(separator: " ")
        let expected = evaluation.rightTools.isEmpty ? "no tool" : evaluation.rightTools.joined(separator: "|")
        let called = outcome.calls.isEmpty ? "no call" : outcome.calls.joined(separator: ", ")
        let arguments = outcome.firstCall?.arguments.map { " \($0)" } ?? ""
        var line = "[\(marks)] \(evaluation.id) \"\(evaluation.prompt)\" → expected \(expected); called \(called)\(arguments)"
        line += String(format: "; %.1f s, %d tokens", outcome.duration.nanoseconds / 1e9, outcome.generatedTokens)
        if let failure = outcome.failure {
            line += "; failed: \(failure)"
        } else if let answer = outcome.answer {
            let shown = answer.count > 160 ? String(answer.prefix(160)) + "…" : answer
            line += "; answer: \(shown.debugDescription)"
        }
        if let degeneracy = outcome.degeneracy { line += " [degenerate: \(degeneracy)]" }
        if !outcome.misses.isEmpty { line += " [\(outcome.misses.joined(separator: "; "))]" }
        return line
    }
}
#endif
