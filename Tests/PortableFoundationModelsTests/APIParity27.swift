#if !canImport(FoundationModels)
// A compile-time inventory of the declarations of sections A (third-party models) and B
// (dynamic context) of the project's FoundationModels 27 reference: each line uses one
// declaration (or the few its comment names) with Apple's labels. Nothing here runs; the test
// target does not build if a declaration goes missing. The DocC article's parity table counts the
// declarations these lines use.
import Foundation
import PortableFoundationModels

private struct ParityM: LanguageModel {
    typealias Executor = ParityE
    var capabilities: LanguageModelCapabilities { .init([]) }
    var executorConfiguration: ParityE.Configuration { .init() }
}  //A protocol LanguageModel
private struct ParityE: LanguageModelExecutor {
    struct Configuration: Hashable, Sendable {}
    typealias Model = ParityM
    init(configuration: Configuration) throws {}
    func respond(
        to request: LanguageModelExecutorGenerationRequest, model: ParityM, streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {}
}  //A protocol LanguageModelExecutor
private func parityA(_ m: ParityM, _ e: ParityE, _ t: Transcript) async throws {
    _ = ParityM.Executor.self  //A associatedtype Executor
    _ = m.capabilities  //A capabilities
    _ = m.executorConfiguration  //A executorConfiguration
    _ = ParityE.Configuration.self  //A associatedtype Configuration
    _ = ParityE.Model.self  //A associatedtype Model
    _ = try ParityE(configuration: .init())  //A init(configuration:)
    e.prewarm(model: m, transcript: t)  //A prewarm default
    try await e.respond(
        to: .init(id: UUID(), transcript: t, enabledTools: [], generationOptions: .init(), contextOptions: .init(), metadata: [:]),
        model: m, streamingInto: .init())  //A respond
    let s = SystemLanguageModel.default
    let _: any LanguageModel = s  //A SystemLanguageModel: LanguageModel
    _ = s.capabilities  //A system capabilities
    _ = s.executorConfiguration  //A system executorConfiguration
    _ = SystemLanguageModel.Executor.self  //A struct Executor
    _ = SystemLanguageModel.Executor.Model.self  //A typealias Model
    _ = SystemLanguageModel.Executor.Configuration.self  //A struct Configuration
    let se = SystemLanguageModel.Executor(configuration: s.executorConfiguration)  //A init(configuration:)
    se.prewarm(model: s, transcript: t)  //A prewarm
    try await se.respond(
        to: .init(id: UUID(), transcript: t, enabledTools: [], generationOptions: .init(), contextOptions: .init(), metadata: [:]),
        model: s, streamingInto: .init())  //A respond
    let r = LanguageModelExecutorGenerationRequest(
        id: UUID(), transcript: t, enabledTools: [], schema: nil, generationOptions: .init(), contextOptions: .init(), metadata: [:])
    // A request init
    _ = r.id  //A
    _ = r.transcript  //A
    _ = r.enabledToolDefinitions  //A
    _ = r.schema  //A
    _ = r.generationOptions  //A
    _ = r.contextOptions  //A
    let _: [String: GeneratedContent] = r.metadata  //A
    let c = LanguageModelExecutorGenerationChannel()  //A channel init
    await c.send(.response(action: .appendText("", tokenCount: 0)))  //A send
    var it = c.makeAsyncIterator()  //A makeAsyncIterator
    let _: LanguageModelExecutorGenerationChannel.AsyncIterator = it  //A AsyncIterator
    _ = await it.next()
    typealias Ch = LanguageModelExecutorGenerationChannel
    _ = Ch.Event.self  //A Event
    _ = Ch.Event.response(entryID: nil, action: .appendText("", tokenCount: 0))  //A Event.response
    _ = Ch.Event.reasoning(entryID: nil, action: .appendText("", tokenCount: 0))  //A Event.reasoning
    _ = Ch.Event.toolCalls(entryID: nil, action: .removeToolCall(id: ""))  //A Event.toolCalls
    _ = Ch.Response.self  //A Response
    _ = \Ch.Response.entryID  //A
    _ = \Ch.Response.action  //A
    _ = Ch.Response.Action.self  //A
    _ = Ch.Response.Action.appendText("", segmentID: nil, tokenCount: 0)  //A
    _ = Ch.Response.Action.replaceTextSegment("", segmentID: nil, tokenCount: 0)  //A
    _ = Ch.Response.Action.addAttachmentSegment(.init(content: .image(.init(data: Data(), contentType: ""))))  //A
    _ = Ch.Response.Action.removeAttachmentSegment(id: "")  //A
    _ = Ch.Response.Action.updateMetadata([:])  //A
    let inp = Ch.Usage.Input(totalTokenCount: 0, cachedTokenCount: 0)  //A Usage.Input init
    let out = Ch.Usage.Output(totalTokenCount: 0, reasoningTokenCount: 0)  //A Usage.Output init
    _ = Ch.Response.Action.updateUsage(input: inp, output: out, metadata: [:])  //A
    _ = Ch.Reasoning.self  //A
    _ = \Ch.Reasoning.entryID  //A
    _ = \Ch.Reasoning.action  //A
    _ = Ch.Reasoning.Action.self  //A
    _ = Ch.Reasoning.Action.appendText("", segmentID: nil, tokenCount: 0)  //A
    _ = Ch.Reasoning.Action.replaceTextSegment("", segmentID: nil, tokenCount: 0)  //A
    _ = Ch.Reasoning.Action.updateSignature(Data(), tokenCount: 0)  //A
    _ = Ch.Reasoning.Action.updateMetadata([:])  //A
    _ = Ch.Reasoning.Action.updateUsage(input: inp, output: out, metadata: [:])  //A
    _ = Ch.ToolCalls.self  //A
    _ = \Ch.ToolCalls.entryID  //A
    _ = \Ch.ToolCalls.action  //A
    _ = Ch.ToolCalls.Action.self  //A
    _ = Ch.ToolCalls.Action.toolCall(id: "", name: "", action: .appendArguments("", tokenCount: 0))  //A
    _ = Ch.ToolCalls.Action.removeToolCall(id: "")  //A
    _ = Ch.ToolCalls.Action.updateMetadata([:])  //A
    _ = Ch.ToolCalls.Action.updateUsage(input: inp, output: out, metadata: [:])  //A
    _ = Ch.ToolCalls.ToolCall.self  //A
    _ = \Ch.ToolCalls.ToolCall.id  //A
    _ = \Ch.ToolCalls.ToolCall.name  //A
    _ = \Ch.ToolCalls.ToolCall.action  //A
    _ = Ch.ToolCalls.ToolCall.Action.self  //A
    _ = Ch.ToolCalls.ToolCall.Action.appendArguments("", tokenCount: 0)  //A
    _ = Ch.ToolCalls.ToolCall.Action.updateMetadata([:])  //A
    _ = Ch.ToolCalls.ToolCall.ArgumentsFragment.self  //A
    _ = \Ch.ToolCalls.ToolCall.ArgumentsFragment.content  //A
    _ = \Ch.ToolCalls.ToolCall.ArgumentsFragment.tokenCount  //A
    let u = Ch.Usage(input: inp, output: out, metadata: [:])  //A Usage init
    _ = u.input  //A
    _ = u.output  //A
    let _: [String: GeneratedContent] = u.metadata  //A
    _ = inp.totalTokenCount  //A
    _ = inp.cachedTokenCount  //A
    _ = out.totalTokenCount  //A
    _ = out.reasoningTokenCount  //A
    _ = \Ch.TextFragment.content  //A
    _ = \Ch.TextFragment.segmentID  //A
    _ = \Ch.TextFragment.tokenCount  //A
    _ = \Ch.TextSegmentReplacement.content  //A
    _ = \Ch.TextSegmentReplacement.segmentID  //A
    _ = \Ch.TextSegmentReplacement.tokenCount  //A
    _ = Ch.ReasoningSignature.self  //A
    _ = Ch.Metadata.self  //A
    let caps = LanguageModelCapabilities([.guidedGeneration])  //A init(_:)
    _ = caps.contains(.reasoning)  //A contains
    _ = LanguageModelCapabilities.Capability.self  //A Capability
    _ = LanguageModelCapabilities.Capability.guidedGeneration  //A
    _ = LanguageModelCapabilities.Capability.reasoning  //A
    _ = LanguageModelCapabilities.Capability.toolCalling  //A
    _ = LanguageModelCapabilities.Capability.vision  //A
    let co = ContextOptions(includeSchemaInPrompt: nil, reasoningLevel: nil)  //A ContextOptions init
    _ = co.includeSchemaInPrompt  //A
    _ = co.reasoningLevel  //A
    _ = [ContextOptions.ReasoningLevel.light, .moderate, .deep, .custom("")]  //A ReasoningLevel
    var go = GenerationOptions(samplingMode: nil, temperature: nil, maximumResponseTokens: nil, toolCallingMode: nil)  //A 4-arg init
    go.toolCallingMode = .allowed  //A toolCallingMode
    _ = GenerationOptions.SamplingMode.greedy.kind  //A SamplingMode.kind
    _ = [GenerationOptions.SamplingMode.Kind.greedy, .randomTopK(1, seed: nil), .randomProbabilityThreshold(0.5, seed: nil)]  //A Kind
    _ = GenerationOptions.ToolCallingMode.self  //A ToolCallingMode
    _ = GenerationOptions.ToolCallingMode.allowed  //A
    _ = GenerationOptions.ToolCallingMode.required  //A
    _ = GenerationOptions.ToolCallingMode.disallowed  //A
    _ = GenerationOptions.ToolCallingMode.allowed.kind  //A kind
    _ = [GenerationOptions.ToolCallingMode.Kind.allowed, .required, .disallowed]  //A ToolCallingMode.Kind
    _ = String.generationSchema.name  //A GenerationSchema.name
    let errs: [LanguageModelError] = [  //A enum LanguageModelError
        .contextSizeExceeded(.init(contextSize: 1, tokenCount: 2, debugDescription: "", metadata: [:])),
        // A case + ContextSizeExceeded init
        .rateLimited(.init(resetDate: nil, debugDescription: "", metadata: [:])),  //A case + RateLimited init
        .guardrailViolation(.init(debugDescription: "", metadata: [:])),  //A case + GuardrailViolation init
        .refusal(.init(debugDescription: "", metadata: [:])),  //A case + Refusal init
        .unsupportedCapability(.init(capability: .vision, debugDescription: "", metadata: [:])),  //A case + init
        .unsupportedTranscriptContent(.init(unsupportedContent: [], debugDescription: "", metadata: [:])),  //A case + init
        .unsupportedGenerationGuide(.init(schemaName: nil, debugDescription: "", metadata: [:])),  //A case + init
        .unsupportedLanguageOrLocale(.init(languageCode: .init("en"), debugDescription: "", metadata: [:])),  //A case + init
        .timeout(.init(debugDescription: "", metadata: [:])),  //A case + init
    ]
    _ = errs
    let cse = LanguageModelError.ContextSizeExceeded(contextSize: 1, tokenCount: 2, debugDescription: "")
    _ = (cse.contextSize, cse.tokenCount, cse.debugDescription, cse.metadata)  //A 4 fields
    _ = LanguageModelError.RateLimited(resetDate: nil, debugDescription: "").resetDate  //A
    let ref = LanguageModelError.Refusal(debugDescription: "")
    _ = (ref.debugDescription, ref.metadata)  //A 2 fields
    _ = try await ref.explanation  //A explanation
    _ = ref.explanationStream  //A explanationStream
    _ = LanguageModelError.UnsupportedCapability(capability: .vision, debugDescription: "", metadata: [:]).capability  //A
    _ = LanguageModelError.UnsupportedTranscriptContent(unsupportedContent: [], debugDescription: "", metadata: [:]).unsupportedContent  //A
    _ = LanguageModelError.UnsupportedGenerationGuide(schemaName: nil, debugDescription: "", metadata: [:]).schemaName  //A
    _ = LanguageModelError.UnsupportedLanguageOrLocale(languageCode: .init("en"), debugDescription: "", metadata: [:]).languageCode  //A
    _ = errs[0].errorDescription  //A LocalizedError
    _ = errs[0].debugDescription  //A CustomDebugStringConvertible
    let tool = try GenerationSchema(root: DynamicGenerationSchema(name: "x", properties: []), dependencies: [])
    _ = tool
    let s1 = LanguageModelSession(model: m, tools: []) { Instructions("x") }  //A init builder
    let s2 = LanguageModelSession(model: m, tools: [], transcript: t)  //A init transcript
    let s3 = LanguageModelSession(model: m, tools: [], instructions: Instructions("x"))  //A init Instructions?
    let s4 = LanguageModelSession(model: m, tools: [], instructions: "x")  //A init String?
    _ = (s1, s2, s3)
    s4.transcript.append(.prompt(.init(segments: [])))  //A transcript mutable
    let us: LanguageModelSession.Usage = s4.usage  //A usage
    _ = (us.input, us.output, us.metadata, us.totalTokenCount)  //A 4 Usage members
    _ = (us.input.totalTokenCount, us.input.cachedTokenCount)  //A Usage.Input 2
    _ = (us.output.totalTokenCount, us.output.reasoningTokenCount)  //A Usage.Output 2
    let resp = try await s4.respond(to: Prompt("x"), options: .init(), contextOptions: .init(), metadata: [:])  //A respond 27
    _ = resp.usage  //A Response.usage
    for try await snap in s4.streamResponse(to: Prompt("x"), options: .init(), contextOptions: .init(), metadata: [:]) {
        // A streamResponse 27
        _ = snap.transcriptEntries  //A Snapshot.transcriptEntries
        _ = snap.usage  //A Snapshot.usage
    }
    let se2: [LanguageModelSession.Error] = [.concurrentRequests, .transcriptMutationWhileResponding]  //A Error + 2 cases
    _ = se2
}
// Section B
private struct ParityDI: DynamicInstructions { var body: some DynamicInstructions { Instructions("x") } }  //B protocol DynamicInstructions
private struct ParityT: Tool {
    let description = ""
    var parameters: GenerationSchema { GeneratedContent.generationSchema }
    func call(arguments: GeneratedContent) async throws -> String { "" }
    @SessionProperty(\.history) var history
}  //B Tool.SessionProperty
private struct ParityItem: Identifiable { let id: Int }
private struct ParityDI2: DynamicInstructions {
    @SessionProperty(\.history) var history  //B DynamicInstructions.SessionProperty
    var body: some DynamicInstructions {
        ParityT()  //B buildExpression Tool
        ParityDI()  //B buildExpression DynamicInstructions
        [ParityT()] as [any Tool]  //B buildExpression [any Tool]
        if history.isEmpty { ParityDI() } else { Instructions("y") }  //B buildEither first/second (2)
        if history.isEmpty { ParityDI() }  //B buildOptional
        if #available(macOS 27, *) { ParityDI() }  //B buildLimitedAvailability
        ForEach([ParityItem(id: 1)]) { _ in ParityDI() }  //B ForEach typealias + init(_:content:)
        ForEach([1], id: \.self) { _ in ParityDI() }  //B init(_:id:content:)
    }
}
private func parityB(_ m: ParityM) {
    _ = ParityDI2.Body.self  //B associatedtype Body
    _ = ParityDI().body  //B body
    _ = DynamicInstructionsBuilder.buildBlock()  //B buildBlock()
    _ = DynamicInstructionsBuilder.buildBlock(ParityDI())  //B buildBlock single
    _ = DynamicInstructionsBuilder.buildBlock(ParityDI(), ParityDI())  //B buildBlock variadic
    _ = AnyDynamicInstructions(ParityDI() as any DynamicInstructions)  //B AnyDynamicInstructions init(_:)
    _ = AnyDynamicInstructions(erasing: ParityDI())  //B init(erasing:)
    _ = \AnyDynamicInstructions.body  //B body Never
    _ = EmptyDynamicInstructions()  //B EmptyDynamicInstructions + init
    _ = \EmptyDynamicInstructions.body  //B
    _ = TupleDynamicInstructions(ParityDI(), ParityDI())  //B Tuple + init
    _ = \TupleDynamicInstructions<ParityDI>.body  //B
    _ = ConditionalDynamicInstructions<ParityDI, ParityDI>(.trueContent(ParityDI()))  //B Conditional + Branch + init
    _ = ConditionalDynamicInstructions<ParityDI, ParityDI>.Branch.falseContent(ParityDI())  //B Branch
    _ = \ConditionalDynamicInstructions<ParityDI, ParityDI>.body  //B
    _ = DynamicInstructionsForEach<[Int], Int, ParityDI>.self  //B ForEach struct
    let _: any DynamicInstructions = Instructions("x")  //B Instructions: DynamicInstructions
    let _: any DynamicInstructions = Optional<ParityDI>.none  //B Optional
    _ = Never.self as any DynamicInstructions.Type  //B Never
    let s1 = LanguageModelSession(model: m, dynamicInstructions: ParityDI(), history: [])  //B init(model:dynamicInstructions:history:)
    let s2 = LanguageModelSession(profile: LanguageModelSession.Profile { ParityDI() }, history: [])  //B init(profile:history:)
    _ = s1.properties  //B properties
    _ = s2
}
private struct ParityP: LanguageModelSession.DynamicProfile {  //B protocol DynamicProfile
    @SessionProperty(\.history) var history  //B DynamicProfile.SessionProperty
    let m: ParityM
    var body: some LanguageModelSession.DynamicProfile {
        if history.isEmpty {  //B buildEither (profile)
            Profile { ParityDI() }  //B Profile typealias + init
                .model(m).temperature(nil).samplingMode(nil).maximumResponseTokens(nil).reasoningLevel(nil).toolCallingMode(nil)
                // B 6 modifiers
                .historyTransform { $0 }.transcriptErrorHandlingPolicy(nil).modifier(ParityMod())  //B 3 modifiers
                .onActivate {}.onDeactivate {}  //B 2
                .onPrompt {}.onPrompt { _ in }  //B 2
                .onReasoning {}.onReasoning { _ in }  //B 2
                .onResponse {}.onResponse { _ in }  //B 2
                .onToolCall {}.onToolCall { _ in }  //B 2
                .onToolOutput {}.onToolOutput { _, _ in }  //B 2
        } else {
            Profile { ParityDI() }
        }
    }
}
private struct ParityMod: LanguageModelSession.DynamicProfileModifier {  //B protocol DynamicProfileModifier
    @SessionProperty(\.history) var history  //B DynamicProfileModifier.SessionProperty
    func body(content: Content) -> some LanguageModelSession.DynamicProfile { content }  //B body(content:) + Content typealias
}
private func parityB2(_ m: ParityM) {
    _ = ParityP.Body.self  //B associatedtype Body
    _ = \LanguageModelSession.Profile.body  //B Profile.body
    _ = LanguageModelSession.AnyDynamicProfile(ParityP(m: m) as any LanguageModelSession.DynamicProfile)  //B AnyDynamicProfile init(_:)
    _ = LanguageModelSession.AnyDynamicProfile(erasing: ParityP(m: m))  //B init(erasing:)
    _ = LanguageModelSession.ConditionalDynamicProfile<LanguageModelSession.Profile, LanguageModelSession.Profile>.self  //B
    _ = LanguageModelSession.DynamicProfileBuilder.buildBlock(LanguageModelSession.Profile { ParityDI() })  //B buildBlock
    _ = LanguageModelSession.DynamicProfileBuilder.buildLimitedAvailability(LanguageModelSession.Profile { ParityDI() })
    // B buildLimitedAvailability
    _ = LanguageModelSession.DynamicProfileModifierContent<ParityMod>.self  //B
    _ = LanguageModelSession.ModifiedDynamicProfile<LanguageModelSession.Profile, ParityMod>.self  //B
    _ = LanguageModelSession.SessionProperty<Transcript.HistoryView>(\.history).wrappedValue  //B SessionProperty init + wrappedValue
    let values: SessionPropertyValues = LanguageModelSession(model: m).properties  //B SessionPropertyValues
    _ = values.history  //B history
    _ = values[ParityK.self]  //B subscript
    _ = ParityK.defaultValue  //B SessionPropertyKey + Value + defaultValue (3)
}
private struct ParityK: SessionPropertyKey { static let defaultValue = 0 }
#endif
