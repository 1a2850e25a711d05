#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// A request that needs something of the model, and the capability that provides it.
struct CapabilityCase: Sendable, CustomTestStringConvertible {
    let name: String
    let needed: LanguageModelCapabilities.Capability
    let run: @Sendable (ProviderModel) async throws -> Void

    var testDescription: String { name }

    static let all: [CapabilityCase] = [
        CapabilityCase(name: "tools enabled need tool calling", needed: .toolCalling) { model in
            try await LanguageModelSession(model: model, tools: [EchoTool("search")]).respond(to: "Hi")
        },
        CapabilityCase(name: "a response schema needs guided generation", needed: .guidedGeneration) { model in
            try await LanguageModelSession(model: model).respond(
                to: Prompt("Count"), generating: Int.self, contextOptions: ContextOptions())
        },
        CapabilityCase(name: "a reasoning level at the call site needs reasoning", needed: .reasoning) { model in
            try await LanguageModelSession(model: model).respond(to: Prompt("Think"), contextOptions: ContextOptions(reasoningLevel: .deep))
        },
        CapabilityCase(name: "a reasoning level from a profile needs reasoning", needed: .reasoning) { model in
            let profile = LanguageModelSession.Profile { Instructions("Think.") }.model(model).reasoningLevel(.light)
            try await LanguageModelSession(profile: profile).respond(to: "Think")
        },
    ]
}

/// The session checks each request against the model's capabilities before the executor runs.
@Suite("27: the capability check comes before the executor")
struct CapabilityTests {
    static let everything: [LanguageModelCapabilities.Capability] = [.toolCalling, .guidedGeneration, .reasoning, .vision]

    @Test(
        "A request that needs a capability the model lacks fails with unsupportedCapability; the executor is not called",
        arguments: CapabilityCase.all)
    func missingCapability(_ test: CapabilityCase) async throws {
        let model = ProviderModel([.text("never")], capabilities: Self.everything.filter { $0 != test.needed })
        let error = await #expect(throws: LanguageModelError.self) { try await test.run(model) }
        guard case .unsupportedCapability(let unsupported)? = error else {
            Issue.record("expected unsupportedCapability, got \(String(describing: error))")
            return
        }
        #expect(unsupported.capability == test.needed)
        #expect(model.requests.isEmpty)
    }

    @Test("The same request goes through when the model has the capability", arguments: CapabilityCase.all)
    func presentCapability(_ test: CapabilityCase) async throws {
        let model = ProviderModel([.text("7")], capabilities: Self.everything)
        try await test.run(model)
        #expect(model.requests.count == 1)
    }

    @Test("Tools with .disallowed calling enable nothing, so a model without tool calling answers")
    func disallowedToolsNeedNoCapability() async throws {
        let model = ProviderModel([.text("ok")], capabilities: [])
        let session = LanguageModelSession(model: model, tools: [EchoTool("search")])
        try await session.respond(to: Prompt("Hi"), options: GenerationOptions(toolCallingMode: .disallowed))
        #expect(toolNames(try #require(model.requests.first)).isEmpty)
    }

    @Test("Capabilities: init(_:), contains(_:), and the system model's")
    func capabilitySet() {
        let capabilities = LanguageModelCapabilities([.toolCalling, .vision])
        #expect(capabilities.contains(.toolCalling))
        #expect(capabilities.contains(.vision))
        #expect(!capabilities.contains(.reasoning))
        #expect(!LanguageModelCapabilities([]).contains(.guidedGeneration))
        let system = SystemLanguageModel.default.capabilities
        #expect(system.contains(.toolCalling) && system.contains(.guidedGeneration) && !system.contains(.reasoning))
    }
}
#endif
