// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import Foundation

#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif

// 27: the model is a `LanguageModel`, so a `LanguageModelSession` runs on it directly —
// Apple's, on Apple's 27 systems, or the portable module's. This file and the executor's
// work (`ChatCompletionsModel+Generation.swift`, `ChannelTranslator.swift`) name only what
// Apple's 27 API and the portable module declare alike.

@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
extension ChatCompletionsModel: LanguageModel {
    /// The executor of a chat-completions model: it sends each model request of a session to
    /// the server and streams the answer into the session's channel.
    ///
    /// A session makes one per distinct ``Configuration`` and calls
    /// ``respond(to:model:streamingInto:)`` once per model request. The executor keeps no state
    /// of its own: each request reads the connection, credentials and options of the model it
    /// is given. See the module's documentation for how each option and event is mapped.
    public struct Executor: LanguageModelExecutor, Sendable {
        public typealias Model = ChatCompletionsModel

        /// What identifies a chat-completions executor: the server's API, the model it serves,
        /// and the connected model (its credentials and connections). Nothing per request.
        public struct Configuration: Hashable, Sendable {
            let baseURL: URL
            let model: String
            /// The connected model: the one that holds the API key provider, headers and
            /// connections the requests use.
            let connection: ObjectIdentifier
        }

        /// An executor for a configuration (never fails: connecting happened in
        /// ``ChatCompletionsModel/connect(to:model:configuration:)``).
        public init(configuration: ChatCompletionsModel.Executor.Configuration) {}

        /// Sends one model request to the server and streams its answer into `channel`.
        ///
        /// - Throws: `LanguageModelError` for what every model can report (an over-long request,
        ///   a rate limit, a refusal, a content filter, a server that goes quiet, transcript
        ///   content the model cannot read); ``ChatCompletionsError`` for the server's own
        ///   failures (unreachable, refused credentials, an error status, an unreadable answer);
        ///   `CancellationError` when the task is cancelled.
        nonisolated(nonsending) public func respond(
            to request: LanguageModelExecutorGenerationRequest, model: ChatCompletionsModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            try await model.generate(request, into: channel)
        }
    }

    /// Tool calling and guided generation, always (guided tool calling needs no native tools);
    /// reasoning when ``ChatCompletionsConfiguration/reasoning`` is set. Not vision: images are
    /// not sent.
    public var capabilities: LanguageModelCapabilities {
        configuration.reasoning == nil
            ? LanguageModelCapabilities([.toolCalling, .guidedGeneration])
            : LanguageModelCapabilities([.toolCalling, .guidedGeneration, .reasoning])
    }

    /// The server's API, the model's name and the connected model.
    public var executorConfiguration: ChatCompletionsModel.Executor.Configuration {
        Executor.Configuration(baseURL: baseURL, model: model, connection: ObjectIdentifier(self))
    }
}
