import Foundation
import MCPPlatform
import Testing

@testable import MCPSandbox

/// How the library turns a ``Sandbox`` into what the boxed child applies (no process started).
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
        #expect(SandboxLaunchPlan.prefixes(of: tree.root + "/me/bin/x", home: tree.root + "/me") == [tree.root + "/me/bin"])
        #expect(SandboxLaunchPlan.prefixes(of: tree.root + "/tool/bin/x", home: nil) == [tree.root + "/tool/bin"])
        #expect(SandboxLaunchPlan.prefixes(of: tree.root + "/opt/node/bin/node", home: nil) == [tree.root + "/opt/node"])
        #expect(SandboxLaunchPlan.prefixes(of: "/bin/sh", home: nil) == ["/bin"])
    }

    /// Where a script lives, and what of it the box may read: the red team's `~/server.py`
    /// made the whole home readable (`~/.ssh` with it).
    @Test(
        "A program in the home directory, a temporary directory or a repository's root makes only itself readable",
        arguments: ["home", "tmp", "repository", "above home"])
    func tooBroadDirectories(place: String) throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.directory("home/me/.ssh")
        try tree.directory("home/me/repo/.git")
        let home = tree.root + "/home/me"
        let directory: String
        switch place {
        case "home": directory = home
        case "tmp": directory = "/tmp"
        case "repository": directory = home + "/repo"
        default: directory = tree.root + "/home"
        }
        let script = directory + "/server-\(UUID().uuidString).py"
        try "print()\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        #expect(SandboxLaunchPlan.prefixes(of: script, home: home) == [script])
        // And a plan for `python3 script` reads the script, not its directory.
        let plan = try SandboxLaunchPlan(
            sandbox: .standard, executable: "python3", path: "/usr/bin/python3", arguments: [script, "--flag", directory],
            baseEnvironment: ["HOME": home], dataDirectory: tree.root, currentDirectory: nil)
        #expect(plan.readablePaths.contains(POSIX.realPath(script) ?? script))
        #expect(!plan.readablePaths.contains { SandboxLaunchPlan.isPath(home + "/.ssh", within: $0) }, "\(plan.readablePaths)")
        #expect(!plan.readablePaths.contains(directory))
    }

    @Test("An installation that is a repository (pyenv's) is readable entry by entry, without its .git")
    func repositoryInstallation() throws {
        let tree = try Tree()
        defer { tree.remove() }
        for directory in ["pyenv/.git", "pyenv/libexec", "pyenv/shims", "pyenv/versions"] { try tree.directory(directory) }
        try tree.file("pyenv/version", "3.11\n")
        try tree.file("pyenv/shims/python3", "#!/bin/sh\n", executable: true)
        #expect(
            SandboxLaunchPlan.prefixes(of: tree.root + "/pyenv/shims/python3", home: nil)
                == ["libexec", "shims", "version", "versions"].map { tree.root + "/pyenv/" + $0 })
    }

    @Test("The box reads a list of /etc, not /etc: no shadow, no sudoers, no SSH host keys")
    func systemConfiguration() throws {
        let tree = try Tree()
        defer { tree.remove() }
        for name in ["passwd", "shadow", "gshadow", "sudoers", "hosts", "python3.11"] { try tree.file(name) }
        for directory in ["ssh", "ssl/private", "ssl/certs", "sudoers.d"] { try tree.directory(directory) }
        try tree.file("ssh/ssh_host_ed25519_key")
        try tree.file("ssh/ssh_config")
        let paths = SandboxLaunchPlan.systemConfigurationPaths(in: tree.root)
        #expect(
            Set(paths) == Set(["passwd", "hosts", "python3.11", "ssl/certs", "ssh/ssh_config"].map { tree.root + "/" + $0 }), "\(paths)")
        let plan = try SandboxLaunchPlan(
            sandbox: .standard, executable: "sh", path: "/bin/sh", arguments: [], baseEnvironment: [:], dataDirectory: tree.root,
            currentDirectory: nil)
        #expect(!plan.readablePaths.contains("/etc"))
        #expect(!plan.readablePaths.contains("/etc/shadow"))
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

    @Test("A plan reads the system and writes only its data directory")
    func paths() throws {
        var box = Sandbox.standard
        box.allowsNetwork = true
        let tree = try Tree()
        defer { tree.remove() }
        try tree.file("server", "#!/bin/sh\n", executable: true)
        let plan = try SandboxLaunchPlan(
            sandbox: box, executable: "server", path: tree.root + "/server", arguments: ["--flag", "ünï \"q\""],
            baseEnvironment: ["PATH": "/usr/bin"], dataDirectory: tree.root, currentDirectory: nil)
        #expect(plan.writablePaths == ["/dev/null", tree.root])
        #expect(plan.readablePaths.contains("/usr"))
        #expect(!plan.readablePaths.contains("/tmp"))
        #expect(plan.allowsNetwork)
        #expect(!plan.allowsUnixSockets)
    }
}
