// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// How a session's core talks to a model, without availability: the session runs the 26 API on
/// the same core on platforms where the 27 types are unavailable.
///
/// A driver wraps one model value: a `LanguageModel` (``LanguageModelDriver``) or the 26
/// `SystemLanguageModel` with its backend (``SystemModelDriver``). Executors are made by the
/// driver and kept by the session's ``ExecutorStore``, type-erased; the driver casts them back.
protocol ModelDriver: Sendable {
    /// What the model can do; the session checks each request against it.
    var capabilities: Set<CapabilityCore> { get }
    /// The store key of the model's executor: its type and configuration.
    var executorKey: ExecutorKey { get }
    /// A new executor for the model's configuration.
    func makeExecutor() throws -> any Sendable
    /// Prewarms `executor` (made by ``makeExecutor()`` for an equal key).
    func prewarm(_ executor: any Sendable, transcript: Transcript)
    /// Runs one model request on `executor`, streaming into `channel`.
    func respond(_ executor: any Sendable, to request: ModelRequest, into channel: ChannelBuffer) async throws
    /// An error to end a response with before anything is recorded (the 26 session's check of
    /// the model's availability), or `nil`.
    func unavailabilityError() -> (any Error)?
}

extension ModelDriver {
    func unavailabilityError() -> (any Error)? { nil }
}

/// What identifies an executor in a session: the executor's type and its configuration.
struct ExecutorKey: Hashable {
    var executorType: ObjectIdentifier
    var configuration: AnyHashable
}

/// An executor of the wrong type for its key: a bug of the session, never of the app.
struct ExecutorMismatch: Error, CustomStringConvertible {
    var expected: String
    var description: String { "The session's executor store returned an executor that is not a \(expected)." }
}

/// A `LanguageModel` as the session's core drives it.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
struct LanguageModelDriver<Model: LanguageModel>: ModelDriver {
    let model: Model

    var capabilities: Set<CapabilityCore> { model.capabilities.cores }

    var executorKey: ExecutorKey {
        ExecutorKey(executorType: ObjectIdentifier(Model.Executor.self), configuration: AnyHashable(model.executorConfiguration))
    }

    func makeExecutor() throws -> any Sendable {
        try Model.Executor(configuration: model.executorConfiguration)
    }

    func prewarm(_ executor: any Sendable, transcript: Transcript) {
        (executor as? Model.Executor)?.prewarm(model: model, transcript: transcript)
    }

    func respond(_ executor: any Sendable, to request: ModelRequest, into channel: ChannelBuffer) async throws {
        guard let executor = executor as? Model.Executor else { throw ExecutorMismatch(expected: "\(Model.Executor.self)") }
        try await executor.respond(
            to: LanguageModelExecutorGenerationRequest(request), model: model,
            streamingInto: LanguageModelExecutorGenerationChannel(buffer: channel))
    }

    func unavailabilityError() -> (any Error)? {
        (model as? SystemLanguageModel).flatMap { SystemModelDriver(model: $0).unavailabilityError() }
    }
}

/// The driver of a model given as `some LanguageModel`.
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
func modelDriver(for model: some LanguageModel) -> any ModelDriver {
    LanguageModelDriver(model: model)
}
#endif
