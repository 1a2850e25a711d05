#if canImport(FoundationModels)
import FoundationModels
#else
import ChatCompletions
import PortableFoundationModels
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where `chat` and the main job get their model: the system model, and a model server's
/// (`--model-url`, `ONDEVICE_MCP_MODEL_URL`).
///
/// The program uses ``StandardModelSource``; tests put scripted models in its place. Its
/// requirements carry the availability of FoundationModels, so a runner can keep one without
/// any.
protocol ModelSource: Sendable {
    /// The model `chat` uses without a model server: `SystemLanguageModel.default`, or a
    /// test's.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    var systemModel: SystemLanguageModel { get }

    /// Whether this build reaches model servers (not where Apple's FoundationModels exists:
    /// there chat uses the on-device model).
    var reachesModelServers: Bool { get }

    /// Connects to the model `name` (`nil`: the server's first) on the server at `url`.
    ///
    /// Errors are reported in one line (`error: …`, exit status 3).
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func connect(to url: String, model name: String?) async throws -> ChatModel
}

/// The program's models: the on-device model, and where Apple's FoundationModels is missing,
/// a model on an OpenAI-compatible chat-completions server through `ChatCompletionsModel`.
struct StandardModelSource: ModelSource {
    /// The model server's bearer token (`ONDEVICE_MCP_MODEL_API_KEY`), if any.
    let apiKey: String?

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    var systemModel: SystemLanguageModel { .default }

    var reachesModelServers: Bool {
        #if canImport(FoundationModels)
        false
        #else
        true
        #endif
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func connect(to url: String, model name: String?) async throws -> ChatModel {
        #if canImport(FoundationModels)
        throw NoModelClient()
        #else
        guard let address = URL(string: url) else {
            throw ChatCompletionsError.invalidConfiguration
        }
        var configuration = Self.chatConfiguration
        if let apiKey {
            configuration.apiKey = { apiKey }
        }
        let model = try await ChatCompletionsModel.connect(to: address, model: name, configuration: configuration)
        return ChatModel(server: model, contextSize: model.contextSize) { try await model.tokenCount(for: $0) }
        #endif
    }

    #if !canImport(FoundationModels)
    /// The model client's configuration for chats, before the API key.
    ///
    /// A small model can repeat itself until the context is full: a chat answer stops at 1,024
    /// tokens (the text so far, as Apple's model gives it). Answers are greedy: sampled
    /// (llama.cpp's default temperature, 0.8), SmolLM2-135M answered the README's questions
    /// with strings of random letters and digits and with made-up Portuguese; greedy, with the
    /// repetition controls llama.cpp gets, it did not (its loops are cut as degenerate output).
    static var chatConfiguration: ChatCompletionsConfiguration {
        var configuration = ChatCompletionsConfiguration()
        configuration.defaultOptions = GenerationOptions(sampling: .greedy, maximumResponseTokens: 1024)
        return configuration
    }
    #endif

    /// This build has no model client (where Apple's FoundationModels exists).
    struct NoModelClient: Error, CustomStringConvertible {
        var description: String { "this build has no model client" }
    }
}
