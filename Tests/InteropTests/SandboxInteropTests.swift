import Foundation
import MCP
import OnDeviceMCPTestSupport
import Testing

/// The reference servers in the default process box, through the library and the CLI.
@Suite("Python SDK servers in the process box", .serialized, .timeLimit(.minutes(2)))
struct SandboxInteropTests {
    /// The default box: the Python servers run in it as they are (no launcher, so nothing
    /// built with ThreadSanitizer runs under its address-space limit).
    static var defaultBox: Sandbox { Sandbox.standard }

    @Test(
        "mcp-server-time works in the default box (library: ServerEndpoint.process boxes by default)",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment))
    func timeServerBoxed() async throws {
        let server = try PythonPeers.script("mcp-server-time")
        let client = try await MCPClient.connect(
            to: .process(server, arguments: ["--local-timezone", "UTC"], standardError: .capture, sandbox: Self.defaultBox))
        let now = try await client.callTool(name: "get_current_time", arguments: ["timezone": "Asia/Tokyo"])
        await client.close()
        #expect(!now.isError, "\(now.text)")
        #expect(now.structuredContent?["timezone"] == "Asia/Tokyo")
    }

    @Test(
        "mcp-server-git works in the default box with its repository writable; without that it cannot commit",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment))
    func gitServerBoxed() async throws {
        let server = try PythonPeers.script("mcp-server-git")
        let directory = try TemporaryDirectory("git-box")
        defer { directory.remove() }
        let repo = try await Self.makeRepository(in: directory)

        var box = Self.defaultBox
        box.writablePaths = [repo]
        let client = try await MCPClient.connect(
            to: .process(server, arguments: ["--repository", repo], standardError: .capture, sandbox: box))
        let status = try await client.callTool(name: "git_status", arguments: ["repo_path": .string(repo)])
        #expect(!status.isError, "\(status.text)")
        #expect(status.text.contains("On branch main"))
        try "first line\nsecond line\n".write(toFile: repo + "/README.md", atomically: true, encoding: .utf8)
        let added = try await client.callTool(name: "git_add", arguments: ["repo_path": .string(repo), "files": ["README.md"]])
        #expect(added.text == "Files staged successfully", "\(added.text)")
        let committed = try await client.callTool(name: "git_commit", arguments: ["repo_path": .string(repo), "message": "Boxed commit"])
        #expect(committed.text.hasPrefix("Changes committed successfully"), "\(committed.text)")
        await client.close()
        #expect(try await ProcessRun.check("/usr/bin/env", ["git", "log", "-1", "--format=%s"], in: repo).contains("Boxed commit"))

        // Read-only: the repository can be read, not changed.
        var readOnly = Self.defaultBox
        readOnly.readablePaths = [repo]
        let reader = try await MCPClient.connect(
            to: .process(server, arguments: ["--repository", repo], standardError: .capture, sandbox: readOnly))
        let log = try await reader.callTool(name: "git_log", arguments: ["repo_path": .string(repo), "max_count": 1])
        #expect(log.text.contains("Boxed commit"), "\(log.text)")
        try "third line\n".write(toFile: repo + "/README.md", atomically: true, encoding: .utf8)
        let refused = try await reader.callTool(name: "git_add", arguments: ["repo_path": .string(repo), "files": ["README.md"]])
        #expect(refused.isError, "\(refused.text)")
        await reader.close()
    }

    @Test(
        "ondevice-mcp call runs mcp-server-time and mcp-server-git in its default box",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment))
    func commandLineBoxed() async throws {
        let binary = try BuiltProducts.ondeviceMCP()
        let box = BoxArguments.forThisBuild
        let time = try await ProcessRun.run(
            binary, ["call", "get_current_time", #"{"timezone":"UTC"}"#] + box + ["--", try PythonPeers.script("mcp-server-time")])
        #expect(time.status == 0, "\(time.standardError)")
        #expect(time.standardOutput.contains("datetime") && time.standardOutput.contains("UTC"), "\(time.standardOutput)")

        let directory = try TemporaryDirectory("git-box-cli")
        defer { directory.remove() }
        let repo = try await Self.makeRepository(in: directory)
        let git = try await ProcessRun.run(
            binary,
            ["call", "git_status", #"{"repo_path":"\#(repo)"}"#, "--allow-write", repo] + box
                + ["--", try PythonPeers.script("mcp-server-git"), "--repository", repo])
        #expect(git.status == 0, "\(git.standardError)")
        #expect(git.standardOutput.contains("On branch main"), "\(git.standardOutput)")
    }

    /// A repository with one commit, in `directory`.
    static func makeRepository(in directory: TemporaryDirectory) async throws -> String {
        let repo = directory.path
        for arguments in [
            ["init", "--quiet", "--initial-branch=main"], ["config", "user.name", "Box Tester"],
            ["config", "user.email", "box@example.com"], ["config", "commit.gpgsign", "false"],
        ] {
            try await ProcessRun.check("/usr/bin/env", ["git"] + arguments, in: repo)
        }
        try "first line\n".write(toFile: repo + "/README.md", atomically: true, encoding: .utf8)
        try await ProcessRun.check("/usr/bin/env", ["git", "add", "README.md"], in: repo)
        try await ProcessRun.check("/usr/bin/env", ["git", "commit", "--quiet", "-m", "Initial commit"], in: repo)
        return repo
    }
}
