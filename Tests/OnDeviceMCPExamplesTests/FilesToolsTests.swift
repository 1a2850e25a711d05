import Foundation
import MCP
import OnDeviceMCPTestSupport
import Testing

@testable import OnDeviceMCPExamples

/// `files_list` and `files_read`, in process: confined, read-only, text only, size-capped.
@Suite("Files tools")
struct FilesToolsTests {
    /// A root with a few files, a data directory, and a client of the example server.
    static func withClient(roots: Bool = true, _ body: @Sendable (MCPClient, TemporaryDirectory) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.url.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("docs"), withIntermediateDirectories: true)
        try Data("Lisbon on Tuesday\n".utf8).write(to: root.appendingPathComponent("docs/trip.txt"))
        try Data([0x00, 0xFF, 0x10]).write(to: root.appendingPathComponent("docs/binary.bin"))
        try Data(String(repeating: "é", count: 40_000).utf8).write(to: root.appendingPathComponent("big.txt"))
        try Data("classified".utf8).write(to: directory.url.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("leak.txt").path,
            withDestinationPath: directory.url.appendingPathComponent("secret.txt").path)
        let server = MCPServer(name: "examples", version: "1")
        try await registerExampleTools(
            on: server, dataDirectory: directory.url.appendingPathComponent("data"), roots: roots ? [root.path] : [])
        let client = try await MCPClient.connect(to: server)
        try await body(client, directory)
        await client.close()
    }

    @Test("The files tools exist only with roots, read-only and closed-world")
    func registration() async throws {
        try await Self.withClient(roots: false) { client, _ in
            let names = try await client.listTools().map(\.name)
            #expect(names == ExampleTools.toolNames)
        }
        try await Self.withClient { client, _ in
            let tools = try await client.listTools()
            #expect(tools.map(\.name) == (ExampleTools.toolNames + ExampleTools.fileToolNames).sorted())
            for tool in tools where tool.name.hasPrefix("files_") {
                #expect(tool.annotations?.readOnlyHint == true)
                #expect(tool.annotations?.openWorldHint == false)
            }
        }
    }

    struct ReadCase: Sendable, CustomTestStringConvertible {
        let path: String
        let isError: Bool
        let contains: String
        var testDescription: String { path }
    }

    @Test(
        "files_read reads text under the root and refuses everything else",
        arguments: [
            ReadCase(path: "docs/trip.txt", isError: false, contains: "Lisbon on Tuesday"),
            ReadCase(path: "./docs//trip.txt", isError: false, contains: "Lisbon on Tuesday"),
            ReadCase(path: "big.txt", isError: false, contains: "[file cut: showing the first 65536 of 80000 bytes]"),
            ReadCase(path: "docs/binary.bin", isError: true, contains: "not a UTF-8 text file"),
            ReadCase(path: "../secret.txt", isError: true, contains: "never followed"),
            ReadCase(path: "leak.txt", isError: true, contains: "symbolic link"),
            ReadCase(path: "/etc/passwd", isError: true, contains: "outside the allowed roots"),
            ReadCase(path: "%2e%2e/secret.txt", isError: true, contains: "percent-encoded"),
            ReadCase(path: "\u{FF0E}\u{FF0E}/secret.txt", isError: true, contains: "looks like a dot"),
            ReadCase(path: "docs", isError: true, contains: "not a regular file"),
            ReadCase(path: "docs/none.txt", isError: true, contains: "does not exist"),
        ])
    func read(_ testCase: ReadCase) async throws {
        try await Self.withClient { client, _ in
            let result = try await client.callTool(name: "files_read", arguments: ["path": .string(testCase.path)])
            #expect(result.isError == testCase.isError)
            #expect(result.text.contains(testCase.contains), "\(result.text)")
            #expect(!result.text.contains("classified"))
        }
    }

    @Test("A cut file ends on a whole character")
    func cutOnCharacter() async throws {
        try await Self.withClient { client, _ in
            let result = try await client.callTool(name: "files_read", arguments: ["path": "big.txt"])
            let body = try #require(result.text.split(separator: "\n").first)
            #expect(body.allSatisfy { $0 == "é" })
            #expect(body.utf8.count == 65_536)
        }
    }

    @Test("files_list lists a directory, marking links without following them")
    func list() async throws {
        try await Self.withClient { client, _ in
            let top = try await client.callTool(name: "files_list")
            #expect(top.text == "big.txt (80000 bytes)\ndocs/\nleak.txt (symbolic link, not followed)")
            let docs = try await client.callTool(name: "files_list", arguments: ["path": "docs"])
            #expect(docs.text == "binary.bin (3 bytes)\ntrip.txt (18 bytes)")
            let escape = try await client.callTool(name: "files_list", arguments: ["path": ".."])
            #expect(escape.isError)
        }
    }
}
