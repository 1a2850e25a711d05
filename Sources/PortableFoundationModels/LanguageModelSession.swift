// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A conversation with a language model, with tools it may call.
///
/// `respond` runs the tool loop the way Apple's session does: it asks the model; when the model
/// asks for tools it runs them (concurrently when it asks for several), appends the calls and
/// outputs to the transcript and asks again, until the model answers. A tool that throws ends
/// `respond` with `ToolCallError`; an error the model throws (such as
/// `LanguageModelError.contextSizeExceeded`, or a 26 backend's
/// `GenerationError.exceededContextWindowSize`) ends it unchanged; a second `respond` while one
/// runs fails with `concurrentRequests`.
///
/// Every model request goes through a `LanguageModelExecutor`: the session keeps one executor
/// per distinct configuration of its models, checks each request against the model's
/// capabilities, hands the executor the full transcript and a channel, and assembles what the
/// executor streams into transcript entries. A session made with a `SystemLanguageModel` runs the
/// model's portable `LanguageModelBackend` through the system model's executor, which keeps the
/// 26 behaviour below.
///
/// Sessions made with dynamic instructions or a dynamic profile evaluate them before every
/// model request, including the follow-up after each round of tool outputs.
///
/// Errors the session raises itself come in the API of the initializer: a session made with a
/// `SystemLanguageModel` through the 26 initializers throws `GenerationError`
/// (`.concurrentRequests`, `.decodingFailure`); one made through a 27 initializer (another
/// `LanguageModel`, dynamic instructions, a profile) throws `LanguageModelSession.Error` and
/// `GeneratedContent.ParsingError`.
///
/// The 26 backend seam keeps to its model's context as Apple's session does. Before every
/// request (the first of a turn and each one after tool outputs) it counts the request,
/// instructions, tool definitions, the whole transcript with the new prompt and this turn's tool
/// calls and outputs, and the response schema, with the model's counter
/// (`SystemLanguageModel.tokenCount(for:)` counts the same rendering). When the request, or the
/// request and the model's answer, pass `SystemLanguageModel.contextSize`, `respond` throws
/// `GenerationError.exceededContextWindowSize`. A session that overflowed stays over its
/// context: the entries the failed turn added (its prompt, tool calls and outputs, and the
/// answer that did not fit) stay in the transcript, so every later request fails the same way.
/// As Apple's TN3193 says, such a session cannot respond again: make a new one with
/// `init(model:tools:transcript:)` from a shortened or summarized transcript.
public final class LanguageModelSession: Sendable {
    let source: any ContextSource
    let dialect: ErrorDialect
    let executors = ExecutorStore()
    let propertyStore = PropertyStore()
    /// Everything about the session that changes.
    let state: LockedValue<State>

    /// A session's mutable state, read and written only with its lock held.
    struct State {
        var storedTranscript: Transcript
        var responding = false
        /// The app wrote the transcript while a response was in progress.
        var transcriptWrittenWhileResponding = false
        var accumulatedUsage = UsageCore()
        var storedErrorPolicy: ErrorPolicyCore?
        var activeProfile: ActiveProfile?
    }

    /// The profile a session's last request used, and its callbacks for when it is replaced.
    struct ActiveProfile {
        var id: String
        var deactivate: [ActivationHook]
    }

    init(source: any ContextSource, dialect: ErrorDialect, transcript: Transcript) {
        self.source = source
        self.dialect = dialect
        self.state = LockedValue(State(storedTranscript: transcript))
        propertyStore.session = self
    }

    /// A 26 session: a system model and tools, with instructions (and the definitions of the
    /// tools that put their schema in the instructions) as the first entry.
    convenience init(model: SystemLanguageModel, tools: [any Tool], instructionSegments: [Transcript.Segment]?) {
        var entries: [Transcript.Entry] = []
        let definitions = tools.filter(\.includesSchemaInInstructions).map { Transcript.ToolDefinition(tool: $0) }
        if instructionSegments != nil || !definitions.isEmpty {
            entries.append(.instructions(Transcript.Instructions(segments: instructionSegments ?? [], toolDefinitions: definitions)))
        }
        self.init(
            source: StaticContext(model: SystemModelDriver(model: model), tools: tools), dialect: .generation26,
            transcript: Transcript(entries: entries))
    }

    /// The conversation so far.
    ///
    /// Settable (27): while no response is in progress a write replaces the transcript; a write
    /// during a response replaces it too, and the response in progress ends with
    /// `LanguageModelSession.Error.transcriptMutationWhileResponding` (adding nothing more, and
    /// leaving the written transcript as it is).
    final public var transcript: Transcript {
        get { state.withLock { $0.storedTranscript } }
        set { updateTranscript(byResponse: false) { $0 = newValue } }
    }

    /// Whether a response is in progress.
    final public var isResponding: Bool { state.withLock { $0.responding } }

    /// Changes the transcript; `byResponse` is `false` for the app's own writes, which a
    /// response in progress notices.
    func updateTranscript(byResponse: Bool, _ change: (inout Transcript) -> Void) {
        state.withLock { state in
            if state.responding, !byResponse { state.transcriptWrittenWhileResponding = true }
            change(&state.storedTranscript)
        }
    }

    public struct Response<Content: Generable> {
        public let content: Content
        public let rawContent: GeneratedContent
        public let transcriptEntries: ArraySlice<Transcript.Entry>
        /// The response's usage (public from 27 as `usage`).
        var usageCore = UsageCore()
    }

    /// Loads the model's resources ahead of a request, as far as its executor does.
    ///
    /// Evaluates the session's dynamic instructions or profile (if any) to find the model, makes
    /// its executor if the session has none yet, and calls its `prewarm(model:transcript:)`. A
    /// 26 backend has nothing to load. Does nothing while a response is in progress.
    final public func prewarm(promptPrefix: Prompt? = nil) {
        guard !isResponding else { return }
        let context = SessionAccess.$current.withValue(SessionAccess(store: propertyStore, role: .body)) { source.resolve() }
        guard let executor = try? executors.executor(for: context.model) else { return }
        context.model.prewarm(executor, transcript: transcript)
    }
}

extension LanguageModelSession.Response: Sendable where Content: Sendable {}

extension LanguageModelSession {
    @_disfavoredOverload
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: String? = nil) {
        self.init(model: model, tools: tools, instructionSegments: instructions.map { [.text(Transcript.TextSegment(content: $0))] })
    }

    /// A session with instructions from a builder.
    ///
    /// Typed throws (as the 27 initializer with any `LanguageModel`): a builder that cannot throw
    /// makes an initializer that cannot either, as the 26 `rethrows` did.
    public convenience init<Failure>(
        model: SystemLanguageModel = .default, tools: [any Tool] = [], @InstructionsBuilder instructions: () throws(Failure) -> Instructions
    ) throws(Failure) where Failure: Swift.Error {
        let built = try instructions()
        self.init(model: model, tools: tools, instructionSegments: built.segments)
    }

    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: Instructions? = nil) {
        self.init(model: model, tools: tools, instructionSegments: instructions?.segments)
    }

    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], transcript: Transcript) {
        self.init(
            source: StaticContext(model: SystemModelDriver(model: model), tools: tools), dialect: .generation26, transcript: transcript)
    }
}
#endif
