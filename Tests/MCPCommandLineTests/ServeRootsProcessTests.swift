import Foundation
import MCP
import OnDeviceMCPExamples
import OnDeviceMCPTestSupport
import Testing

/// `ondevice-mcp serve --root DIR` as a real process: the files tools, confined.
@Suite("ondevice-mcp serve --root, as a real process")
struct ServeRootsProcessTests {
    struct Call: Sendable, CustomTestStringConvertible {
        let tool: String
        let path: String
        let isError: Bool
        let contains: String
        var testDescription: String { "\(tool) \(path)" }
    }

    static let calls = [
        Call(tool: "files_read", path: "hello.txt", isError: false, contains: "hello from the root"),
        Call(tool: "files_read", path: "../outside.txt", isError: true, contains: "\"..\""),
        Call(tool: "files_read", path: "link.txt", isError: true, contains: "symbolic link"),
        Call(tool: "files_read", path: "/etc/hostname", isError: true, contains: "outside the allowed roots"),
        Call(tool: "files_list", path: ".", isError: false, contains: "hello.txt (20 bytes)"),
    ]

    @Test("files_read and files_list over stdio stay inside --root", .timeLimit(.minutes(1)), arguments: calls)
    func confined(_ call: Call) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.url.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("hello from the root\n".utf8).write(to: root.appendingPathComponent("hello.txt"))
        try Data("outside".utf8).write(to: directory.url.appendingPathComponent("outside.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("link.txt").path,
            withDestinationPath: directory.url.appendingPathComponent("outside.txt").path)
        let transport = try ProcessTransport.launch(
            try BuiltProducts.ondeviceMCP(),
            arguments: ["serve", "--data-dir", directory.url.appendingPathComponent("data").path, "--root", root.path],
            standardError: .capture, terminationGracePeriod: .seconds(2))
        let client = try await MCPClient.connect(over: transport)
        #expect(try await client.listTools().map(\.name) == (ExampleTools.toolNames + ExampleTools.fileToolNames).sorted())
        let result = try await client.callTool(name: call.tool, arguments: ["path": .string(call.path)])
        #expect(result.isError == call.isError)
        #expect(result.text.contains(call.contains), "\(result.text)")
        await client.close()
    }
}
