import Foundation
import MCPCore
import MCPFoundationModels

/// What choosing a turn's tools costs: indexing a catalog (once per tool list) and ranking
/// it for a prompt (every turn), over the schema corpus (`Tests/Fixtures/ToolSchemas`, 159 tools of
/// 17 servers).
enum SelectionBenchmarks {
    static let prompts = [
        "what time is it in Tokyo right now?",
        "show me the diff of my staged changes",
        "list the open merge requests in project 5",
        "fetch https://swift.org and summarise it",
        "what's the weather in Lisbon tomorrow",
    ]

    static func run() throws {
        print("## Tool choice per turn (ToolRelevance + ToolSelector over the schema corpus)")
        print("")
        let candidates = corpus()
        guard candidates.count == 159 else {
            throw CorpusMissing(found: candidates.count)
        }
        let selector = ToolSelector(maximumTools: 5, tokenBudget: 1536)
        let index = Harness.measure("index") { blackHole(ToolRelevance(candidates)) }
        let relevance = ToolRelevance(candidates)
        var prompt = 0
        let select = Harness.measure("select") {
            blackHole(selector.select(from: relevance, prompt: prompts[prompt % prompts.count]))
            prompt += 1
        }
        print(
            "index \(candidates.count) tools (once per tool list)   \(Harness.padLeft(Harness.format(nanoseconds: index.nanosecondsPerIteration), 10))"
        )
        print(
            "choose the tools for one prompt           \(Harness.padLeft(Harness.format(nanoseconds: select.nanosecondsPerIteration), 10))")
        print("")
    }

    /// The vendored corpus is not all there (a broken checkout): the benchmark fails instead of
    /// measuring something else.
    struct CorpusMissing: Error, CustomStringConvertible {
        let found: Int
        var description: String { "expected the 159 tools of Tests/Fixtures/ToolSchemas, found \(found)" }
    }

    /// Every corpus tool as a candidate, its cost estimated at 4 characters a token.
    static func corpus() -> [ToolCandidate] {
        let schemas = URL(fileURLWithPath: #filePath)  // Benchmarks/MCPBenchmarks/SelectionBenchmarks.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures/ToolSchemas")
        let files = (try? FileManager.default.contentsOfDirectory(at: schemas, includingPropertiesForKeys: nil)) ?? []
        var candidates: [ToolCandidate] = []
        for file in files.filter({ $0.pathExtension == "json" }).sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            let server = file.deletingPathExtension().lastPathComponent
            guard let data = try? Data(contentsOf: file), let document = try? JSONValue(parsing: data) else { continue }
            for entry in document["tools"]?.arrayValue ?? [] {
                guard let tool = try? ToolDefinition(json: entry) else { continue }
                let characters = tool.name.count + (tool.description ?? "").count + entry.description.count
                candidates.append(
                    ToolCandidate(
                        tool: tool, name: "\(candidates.count)_\(tool.name)", server: server, tokens: (characters + 3) / 4))
            }
        }
        return candidates
    }
}
