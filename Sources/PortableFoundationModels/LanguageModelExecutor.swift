// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// The bridge between a session and an inference backend: it answers each model request by
/// streaming events into a channel.
///
/// A session creates an executor with ``init(configuration:)`` from its model's
/// `executorConfiguration` the first time it needs that configuration, keeps it (one executor
/// per distinct configuration per session), and releases it with the session. It calls
/// ``respond(to:model:streamingInto:)`` once per model request — the first request of a
/// response and the follow-up after each round of tool outputs — always with the full
/// transcript, never a delta.
///
/// The session checks the request against the model's capabilities before `respond`, so an
/// executor need not. `respond` runs in a cancellable task: check `Task.checkCancellation()`
/// while streaming. Throw `LanguageModelError` cases for failures an app can handle the same way
/// for every model (an overflowing context, rate limits, refusals), and your own errors only
/// for provider-specific states.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public protocol LanguageModelExecutor: Sendable {
    /// What identifies an executor: equal configurations share one executor within a session.
    associatedtype Configuration: Hashable, Sendable
    /// The model the executor runs.
    associatedtype Model: LanguageModel

    /// Creates an executor for a configuration.
    init(configuration: Self.Configuration) throws

    /// Loads assets into memory or pre-fills caches ahead of a request.
    ///
    /// Best-effort: a session calls it from `LanguageModelSession.prewarm(promptPrefix:)`, and it
    /// is not guaranteed to run, so `respond` must load lazily too. The default does nothing.
    func prewarm(model: Self.Model, transcript: Transcript)

    /// Answers one model request by streaming events into `channel`.
    ///
    /// `request.transcript` is the whole transcript to continue (after the session's history
    /// transforms); compare it with what you processed last time to reuse caches. Return when the
    /// model's turn ends; the session then assembles the events into transcript entries, runs any
    /// tool calls, and calls `respond` again with their outputs.
    nonisolated(nonsending) func respond(
        to request: LanguageModelExecutorGenerationRequest, model: Self.Model,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws
}

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelExecutor {
    /// Does nothing.
    public func prewarm(model: Self.Model, transcript: Transcript) {}
}
#endif
