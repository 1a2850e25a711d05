import MCP
import OnDeviceMCPTestSupport
import Testing

@testable import MCPCommandLine

/// The one line a boxed server's failure gets: what the box refused, and the option.
@Suite("Hints for boxed servers that fail")
struct BoxHintTests {
    static func launch(_ arguments: [String] = [], sandbox: Sandbox? = .standard, label: String? = nil) -> ServerLaunch {
        var launch = ServerLaunch(executable: "server", arguments: arguments, sandbox: sandbox)
        launch.label = label
        return launch
    }

    @Test(
        "Each kind of refusal names its option",
        arguments: [
            (
                "/root/.pyenv/shims/python3: line 12: /root/.pyenv/libexec/pyenv: Permission denied",
                "try --allow-read /root/.pyenv/libexec/pyenv"
            ),
            ("httpx.ConnectError: [Errno -3] Temporary failure in name resolution", "try --allow-network"),
            ("invalid peer certificate: UnknownIssuer", "try --allow-network --pass-env SSL_CERT_FILE --pass-env SSL_CERT_DIR"),
        ])
    func refusals(text: String, option: String) throws {
        let hint = try #require(BoxHint.line(for: Self.launch(), text: text, exited: true))
        #expect(hint.hasPrefix("hint: the server runs in a box"), "\(hint)")
        #expect(hint.contains(option), "\(hint)")
    }

    @Test("A directory the server was given and may not read is named (mcp-server-git's --repository)")
    func givenDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = "ERROR:mcp_server_git.server:\(directory.path) is not a valid Git repository"
        let hint = try #require(BoxHint.line(for: Self.launch(["--repository", directory.path]), text: text, exited: true))
        #expect(hint.contains("try --allow-read \(directory.path)"), "\(hint)")
        var allowed = Sandbox.standard
        allowed.writablePaths = [directory.path]
        let quiet = BoxHint.line(for: Self.launch(["--repository", directory.path], sandbox: allowed), text: text, exited: false)
        #expect(quiet == nil)
    }

    @Test("A server of a configuration file is pointed at its entry's key too")
    func configurationServer() throws {
        let hint = try #require(BoxHint.line(for: Self.launch(label: "fetch"), text: "Temporary failure in name resolution", exited: true))
        #expect(hint.contains(#"give server "fetch" {"ondevice-mcp": {"allowNetwork": true}} in the file"#), "\(hint)")
    }

    @Test("An unboxed server gets no hint; a boxed one that merely ended gets the general one")
    func noHint() {
        #expect(BoxHint.line(for: Self.launch(sandbox: nil), text: "Permission denied", exited: true) == nil)
        #expect(BoxHint.line(for: Self.launch(), text: "bye", exited: false) == nil)
        #expect(BoxHint.line(for: Self.launch(), text: "bye", exited: true)?.contains("--no-sandbox") == true)
    }
}
