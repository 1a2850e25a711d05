import Testing

@testable import MCPSandbox

/// What boxed servers really wrote to standard error when the box refused them, and what the
/// hint must say.
struct DenialCase: Sendable, CustomTestStringConvertible {
    let name: String
    let standardError: String
    let kind: SandboxDenial.Kind?
    var testDescription: String { name }

    static let all: [DenialCase] = [
        DenialCase(
            name: "a pyenv shim", standardError: "/root/.pyenv/shims/python3: line 12: /root/.pyenv/libexec/pyenv: Permission denied",
            kind: .fileAccess(path: "/root/.pyenv/libexec/pyenv")),
        DenialCase(
            name: "Python's PermissionError",
            standardError:
                "Traceback (most recent call last):\n  File \"/srv/x.py\", line 3\nPermissionError: [Errno 13] Permission denied: '/home/me/notes.db'",
            kind: .fileAccess(path: "/home/me/notes.db")),
        DenialCase(name: "Rust's os error 13", standardError: "Error: Permission denied (os error 13)", kind: .fileAccess(path: nil)),
        DenialCase(
            name: "a name that does not resolve", standardError: "httpx.ConnectError: [Errno -3] Temporary failure in name resolution",
            kind: .network),
        DenialCase(name: "a refused socket", standardError: "OSError: [Errno 13] socket: Permission denied", kind: .network),
        DenialCase(
            name: "TLS without the certificate store",
            standardError:
                "ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate",
            kind: .certificates),
        DenialCase(
            name: "an ordinary failure", standardError: "fatal: not a git repository (or any of the parent directories): .git", kind: nil),
        DenialCase(name: "nothing", standardError: "", kind: nil),
    ]
}

@Suite("Box denials read from a server's standard error")
struct SandboxDenialTests {
    @Test(arguments: DenialCase.all)
    func reads(_ testCase: DenialCase) {
        let denial = SandboxDenial(standardError: testCase.standardError)
        #expect(denial?.kind == testCase.kind)
        if let denial {
            #expect(String(describing: denial).hasPrefix("it ran in a box"))
        }
    }

    @Test("The hint names the Sandbox property that would grant it")
    func advice() throws {
        let file = try #require(SandboxDenial(standardError: "/opt/x: Permission denied"))
        #expect(String(describing: file).contains("add it to Sandbox.readablePaths"))
        let network = try #require(SandboxDenial(standardError: "curl: (6) Could not resolve host: example.com"))
        #expect(String(describing: network).contains("Sandbox.allowsNetwork"))
    }
}
