/// The box a server process runs in: what it may read, write and reach, the environment it
/// gets, and the resources it may use.
///
/// The same value describes the box on every platform, and it needs no helper program: the
/// library starts the server itself and the child applies the box before it executes the
/// server. On Linux: its own PID, mount, IPC (and, with the network closed, network)
/// namespaces where the kernel lets this process make them, so that every process the server
/// starts ends with it and the file system is read-only outside the writable paths; Landlock
/// file-system and network rules; a seccomp filter; no capabilities and
/// `PR_SET_NO_NEW_PRIVS`; a new session keyring; resource limits, and control groups for the
/// whole box where this process may make them. On macOS: a `sandbox-exec` profile generated
/// from it. What each platform cannot enforce is listed in the Security model article, and an
/// enforcement the kernel lacks is an error, never a silent no-op; what the box went without
/// where it had a fallback is in `ProcessTransport.sandboxNotes`.
///
/// ```swift
/// var box = Sandbox.standard
/// box.writablePaths.append("/Users/me/repo")
/// let git = try await MCPClient.connect(to: .process("mcp-server-git", arguments: ["--repository", "/Users/me/repo"], sandbox: box))
/// ```
public struct Sandbox: Hashable, Sendable {
    /// Paths the server may read (and execute), besides the system directories, the
    /// configuration files of `/etc` the common runtimes need, the server executable's own
    /// installation prefix and the files its arguments name, which are always readable.
    public var readablePaths: [String]
    /// Paths the server may read and write, besides its private data directory. Relative
    /// paths are taken from this process's working directory; every path must exist.
    public var writablePaths: [String]
    /// Whether the server may use the network: TCP and UDP over IPv4 and IPv6 (connect,
    /// bind, listen), and netlink route sockets. Closed, the server makes no socket at all but
    /// Unix-domain pairs (`socketpair`).
    public var allowsNetwork: Bool
    /// Whether the server may make Unix-domain sockets with `socket` (to connect to a local
    /// database, say): that reaches any socket file it can name, such as a container
    /// engine's. Off by default, whatever ``allowsNetwork`` says; `socketpair` always works.
    public var allowsUnixSockets: Bool
    /// Names of environment variables passed through from this process, besides `PATH`,
    /// `HOME`, `LANG` (and `LC_*`), `TERM` and `TZ`. Nothing else is inherited.
    public var passedEnvironment: [String]
    /// Environment variables set for the server (after the allowlist and the private
    /// `TMPDIR`; they win).
    public var environment: [String: String]
    /// The most memory the server may use, in bytes; `nil` for no limit. Each process's
    /// address space (`RLIMIT_AS`) and, where a memory control group can be made, the whole
    /// box's memory, its data directory included.
    public var memoryLimit: Int?
    /// The most CPU time each process of the server may use, in seconds; `nil` for no limit.
    ///
    /// `RLIMIT_CPU`: `SIGXCPU` at the limit and `SIGKILL` a second later. Where the box has its
    /// own PID namespace (Linux, user namespaces available) the server is that namespace's first
    /// process, which the kernel does not let `SIGXCPU` end: there the server ends at the
    /// `SIGKILL`, one second past the limit.
    public var cpuTimeLimit: Int?
    /// The largest file the server may write, in bytes; `nil` for no limit.
    public var fileSizeLimit: Int?
    /// The most descriptors each process of the server may have open; `nil` for no limit.
    public var openFileLimit: Int?
    /// The most tasks (processes and threads together) the whole box may have; `nil` for no
    /// limit. Enforced with a `pids` control group where this process may make one; where it
    /// may not (`ProcessTransport.sandboxNotes` says so), it is not enforced, because the
    /// only per-process limit, `RLIMIT_NPROC`, counts every process of the user.
    public var processLimit: Int?
    /// The size of the private data directory (its `TMPDIR` and `HOME` included), in bytes;
    /// `nil` for no limit. Where the box has its own mount namespace the data directory is a
    /// file system of its own of this size, kept in memory (and counted in ``memoryLimit``);
    /// elsewhere only ``fileSizeLimit`` bounds each file.
    public var dataDirectorySizeLimit: Int?
    /// Where each launch's private data directory is made (it is removed when the
    /// connection closes); `nil`: the system's temporary directory.
    public var dataDirectoryParent: String?

    /// Creates a box; every parameter has the safe default of ``standard``.
    public init(
        readablePaths: [String] = [], writablePaths: [String] = [], allowsNetwork: Bool = false, allowsUnixSockets: Bool = false,
        passedEnvironment: [String] = [], environment: [String: String] = [:],
        memoryLimit: Int? = 2 * 1024 * 1024 * 1024, cpuTimeLimit: Int? = 600,
        fileSizeLimit: Int? = 1024 * 1024 * 1024, openFileLimit: Int? = 1024, processLimit: Int? = 512,
        dataDirectorySizeLimit: Int? = 1024 * 1024 * 1024, dataDirectoryParent: String? = nil
    ) {
        self.readablePaths = readablePaths
        self.writablePaths = writablePaths
        self.allowsNetwork = allowsNetwork
        self.allowsUnixSockets = allowsUnixSockets
        self.passedEnvironment = passedEnvironment
        self.environment = environment
        self.memoryLimit = memoryLimit
        self.cpuTimeLimit = cpuTimeLimit
        self.fileSizeLimit = fileSizeLimit
        self.openFileLimit = openFileLimit
        self.processLimit = processLimit
        self.dataDirectorySizeLimit = dataDirectorySizeLimit
        self.dataDirectoryParent = dataDirectoryParent
    }

    /// The default box: read-only system directories and the server's own installation,
    /// writes only to a private data directory of 1 GiB, no network, the environment
    /// allowlist, 2 GiB of memory, 10 CPU minutes, 1 GiB files, 1,024 descriptors, 512 tasks.
    public static let standard = Sandbox()

    /// The environment variables every boxed server gets from this process when they are set.
    ///
    /// `HOME` is passed only when the box lets the server read that directory (it is in, or
    /// under, a readable or writable path); otherwise the server gets a private, empty home in
    /// its data directory, so that programs that read their configuration from `~` (git, for
    /// one) start instead of failing on a directory they may not read.
    public static let alwaysPassedEnvironment = ["PATH", "HOME", "LANG", "TERM", "TZ"]
}
