#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif
import Foundation
import MCP
import Testing

@testable import MCPCommandLine

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ondevice-mcp-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// The names in the directory, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}

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

/// Finds the `ondevice-mcp` executable that the build made next to the test bundle.
///
/// Looks, in order, at `ONDEVICE_MCP_BINARY`; the directory of the running test executable
/// (on Linux the `.xctest` bundle is the executable, in the products directory); the
/// directory holding any loaded `.xctest` bundle (macOS); and `<package>/.build/debug`.
enum BuiltProducts {
    static func ondeviceMCP() throws -> String {
        var candidates: [String] = []
        if let override = ProcessInfo.processInfo.environment["ONDEVICE_MCP_BINARY"] {
            candidates.append(override)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("ondevice-mcp").path)
        if let main = Bundle.main.executableURL {
            candidates.append(main.deletingLastPathComponent().appendingPathComponent("ondevice-mcp").path)
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("ondevice-mcp").path)
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(package.appendingPathComponent(".build/debug/ondevice-mcp").path)
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw BinaryNotFound(candidates: candidates)
    }

    struct BinaryNotFound: Error, CustomStringConvertible {
        let candidates: [String]
        var description: String {
            "the ondevice-mcp executable was not built; looked at: \(candidates.joined(separator: ", "))"
        }
    }
}
