// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

// 27: the system model is a `LanguageModel`. Here its executor runs the model's portable
// backend (`SystemLanguageModel(backend:)`); without one it fails as the 26 session did.

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, *)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
extension SystemLanguageModel: LanguageModel {
    /// The executor of the system model.
    ///
    /// Portable: it drives the model's ``LanguageModelBackend`` (the portable-only seam of
    /// `SystemLanguageModel(backend:)`), translating each backend turn into channel events; see
    /// the module's documentation on the backend seam. It is stateless: every request reads the
    /// backend of the model it is given.
    public struct Executor: LanguageModelExecutor, Sendable {
        public typealias Model = SystemLanguageModel

        /// The system model's configuration: its use case and guardrails (opaque).
        public struct Configuration: Hashable, Equatable, Sendable {
            let core: BackendExecutor.Configuration
        }

        let base = BackendExecutor()

        /// An executor for a configuration (never fails).
        public init(configuration: SystemLanguageModel.Executor.Configuration) {}

        /// Does nothing: a backend loads what it needs when asked.
        public func prewarm(model: SystemLanguageModel.Executor.Model, transcript: Transcript) {}

        /// Asks the model's backend for one turn and streams it into `channel`.
        nonisolated(nonsending) public func respond(
            to request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            try await base.respond(to: request.core, model: model, into: channel.buffer)
        }
    }

    /// Tool calling and guided generation (a portable backend is asked for both).
    public final var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities([.toolCalling, .guidedGeneration])
    }

    /// The model's use case and guardrails.
    public final var executorConfiguration: SystemLanguageModel.Executor.Configuration {
        Executor.Configuration(core: BackendExecutor.Configuration(self))
    }
}
#endif
