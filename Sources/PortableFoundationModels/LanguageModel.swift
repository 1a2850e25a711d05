// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// A model a session can talk to: its capabilities, and the configuration from which the
/// session builds (and keeps) the executor that does the work.
///
/// Keep a model light: it describes the model; its ``LanguageModelExecutor`` runs it. A session
/// asks the model for ``executorConfiguration`` before every request and keeps one executor per
/// distinct configuration for its lifetime, so put only identity (endpoint, model id, credential
/// identity) in the configuration, nothing that changes per request.
///
/// ```swift
/// struct HostedModel: LanguageModel {
///     var endpoint: URL
///     var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([.toolCalling]) }
///     var executorConfiguration: HostedExecutor.Configuration { .init(endpoint: endpoint) }
/// }
/// let session = LanguageModelSession(model: HostedModel(endpoint: url), tools: [weather])
/// ```
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
public protocol LanguageModel: Sendable {
    /// The executor that runs the model.
    associatedtype Executor: LanguageModelExecutor where Self == Self.Executor.Model

    /// What the model can do. A session checks every request against it before calling the
    /// executor, and fails with `LanguageModelError.unsupportedCapability(_:)` instead.
    var capabilities: LanguageModelCapabilities { get }

    /// The configuration the session builds the executor from; equal configurations share one
    /// executor within a session.
    var executorConfiguration: Self.Executor.Configuration { get }
}
#endif
