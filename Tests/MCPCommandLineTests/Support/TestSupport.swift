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

    /// Runs `arguments` with `input` as standard input and the default language model.
    init(_ arguments: [String], input: String = "", builtInServer: (@Sendable (String?) async throws -> MCPServer)? = nil) async {
        let output = CapturedOutput()
        let errors = CapturedOutput()
        status = await OnDeviceMCPCommand.run(
            arguments, standardOutput: output, standardError: errors, builtInServer: builtInServer, standardInput: .text(input))
        self.output = output.text
        self.errors = errors.text
    }

    /// Runs `arguments` with `input` as standard input and `model` as the language model.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    init(
        _ arguments: [String], input: String = "", builtInServer: (@Sendable (String?) async throws -> MCPServer)? = nil,
        model: SystemLanguageModel
    ) async {
        let output = CapturedOutput()
        let errors = CapturedOutput()
        status = await OnDeviceMCPCommand.run(
            arguments, standardOutput: output, standardError: errors, builtInServer: builtInServer, standardInput: .text(input),
            model: model)
        self.output = output.text
        self.errors = errors.text
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

