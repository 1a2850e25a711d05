#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif
import MCPFoundationModels

/// A model on a model server, as a ``ModelConnector`` returns it: any `LanguageModel` (27), and
/// how to count its tokens, so that the chat fits the model's context with the model's counts.
@available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
@available(tvOS, unavailable)
public struct ConnectedModel: Sendable {
    /// The model sessions run on.
    public let model: any LanguageModel
    /// Its context, in tokens.
    public let contextSize: Int
    /// Counts a text's tokens as the model does.
    public let count: @Sendable (String) async throws -> Int

    public init(model: any LanguageModel, contextSize: Int, count: @escaping @Sendable (String) async throws -> Int) {
        self.model = model
        self.contextSize = contextSize
        self.count = count
    }
}

/// The model a chat runs on: the system model (the on-device one; a scripted one in tests), or
/// a model server's ``ConnectedModel``.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct ChatModel: Sendable {
    private let system: SystemLanguageModel?
    /// A ``ConnectedModel``, kept without its availability.
    private let connected: (any Sendable)?

    init(system: SystemLanguageModel) {
        self.system = system
        connected = nil
    }

    @available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
    @available(tvOS, unavailable)
    init(connected: ConnectedModel) {
        system = nil
        self.connected = connected
    }

    /// Whether the model can answer: a connected model can (connecting checked it).
    var isAvailable: Bool {
        system?.isAvailable ?? true
    }

    /// Why the system model cannot answer, when it cannot.
    var availability: SystemLanguageModel.Availability {
        system?.availability ?? .available
    }

    /// A provider for `servers` whose sessions run on this model (a connected model counts its
    /// own tokens).
    func provider(servers: [MCPSessionProvider.Server], configuration: MCPSessionProvider.Configuration) -> MCPSessionProvider {
        if #available(iOS 27.0, macOS 27.0, visionOS 27.0, *), let connected = connected as? ConnectedModel {
            var configuration = configuration
            configuration.tokenCounter = TokenCounter(contextSize: connected.contextSize, count: connected.count)
            return Self.provider(servers: servers, model: connected.model, configuration: configuration)
        }
        return MCPSessionProvider(servers: servers, model: system ?? .default, configuration: configuration)
    }

    @available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
    private static func provider(
        servers: [MCPSessionProvider.Server], model: some LanguageModel, configuration: MCPSessionProvider.Configuration
    ) -> MCPSessionProvider {
        MCPSessionProvider(servers: servers, model: model, configuration: configuration)
    }
}
