import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// The model a chat runs on: the system model (the on-device one; a scripted one in tests), or
/// a model server's `LanguageModel` with its token counter.
///
/// The model is kept as what it is, inside the closure that makes the chat's provider: no
/// erasure and no cast back.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct ChatModel: Sendable {
    /// The system model, when the chat runs on it (its availability is the chat's).
    private let system: SystemLanguageModel?
    /// Makes a provider for the servers whose sessions run on this model.
    private let makeProvider:
        @Sendable (_ servers: [MCPSessionProvider.Server], _ configuration: MCPSessionProvider.Configuration) -> MCPSessionProvider

    init(system: SystemLanguageModel) {
        self.system = system
        makeProvider = { servers, configuration in MCPSessionProvider(servers: servers, model: system, configuration: configuration) }
    }

    /// A model on a model server: any `LanguageModel` (27), with its context size and how it
    /// counts tokens, so that the chat fits the model's context with the model's counts.
    ///
    /// Each turn gets at most ``serverToolsPerTurn`` tools, the most relevant to its prompt (a
    /// tool nothing in the prompt relates to is left out even when all would fit): the small
    /// local models this is for choose far better among a few tools. SmolLM2-135M, offered the
    /// five example tools for "What time is it in Tokyo?", called `notes_delete`.
    @available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
    @available(tvOS, unavailable)
    init(server model: some LanguageModel, contextSize: Int, count: @escaping @Sendable (String) async throws -> Int) {
        system = nil
        makeProvider = { servers, configuration in
            var configuration = configuration
            configuration.tokenCounter = TokenCounter(contextSize: contextSize, count: count)
            configuration.budget.maximumTools = min(configuration.budget.maximumTools, Self.serverToolsPerTurn)
            return MCPSessionProvider(servers: servers, model: model, configuration: configuration)
        }
    }

    /// The most tools a turn on a model server gets.
    static let serverToolsPerTurn = 3

    /// Whether the model can answer: a model server's can (connecting checked it).
    var isAvailable: Bool {
        system?.isAvailable ?? true
    }

    /// Why the system model cannot answer, when it cannot.
    var availability: SystemLanguageModel.Availability {
        system?.availability ?? .available
    }

    /// A provider for `servers` whose sessions run on this model.
    func provider(servers: [MCPSessionProvider.Server], configuration: MCPSessionProvider.Configuration) -> MCPSessionProvider {
        makeProvider(servers, configuration)
    }
}
