import Testing

@testable import MCPSandbox

// The profile is generated and read here, on Linux; it is not run under `sandbox-exec` in this
// project's CI (see SandboxProfile's documentation). The reader below follows TinyScheme's
// rules, which SBPL is read with: `;` starts a comment, and inside a string literal `\n`,
// `\r`, `\t` are control characters and `\` before any other character stands for it.

/// One SBPL form: an atom, a string literal (decoded) or a list.
indirect enum SExpression: Hashable, Sendable, CustomStringConvertible {
    case atom(String)
    case string(String)
    case list([SExpression])

    var description: String {
        switch self {
        case .atom(let name): name
        case .string(let value): "\"\(value)\""
        case .list(let items): "(" + items.map(\.description).joined(separator: " ") + ")"
        }
    }

    /// The head atom of a list.
    var head: String? {
        guard case .list(let items) = self, case .atom(let name)? = items.first else { return nil }
        return name
    }

    var items: [SExpression] {
        guard case .list(let items) = self else { return [] }
        return items
    }
}

struct SBPLSyntaxError: Error, CustomStringConvertible {
    var description: String
}

/// Reads a whole profile into its top-level forms.
func readSBPL(_ text: String) throws -> [SExpression] {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    var stack: [[SExpression]] = [[]]
    while index < scalars.count {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case ";":
            while index < scalars.count, scalars[index] != "\n" { index += 1 }
        case "(":
            stack.append([])
        case ")":
            guard stack.count > 1, let list = stack.popLast() else { throw SBPLSyntaxError(description: "unbalanced )") }
            stack[stack.count - 1].append(.list(list))
        case "\"":
            var value = String.UnicodeScalarView()
            var closed = false
            while index < scalars.count {
                let next = scalars[index]
                index += 1
                if next == "\"" {
                    closed = true
                    break
                }
                if next == "\\" {
                    guard index < scalars.count else { break }
                    let escaped = scalars[index]
                    index += 1
                    switch escaped {
                    case "n": value.append("\n")
                    case "r": value.append("\r")
                    case "t": value.append("\t")
                    default: value.append(escaped)
                    }
                } else {
                    value.append(next)
                }
            }
            guard closed else { throw SBPLSyntaxError(description: "unterminated string") }
            stack[stack.count - 1].append(.string(String(value)))
        case " ", "\n", "\t", "\r":
            continue
        default:
            var name = String.UnicodeScalarView([scalar])
            while index < scalars.count, !" \n\t\r();\"".unicodeScalars.contains(scalars[index]) {
                name.append(scalars[index])
                index += 1
            }
            stack[stack.count - 1].append(.atom(String(name)))
        }
    }
    guard stack.count == 1, let forms = stack.first else { throw SBPLSyntaxError(description: "unbalanced (") }
    return forms
}

/// One `(allow …)` or `(deny …)` rule: its operations and its filters.
struct SBPLRule: Hashable, Sendable {
    var action: String
    var operations: [String]
    var filters: [SExpression]

    /// The paths of the rule's filters of one kind (`subpath`, `literal`).
    func paths(_ kind: String) -> [String] {
        filters.compactMap { filter in
            guard filter.head == kind, filter.items.count == 2, case .string(let path) = filter.items[1] else { return nil }
            return path
        }
    }
}

/// A parsed profile.
struct ParsedProfile {
    var forms: [SExpression]
    var rules: [SBPLRule]

    init(_ profile: SandboxProfile) throws {
        let forms = try readSBPL(profile.text)
        self.forms = forms
        rules = forms.compactMap { form in
            guard let action = form.head, action == "allow" || action == "deny" else { return nil }
            var operations: [String] = []
            var filters: [SExpression] = []
            for item in form.items.dropFirst() {
                if case .atom(let name) = item { operations.append(name) } else { filters.append(item) }
            }
            return SBPLRule(action: action, operations: operations, filters: filters)
        }
    }

    func allowing(_ matches: (String) -> Bool) -> [SBPLRule] {
        rules.filter { $0.action == "allow" && $0.operations.contains(where: matches) }
    }

    /// The paths of one filter kind in the allow rules for an operation.
    func allowed(_ operation: String, _ kind: String) -> Set<String> {
        Set(allowing { $0 == operation }.flatMap { $0.paths(kind) })
    }

    /// The `subpath`s and `literal`s any write operation is allowed on.
    var writeTargets: Set<String> {
        Set(allowing { $0.hasPrefix("file-write") }.flatMap { $0.paths("subpath") + $0.paths("literal") })
    }
}

/// Launch facts and a box, named for the test report.
struct ProfileCase: Sendable, CustomTestStringConvertible {
    var name: String
    var sandbox: Sandbox
    var executable = "/opt/tools/time/bin/mcp-server-time"
    var prefix: String? = "/opt/tools/time"
    var data = "/Users/me/Library/Application Support/OnDeviceMCP/time"

    var testDescription: String { name }

    func profile() throws -> SandboxProfile {
        try SandboxProfile(
            sandbox: sandbox, executable: executable, installationPrefix: prefix, dataDirectory: data,
            workingDirectory: "/Users/me")
    }
}

@Suite("The macOS sandbox profile")
struct SandboxProfileTests {
    static let closedBoxes: [ProfileCase] = [
        ProfileCase(name: "the standard box", sandbox: .standard),
        ProfileCase(name: "a box with a readable path", sandbox: Sandbox(readablePaths: ["/Users/me/docs"])),
        ProfileCase(
            name: "a box with tight limits and a passed variable",
            sandbox: Sandbox(passedEnvironment: ["SSH_AUTH_SOCK"], memoryLimit: 1 << 20, cpuTimeLimit: 1)),
        ProfileCase(name: "the standard box without a prefix", sandbox: .standard, prefix: nil),
    ]

    static let openBoxes: [ProfileCase] = [
        ProfileCase(name: "the network box", sandbox: Sandbox(allowsNetwork: true)),
        ProfileCase(
            name: "the network box with paths",
            sandbox: Sandbox(readablePaths: ["/srv/in"], writablePaths: ["/srv/out"], allowsNetwork: true)),
    ]

    @Test("Denies by default, and allows nothing without a filter", arguments: closedBoxes + openBoxes)
    func deniesByDefault(_ box: ProfileCase) throws {
        let parsed = try ParsedProfile(try box.profile())
        #expect(parsed.forms.first == .list([.atom("version"), .atom("1")]))
        #expect(parsed.forms.contains(.list([.atom("deny"), .atom("default")])))
        #expect(!parsed.rules.contains { $0.operations.contains("default") && $0.action == "allow" })
        // An allow rule without a filter would allow its operations everywhere; only the
        // process-wide ones may be unfiltered.
        let unfiltered = parsed.rules.filter { $0.action == "allow" && $0.filters.isEmpty }.flatMap(\.operations)
        #expect(Set(unfiltered).isSubset(of: ["process-fork", "ipc-posix-sem"]))
    }

    @Test("Without allowsNetwork no rule allows any network operation", arguments: closedBoxes)
    func noNetwork(_ box: ProfileCase) throws {
        let parsed = try ParsedProfile(try box.profile())
        #expect(parsed.allowing { $0.hasPrefix("network") || $0 == "system-socket" }.isEmpty)
        #expect(parsed.forms.contains(.list([.atom("deny"), .atom("network*")])))
        #expect(!parsed.allowed("mach-lookup", "global-name").contains("com.apple.trustd.agent"))
    }

    @Test("With allowsNetwork TCP is allowed both ways, and nothing but TCP and DNS", arguments: openBoxes)
    func network(_ box: ProfileCase) throws {
        let profile = try box.profile()
        let parsed = try ParsedProfile(profile)
        let tcp = SExpression.string("*:*")
        let outbound = parsed.allowing { $0 == "network-outbound" }.flatMap(\.filters)
        #expect(outbound.contains(.list([.atom("remote"), .atom("tcp"), tcp])))
        let inbound = parsed.allowing { $0 == "network-inbound" }
        #expect(inbound.flatMap(\.filters) == [.list([.atom("local"), .atom("tcp"), tcp])])
        #expect(inbound.allSatisfy { $0.operations.contains("network-bind") })
        // Besides TCP, only the DNS daemon's socket; no UDP, no bare (allow network*).
        #expect(outbound.filter { $0.head == "remote" }.count == 1)
        #expect(parsed.allowed("network-outbound", "literal") == ["/private/var/run/mDNSResponder"])
        #expect(!parsed.forms.contains(.list([.atom("deny"), .atom("network*")])))
        #expect(!parsed.rules.contains { $0.operations.contains("network*") })
        #expect(!profile.text.contains("udp"))
    }

    @Test("Reads and runs the executable and its prefix; never runs what it can write", arguments: closedBoxes + openBoxes)
    func readsThePrefix(_ box: ProfileCase) throws {
        let profile = try box.profile()
        let parsed = try ParsedProfile(profile)
        let prefix = box.prefix ?? "/opt/tools/time/bin"
        for operation in ["file-read*", "file-map-executable", "process-exec"] {
            #expect(parsed.allowed(operation, "subpath").contains(prefix), "\(operation)")
            #expect(parsed.allowed(operation, "literal").contains(box.executable), "\(operation)")
            #expect(parsed.allowed(operation, "subpath").isSuperset(of: ["/usr", "/System", "/bin"]), "\(operation)")
        }
        for path in box.sandbox.readablePaths {
            #expect(parsed.allowed("file-read*", "subpath").contains(path))
            #expect(!parsed.writeTargets.contains(path))
        }
        let executable = parsed.allowed("process-exec", "subpath").union(parsed.allowed("file-map-executable", "subpath"))
        #expect(!executable.contains(box.data))
        #expect(profile.executable == box.executable)
    }

    @Test("Writes only the data directory (and the writable paths, and two devices)", arguments: closedBoxes + openBoxes)
    func writesOnlyTheDataDirectory(_ box: ProfileCase) throws {
        let parsed = try ParsedProfile(try box.profile())
        let devices: Set<String> = ["/dev/null", "/dev/dtracehelper", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr"]
        #expect(parsed.writeTargets == devices.union([box.data]).union(box.sandbox.writablePaths))
        #expect(parsed.allowed("file-write*", "subpath") == Set([box.data] + box.sandbox.writablePaths))
    }

    @Test("Writable paths and a TMPDIR outside the data directory are writable, and only they")
    func writablePaths() throws {
        let profile = try SandboxProfile(
            sandbox: Sandbox(writablePaths: ["/Users/me/repo", "notes"]), executable: "/usr/local/bin/mcp-server-git",
            dataDirectory: "/Users/me/data", temporaryDirectory: "/var/folders/xy/abc/T/git",
            workingDirectory: "/Users/me/work")
        let parsed = try ParsedProfile(profile)
        #expect(
            parsed.allowed("file-write*", "subpath")
                == ["/Users/me/data", "/private/var/folders/xy/abc/T/git", "/Users/me/repo", "/Users/me/work/notes"])
        #expect(!parsed.allowed("process-exec", "subpath").contains("/Users/me/repo"))
        // The directories above them are visible as metadata only.
        let metadata = parsed.allowed("file-read-metadata", "literal")
        #expect(metadata.isSuperset(of: ["/", "/Users", "/Users/me", "/Users/me/work", "/private/var/folders/xy/abc/T"]))
        #expect(!metadata.contains("/Users/me/repo"))
    }

    @Test("The Mach services are the documented few")
    func machServices() throws {
        let closed = try ParsedProfile(try Self.closedBoxes[0].profile())
        #expect(closed.allowed("mach-lookup", "global-name") == ["com.apple.system.opendirectoryd.libinfo"])
        let open = try ParsedProfile(try Self.openBoxes[0].profile())
        #expect(
            open.allowed("mach-lookup", "global-name") == [
                "com.apple.system.opendirectoryd.libinfo", "com.apple.SystemConfiguration.DNSConfiguration",
                "com.apple.SystemConfiguration.configd", "com.apple.trustd.agent",
            ])
        #expect(!closed.allowed("sysctl-read", "sysctl-name-prefix").contains { $0.hasPrefix("kern.") })
    }

    static let hostilePaths: [String] = [
        #"/Users/me/say "hi""#,
        #"/Users/me/back\slash\"#,
        #"/Users/me/\"))(allow default)(allow file-write* (subpath "/"#,
        "/Users/me/new\nline\n(allow default)",
        "/Users/me/cr\rtab\t",
        "/Users/me/paren)(allow default)(",
        "/Users/me/semi;colon (allow default)",
        "/Users/me/ünïcødé 🗂",
        "/Users/me/\u{1}\u{7f}controls",
    ]

    @Test("Hostile paths stay inside their string literals", arguments: hostilePaths)
    func escaping(_ path: String) throws {
        let benign = try ParsedProfile(
            try SandboxProfile(
                sandbox: Sandbox(readablePaths: ["/Users/me/benign-r"], writablePaths: ["/Users/me/benign-w"]),
                executable: "/opt/x/bin/x", dataDirectory: "/Users/me/data"))
        let hostile = try SandboxProfile(
            sandbox: Sandbox(readablePaths: [path + "-r"], writablePaths: [path + "-w"]),
            executable: "/opt/x/bin/x", dataDirectory: "/Users/me/data")
        let parsed = try ParsedProfile(hostile)
        #expect(parsed.forms.count == benign.forms.count)
        #expect(parsed.rules.map(\.operations) == benign.rules.map(\.operations))
        #expect(parsed.allowed("file-read*", "subpath").contains(path + "-r"))
        #expect(parsed.allowed("file-write*", "subpath") == ["/Users/me/data", path + "-w"])
        #expect(!parsed.rules.contains { $0.operations.contains("default") && $0.action == "allow" })
        // No raw line break survives: every line of the profile is a whole line of SBPL.
        #expect(!hostile.text.contains("new\nline") && !hostile.text.contains("cr\rtab"))
    }

    @Test(
        "String literals escape exactly backslash, quote and line breaks",
        arguments: [
            (#"/a"b"#, #""/a\"b""#), (#"/a\b"#, #""/a\\b""#), ("/a\nb", #""/a\nb""#), ("/a\r\tb", #""/a\r\tb""#),
            ("/a(b);c", #""/a(b);c""#), ("/é", #""/é""#),
        ])
    func literal(_ path: String, _ expected: String) {
        #expect(SandboxProfile.literal(path) == expected)
    }

    @Test(
        "Paths are canonical as macOS resolves them",
        arguments: [
            ("/tmp", "/private/tmp"), ("/tmp/x", "/private/tmp/x"), ("/var/folders/ab/T/", "/private/var/folders/ab/T"),
            ("/etc/hosts", "/private/etc/hosts"), ("/private/tmp/x", "/private/tmp/x"), ("/tmpfoo/x", "/tmpfoo/x"),
            ("/Users/me/tmp", "/Users/me/tmp"), ("/Users/me/var/../etc", "/Users/me/etc"), ("/a/./b//c/", "/a/b/c"),
            ("/a/b/../c", "/a/c"), ("/../..", "/"), ("/", "/"), ("//", "/"), ("/tmp/../var/x", "/private/var/x"),
            ("/var/..", "/private"), ("/private/../tmp", "/private/tmp"), ("relative/x", "/Users/me/relative/x"),
            ("./tmp", "/Users/me/tmp"), ("../../../tmp", "/private/tmp"),
        ])
    func canonicalPath(_ path: String, _ expected: String) {
        #expect(SandboxProfile.canonicalPath(path, relativeTo: "/Users/me") == expected)
    }

    @Test("Every path in the profile is canonical")
    func canonicalInProfile() throws {
        let profile = try SandboxProfile(
            sandbox: Sandbox(readablePaths: ["/tmp/in", "in"], writablePaths: ["/var/out/"]),
            executable: "/tmp/tools/bin/../bin/server", dataDirectory: "/var/data", workingDirectory: "/tmp/wd")
        let parsed = try ParsedProfile(profile)
        #expect(profile.executable == "/private/tmp/tools/bin/server")
        #expect(parsed.allowed("process-exec", "subpath").contains("/private/tmp/tools/bin"))
        #expect(parsed.allowed("file-read*", "subpath").isSuperset(of: ["/private/tmp/in", "/private/tmp/wd/in"]))
        #expect(parsed.allowed("file-write*", "subpath") == ["/private/var/data", "/private/var/out"])
        let paths = parsed.rules.flatMap { $0.paths("subpath") + $0.paths("literal") }
        let links = SandboxProfile.rootLinkPaths
        #expect(paths.allSatisfy { $0 == SandboxProfile.canonicalPath($0, relativeTo: "/") || links.contains($0) })
    }

    @Test("Launch facts that cannot make a box are refused")
    func refused() {
        func attempt(
            executable: String = "/opt/x/bin/x", prefix: String? = nil, data: String = "/Users/me/data",
            temporary: String? = nil, workingDirectory: String = "/", sandbox: Sandbox = .standard
        )
            throws(SandboxProfileError)
        {
            _ = try SandboxProfile(
                sandbox: sandbox, executable: executable, installationPrefix: prefix, dataDirectory: data,
                temporaryDirectory: temporary, workingDirectory: workingDirectory)
        }
        #expect(throws: SandboxProfileError.invalidPath) { try attempt(executable: "bin/x") }
        #expect(throws: SandboxProfileError.invalidPath) { try attempt(workingDirectory: "work") }
        #expect(throws: SandboxProfileError.invalidPath) { try attempt(sandbox: Sandbox(readablePaths: ["/a\0b"])) }
        #expect(throws: SandboxProfileError.invalidPath) { try attempt(data: "/data\0") }
        #expect(throws: SandboxProfileError.tooBroad) { try attempt(executable: "/server") }
        #expect(throws: SandboxProfileError.tooBroad) { try attempt(prefix: "/opt/..") }
        #expect(throws: SandboxProfileError.tooBroad) { try attempt(data: "/") }
        #expect(throws: SandboxProfileError.tooBroad) { try attempt(temporary: "/tmp/../..") }
        #expect(throws: Never.self) { try attempt(prefix: "/opt/x", sandbox: Sandbox(readablePaths: ["/"])) }
    }

    @Test("The command line is sandbox-exec, the profile, --, the executable and its arguments")
    func commandLine() throws {
        let profile = try SandboxProfile(sandbox: .standard, executable: "/tmp/s/bin/s", dataDirectory: "/Users/me/d")
        #expect(
            profile.commandLine(arguments: ["-v", "--", "x y"])
                == ["/usr/bin/sandbox-exec", "-p", profile.text, "--", "/private/tmp/s/bin/s", "-v", "--", "x y"])
        #expect(SandboxProfile.sandboxExec == "/usr/bin/sandbox-exec")
    }

    @Test("The profile for the standard box, in full")
    func golden() throws {
        let profile = try ProfileCase(name: "golden", sandbox: .standard).profile()
        #expect(profile.text == Self.goldenStandardProfile)
    }

    /// Checked by reading, line by line, against the rules in SandboxProfile's documentation.
    static let goldenStandardProfile = """
        (version 1)
        ; Generated by OnDeviceMCP's SandboxProfile: the macOS form of the Sandbox the Linux launcher
        ; enforces with Landlock. Everything not allowed below is denied.
        (deny default)

        ; Processes: start programs only from the read-only locations; signal and inspect only this sandbox.
        (allow process-fork)
        (allow process-exec
            (literal "/opt/tools/time/bin/mcp-server-time")
            (subpath "/usr")
            (subpath "/bin")
            (subpath "/sbin")
            (subpath "/System")
            (subpath "/Library")
            (subpath "/private/var/db/dyld")
            (subpath "/opt/tools/time"))
        (allow signal (target same-sandbox))
        (allow process-info* (target same-sandbox))

        ; Read-only, code may be mapped: the system, the server's installation, the readable paths.
        (allow file-read* file-map-executable
            (literal "/opt/tools/time/bin/mcp-server-time")
            (subpath "/usr")
            (subpath "/bin")
            (subpath "/sbin")
            (subpath "/System")
            (subpath "/Library")
            (subpath "/private/var/db/dyld")
            (subpath "/opt/tools/time"))
        ; Read-only data: system configuration, time zones, the developer tools' links, devices.
        (allow file-read*
            (subpath "/private/etc")
            (subpath "/private/var/db/timezone")
            (subpath "/private/var/select")
            (literal "/private/var/db/xcode_select_link")
            (literal "/etc")
            (literal "/tmp")
            (literal "/var")
            (literal "/dev/null")
            (literal "/dev/zero")
            (literal "/dev/random")
            (literal "/dev/urandom")
            (literal "/dev/dtracehelper"))
        ; Directory metadata (not contents) above every allowed path, for realpath().
        (allow file-read-metadata
            (literal "/")
            (literal "/Users")
            (literal "/Users/me")
            (literal "/Users/me/Library")
            (literal "/Users/me/Library/Application Support")
            (literal "/Users/me/Library/Application Support/OnDeviceMCP")
            (literal "/opt")
            (literal "/opt/tools")
            (literal "/opt/tools/time")
            (literal "/opt/tools/time/bin"))

        ; Read-write: the private data directory (and TMPDIR) and the writable paths.
        (allow file-read* file-write*
            (subpath "/Users/me/Library/Application Support/OnDeviceMCP/time"))
        (allow file-write-data file-ioctl
            (literal "/dev/null")
            (literal "/dev/dtracehelper"))
        ; The process's own descriptors, reopened by path (/dev/stdin, /dev/fd/N).
        (allow file-read* file-write-data
            (subpath "/dev/fd")
            (literal "/dev/stdin")
            (literal "/dev/stdout")
            (literal "/dev/stderr"))

        ; Services and system information.
        (allow mach-lookup
            (global-name "com.apple.system.opendirectoryd.libinfo"))
        (allow sysctl-read
            (sysctl-name "kern.argmax")
            (sysctl-name "kern.hostname")
            (sysctl-name "kern.maxfiles")
            (sysctl-name "kern.maxfilesperproc")
            (sysctl-name "kern.maxproc")
            (sysctl-name "kern.ngroups")
            (sysctl-name "kern.osproductversion")
            (sysctl-name "kern.osrelease")
            (sysctl-name "kern.ostype")
            (sysctl-name "kern.osvariant_status")
            (sysctl-name "kern.osversion")
            (sysctl-name "kern.secure_kernel")
            (sysctl-name "kern.usrstack64")
            (sysctl-name "kern.version")
            (sysctl-name "sysctl.proc_cputype")
            (sysctl-name "sysctl.proc_native")
            (sysctl-name "sysctl.proc_translated")
            (sysctl-name "vm.loadavg")
            (sysctl-name-prefix "hw.")
            (sysctl-name-prefix "machdep.cpu."))
        (allow ipc-posix-sem)

        ; Network: none (no TCP, no UDP, no Unix-domain sockets).
        (deny network*)

        """
}
