#if !canImport(FoundationModels)
import MCP
import PortableFoundationModels
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

/// The schema corpus served as 17 MCP servers to one provider: each prompt's turn gets the
/// tool it needs, counted with the model's own token counter.
@Suite("Tool choice through the provider over the corpus served as 17 servers")
struct ProviderCorpusEvaluationTests {
    /// One in-process server per corpus file, under the file's name.
    static func servers() async throws -> (servers: [MCPSessionProvider.Server], skipped: [String]) {
        var byFile: [String: [MCPCore.ToolDefinition]] = [:]
        var order: [String] = []
        for listed in ListedTool.all {
            if byFile[listed.file] == nil { order.append(listed.file) }
            byFile[listed.file, default: []].append(listed.tool)
        }
        var servers: [MCPSessionProvider.Server] = []
        var skipped: [String] = []
        for file in order {
            let server = MCPServer(name: file, version: "1.0")
            for tool in byFile[file] ?? [] {
                do {
                    try await server.register(MCPTool(definition: tool) { _, _ in .text("ok") })
                } catch {
                    skipped.append("\(file)/\(tool.name): \(error)")
                }
            }
            servers.append(.init(name: file, client: try await MCPClient.connect(to: server)))
        }
        return (servers, skipped)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("At least 90 % of the prompts' turns get the tool they need, at most 5 tools a turn within the tool budget")
    func hitRate() async throws {
        let (servers, skipped) = try await Self.servers()
        #expect(skipped.isEmpty, "\(skipped)")
        let model = ScriptedLanguageModel { _ in .text("ok") }
        let provider = MCPSessionProvider(servers: servers, model: model.model)
        let prompts = SelectionPrompts.all.filter(\.recentlyUsed.isEmpty)
        #expect(prompts.count >= 60)
        var hits = 0
        var tokens: [Int] = []
        var misses: [String] = []
        for prompt in prompts {
            let selection = try await provider.selection(for: prompt.prompt)
            #expect(selection.selected.count <= 5)
            #expect(selection.tokens <= ContextBudget.onDevice.toolTokens)
            tokens.append(selection.tokens)
            if selection.selected.contains(where: { $0.server == prompt.needs.server && $0.toolNameOnServer == prompt.needs.tool }) {
                hits += 1
            } else {
                misses.append(prompt.testDescription)
            }
        }
        let tools = await provider.availableTools.count
        let rate = Double(hits) / Double(prompts.count)
        print(
            "Provider over \(servers.count) servers (\(tools) tools): \(hits) of \(prompts.count) turns got the tool they need; "
                + "tool tokens a turn (the model's count): mean \(tokens.reduce(0, +) / max(1, tokens.count)), max \(tokens.max() ?? 0)")
        for miss in misses { print("  missed: \(miss)") }
        #expect(rate >= 0.9, "misses: \(misses)")
        await provider.close()
        for server in servers { await server.client.close() }
    }

    @Test("The tools used recently are read from the transcript, oldest first, each at its latest call")
    func recentlyUsed() {
        func calls(_ names: [String]) -> Transcript.Entry {
            .toolCalls(
                Transcript.ToolCalls(
                    names.map {
                        Transcript.ToolCall(id: $0, toolName: $0, arguments: GeneratedContent(properties: [:]))
                    }))
        }
        let history: [Transcript.Entry] = [calls(["a", "b"]), calls(["c"]), calls(["a"])]
        #expect(MCPToolbox.recentlyUsed(history) == ["b", "c", "a"])
    }
}
#endif
