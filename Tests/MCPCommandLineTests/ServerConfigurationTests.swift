import Foundation
import MCP
import OnDeviceMCPTestSupport
import Testing

@testable import MCPCommandLine

/// A configuration file's text that must be refused, and how.
struct RefusedConfiguration: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let reason: ServerConfigurationError.Reason
    /// Text the message must contain.
    let message: String
    /// The entry the error names, when it is one entry's.
    let server: String?

    init(_ name: String, _ text: String, _ reason: ServerConfigurationError.Reason, _ message: String, server: String? = nil) {
        self.name = name
        self.text = text
        self.reason = reason
        self.message = message
        self.server = server
    }

    var testDescription: String { name }
}

let refusedConfigurations: [RefusedConfiguration] = [
    // Not JSON: the byte offset is quoted.
    RefusedConfiguration(
        "a stray comma", #"{"mcpServers": {"a": {"command": "x",, "args": []}}}"#, .invalidJSON,
        "the configuration is not valid JSON: invalid JSON at byte 37"),
    RefusedConfiguration(
        "an unterminated comment keeps its offset", "{\"mcpServers\": {\"a\": {\"command\": \"x\"}} /* no end", .invalidJSON,
        "the configuration is not valid JSON: invalid JSON at byte "),
    RefusedConfiguration("cut short", #"{"mcpServers": {"#, .invalidJSON, "is not valid JSON: invalid JSON at byte 16"),
    RefusedConfiguration(
        "a server named twice", #"{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}"#, .invalidJSON,
        "is not valid JSON: invalid JSON at byte "),
    RefusedConfiguration("empty", "", .invalidJSON, "is not valid JSON: invalid JSON at byte 0"),
    // Not a configuration.
    RefusedConfiguration(
        "an array", #"[{"command": "x"}]"#, .notAConfiguration, "is not an mcpServers configuration: it is an array, not an object"),
    RefusedConfiguration(
        "no mcpServers", #"{"servers_": {}}"#, .notAConfiguration, #"the configuration has no "mcpServers" (or VS Code's "servers") object"#
    ),
    RefusedConfiguration(
        "mcpServers is an array", #"{"mcpServers": [{"command": "x"}]}"#, .notAConfiguration,
        #""mcpServers" in the configuration must be an object of servers, not an array"#),
    RefusedConfiguration(
        "mcpServers is empty", #"{"mcpServers": {}}"#, .notAConfiguration, #""mcpServers" in the configuration has no server"#),
    RefusedConfiguration(
        "every server disabled", #"{"mcpServers": {"a": {"command": "x", "disabled": true}}}"#, .notAConfiguration,
        "has no server that is not disabled"),
    // An entry this version cannot start.
    RefusedConfiguration(
        "an entry that is a string", #"{"mcpServers": {"time": "uvx mcp-server-time"}}"#, .invalidEntry,
        #"server "time" in the configuration must be an object, not a string"#, server: "time"),
    RefusedConfiguration(
        "an entry without command", #"{"mcpServers": {"time": {"args": ["mcp-server-time"]}}}"#, .invalidEntry,
        #"server "time" in the configuration has no "command": the program that runs the server"#, server: "time"),
    RefusedConfiguration(
        "a command that is not a string", #"{"mcpServers": {"time": {"command": ["uvx"]}}}"#, .invalidEntry,
        #"server "time" in the configuration has "command" an array, not a string"#, server: "time"),
    RefusedConfiguration(
        "an empty command", #"{"mcpServers": {"time": {"command": " "}}}"#, .invalidEntry, #"has an empty "command""#, server: "time"),
    RefusedConfiguration(
        "args that is a string", #"{"mcpServers": {"time": {"command": "uvx", "args": "mcp-server-time"}}}"#, .invalidEntry,
        #"has "args" a string, not an array of strings"#, server: "time"),
    RefusedConfiguration(
        "an argument that is a number", #"{"mcpServers": {"web": {"command": "srv", "args": ["--port", 8080]}}}"#, .invalidEntry,
        #"server "web" in the configuration has "args" element 1 an integer, not a string"#, server: "web"),
    RefusedConfiguration(
        "env that is an array", #"{"mcpServers": {"a": {"command": "x", "env": ["A=1"]}}}"#, .invalidEntry,
        #"has "env" an array, not an object of strings"#, server: "a"),
    RefusedConfiguration(
        "an env value that is a number", #"{"mcpServers": {"a": {"command": "x", "env": {"PORT": 8080}}}}"#, .invalidEntry,
        #"has "env" "PORT" an integer, not a string"#, server: "a"),
    RefusedConfiguration(
        "an env name with =", #"{"mcpServers": {"a": {"command": "x", "env": {"A=B": "1"}}}}"#, .invalidEntry,
        #"has "env" name "A=B", which cannot name an environment variable"#, server: "a"),
    RefusedConfiguration(
        "cwd that is not a string", #"{"mcpServers": {"a": {"command": "x", "cwd": true}}}"#, .invalidEntry,
        #"has "cwd" a boolean, not a string"#, server: "a"),
    RefusedConfiguration(
        "an unknown type", #"{"mcpServers": {"a": {"command": "x", "type": "websocket"}}}"#, .invalidEntry,
        #"has "type" "websocket"; a server this version can start has "type" "stdio" (or none)"#, server: "a"),
    RefusedConfiguration(
        "disabled that is not a boolean", #"{"mcpServers": {"a": {"command": "x", "disabled": "yes"}}}"#, .invalidEntry,
        #"has "disabled" a string, not true or false"#, server: "a"),
    RefusedConfiguration(
        "an empty name", #"{"mcpServers": {"": {"command": "x"}}}"#, .invalidEntry, "a server in the configuration has an empty name",
        server: ""),
    // Remote servers that cannot be reached as written.
    RefusedConfiguration(
        "a url that is not http", #"{"mcpServers": {"docs": {"url": "ftp://example.com/mcp"}}}"#, .remoteServer,
        #"server "docs" in the configuration has "url" "ftp://example.com/mcp", not an http:// or https:// URL"#, server: "docs"),
    RefusedConfiguration(
        "a url that is not a string", #"{"mcpServers": {"docs": {"url": 7}}}"#, .remoteServer,
        #"has "url" an integer, not a string"#, server: "docs"),
    RefusedConfiguration(
        "a url and a command", #"{"mcpServers": {"docs": {"url": "https://example.com/mcp", "command": "x"}}}"#, .remoteServer,
        #"has both "url" and "command""#, server: "docs"),
    RefusedConfiguration(
        "headers that are not strings", #"{"mcpServers": {"docs": {"url": "https://example.com/mcp", "headers": {"X": 1}}}}"#,
        .remoteServer, #"has "headers" "X" an integer, not a string"#, server: "docs"),
    RefusedConfiguration(
        "type sse without a url", #"{"mcpServers": {"events": {"type": "sse"}}}"#, .remoteServer,
        #"server "events" in the configuration has "type": "sse" but no "url""#, server: "events"),
]

@Suite("mcpServers configuration files")
struct ServerConfigurationTests {
    @Test("A file of two servers keeps their order, arguments, environment and working directory")
    func valid() throws {
        let text = #"""
            {
              "mcpServers": {
                "zeta": {"command": "uvx", "args": ["mcp-server-time", "--local-timezone", "UTC"], "env": {"TZ": "Asia/Tokyo", "EMPTY": ""}},
                "alpha": {"type": "stdio", "command": "/opt/git/bin/mcp-server-git", "cwd": "/src/app", "autoApprove": ["git_status"], "envFile": ".env"},
                "off": {"command": "nope", "disabled": true},
                "middle": {"command": "srv", "args": [], "env": {}, "disabled": false}
              },
              "otherSetting": 1
            }
            """#
        let configuration = try ServerConfiguration(parsing: Array(text.utf8))
        #expect(configuration.servers.map(\.name) == ["zeta", "alpha", "middle"])
        #expect(configuration.disabled == ["off"])
        let zeta = try #require(configuration.servers.first)
        #expect(zeta.command == "uvx")
        #expect(zeta.arguments == ["mcp-server-time", "--local-timezone", "UTC"])
        #expect(zeta.environment == ["TZ": "Asia/Tokyo", "EMPTY": ""])
        #expect(zeta.currentDirectory == nil)
        #expect(zeta.ignoredKeys.isEmpty)
        let alpha = configuration.servers[1]
        #expect(alpha.command == "/opt/git/bin/mcp-server-git")
        #expect(alpha.arguments.isEmpty)
        #expect(alpha.currentDirectory == "/src/app")
        #expect(alpha.ignoredKeys == ["autoApprove", "envFile"])
        #expect(configuration.servers[2] == ServerConfiguration.Entry(name: "middle", command: "srv"))
    }

    @Test("Remote entries keep their URL and headers, beside commands, in the file's order", arguments: ["url", "serverUrl", "httpUrl"])
    func remote(_ key: String) throws {
        let text =
            #"{"mcpServers": {"time": {"command": "uvx"}, "docs": {"type": "http", "\#(key)": "https://example.com/mcp", "headers": {"Authorization": "Bearer t"}}}}"#
        let configuration = try ServerConfiguration(parsing: Array(text.utf8))
        #expect(configuration.servers.map(\.name) == ["time", "docs"])
        let docs = try #require(configuration.servers.last)
        #expect(docs.url == "https://example.com/mcp")
        #expect(docs.headers == ["Authorization": "Bearer t"])
        #expect(docs.ignoredKeys.isEmpty)
        #expect(configuration.servers.first?.url == nil)
    }

    @Test("VS Code's mcp.json is read as VS Code writes it: comments, trailing commas, \"servers\"")
    func vsCodeFile() throws {
        let text = """
            // .vscode/mcp.json
            {
              /* the servers */
              "servers": {
                "time": {"type": "stdio", "command": "uvx", "args": ["mcp-server-time",], }, // a trailing comma
                "web": {"url": "https://mcp.example.com/mcp", "headers": {"X-Mode": "a//b /* not a comment */"}},
              },
              "inputs": [],
            }
            """
        let configuration = try ServerConfiguration(parsing: Array(text.utf8))
        #expect(configuration.servers.map(\.name) == ["time", "web"])
        #expect(configuration.servers[0].arguments == ["mcp-server-time"])
        #expect(configuration.servers[1].headers == ["X-Mode": "a//b /* not a comment */"])
        // Comments and commas become spaces: offsets into the file stay right.
        let blanked = JSONCText.plain(Array(text.utf8))
        #expect(blanked.count == text.utf8.count)
    }

    @Test("An entry's \"ondevice-mcp\" object widens its own box; other keys of it are refused")
    func boxSettings() throws {
        let text = #"""
            {"mcpServers": {
              "fetch": {"command": "uvx", "args": ["mcp-server-fetch"],
                        "ondevice-mcp": {"allowNetwork": true, "passEnv": ["SSL_CERT_FILE"], "allowRead": ["data"], "memoryLimitMiB": null}},
              "local": {"command": "srv", "ondevice-mcp": {"sandbox": false}},
              "plain": {"command": "srv"}
            }}
            """#
        let configuration = try ServerConfiguration(parsing: Array(text.utf8), directory: "/etc/mcp")
        let fetch = try #require(configuration.servers.first?.box)
        let box = try #require(fetch.applied(to: .standard))
        #expect(box.allowsNetwork)
        #expect(box.passedEnvironment == ["SSL_CERT_FILE"])
        #expect(box.readablePaths == ["/etc/mcp/data"])
        #expect(box.memoryLimit == nil)
        #expect(configuration.servers.first?.ignoredKeys.isEmpty == true)
        #expect(configuration.servers[1].box?.applied(to: .standard) == nil)
        #expect(configuration.servers[2].box == nil)
        // Through ServerLaunch: each server gets its own box; --no-sandbox still wins.
        let launches = configuration.servers.map { ServerLaunch(entry: $0, sandbox: .standard, inherited: [:]) }
        #expect(launches.map { $0.sandbox?.allowsNetwork } == [true, nil, false])
        #expect(ServerLaunch(entry: configuration.servers[0], sandbox: nil, inherited: [:]).sandbox == nil)
        let wrong = #"{"mcpServers": {"a": {"command": "x", "ondevice-mcp": {"allowNetwrk": true}}}}"#
        #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(parsing: Array(wrong.utf8)) }
    }

    @Test("A relative cwd is taken from the file's directory", arguments: [("/etc/mcp", "/etc/mcp/work"), ("/etc/mcp/", "/etc/mcp/work")])
    func relativeWorkingDirectory(directory: String, expected: String) throws {
        let text = #"{"mcpServers": {"a": {"command": "x", "cwd": "work"}, "b": {"command": "x", "cwd": "/abs"}}}"#
        let configuration = try ServerConfiguration(parsing: Array(text.utf8), directory: directory)
        #expect(configuration.servers.map(\.currentDirectory) == [expected, "/abs"])
        let unresolved = try ServerConfiguration(parsing: Array(text.utf8))
        #expect(unresolved.servers.first?.currentDirectory == "work")
    }

    @Test("A file that cannot be used is refused with its reason", arguments: refusedConfigurations)
    func refused(_ row: RefusedConfiguration) throws {
        let error = #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(parsing: Array(row.text.utf8)) }
        #expect(error?.reason == row.reason)
        #expect(error?.message.contains(row.message) == true, "message: \(error?.message ?? "none")")
        #expect(error?.server == row.server)
        #expect(error?.description == error?.message)
    }

    @Test("A file is read from disk; a missing file and a directory are refused, naming the path")
    func files() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("servers.json")
        try Data(#"{"mcpServers": {"a": {"command": "x", "cwd": "sub"}}}"#.utf8).write(to: file)
        let configuration = try ServerConfiguration(contentsOfFile: file.path)
        #expect(configuration.servers.first?.currentDirectory == directory.path + "/sub")

        let missing = directory.url.appendingPathComponent("none.json").path
        let notFound = #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(contentsOfFile: missing) }
        #expect(notFound?.reason == .unreadable)
        #expect(notFound?.message == "cannot read '\(missing)': no such file")

        let folder = #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(contentsOfFile: directory.path) }
        #expect(folder?.reason == .unreadable)
        #expect(folder?.message == "cannot read '\(directory.path)': it is a directory")

        try Data("{\"mcpServers\": 1".utf8).write(to: file)
        let broken = #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(contentsOfFile: file.path) }
        #expect(broken?.message.hasPrefix("'\(file.path)' is not valid JSON: invalid JSON at byte 16") == true, "\(broken?.message ?? "")")
    }

    @Test("An entry's env is set in its box; unboxed, it is laid over this process's environment")
    func launchEnvironment() {
        let entry = ServerConfiguration.Entry(
            name: "a", command: "srv", arguments: ["--x"], environment: ["API_TOKEN": "secret", "PATH": "/opt/srv/bin"],
            currentDirectory: "/work")
        let inherited = ["PATH": "/usr/bin", "HOME": "/home/me", "OTHER": "1"]
        var box = Sandbox.standard
        box.passedEnvironment = ["OTHER"]
        let boxed = ServerLaunch(entry: entry, sandbox: box, inherited: inherited)
        #expect(boxed.executable == "srv")
        #expect(boxed.arguments == ["--x"])
        #expect(boxed.currentDirectory == "/work")
        #expect(boxed.sandbox?.environment == ["API_TOKEN": "secret", "PATH": "/opt/srv/bin"])
        #expect(boxed.sandbox?.passedEnvironment == ["OTHER"])
        // The command is looked up in the PATH the server gets.
        #expect(boxed.environment == ["PATH": "/opt/srv/bin", "HOME": "/home/me", "OTHER": "1", "API_TOKEN": "secret"])

        let unboxed = ServerLaunch(entry: entry, sandbox: nil, inherited: inherited)
        #expect(unboxed.sandbox == nil)
        #expect(unboxed.environment == ["PATH": "/opt/srv/bin", "HOME": "/home/me", "OTHER": "1", "API_TOKEN": "secret"])

        let plain = ServerLaunch(entry: ServerConfiguration.Entry(name: "b", command: "srv"), sandbox: .standard, inherited: inherited)
        #expect(plain.environment == nil)
        #expect(plain.sandbox == .standard)
    }
}
