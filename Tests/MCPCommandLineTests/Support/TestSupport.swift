#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif
import Foundation
import OnDeviceMCPTestSupport
import MCP
import OnDeviceMCPExamples
import Testing

@testable import MCPCommandLine

/// What one in-process run of the command printed, and its status.
struct CommandRun: Sendable {
    let status: ExitCode
    let output: String
    let errors: String

    /// Runs `arguments` with `input` as standard input and the default language model; the
    /// model options fall back on `environment`, and a model server is reached through
    /// `modelConnector` (without one, or `remote`, the command would hand a model server over
    /// to ondevice-mcp-http, replacing the test process: give one whenever a model URL is).
    init(
        _ arguments: [String], input: String = "", builtInServer: (@Sendable (String?) async throws -> MCPServer)? = nil,
        environment: [String: String] = [:], modelConnector: ModelConnector? = nil, remote: RemoteConnector? = nil
    ) async {
        let output = CapturedOutput()
        let errors = CapturedOutput()
        guard !Self.wouldHandOver(arguments, environment: environment, remote: remote, modelConnector: modelConnector) else {
            (status, self.output, self.errors) = (.failure, "", "")
            return
        }
        status = await OnDeviceMCPCommand.run(
            arguments, standardOutput: output, standardError: errors, builtInServer: builtInServer, standardInput: .text(input),
            remote: remote, modelConnector: modelConnector, environment: environment)
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
        guard !Self.wouldHandOver(arguments, environment: [:], remote: nil, modelConnector: nil) else {
            (status, self.output, self.errors) = (.failure, "", "")
            return
        }
        status = await OnDeviceMCPCommand.run(
            arguments, standardOutput: output, standardError: errors, builtInServer: builtInServer,
            standardInput: .text(input, interactive: terminal), model: model)
        self.output = output.text
        self.errors = errors.text
    }

    /// Whether the command would hand itself over to ondevice-mcp-http, which would replace
    /// the test process (it is built beside the test bundle): recorded as an issue, not run.
    static func wouldHandOver(
        _ arguments: [String], environment: [String: String], remote: RemoteConnector?, modelConnector: ModelConnector?
    ) -> Bool {
        guard let command = try? CommandLineParser.parse(arguments, environment: environment),
            command.handOverReason(remote: remote, model: modelConnector) != nil
        else { return false }
        Issue.record("ondevice-mcp \(arguments.joined(separator: " ")) would hand over to ondevice-mcp-http; give the test a connector")
        return true
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

