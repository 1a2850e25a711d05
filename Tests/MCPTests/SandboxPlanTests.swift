import Foundation
import Testing

@testable import MCP

/// How the library turns a ``Sandbox`` into what the launcher applies (no process started).
@Suite("Sandbox launch plans")
struct SandboxPlanTests {
    /// A scratch directory tree, removed at the end.
    struct Tree {
        let root: String

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("ondevice-mcp-plan-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }

        func directory(_ path: String) throws {
            try FileManager.default.createDirectory(atPath: root + "/" + path, withIntermediateDirectories: true)
        }

        func file(_ path: String, _ text: String = "", executable: Bool = false) throws {
            try text.write(toFile: root + "/" + path, atomically: true, encoding: .utf8)
            if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root + "/" + path) }
        }

        func link(_ path: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: root + "/" + path, withDestinationPath: target)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test("The environment is the allowlist, a private TMPDIR, then the box's own variables")
    func environment() {
        var box = Sandbox.standard
        box.passedEnvironment = ["API_TOKEN"]
        box.environment = ["TZ": "UTC", "MODE": "boxed"]
        let base = [
            "PATH": "/usr/bin", "HOME": "/home/me", "LANG": "C.UTF-8", "LC_ALL": "C", "TERM": "dumb", "TZ": "Europe/Lisbon",
            "API_TOKEN": "t", "AWS_SECRET_ACCESS_KEY": "s", "SSH_AUTH_SOCK": "/run/agent", "TMPDIR": "/var/tmp",
        ]
        let environment = SandboxLaunchPlan.environment(sandbox: box, base: base, dataDirectory: "/data")
        #expect(
            environment == [
                "PATH": "/usr/bin", "HOME": "/home/me", "LANG": "C.UTF-8", "LC_ALL": "C", "TERM": "dumb", "TZ": "UTC",
                "API_TOKEN": "t", "TMPDIR": "/data/tmp", "MODE": "boxed",
            ])
    }

    @Test("HOME is private unless the box lets the server read the real one", arguments: [false, true])
    func home(allowed: Bool) throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.directory("home/me")
        try tree.directory("data")
        try tree.directory("app")
        try tree.file("app/server", "#!/bin/sh\n", executable: true)
        var box = Sandbox.standard
        if allowed { box.readablePaths = [tree.root + "/home"] }
        let plan = try SandboxLaunchPlan(
            sandbox: box, executable: "server", path: tree.root + "/app/server", arguments: [],
            baseEnvironment: ["HOME": tree.root + "/home/me"], dataDirectory: tree.root + "/data", currentDirectory: nil)
        #expect(plan.environment["HOME"] == (allowed ? tree.root + "/home/me" : tree.root + "/data/home"))
    }

    @Test("On macOS the same plan runs under sandbox-exec with a profile of the same meaning")
    func sandboxExecCommandLine() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.directory("data")
        try tree.directory("repo")
        try tree.directory("app")
        try tree.file("app/server", "#!/bin/sh\n", executable: true)
        var box = Sandbox.standard
        box.writablePaths = [tree.root + "/repo"]
        let plan = try SandboxLaunchPlan(
            sandbox: box, executable: "server", path: tree.root + "/app/server", arguments: ["--flag"],
            baseEnvironment: [:], dataDirectory: tree.root + "/data", currentDirectory: nil)
        #expect(plan.dataDirectory == tree.root + "/data")
        let commandLine = try plan.sandboxExecCommandLine()
        // The profile speaks macOS paths: /tmp is /private/tmp there.
        func onMac(_ path: String) -> String { path.hasPrefix("/tmp/") ? "/private" + path : path }
        #expect(commandLine.first == SandboxProfile.sandboxExec)
        #expect(commandLine.suffix(2) == [onMac(tree.root + "/app/server"), "--flag"])
        let profile = try #require(commandLine.dropFirst(2).first)
        #expect(profile.contains("(deny default)"))
        #expect(profile.contains(onMac(tree.root + "/data")))
        #expect(profile.contains(onMac(tree.root + "/repo")))
        #expect(!profile.contains("(allow network"))
    }

    @Test("A virtual environment's script: the environment and its interpreter's installation are readable")
    func installationPrefixes() throws {
        let tree = try Tree()
        defer { tree.remove() }
        // pyenv/versions/3.11/bin/python3.11 ← venv/bin/python (a link) ← venv/bin/mcp-server (#!venv/bin/python)
        try tree.directory("pyenv/versions/3.11/bin")
        try tree.directory("pyenv/versions/3.11/lib")
        try tree.file("pyenv/versions/3.11/bin/python3.11", executable: true)
        try tree.directory("venv/bin")
        try tree.file("venv/pyvenv.cfg", "home = \(tree.root)/pyenv/versions/3.11/bin\n")
        try tree.link("venv/bin/python", to: tree.root + "/pyenv/versions/3.11/bin/python3.11")
        try tree.file("venv/bin/mcp-server", "#!\(tree.root)/venv/bin/python\nimport sys\n", executable: true)
        let prefixes = SandboxLaunchPlan.installationPrefixes(of: tree.root + "/venv/bin/mcp-server", searchPath: nil, home: nil)
        let real = URL(fileURLWithPath: tree.root).resolvingSymlinksInPath().path
        #expect(prefixes.contains(tree.root + "/venv"))
        #expect(prefixes.contains(tree.root + "/pyenv/versions/3.11") || prefixes.contains(real + "/pyenv/versions/3.11"), "\(prefixes)")
    }

    @Test("A prefix is never / nor the home directory: then only the program's directory")
    func narrowPrefixes() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.directory("me/bin")
        try tree.directory("me/lib")
        try tree.directory("tool/bin")
        try tree.directory("opt/node/bin")
        try tree.directory("opt/node/lib")
        #expect(SandboxLaunchPlan.prefix(of: tree.root + "/me/bin/x", home: tree.root + "/me") == tree.root + "/me/bin")
        #expect(SandboxLaunchPlan.prefix(of: tree.root + "/tool/bin/x", home: nil) == tree.root + "/tool/bin")
        #expect(SandboxLaunchPlan.prefix(of: tree.root + "/opt/node/bin/node", home: nil) == tree.root + "/opt/node")
        #expect(SandboxLaunchPlan.prefix(of: "/bin/sh", home: nil) == "/bin")
    }

    @Test("A script run through env: its interpreter is looked up in PATH")
    func envInterpreter() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.directory("bin")
        try tree.file("bin/node", executable: true)
        try tree.file("server.js", "#!/usr/bin/env -S node --no-warnings\n", executable: true)
        #expect(SandboxLaunchPlan.interpreter(of: tree.root + "/server.js", searchPath: tree.root + "/bin") == tree.root + "/bin/node")
        try tree.file("plain", "no shebang", executable: true)
        #expect(SandboxLaunchPlan.interpreter(of: tree.root + "/plain", searchPath: nil) == nil)
    }

    @Test("A plan survives its trip to the launcher as JSON, and garbage is refused")
    func json() throws {
        var box = Sandbox.standard
        box.allowsNetwork = true
        box.processLimit = 64
        box.cpuTimeLimit = nil
        let tree = try Tree()
        defer { tree.remove() }
        try tree.file("server", "#!/bin/sh\n", executable: true)
        let plan = try SandboxLaunchPlan(
            sandbox: box, executable: "server", path: tree.root + "/server", arguments: ["--flag", "ünï \"q\""],
            baseEnvironment: ["PATH": "/usr/bin"], dataDirectory: tree.root, currentDirectory: nil)
        #expect(try SandboxLaunchPlan(json: plan.json) == plan)
        #expect(plan.writablePaths.contains(tree.root))
        #expect(plan.readablePaths.contains("/usr"))
        #expect(!plan.readablePaths.contains("/tmp"))
        #expect(throws: SandboxLaunchPlan.DecodingError.self) { try SandboxLaunchPlan(json: "{}") }
        #expect(throws: SandboxLaunchPlan.DecodingError.self) { try SandboxLaunchPlan(json: "not json") }
    }
}
