#if !canImport(FoundationModels)
import MCP
import OnDeviceMCPTestSupport
import PortableFoundationModels
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

@Suite("Defences across a conversation")
struct DefenceProviderTests {
    /// A provider over notes (private) and a network tool, whose approver answers `answer`.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    static func provider(
        script: ScriptedLanguageModel, asked: Recorder<ToolCallRequest>, answer: ToolApproval
    ) async throws -> (MCPSessionProvider, EffectTools) {
        let tools = EffectTools()
        let (_, client) = try await connectedServer(tools.tools)
        var trust = ToolTrust(origin: .inProcess)
        trust.mark(.privateData, tool: "notes_read")
        let approver = ToolApprover { request in
            asked.append(request)
            return answer
        }
        let configuration = MCPSessionProvider.Configuration(
            policy: .allowing([.reachesOpenWorld], approver: approver), defences: Defences(trust: trust))
        return (MCPSessionProvider(client: client, model: script.model, configuration: configuration), tools)
    }

    static let fetch = #"{"url": "https://example.com/train-times"}"#

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "The guard's state and 'allow for this session' last for the conversation, across turns; reset() ends the permission, not what was read; reset(clearingDataFlow:) ends both",
        arguments: [false, true])
    func conversationState(_ clears: Bool) async throws {
        let asked = Recorder<ToolCallRequest>()
        let script = ScriptedLanguageModel([
            .callTool("notes_read"), .text("read"),
            .callTool("web_fetch", json: Self.fetch), .text("fetched"),
            .callTool("web_fetch", json: Self.fetch), .text("fetched again"),
            .callTool("web_fetch", json: Self.fetch), .text("new conversation"),
        ])
        let (provider, tools) = try await Self.provider(script: script, asked: asked, answer: .allowForSession)
        _ = try await provider.respond(to: "Read my notes")
        _ = try await provider.respond(to: "Train times?")  // Held: the conversation read private data.
        _ = try await provider.respond(to: "Again")  // Allowed for the session: not asked again.
        #expect(asked.values.count == 1)
        #expect(asked.values.first?.concern?.sources.map(\.tool) == ["notes_read"])
        await provider.reset(clearingDataFlow: clears)
        _ = try await provider.respond(to: "Train times, new chat")
        if clears {
            // The app said nothing of the old conversation reaches the new one: the rule allows.
            #expect(asked.values.count == 1)
        } else {
            // The notes read before still count, and the permission ended with the conversation.
            #expect(asked.values.count == 2)
            #expect(asked.values.last?.concern?.sources.map(\.kind) == [.earlierConversation])
        }
        #expect(tools.calls.values == ["notes_read", "web_fetch", "web_fetch", "web_fetch"])
        await provider.close()
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A person's denial reaches the model as the tool's error, with the reason")
    func denialReachesModel() async throws {
        let asked = Recorder<ToolCallRequest>()
        let script = ScriptedLanguageModel([
            .callTool("notes_read"),
            .callTool("web_fetch", json: Self.fetch),
            .reply { request in request.toolOutput("web_fetch") ?? "nothing" },
        ])
        let (provider, tools) = try await Self.provider(script: script, asked: asked, answer: .deny(reason: "the user said no"))
        let answer = try await provider.respond(to: "Read my notes and look up trains")
        #expect(answer.contains("The call was not approved, so the tool did not run: the user said no."))
        #expect(tools.calls.values == ["notes_read"])
        await provider.close()
    }
}
#endif
