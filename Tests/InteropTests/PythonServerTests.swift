import Foundation
import MCP
import Testing

/// Our ``MCPClient`` against servers built on the official Python SDK (mcp 2.3.0).
@Suite("MCPClient against Python SDK servers", .serialized, .timeLimit(.minutes(2)))
struct PythonServerTests {
    // MARK: mcp-server-time

    @Test(
        "mcp-server-time: get_current_time and convert_time",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment),
        arguments: [MCPClient.Handshake.auto, .version(.v2025_11_25)])
    func timeServer(handshake: MCPClient.Handshake) async throws {
        let server = try PythonPeers.script("mcp-server-time")
        try await withServerProcess(server, arguments: ["--local-timezone", "UTC"], handshake: handshake) { client in
            #expect(client.protocolVersion == (handshake == .auto ? .v2026_07_28 : .v2025_11_25))
            #expect(client.serverInfo.name == "mcp-time")
            #expect(client.serverCapabilities.supportsTools)

            let tools = try await client.listTools()
            #expect(tools.map(\.name).sorted() == ["convert_time", "get_current_time"])
            let current = try #require(tools.first { $0.name == "get_current_time" })
            #expect(current.inputSchema["required"] == ["timezone"])
            #expect(current.annotations?.readOnlyHint == true)
            #expect(current.outputSchema?["properties"]?["day_of_week"] != nil)

            let before = Date()
            let now = try await client.callTool(name: "get_current_time", arguments: ["timezone": "Asia/Tokyo"])
            #expect(!now.isError)
            let reading = try #require(now.structuredContent)
            #expect(reading["timezone"] == "Asia/Tokyo")
            #expect(reading["is_dst"] == false)
            let stamp = try #require(reading["datetime"]?.stringValue)
            #expect(stamp.hasSuffix("+09:00"))
            let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
            #expect(weekdays.contains(reading["day_of_week"]?.stringValue ?? ""))
            let parsed = try #require(ISO8601DateFormatter().date(from: stamp))
            #expect(abs(parsed.timeIntervalSince(before)) < 120)
            // The text block carries the same result, serialized.
            let echoed = try JSONDecoder().decode([String: JSONValueBox].self, from: Data(now.text.utf8))
            #expect(echoed["datetime"]?.string == stamp)

            let converted = try await client.callTool(
                name: "convert_time", arguments: ["source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"])
            #expect(!converted.isError)
            let conversion = try #require(converted.structuredContent)
            #expect(conversion["time_difference"] == "+9.0h")
            #expect(conversion["source"]?["timezone"] == "UTC")
            #expect(conversion["source"]?["datetime"]?.stringValue?.hasSuffix("T12:00:00+00:00") == true)
            #expect(conversion["target"]?["timezone"] == "Asia/Tokyo")
            #expect(conversion["target"]?["datetime"]?.stringValue?.hasSuffix("T21:00:00+09:00") == true)

            // A bad argument is a tool error; an unknown tool a protocol error.
            let invalid = try await client.callTool(name: "get_current_time", arguments: ["timezone": "Mars/Olympus_Mons"])
            #expect(invalid.isError)
            #expect(invalid.text.contains("Invalid timezone"))
            let badTime = try await client.callTool(
                name: "convert_time", arguments: ["source_timezone": "UTC", "time": "25:99", "target_timezone": "UTC"])
            #expect(badTime.isError)
            #expect(badTime.text.contains("Invalid time format"))
            let unknown = await #expect(throws: JSONRPCError.self) {
                try await client.callTool(name: "no_such_tool", arguments: [:])
            }
            #expect(unknown?.code == .invalidParams)
            #expect(unknown?.message == "Unknown tool: no_such_tool")
        }
    }

    // MARK: mcp-server-git

    @Test(
        "mcp-server-git: status, log, diff, add and commit on a scratch repository",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment),
        arguments: [MCPClient.Handshake.auto, .version(.v2025_11_25)])
    func gitServer(handshake: MCPClient.Handshake) async throws {
        let server = try PythonPeers.script("mcp-server-git")
        let directory = try TemporaryDirectory("git")
        defer { directory.remove() }
        let repo = directory.path
        let readme = directory.url.appendingPathComponent("README.md")
        @discardableResult
        func git(_ arguments: String...) async throws -> String {
            try await ProcessRun.check("/usr/bin/env", ["git"] + arguments, in: repo)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try await git("init", "--quiet", "--initial-branch=main")
        try await git("config", "user.name", "Interop Tester")
        try await git("config", "user.email", "interop@example.com")
        try await git("config", "commit.gpgsign", "false")
        try "first line\n".write(to: readme, atomically: true, encoding: .utf8)
        try await git("add", "README.md")
        try await git("commit", "--quiet", "-m", "Initial commit")
        let initial = try await git("rev-parse", "HEAD")

        try await withServerProcess(server, arguments: ["--repository", repo], handshake: handshake) { client in
            #expect(client.protocolVersion == (handshake == .auto ? .v2026_07_28 : .v2025_11_25))
            #expect(client.serverInfo.name == "mcp-git")

            let tools = try await client.listTools()
            #expect(
                tools.map(\.name).sorted() == [
                    "git_add", "git_branch", "git_checkout", "git_commit", "git_create_branch", "git_diff",
                    "git_diff_staged", "git_diff_unstaged", "git_log", "git_reset", "git_show", "git_status",
                ])
            #expect(tools.first { $0.name == "git_add" }?.inputSchema["required"] == ["repo_path", "files"])

            let clean = try await client.callTool(name: "git_status", arguments: ["repo_path": .string(repo)])
            #expect(!clean.isError)
            #expect(clean.text.hasPrefix("Repository status:\n"))
            #expect(clean.text.contains("On branch main"))
            #expect(clean.text.contains("nothing to commit, working tree clean"))

            let log = try await client.callTool(name: "git_log", arguments: ["repo_path": .string(repo), "max_count": 5])
            #expect(!log.isError)
            #expect(log.text.hasPrefix("Commit history:\nCommit: \(initial)\n"))
            #expect(log.text.contains("Author: Interop Tester"))
            #expect(log.text.contains("Message: Initial commit"))

            try "first line\nsecond line\n".write(to: readme, atomically: true, encoding: .utf8)
            let diff = try await client.callTool(name: "git_diff_unstaged", arguments: ["repo_path": .string(repo)])
            #expect(!diff.isError)
            #expect(diff.text.hasPrefix("Unstaged changes:\n"))
            #expect(diff.text.contains("diff --git a/README.md b/README.md"))
            #expect(diff.text.contains("\n+second line"))
            let dirty = try await client.callTool(name: "git_status", arguments: ["repo_path": .string(repo)])
            #expect(dirty.text.contains("modified:   README.md"))

            let nothingStaged = try await client.callTool(
                name: "git_commit", arguments: ["repo_path": .string(repo), "message": "Too early"])
            #expect(nothingStaged.isError)
            #expect(nothingStaged.text.contains("No changes staged for commit"))

            let added = try await client.callTool(name: "git_add", arguments: ["repo_path": .string(repo), "files": ["README.md"]])
            #expect(!added.isError)
            #expect(added.text == "Files staged successfully")
            let staged = try await client.callTool(name: "git_diff_staged", arguments: ["repo_path": .string(repo)])
            #expect(staged.text.hasPrefix("Staged changes:\n"))
            #expect(staged.text.contains("\n+second line"))

            let committed = try await client.callTool(
                name: "git_commit", arguments: ["repo_path": .string(repo), "message": "Add a second line"])
            #expect(!committed.isError)
            let head = try await git("rev-parse", "HEAD")
            #expect(committed.text == "Changes committed successfully with hash \(head)")
            #expect(head != initial)
            #expect(try await git("log", "-1", "--format=%s") == "Add a second line")
            #expect(try await git("status", "--porcelain") == "")

            let after = try await client.callTool(name: "git_log", arguments: ["repo_path": .string(repo), "max_count": 5])
            #expect(after.text.hasPrefix("Commit history:\nCommit: \(head)\n"))
            #expect(after.text.contains("Message: Add a second line"))
            #expect(after.text.contains("Commit: \(initial)"))

            // Outside the configured repository: refused as a tool error.
            let outside = try await client.callTool(name: "git_status", arguments: ["repo_path": "/"])
            #expect(outside.isError)
            #expect(outside.text.contains("outside the allowed repository"))
            let unknown = await #expect(throws: JSONRPCError.self) {
                try await client.callTool(name: "git_push", arguments: ["repo_path": .string(repo)])
            }
            #expect(unknown?.code == .invalidParams)
            #expect(unknown?.message == "Unknown tool: git_push")
        }
    }

    // MARK: Tests/Interop/python_echo_server.py

    @Test(
        "python_echo_server.py: echo in both eras",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment),
        arguments: [
            (MCPClient.Handshake.auto, ProtocolVersion.v2026_07_28),
            (.version(.v2026_07_28), .v2026_07_28),
            (.version(.v2025_11_25), .v2025_11_25),
            (.version(.v2024_11_05), .v2024_11_05),
        ])
    func echoServer(handshake: MCPClient.Handshake, expected: ProtocolVersion) async throws {
        let python = try PythonPeers.python()
        try await withServerProcess(python, arguments: [Package.interopScript("python_echo_server.py")], handshake: handshake) { client in
            #expect(client.protocolVersion == expected)
            #expect(client.serverInfo.name == "python-echo")
            #expect(client.serverInfo.version == "1.0.0")

            let tools = try await client.listTools()
            #expect(tools.map(\.name) == ["echo"])
            #expect(tools.first?.inputSchema["required"] == ["text"])
            #expect(tools.first?.description == "Returns its input unchanged.")

            let text = "héllo, wörld 👋 \"quoted\"\n\ttabbed \\ back"
            let result = try await client.callTool(name: "echo", arguments: ["text": .string(text)])
            #expect(!result.isError)
            #expect(result.text == text)
            #expect(result.structuredContent?["result"] == .string(text))

            // Many calls in flight at once: each answer reaches its own caller.
            let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<16 {
                    group.addTask {
                        (index, try await client.callTool(name: "echo", arguments: ["text": .string("message \(index)")]).text)
                    }
                }
                var answers: [Int: String] = [:]
                for try await (index, text) in group { answers[index] = text }
                return answers
            }
            #expect(answers.count == 16)
            for (index, text) in answers { #expect(text == "message \(index)") }

            // A missing required argument is reported by the SDK as a tool error.
            let missing = try await client.callTool(name: "echo", arguments: [:])
            #expect(missing.isError)

            // ping on a handshake connection, server/discover on a modern one.
            try await client.ping()

            // A large message each way (the line framer's limit is 16 MiB).
            let large = String(repeating: "0123456789abcdef", count: 64 * 1024)  // 1 MiB
            let big = try await client.callTool(name: "echo", arguments: ["text": .string(large)])
            #expect(big.text.count == large.count)
            #expect(big.text == large)
        }
    }

    @Test(
        "python_echo_server.py --slow: a call that times out is cancelled, and the connection stays usable",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment),
        arguments: [MCPClient.Handshake.version(.v2026_07_28), .version(.v2025_11_25)])
    func timeoutCancelsTheCall(handshake: MCPClient.Handshake) async throws {
        let python = try PythonPeers.python()
        try await withServerProcess(python, arguments: [Package.interopScript("python_echo_server.py"), "--slow"], handshake: handshake) {
            client in
            let tools = try await client.listTools()
            #expect(tools.map(\.name).sorted() == ["echo", "sleep"])
            // The tool sleeps 60 s: a timeout error, not a result, shows the deadline fired
            // (the suite's time limit is the hang guard).
            let error = await #expect(throws: MCPClientError.self) {
                try await client.callTool(name: "sleep", arguments: ["seconds": 60], timeout: .milliseconds(300))
            }
            #expect(error == .timedOut)
            #expect(String(describing: error).contains("tools/call"))
            let after = try await client.callTool(name: "echo", arguments: ["text": "after"])
            #expect(after.text == "after")
            let quick = try await client.callTool(name: "sleep", arguments: ["seconds": 0.01])
            #expect(quick.text == "slept")
        }
    }

    @Test(
        "A handshake-only Python server: auto falls back to initialize",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment),
        arguments: [
            (MCPClient.Handshake.auto, ProtocolVersion.v2025_11_25),
            (.version(.v2025_06_18), .v2025_06_18),
        ])
    func handshakeOnlyServer(handshake: MCPClient.Handshake, expected: ProtocolVersion) async throws {
        let python = try PythonPeers.python()
        try await withServerProcess(
            python, arguments: [Package.interopScript("python_echo_server.py"), "--handshake-only"], handshake: handshake
        ) { client in
            #expect(client.protocolVersion == expected)
            #expect(client.serverInfo.name == "python-echo")
            let echoed = try await client.callTool(name: "echo", arguments: ["text": "fallback"])
            #expect(echoed.text == "fallback")
        }
    }

    @Test(
        "A handshake-only Python server refuses a client that insists on 2026-07-28",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment))
    func handshakeOnlyServerRefusesModern() async throws {
        let python = try PythonPeers.python()
        let transport = try ProcessTransport.launch(
            python, arguments: [Package.interopScript("python_echo_server.py"), "--handshake-only"], standardError: .capture)
        let error = await #expect(throws: JSONRPCError.self) {
            let client = try await MCPClient.connect(
                over: transport, configuration: MCPClient.Configuration(handshake: .version(.v2026_07_28)))
            await client.close()
        }
        #expect(error?.code == .methodNotFound)
        await transport.close()
    }
}

/// Just enough of a JSON value to read a string field out of a text block.
struct JSONValueBox: Decodable {
    let string: String?

    init(from decoder: any Decoder) throws {
        string = try? decoder.singleValueContainer().decode(String.self)
    }
}
