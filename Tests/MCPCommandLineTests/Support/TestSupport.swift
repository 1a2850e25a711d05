import Foundation
import MCP
import OnDeviceMCPExamples
import OnDeviceMCPTestSupport
import Testing

@testable import MCPCommandLine

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// What one in-process run of the command printed, and its status.
struct CommandRun: Sendable {
    let status: ExitCode
    let output: String
    let errors: String

    /// Runs `arguments` with `input` as standard input; the model options fall back on
    /// `environment`, models come from `models` (the program's by default: the system model,
    /// and on Linux a real model client), and remote servers are reached through `remote`
    /// (Streamable HTTP by default).
    init(
        _ arguments: [String], input: String = "", builtInServer: (@Sendable (String?) async throws -> MCPServer)? = nil,
        environment: [String: String] = [:], models: any ModelSource = StandardModelSource(apiKey: nil), remote: RemoteConnector? = nil
    ) async {
        let output = CapturedOutput()
        let errors = CapturedOutput()
        status = await OnDeviceMCPCommand.run(
            arguments, standardOutput: output, standardError: errors, builtInServer: builtInServer, standardInput: .text(input),
            models: models, remote: remote ?? RemoteConnection.http, environment: environment)
        self.output = output.text
        self.errors = errors.text
    }

    /// Runs `arguments` with `input` as standard input and `model` as the language model;
    /// with `terminal`, standard input and standard error stand for a person at a terminal
    /// (standard output stays a pipe, so answers come whole).
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    init(
        _ arguments: [String], input: String = "", builtInServer: (@Sendable (String?) async throws -> MCPServer)? = nil,
        model: SystemLanguageModel, terminal: Bool = false
    ) async {
        let output = CapturedOutput()
        let errors = CapturedOutput(isInteractive: terminal)
        status = await OnDeviceMCPCommand.run(
            arguments, standardOutput: output, standardError: errors, builtInServer: builtInServer,
            standardInput: .text(input, interactive: terminal), models: TestModels(system: model))
        self.output = output.text
        self.errors = errors.text
    }
}

/// Models for tests: `system` as the system model, and a model server whose model `server`
/// gives (none: this build has no model client, as where Apple's FoundationModels exists).
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct TestModels: ModelSource {
    var system: SystemLanguageModel = .default
    var server: (@Sendable (_ url: String, _ model: String?) async throws -> SystemLanguageModel)?

    var systemModel: SystemLanguageModel { system }

    var reachesModelServers: Bool { server != nil }

    func connect(to url: String, model name: String?) async throws -> ChatModel {
        guard let server else { throw StandardModelSource.NoModelClient() }
        return ChatModel(system: try await server(url, name))
    }
}

/// Models for tests whose model server cannot be used: connecting throws `failure`; with no
/// failure, this build has no model client (as where Apple's FoundationModels exists).
struct UnusableModels: ModelSource {
    var failure: (any Error & Sendable)?

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    var systemModel: SystemLanguageModel { .default }

    var reachesModelServers: Bool { failure != nil }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func connect(to url: String, model name: String?) async throws -> ChatModel {
        throw failure ?? StandardModelSource.NoModelClient()
    }
}

/// The example tools on a server whose notes live in `directory`, for the built-in server's place.
func exampleServer(in directory: TemporaryDirectory) -> @Sendable (String?) async throws -> MCPServer {
    let url = directory.url
    return { _ in
        let server = MCPServer(name: "ondevice-mcp", version: "test")
        try await registerExampleTools(on: server, dataDirectory: url)
        return server
    }
}
