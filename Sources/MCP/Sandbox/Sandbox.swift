/// The box a server process runs in: what it may read, write and reach, the environment it
/// gets, and the resources it may use.
///
/// The same value describes the box on every platform. On Linux it is enforced by a launcher
/// (see ``SandboxLauncher``: resource limits, no capabilities, `PR_SET_NO_NEW_PRIVS`, an
/// environment allowlist, Landlock file-system and network rules, a seccomp filter against
/// Multipath TCP and `listen`) that sets everything up and then `exec`s the server; on macOS by a
/// `sandbox-exec` profile generated from it. What each platform cannot enforce is listed in
/// the Security model article, and an enforcement the kernel lacks is an error, never a
/// silent no-op.
///
/// ```swift
/// var box = Sandbox.standard
/// box.writablePaths.append("/Users/me/repo")
/// let git = try await MCPClient.connect(to: .process("mcp-server-git", arguments: ["--repository", "/Users/me/repo"], sandbox: box))
/// ```
public struct Sandbox: Hashable, Sendable {
    /// Paths the server may read (and execute), besides the system directories and the
    /// server executable's own installation prefix, which are always readable.
    public var readablePaths: [String]
    /// Paths the server may read and write, besides its private data directory. Relative
    /// paths are taken from this process's working directory; every path must exist.
    public var writablePaths: [String]
    /// Whether the server may open TCP connections and listen on TCP ports.
    public var allowsNetwork: Bool
    /// Names of environment variables passed through from this process, besides `PATH`,
    /// `HOME`, `LANG` (and `LC_*`), `TERM` and `TZ`. Nothing else is inherited.
    public var passedEnvironment: [String]
    /// Environment variables set for the server (after the allowlist and the private
    /// `TMPDIR`; they win).
    public var environment: [String: String]
    /// The most memory (address space) the server may map, in bytes; `nil` for no limit.
    public var memoryLimit: Int?
    /// The most CPU time the server may use, in seconds; `nil` for no limit.
    public var cpuTimeLimit: Int?
    /// The largest file the server may write, in bytes; `nil` for no limit.
    public var fileSizeLimit: Int?
    /// The most descriptors the server may have open; `nil` for no limit.
    public var openFileLimit: Int?
    /// The most processes (threads included, on Linux) the server's user may have; `nil` for
    /// no limit. On Linux this counts every process of the user, so keep it generous; and
    /// Linux does not apply it to root, so a process limit asked for by an app running as
    /// root is a launch failure rather than a limit that is not there.
    public var processLimit: Int?
    /// Where each launch's private data directory is made (it is removed when the
    /// connection closes); `nil`: the system's temporary directory.
    public var dataDirectoryParent: String?
    /// The launcher executable (see ``SandboxLauncher``); `nil`: found as
    /// ``SandboxLauncher`` describes.
    public var launcherPath: String?

    /// Creates a box; every parameter has the safe default of ``standard``.
    public init(
        readablePaths: [String] = [], writablePaths: [String] = [], allowsNetwork: Bool = false,
        passedEnvironment: [String] = [], environment: [String: String] = [:],
        memoryLimit: Int? = 2 * 1024 * 1024 * 1024, cpuTimeLimit: Int? = 600,
        fileSizeLimit: Int? = 1024 * 1024 * 1024, openFileLimit: Int? = 1024, processLimit: Int? = nil,
        dataDirectoryParent: String? = nil, launcherPath: String? = nil
    ) {
        self.readablePaths = readablePaths
        self.writablePaths = writablePaths
        self.allowsNetwork = allowsNetwork
        self.passedEnvironment = passedEnvironment
        self.environment = environment
        self.memoryLimit = memoryLimit
        self.cpuTimeLimit = cpuTimeLimit
        self.fileSizeLimit = fileSizeLimit
        self.openFileLimit = openFileLimit
        self.processLimit = processLimit
        self.dataDirectoryParent = dataDirectoryParent
        self.launcherPath = launcherPath
    }

    /// The default box: read-only system directories and the server's own installation,
    /// writes only to a private data directory, no network, the environment allowlist, 2 GiB
    /// of address space, 10 CPU minutes, 1 GiB files, 1,024 descriptors.
    public static let standard = Sandbox()

    /// The environment variables every boxed server gets from this process when they are set.
    ///
    /// `HOME` is passed only when the box lets the server read that directory (it is in, or
    /// under, a readable or writable path); otherwise the server gets a private, empty home in
    /// its data directory, so that programs that read their configuration from `~` (git, for
    /// one) start instead of failing on a directory they may not read.
    public static let alwaysPassedEnvironment = ["PATH", "HOME", "LANG", "TERM", "TZ"]
}
