#if !canImport(FoundationModels)
import Foundation
import MCP
import PortableFoundationModels
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

/// The bridge's deadline and result limit, in process (where the client has no timeout).
@Suite("Bridged tool limits")
struct BridgedToolLimitsTests {
    static let schema: JSONValue = ["type": "object", "properties": ["size": ["type": "integer"]], "required": ["size"]]

    static func blobTool() -> MCPTool {
        MCPTool(
            name: "blob", description: "Returns size characters", inputSchema: schema,
            annotations: ToolAnnotations(readOnlyHint: true, openWorldHint: false)
        ) { arguments in
            .text(String(repeating: "x", count: arguments["size"]?.intValue ?? 0))
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A bridged call has a finite deadline whatever the client's configuration")
    func defaultDeadline() async throws {
        let (_, client) = try await connectedServer([Self.blobTool()])
        #expect(client.configuration.requestTimeout == nil)
        let listed = try #require(try await client.listTools().first)
        #expect(try MCPBridgedTool(tool: listed, client: client).timeout == MCPBridgedTool.defaultTimeout)
        #expect(try MCPBridgedTool(tool: listed, client: client, timeout: .seconds(5)).timeout == .seconds(5))
        #expect(MCPBridgedTool.defaultTimeout == .seconds(30))
        await client.close()
    }

    struct SizeCase: Sendable, CustomTestStringConvertible {
        let size: Int
        let cut: Bool
        var testDescription: String { "\(size) characters" }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "A result over the bridge's limit is not read, and the model is told why",
        arguments: [SizeCase(size: 100, cut: false), SizeCase(size: 10_000, cut: false), SizeCase(size: 2_000_000, cut: true)])
    func resultLimit(_ testCase: SizeCase) async throws {
        let (_, client) = try await connectedServer([Self.blobTool()])
        let listed = try #require(try await client.listTools().first)
        let tool = try MCPBridgedTool(tool: listed, client: client)
        #expect(tool.maximumResultBytes == MCPBridgedTool.maximumResultBytes(for: .onDevice))
        #expect(tool.maximumResultBytes == 512 * 1024)
        let output = try await tool.call(arguments: try GeneratedContent(json: #"{"size": \#(testCase.size)}"#))
        if testCase.cut {
            #expect(output.contains("The output was cut"))
            #expect(output.contains("larger than the \(tool.maximumResultBytes) bytes"))
            #expect(!output.contains("xxxx"))
        } else {
            #expect(output.contains("xxxx"))
            #expect(!output.contains("The output was cut"))
        }
        await client.close()
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("The limit follows the budget, with a floor", arguments: [(512, 512 * 1024), (10, 64 * 1024), (4096, 4 * 1024 * 1024)])
    func limitFromBudget(_ tokens: Int, _ bytes: Int) {
        #expect(MCPBridgedTool.maximumResultBytes(for: ContextBudget(toolOutputTokens: tokens)) == bytes)
    }
}
#endif
