public import MCPCore

/// The macOS form of a ``Sandbox``: a Seatbelt profile (SBPL, the sandbox profile language)
/// for `/usr/bin/sandbox-exec`, with the same meaning as the box the Linux launcher builds
/// with Landlock.
///
/// ```swift
/// let profile = try SandboxProfile(
///     sandbox: .standard,
///     executable: "/opt/tools/time/bin/mcp-server-time", installationPrefix: "/opt/tools/time",
///     dataDirectory: "/Users/me/Library/Application Support/MyApp/Servers/time")
/// let argv = profile.commandLine(arguments: ["--local-timezone", "Europe/Lisbon"])
/// // ["/usr/bin/sandbox-exec", "-p", profile.text, "--", "/opt/tools/time/bin/mcp-server-time", …]
/// ```
///
/// The profile denies everything by default, then allows:
///
/// - **Processes:** `fork`, and `exec` of the server executable and of programs in the
///   read-only locations below (never from the data directory or the writable paths);
///   signals and process information only within the same sandbox.
/// - **Reading (and mapping code):** the system (`/usr`, `/bin`, `/sbin`, `/System` with the
///   dyld shared cache and its cryptexes, `/Library`, `/private/var/db/dyld`), system data
///   (`/private/etc`, `/private/var/db/timezone`, `/private/var/select`,
///   `/private/var/db/xcode_select_link`), the executable, its installation prefix and
///   ``Sandbox/readablePaths``; the metadata (not the contents) of every directory above
///   those, so that `realpath` works.
/// - **Reading and writing:** the data directory, the server's private `TMPDIR` and
///   ``Sandbox/writablePaths``; `/dev/null` and `/dev/dtracehelper`; the process's own
///   descriptors under `/dev/fd`. `/dev/zero`, `/dev/random` and `/dev/urandom` are readable.
/// - **Mach services:** only `com.apple.system.opendirectoryd.libinfo` (user and group
///   look-ups: `getpwuid`, which `git` and most runtimes call). Not the unified log, not
///   `cfprefsd` (preferences read as defaults), not the pasteboard, the keychain, Apple
///   events or Launch Services.
/// - **`sysctl`:** reading hardware (`hw.*`, `machdep.cpu.*`), the kernel's version,
///   limits and host name, and the process's own architecture; not `kern.proc.*`,
///   `kern.procargs*` (other processes' arguments and environment) or anything writable.
/// - **POSIX semaphores** (Python's `multiprocessing` locks); not POSIX shared memory.
/// - **Network:** nothing, stated once more with `(deny network*)`: no TCP, no UDP, no
///   Unix-domain sockets. With ``Sandbox/allowsNetwork``: TCP connections to any address,
///   listening on any TCP port, DNS through `mDNSResponder`, the DNS configuration, `configd`
///   and certificate trust (`trustd`). UDP stays denied even then (QUIC falls back to TCP).
///
/// Paths are canonicalised without touching the file system: made absolute against the
/// working directory, `.`, `..` and repeated slashes resolved, and macOS's root symbolic
/// links followed (`/tmp` is `/private/tmp`, `/var` is `/private/var`, `/etc` is
/// `/private/etc`), because Seatbelt matches the path a file is reached by after symbolic
/// links are resolved. Any other symbolic link must already be resolved by the caller (pass
/// `realpath` results): a rule for a path through a symbolic link never matches, which denies
/// access rather than widening it. Paths are written as SBPL string literals with `\` and `"`
/// escaped and line breaks and tabs as `\n`, `\r`, `\t`, so no path, however hostile, can
/// end a literal and add a rule of its own. Directories are `(subpath …)` rules (a file given
/// as a readable or writable path is matched by `(subpath …)` too); the executable and
/// device files are `(literal …)`.
///
/// Resource limits and the environment are not SBPL's job: the launcher sets them (and the
/// working directory) before it runs `sandbox-exec`, and they are inherited through `exec`.
///
/// - Important: The generator is pure Swift with no platform calls; it compiles on every
///   platform and is unit-tested on Linux (`SandboxProfileTests`). The profile is **not run on
///   a Mac in this project's CI**: which operations a command-line server needs at run time
///   is taken from published profiles (Chromium's, OpenAI Codex's, Anthropic's sandbox
///   runtime), not measured here, so a server may meet a denial nobody has seen yet.
///   `sandbox-exec` is deprecated (its manual page says so; `sandbox_init` since OS X 10.8)
///   and Apple documents no profile language, but macOS still ships it and Chromium, Codex and
///   Anthropic's sandbox runtime rely on it. Deprecated means: no replacement exists for
///   confining an arbitrary process outside the App Sandbox, the language can change in any
///   macOS release without notice, and the tool could be removed. When
///   `/usr/bin/sandbox-exec` is missing or refuses the profile (it exits before it `exec`s
///   the server), the launcher must fail, never run the server unconfined.
///
/// What the profile does not stop:
///
/// - reading the system locations above, `/Library` and `/private/etc` included (as the
///   Linux box reads `/usr` and `/etc`), and learning the host name, the hardware and the
///   user and group names;
/// - covert channels between processes: POSIX semaphores, timing, CPU and memory use;
/// - descriptors the launcher leaves open: rules apply when a file is opened, not to
///   descriptors already open (standard input and output are the server's pipes);
/// - with ``Sandbox/allowsNetwork``, any TCP peer, services on `localhost` included;
/// - kernel bugs: SBPL filters operations, not system calls;
/// - possibly, a hard link made inside a writable location to a file outside the box, then
///   read through the writable path: whether Seatbelt refuses such a `link(2)` is not
///   verified here (Landlock refuses links that would widen access);
/// - and nothing at all in an app that is itself in the App Sandbox: a sandboxed process
///   cannot apply a profile of its own, so `sandbox-exec` fails there (and the launcher with
///   it).
public struct SandboxProfile: Hashable, Sendable {
    /// The profile, in SBPL, for `sandbox-exec -p`.
    public let text: String
    /// The server executable, canonicalised: the path to run, which the profile names by
    /// `(literal …)`.
    public let executable: String

    /// Where `sandbox-exec` is, by absolute path, so that a `PATH` entry cannot replace it.
    public static let sandboxExec = "/usr/bin/sandbox-exec"

    /// Generates the profile of `sandbox` for one launch.
    ///
    /// - Parameters:
    ///   - sandbox: The box: readable and writable paths and whether the network is allowed.
    ///     Its limits and environment are the launcher's (see the type's discussion).
    ///   - executable: The server executable's resolved absolute path (symbolic links
    ///     resolved), as the launcher will run it.
    ///   - installationPrefix: The directory the server is installed in, readable and
    ///     executable as a whole (a virtual environment's root, a package's prefix); `nil` for
    ///     the directory that holds the executable. An interpreter that a script's `#!` line
    ///     names outside it must be added to ``Sandbox/readablePaths`` by the launcher.
    ///   - dataDirectory: The server's private data directory, the one place it may write
    ///     besides ``Sandbox/writablePaths``.
    ///   - temporaryDirectory: The private `TMPDIR` the launcher sets, when it is not inside
    ///     `dataDirectory`; `nil` when it is.
    ///   - workingDirectory: The absolute directory relative paths are resolved against (the
    ///     server's working directory). It gets no access of its own.
    /// - Throws: ``SandboxProfileError/invalidPath`` when the executable or the working
    ///   directory is not absolute, or any path contains a NUL character;
    ///   ``SandboxProfileError/tooBroad`` when the installation prefix, the data directory or
    ///   the temporary directory is the root directory (the whole disk).
    public init(
        sandbox: Sandbox,
        executable: String,
        installationPrefix: String? = nil,
        dataDirectory: String,
        temporaryDirectory: String? = nil,
        workingDirectory: String = "/"
    ) throws(SandboxProfileError) {
        for (role, path) in [("working directory", workingDirectory), ("executable", executable)]
        where !path.hasPrefix("/") {
            throw .invalidPath("the \(role) must be an absolute path, not \(Self.literal(path))")
        }
        var named = [
            ("executable", executable), ("working directory", workingDirectory), ("data directory", dataDirectory),
        ]
        if let installationPrefix { named.append(("installation prefix", installationPrefix)) }
        if let temporaryDirectory { named.append(("temporary directory", temporaryDirectory)) }
        named += sandbox.readablePaths.map { ("readable path", $0) }
        named += sandbox.writablePaths.map { ("writable path", $0) }
        for (role, path) in named where path.unicodeScalars.contains("\0") {
            throw .invalidPath("the \(role) \(Self.literal(path)) contains a NUL character")
        }
        let base = Self.canonicalPath(workingDirectory, relativeTo: "/")
        let exe = Self.canonicalPath(executable, relativeTo: base)
        let prefix = Self.canonicalPath(installationPrefix ?? Self.parent(of: exe), relativeTo: base)
        let data = Self.canonicalPath(dataDirectory, relativeTo: base)
        let temporary = temporaryDirectory.map { Self.canonicalPath($0, relativeTo: base) }
        let directories = [
            ("installation prefix", prefix), ("data directory", data), ("temporary directory", temporary ?? data),
        ]
        for (role, path) in directories where path == "/" {
            throw .tooBroad("the \(role) is the root directory, which would open the whole disk to the server")
        }
        let readable = Self.unique(sandbox.readablePaths.map { Self.canonicalPath($0, relativeTo: base) })
        let writable = Self.unique(
            [data] + (temporary.map { [$0] } ?? [])
                + sandbox.writablePaths.map { Self.canonicalPath($0, relativeTo: base) })
        self.executable = exe
        self.text = Self.render(
            executable: exe, prefix: prefix, readable: readable, writable: writable, allowsNetwork: sandbox.allowsNetwork)
    }

    /// The argument vector that runs the server under this profile: `sandbox-exec`, the
    /// profile, `--`, the executable, then `arguments`.
    ///
    /// The launcher `exec`s it (`argv[0]` is ``sandboxExec``) after it has set the resource
    /// limits, the environment and the working directory and closed every descriptor the
    /// server must not inherit; `sandbox-exec` applies the profile and `exec`s the server, so
    /// the server and every process it starts run confined from their first instruction.
    ///
    /// - Parameter arguments: The server's arguments, after its executable.
    /// - Returns: `["/usr/bin/sandbox-exec", "-p", text, "--", executable] + arguments`.
    public func commandLine(arguments: [String]) -> [String] {
        [Self.sandboxExec, "-p", text, "--", executable] + arguments
    }
}

/// A ``SandboxProfile`` that cannot be generated from the launch facts it was given.
///
/// Match it with `==` against the static members, or `catch SandboxProfileError.invalidPath`
/// (``MCPCore/KindedError``).
public struct SandboxProfileError: DetailedKindedError {
    public let kind: ErrorKind
    /// What is wrong, in a sentence.
    public let detail: String

    package init(_ kind: ErrorKind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// A path is not absolute where it must be, or contains a NUL character.
    public static let invalidPath = SandboxProfileError("invalidPath", "a path is invalid")

    /// A launch directory is the root directory: the box would contain the whole disk.
    public static let tooBroad = SandboxProfileError("tooBroad", "a launch directory is the root directory")
}

// MARK: - Paths

extension SandboxProfile {
    /// The root directory's symbolic links on macOS, which Seatbelt sees resolved.
    static let rootLinks: Set<Substring> = ["tmp", "var", "etc"]

    /// `path` made absolute against `base` (itself absolute), with `.`, `..` and repeated
    /// slashes resolved and `/tmp`, `/var` and `/etc` followed to `/private/…`, as macOS
    /// resolves them. Purely lexical: no other symbolic link is looked at.
    static func canonicalPath(_ path: String, relativeTo base: String) -> String {
        var components: [Substring] = []
        let full = path.hasPrefix("/") ? path : base + "/" + path
        for component in full.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".":
                continue
            case "..":
                _ = components.popLast()
            default:
                components.append(component)
                if components.count == 1, rootLinks.contains(component) {
                    components.insert("private", at: 0)
                }
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The directory that holds `path` (canonical); `/` for the root and its entries.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The directories above `path` (canonical), from `/` down, without `path` itself.
    static func ancestors(of path: String) -> [String] {
        var result: [String] = []
        var current = path
        while current != "/" {
            current = parent(of: current)
            result.append(current)
        }
        return result.reversed()
    }

    /// `paths` without repeats, in their first order.
    static func unique(_ paths: [String]) -> [String] {
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }

    /// `string` as an SBPL (TinyScheme) string literal: `\` and `"` escaped, line feed,
    /// carriage return and tab written as `\n`, `\r` and `\t`. Every other character,
    /// parentheses and semicolons included, is an ordinary character inside a literal.
    static func literal(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

// MARK: - Rendering

extension SandboxProfile {
    /// System locations that hold code: readable, mappable as code and executable.
    static let systemCode = ["/usr", "/bin", "/sbin", "/System", "/Library", "/private/var/db/dyld"]

    /// System locations that hold data: readable only.
    static let systemData = ["/private/etc", "/private/var/db/timezone", "/private/var/select"]

    /// System files that are readable only: the active developer directory's link (for the
    /// `/usr/bin` shims of `git` and the other developer tools).
    static let systemDataFiles = ["/private/var/db/xcode_select_link"]

    /// The root directory's symbolic links themselves (reading one tells where it points).
    static let rootLinkPaths = ["/etc", "/tmp", "/var"]

    /// Device files that are readable.
    static let readableDevices = ["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/dtracehelper"]

    /// Device files that are writable (and take `ioctl`s): the bit bucket and dyld's DTrace
    /// helper, which dyld registers a program's probes with.
    static let writableDevices = ["/dev/null", "/dev/dtracehelper"]

    /// The Mach services of the standard box: user and group look-ups.
    static let machServices = ["com.apple.system.opendirectoryd.libinfo"]

    /// Mach services added when the network is allowed: DNS configuration, network
    /// configuration (proxies) and certificate trust evaluation.
    static let networkMachServices = [
        "com.apple.SystemConfiguration.DNSConfiguration",
        "com.apple.SystemConfiguration.configd",
        "com.apple.trustd.agent",
    ]

    /// `sysctl` names readable one by one.
    static let sysctlNames = [
        "kern.argmax", "kern.hostname", "kern.maxfiles", "kern.maxfilesperproc", "kern.maxproc", "kern.ngroups",
        "kern.osproductversion", "kern.osrelease", "kern.ostype", "kern.osvariant_status", "kern.osversion",
        "kern.secure_kernel", "kern.usrstack64", "kern.version", "sysctl.proc_cputype", "sysctl.proc_native",
        "sysctl.proc_translated", "vm.loadavg",
    ]

    /// `sysctl` name prefixes readable as a whole: hardware and processor details.
    static let sysctlPrefixes = ["hw.", "machdep.cpu."]

    /// The profile's text.
    static func render(
        executable: String, prefix: String, readable: [String], writable: [String], allowsNetwork: Bool
    )
        -> String
    {
        let code = [filter("literal", executable)] + unique(systemCode + [prefix] + readable).map { filter("subpath", $0) }
        let descriptors = ["/dev/stdin", "/dev/stdout", "/dev/stderr"].map { filter("literal", $0) }
        let sysctls = sysctlNames.map { filter("sysctl-name", $0) } + sysctlPrefixes.map { filter("sysctl-name-prefix", $0) }
        let metadata = unique(([executable, prefix] + readable + writable).flatMap(ancestors(of:))).sorted()
        var lines = [
            "(version 1)",
            "; Generated by OnDeviceMCP's SandboxProfile: the macOS form of the Sandbox the Linux launcher",
            "; enforces with Landlock. Everything not allowed below is denied.",
            "(deny default)",
            "",
            "; Processes: start programs only from the read-only locations; signal and inspect only this sandbox.",
            "(allow process-fork)",
            rule("process-exec", code),
            "(allow signal (target same-sandbox))",
            "(allow process-info* (target same-sandbox))",
            "",
            "; Read-only, code may be mapped: the system, the server's installation, the readable paths.",
            rule("file-read* file-map-executable", code),
            "; Read-only data: system configuration, time zones, the developer tools' links, devices.",
            rule(
                "file-read*",
                systemData.map { filter("subpath", $0) }
                    + (systemDataFiles + rootLinkPaths + readableDevices).map { filter("literal", $0) }),
            "; Directory metadata (not contents) above every allowed path, for realpath().",
            rule("file-read-metadata", metadata.map { filter("literal", $0) }),
            "",
            "; Read-write: the private data directory (and TMPDIR) and the writable paths.",
            rule("file-read* file-write*", writable.map { filter("subpath", $0) }),
            rule("file-write-data file-ioctl", writableDevices.map { filter("literal", $0) }),
            "; The process's own descriptors, reopened by path (/dev/stdin, /dev/fd/N).",
            rule("file-read* file-write-data", [filter("subpath", "/dev/fd")] + descriptors),
            "",
            "; Services and system information.",
            rule("mach-lookup", machServices.map { filter("global-name", $0) }),
            rule("sysctl-read", sysctls),
            "(allow ipc-posix-sem)",
            "",
        ]
        if allowsNetwork {
            lines += [
                "; Network (allowed): TCP to any address, listening on any TCP port, DNS through mDNSResponder.",
                "(allow network-outbound (remote tcp \"*:*\"))",
                "(allow network-bind network-inbound (local tcp \"*:*\"))",
                "(allow system-socket (socket-domain AF_UNIX))",
                rule("network-outbound", [filter("literal", "/private/var/run/mDNSResponder")]),
                rule("mach-lookup", networkMachServices.map { filter("global-name", $0) }),
            ]
        } else {
            lines += [
                "; Network: none (no TCP, no UDP, no Unix-domain sockets).",
                "(deny network*)",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `(allow operations filters…)`, one filter a line. Without filters the rule would allow
    /// the operations everywhere, so none is written.
    static func rule(_ operations: String, _ filters: [String]) -> String {
        guard !filters.isEmpty else { return "; (nothing for \(operations))" }
        return "(allow \(operations)" + filters.map { "\n    " + $0 }.joined() + ")"
    }

    /// `(kind "value")`, the value as a string literal.
    static func filter(_ kind: String, _ value: String) -> String {
        "(\(kind) \(literal(value)))"
    }
}
