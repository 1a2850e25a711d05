// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The session's core: one response, as a loop of model requests through executors.
//
// Each iteration evaluates the session's context (dynamic bodies run here), runs the profile's
// activation callbacks when the profile changed and, the first time, its prompt callbacks;
// builds the request (options: call site over the profile's innermost modifiers over the outer
// ones; tools unless `.disallowed`; the transcript through the history transforms); checks it
// against the model's capabilities; takes the executor of the model's configuration from the
// session's store; and runs the executor and the channel's reader in one task group. The
// events become entries; tool calls are checked, offered to the `onToolCall` callbacks, run
// concurrently, and their outputs appended before the next iteration; an answer ends the loop.

extension LanguageModelSession {
    /// What one response keeps across its requests.
    private struct Turn {
        let promptID: String
        let callSiteOptions: GenerationOptions
        let callSiteContext: ContextOptionsCore
        let metadata: [String: GeneratedContent]
        let schema: GenerationSchema?
        let answersWithPlainText: Bool
        let streams: Bool
        /// The tokens of the response's requests so far.
        var usage = UsageCore()
        /// The error policy of the profile of the latest request.
        var policy: ErrorPolicyCore?
    }

    /// Runs a response: asks the model, runs the tools it calls, and asks again until it
    /// answers. `partial`, when given, receives snapshots of the answer as it is generated.
    func run<Content: Generable>(
        prompt: Prompt, schema: GenerationSchema?, format: Transcript.ResponseFormat?, options: GenerationOptions,
        context: ContextOptionsCore = ContextOptionsCore(), metadata: [String: GeneratedContent] = [:], as: Content.Type,
        partial: (@Sendable (StreamSnapshotCore) -> Void)? = nil
    ) async throws -> Response<Content> {
        let before: Transcript = try state.withLock { state in
            if state.responding { throw dialect.error(.concurrentRequests) }
            state.responding = true
            state.transcriptWrittenWhileResponding = false
            return state.storedTranscript
        }
        defer {
            state.withLock { state in
                state.responding = false
                state.transcriptWrittenWhileResponding = false
            }
        }
        if let fixed = source as? StaticContext, let error = fixed.model.unavailabilityError() { throw error }
        var promptEntry = Transcript.Prompt(segments: prompt.segments, options: options, responseFormat: format)
        promptEntry.storedContextOptions = context
        promptEntry.storedMetadata = metadata
        var turn = Turn(
            promptID: promptEntry.id, callSiteOptions: options, callSiteContext: context, metadata: metadata, schema: schema,
            answersWithPlainText: schema == nil || Content.self == String.self, streams: partial != nil)
        do {
            try commit([.prompt(promptEntry)])
            return try await loop(promptEntry, &turn, as: Content.self, partial: partial)
        } catch {
            settle(after: error, before: before, policy: turn.policy)
            throw error
        }
    }

    /// What a failed response leaves: the transcript before it, or what it produced, as the
    /// policy says (never reverting over the app's own write).
    private func settle(after error: any Swift.Error, before: Transcript, policy: ErrorPolicyCore?) {
        state.withLock { state in
            let policy = policy ?? state.storedErrorPolicy ?? .preserve
            if policy == .revert, !state.transcriptWrittenWhileResponding { state.storedTranscript = before }
        }
    }

    private func loop<Content: Generable>(
        _ prompt: Transcript.Prompt, _ turn: inout Turn, as: Content.Type, partial: (@Sendable (StreamSnapshotCore) -> Void)?
    ) async throws -> Response<Content> {
        var first = true
        while true {
            try Task.checkCancellation()
            try checkTranscriptUntouched()
            let context = SessionAccess.$current.withValue(SessionAccess(store: propertyStore, role: .body)) { source.resolve() }
            turn.policy = context.settings.errorPolicy
            try await activate(context)
            if first {
                first = false
                for hook in context.hooks.prompt.reversed() { try await callback { try await hook(prompt) } }
            }
            try checkTranscriptUntouched()
            if let instructions = context.instructions { writeInstructions(instructions, tools: context.tools) }
            let request = makeRequest(context, turn)
            try checkCapabilities(context.model, request)
            let executor = try executors.executor(for: context.model)

            var assembler = EntryAssembler()
            let publish = partial.map { sink in snapshotPublisher(sink, turn: turn, plainText: turn.answersWithPlainText) }
            do {
                try await stream(request, on: executor, of: context.model, into: &assembler, publishing: publish)
            } catch {
                record(assembler.usage, in: &turn)
                commitLeniently(assembler)
                throw error
            }
            record(assembler.usage, in: &turn)
            let produced: [Transcript.Entry]
            do {
                produced = try assembler.entries(lenient: false)
            } catch {
                commitLeniently(assembler)
                throw dialect.error(.unreadable(raw: error.call.arguments, reason: error.reason))
            }
            let calls = produced.flatMap { entry -> [Transcript.ToolCall] in
                if case .toolCalls(let calls) = entry { Array(calls) } else { [] }
            }
            if calls.isEmpty {
                return try await answer(produced, request: request, &turn, as: Content.self, hooks: context.hooks)
            }
            try commit(produced)
            try await announce(produced, hooks: context.hooks)
            try await runTools(calls, enabled: context.tools(enabledBy: request), hooks: context.hooks)
        }
    }

    // MARK: The request

    private func makeRequest(_ context: ResolvedContext, _ turn: Turn) -> ModelRequest {
        let options = context.settings.options(under: turn.callSiteOptions)
        let enabled = options.toolCalling == .disallowed ? [] : context.tools
        return ModelRequest(
            id: UUID(), transcript: context.requestTranscript(transcript),
            enabledTools: enabled.map { Transcript.ToolDefinition(tool: $0) },
            schema: turn.schema, generationOptions: options, contextOptions: context.settings.contextOptions(under: turn.callSiteContext),
            metadata: turn.metadata,
            details: ModelRequest.Details(
                toolsOutsideInstructions: Set(enabled.filter { !$0.includesSchemaInInstructions }.map(\.name)),
                answersWithPlainText: turn.answersWithPlainText && turn.schema != nil, streamsAnswer: turn.streams))
    }

    /// Fails before the executor is called when the request needs a capability the model does
    /// not declare.
    private func checkCapabilities(_ model: any ModelDriver, _ request: ModelRequest) throws {
        let capabilities = model.capabilities
        if !request.enabledTools.isEmpty, !capabilities.contains(.toolCalling) {
            let names = request.enabledTools.map(\.name).joined(separator: ", ")
            throw dialect.error(
                .unsupportedCapability(
                    .toolCalling, reason: "The request enables tools (\(names)), but the model does not declare tool calling."))
        }
        if request.schema != nil, !capabilities.contains(.guidedGeneration) {
            throw dialect.error(
                .unsupportedCapability(
                    .guidedGeneration, reason: "The request has a response schema, but the model does not declare guided generation."))
        }
        if request.contextOptions.reasoningLevel != nil, !capabilities.contains(.reasoning) {
            throw dialect.error(
                .unsupportedCapability(
                    .reasoning, reason: "The request sets a reasoning level, but the model does not declare reasoning."))
        }
    }

    /// Writes a dynamic source's instructions into the leading instructions entry: the entry
    /// stays as it is (its id too) when its content is the same, and is replaced by a new entry
    /// otherwise; without instructions or tool definitions there is no instructions entry.
    private func writeInstructions(_ segments: [Transcript.Segment], tools: [any Tool]) {
        let definitions = tools.filter(\.includesSchemaInInstructions).map { Transcript.ToolDefinition(tool: $0) }
        updateTranscript(byResponse: true) { transcript in
            let existing = transcript.leadingInstructions
            if segments.isEmpty, definitions.isEmpty {
                if existing != nil { transcript.entries.removeFirst() }
                return
            }
            if let existing, existing.toolDefinitions == definitions, Self.sameContent(existing.segments, segments) { return }
            let entry = Transcript.Entry.instructions(Transcript.Instructions(segments: segments, toolDefinitions: definitions))
            if existing != nil {
                transcript.entries[0] = entry
            } else {
                transcript.entries.insert(entry, at: 0)
            }
        }
    }

    /// Whether two lists of segments say the same, whatever their ids.
    private static func sameContent(_ lhs: [Transcript.Segment], _ rhs: [Transcript.Segment]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { pair in
            switch pair {
            case (.text(let a), .text(let b)): a.content == b.content
            case (.structure(let a), .structure(let b)): a.schemaName == b.schemaName && a.content == b.content
            case (.attachment(let a), .attachment(let b)): a.content == b.content && a.label == b.label
            default: false
            }
        }
    }

    // MARK: The executor and the channel

    /// Runs the executor and reads its channel in one task group, which ends with the request.
    private func stream(
        _ request: ModelRequest, on executor: any Sendable, of model: any ModelDriver, into assembler: inout EntryAssembler,
        publishing publish: ((EntryAssembler) -> Void)?
    ) async throws {
        let channel = ChannelBuffer(mode: .bounded(ChannelBuffer.sessionCapacity))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { channel.finish() }
                try await model.respond(executor, to: request, into: channel)
            }
            while let event = await channel.next() {
                assembler.apply(event)
                if event.publishesSnapshot { publish?(assembler) }
            }
            channel.close()
            try await group.next()
        }
        try Task.checkCancellation()
    }

    /// A snapshot of the answer so far for a stream reader, after each event that shows one.
    private func snapshotPublisher(
        _ sink: @escaping @Sendable (StreamSnapshotCore) -> Void, turn: Turn, plainText: Bool
    ) -> (EntryAssembler) -> Void {
        let usage = turn.usage
        let earlier = entries(since: turn.promptID)
        return { assembler in
            guard let text = assembler.trailingResponseText else { return }
            let raw: GeneratedContent
            if plainText {
                raw = GeneratedContent(kind: .string(text))
            } else {
                guard let parsed = try? GeneratedContent(json: text) else { return }
                raw = GeneratedContent(kind: parsed.kind, id: parsed.id, isComplete: false)
            }
            let pending = (try? assembler.entries(lenient: true)) ?? []
            sink(StreamSnapshotCore(raw: raw, entries: (Array(earlier) + pending)[...], usage: usage + assembler.usage))
        }
    }

    private func record(_ usage: UsageCore, in turn: inout Turn) {
        turn.usage += usage
        state.withLock { $0.accumulatedUsage += usage }
    }

    // MARK: The transcript

    /// Appends entries, unless the app wrote the transcript during the response.
    private func commit(_ entries: [Transcript.Entry]) throws {
        try state.withLock { state in
            if state.transcriptWrittenWhileResponding { throw dialect.error(.transcriptMutationWhileResponding) }
            state.storedTranscript.entries.append(contentsOf: entries)
        }
    }

    /// Appends what a failed request produced, as far as it can be read.
    private func commitLeniently(_ assembler: EntryAssembler) {
        guard let entries = try? assembler.entries(lenient: true), !entries.isEmpty else { return }
        try? commit(entries)
    }

    private func checkTranscriptUntouched() throws {
        if state.withLock({ $0.transcriptWrittenWhileResponding }) { throw dialect.error(.transcriptMutationWhileResponding) }
    }

    /// The transcript from the prompt with this id to the end.
    private func entries(since promptID: String) -> ArraySlice<Transcript.Entry> {
        state.withLock { state in
            guard let start = state.storedTranscript.entries.firstIndex(where: { $0.id == promptID }) else { return [] }
            return state.storedTranscript.entries[start...]
        }
    }

    // MARK: Callbacks

    /// Runs a profile callback with the session bound for it (it may write the history).
    private func callback(_ body: () async throws -> Void) async throws {
        try await SessionAccess.$current.withValue(SessionAccess(store: propertyStore, role: .callback)) { try await body() }
    }

    /// Runs `onDeactivate` of the previous profile and `onActivate` of the new one when the
    /// resolved profile changed.
    private func activate(_ context: ResolvedContext) async throws {
        guard let id = context.profileID else { return }
        // The previous profile's `onDeactivate` hooks; `nil` when the profile did not change.
        let deactivations: [ActivationHook]? = state.withLock { state in
            if state.activeProfile?.id == id {
                state.activeProfile?.deactivate = context.hooks.deactivate
                return nil
            }
            let previous = state.activeProfile
            state.activeProfile = ActiveProfile(id: id, deactivate: context.hooks.deactivate)
            return previous?.deactivate ?? []
        }
        guard let deactivations else { return }
        for hook in deactivations.reversed() { try await callback { await hook() } }
        for hook in context.hooks.activate.reversed() { try await callback { await hook() } }
    }

    /// Runs the reasoning and response callbacks of entries just appended.
    private func announce(_ entries: [Transcript.Entry], hooks: SessionHooks) async throws {
        for entry in entries {
            switch entry {
            case .reasoning(let reasoning):
                for hook in hooks.reasoning.reversed() { try await callback { try await hook(reasoning) } }
            case .response(let response):
                for hook in hooks.response.reversed() { try await callback { try await hook(response) } }
            default:
                break
            }
        }
    }

    // MARK: The answer

    /// Ends the response with the request's answer: checks the tool-calling mode, reads the
    /// answer as `Content`, appends it and runs the callbacks.
    private func answer<Content: Generable>(
        _ produced: [Transcript.Entry], request: ModelRequest, _ turn: inout Turn, as: Content.Type, hooks: SessionHooks
    ) async throws -> Response<Content> {
        guard let index = produced.lastIndex(where: { if case .response = $0 { true } else { false } }),
            case .response(var response) = produced[index]
        else {
            try commit(produced)
            try await announce(produced, hooks: hooks)
            throw dialect.error(.unreadable(raw: "", reason: "The model ended its turn without a response."))
        }
        var others = produced
        others.remove(at: index)
        try commit(others)
        try await announce(others, hooks: hooks)
        if request.generationOptions.toolCalling == .required {
            try commit([.response(response)])
            throw ToolCallingModeViolation(
                response: response, debugDescription: "The request's tool calling mode was .required; the model answered instead.")
        }
        let text = EntryAssembler.text(of: response.segments)
        let raw: GeneratedContent
        if turn.answersWithPlainText {
            // A String answer to a schema request: a model that follows the schema writes it as
            // a JSON string (a third-party executor does; the 26 seam's backends write the text).
            if turn.schema != nil, let decoded = try? GeneratedContent(json: text), case .string(let string) = decoded.kind {
                raw = GeneratedContent(kind: .string(string))
            } else {
                raw = GeneratedContent(kind: .string(text))
            }
        } else {
            do {
                raw = try GeneratedContent(json: text)
            } catch {
                throw dialect.error(
                    .unreadable(raw: text, reason: "The model answered with text that is not JSON for the requested schema: \(text)"))
            }
            if let schema = turn.schema, let violation = schema.violations(in: raw).first {
                throw dialect.error(.unreadable(raw: text, reason: "The model's response does not match the schema: \(violation)"))
            }
            response.segments = [.structure(Transcript.StructuredSegment(schemaName: String(describing: Content.self), content: raw))]
        }
        let content: Content
        do {
            content = try Content(raw)
        } catch {
            throw dialect.error(.unreadable(raw: text, reason: "Cannot make \(Content.self) from the model's response: \(error)"))
        }
        try commit([.response(response)])
        try await announce([.response(response)], hooks: hooks)
        return Response(content: content, rawContent: raw, transcriptEntries: entries(since: turn.promptID), usageCore: turn.usage)
    }

    // MARK: Tools

    /// Checks the calls, offers them to the `onToolCall` callbacks (a throw vetoes), runs them
    /// concurrently, appends their outputs and runs the `onToolOutput` callbacks.
    private func runTools(_ calls: [Transcript.ToolCall], enabled: [any Tool], hooks: SessionHooks) async throws {
        let resolved = try calls.map { call in (call, try resolveTool(call, among: enabled)) }
        for call in calls {
            for hook in hooks.toolCall.reversed() { try await callback { try await hook(call) } }
        }
        let outputs = try await SessionAccess.$current.withValue(SessionAccess(store: propertyStore, role: .tool)) {
            try await Self.invoke(resolved)
        }
        try checkTranscriptUntouched()
        try commit(outputs.map { .toolOutput($0) })
        for (call, output) in zip(calls, outputs) {
            for hook in hooks.toolOutput.reversed() { try await callback { try await hook(call, output) } }
        }
    }

    /// The tool a call names, after checking its arguments against the tool's schema (what
    /// guided generation guarantees on a device).
    private func resolveTool(_ call: Transcript.ToolCall, among tools: [any Tool]) throws -> any Tool {
        guard let tool = tools.first(where: { $0.name == call.toolName }) else {
            throw dialect.error(
                .unreadable(
                    raw: call.arguments.jsonString,
                    reason:
                        "The model called '\(call.toolName)', which is not one of the session's tools (\(tools.map(\.name).joined(separator: ", ")))."
                ))
        }
        if let violation = tool.parameters.violations(in: call.arguments).first {
            throw dialect.error(
                .unreadable(
                    raw: call.arguments.jsonString,
                    reason: "The arguments the model generated for tool '\(tool.name)' do not match its parameters: \(violation)"))
        }
        return tool
    }

    private static func invoke(_ calls: [(Transcript.ToolCall, any Tool)]) async throws -> [Transcript.ToolOutput] {
        if calls.count == 1 {
            let (call, tool) = calls[0]
            return [try await invoke(tool, call)]
        }
        return try await withThrowingTaskGroup(of: (Int, Transcript.ToolOutput).self) { group in
            for (index, (call, tool)) in calls.enumerated() {
                group.addTask { (index, try await invoke(tool, call)) }
            }
            var outputs = [Transcript.ToolOutput?](repeating: nil, count: calls.count)
            for try await (index, output) in group { outputs[index] = output }
            // Every index is filled once the group ends without throwing.
            return outputs.compactMap { $0 }
        }
    }

    private static func invoke(_ tool: any Tool, _ call: Transcript.ToolCall) async throws -> Transcript.ToolOutput {
        do {
            let segments = try await callTool(tool, call.arguments).map { segment -> Transcript.Segment in
                guard case .structure(var structure) = segment else { return segment }
                structure.schemaName = tool.name
                return .structure(structure)
            }
            return Transcript.ToolOutput(id: call.id, toolName: tool.name, segments: segments)
        } catch let error as ToolCallError {
            throw error
        } catch {
            throw ToolCallError(tool: tool, underlyingError: error)
        }
    }

    private static func callTool<T: Tool>(_ tool: T, _ arguments: GeneratedContent) async throws -> [Transcript.Segment] {
        let converted = try T.Arguments(arguments)
        let output = try await tool.call(arguments: converted)
        return output.promptRepresentation.segments
    }
}

extension ResolvedContext {
    /// The tools a request enabled.
    func tools(enabledBy request: ModelRequest) -> [any Tool] {
        let names = Set(request.enabledTools.map(\.name))
        return tools.filter { names.contains($0.name) }
    }
}
#endif
