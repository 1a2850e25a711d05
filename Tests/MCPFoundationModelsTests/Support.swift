import Foundation
import MCP
import Testing

@testable import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// Where the test files and the captured tool lists are.
enum Paths {
    /// This test target's folder.
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let fixtures = tests.appendingPathComponent("Fixtures")
    /// `Tests/Fixtures/ToolSchemas`: real servers' `tools/list` results, vendored (see the README there).
    static let schemas = tests.deletingLastPathComponent().appendingPathComponent("Fixtures/ToolSchemas")
}

func readJSON(_ url: URL) throws -> JSONValue {
    try JSONValue(parsing: try Data(contentsOf: url))
}

/// One tool from a captured `tools/list` file.
struct ListedTool: Sendable, CustomTestStringConvertible {
    let file: String
    let tool: MCPCore.ToolDefinition
    var testDescription: String { "\(file): \(tool.name)" }

    /// Every tool of every `Tests/Fixtures/ToolSchemas/*.json` file.
    static let all: [ListedTool] = {
        let files = (try? FileManager.default.contentsOfDirectory(at: Paths.schemas, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }.flatMap { url in
            let name = url.deletingPathExtension().lastPathComponent
            let tools = (try? readJSON(url))?["tools"]?.arrayValue ?? []
            return tools.compactMap { try? MCPCore.ToolDefinition(json: $0) }.map { ListedTool(file: name, tool: $0) }
        }
    }()
}

/// The generation schema as sorted JSON, parsed back for comparison.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
func encoded(_ schema: GenerationSchema) throws -> JSONValue {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try JSONValue(parsing: try encoder.encode(schema))
}

/// A server with the given tools, and a client connected to it in process.
func connectedServer(_ tools: [MCPTool]) async throws -> (MCPServer, MCPClient) {
    let server = MCPServer(name: "Test", version: "1.0")
    for tool in tools {
        try await server.register(tool)
    }
    let client = try await MCPClient.connect(to: server)
    return (server, client)
}
