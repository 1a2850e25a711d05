internal import MCPPlatform

/// Everything a box needs, worked out by the library from a ``Sandbox``: the program, its
/// whole environment, the paths it may read and write, and its limits.
///
/// Built in this process (where problems are still ``ProcessLaunchError``s) and applied by the
/// child that becomes the server, between `clone` and `execve` (``BoxedLaunch``); it never
/// leaves this process's memory, so nothing of it (the environment's secrets included) is on
/// any command line. Paths are absolute and exist.
struct SandboxLaunchPlan: Hashable, Sendable {
    /// The server's program, an absolute path.
    var executable: String
    /// The server's `argv[0]`: the command as the app gave it.
    var programName: String
    /// The server's arguments, after the program name.
    var arguments: [String]
    /// The server's whole environment.
    var environment: [String: String]
    /// Paths the server may read and execute (directories: everything beneath them; files:
    /// that file).
    var readablePaths: [String]
    /// Paths the server may read, write, create and remove beneath; the private data
    /// directory is the first after the system devices.
    var writablePaths: [String]
    /// The private data directory.
    var dataDirectory: String
    /// Whether TCP and UDP over IPv4 and IPv6 are left alone.
    var allowsNetwork: Bool
    /// Whether `socket(AF_UNIX, …)` is left alone.
    var allowsUnixSockets: Bool
    /// `RLIMIT_AS`, in bytes, and the box's whole memory where a control group can be made.
    var memoryLimit: Int?
    /// `RLIMIT_CPU`, in seconds.
    var cpuTimeLimit: Int?
    /// `RLIMIT_FSIZE`, in bytes.
    var fileSizeLimit: Int?
    /// `RLIMIT_NOFILE`.
    var openFileLimit: Int?
    /// The most tasks (processes and threads) of the whole box.
    var processLimit: Int?
    /// The size of the data directory's own file system, where the box has one.
    var dataDirectorySizeLimit: Int?

    /// The system paths every boxed server may read: libraries, the toolchain's runtime, a
    /// few devices, `/proc` (those that exist), and the files of `/etc` in
    /// ``systemConfigurationNames``.
    ///
    /// `/proc` as a whole, because a process reads its threads' entries by thread id
    /// (`/proc/<tid>/stat`: libdispatch does, and traps when it cannot), and those cannot be
    /// named before the threads exist. Where the box has its own PID namespace, that `/proc`
    /// is its own and shows no other process; elsewhere what another process keeps there
    /// behind a ptrace check (`environ`, `mem`, `maps`, `fd`) stays closed (Landlock refuses a
    /// boxed process ptrace access to any process outside its box) while world-readable entries
    /// (`cmdline`, `stat`) can be read, as any local user can.
    static let systemReadablePaths = [
        "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/opt/swift",
        "/dev/urandom", "/dev/random", "/dev/zero", "/dev/full", "/proc", "/sys/devices/system/cpu",
    ]

    /// The entries of `/etc` a boxed server may read: what the dynamic linker, the C library's
    /// name services, time zones, locales, TLS certificate stores and the common runtimes read.
    ///
    /// A list, not all of `/etc`, because a server started by root keeps root's owner rights:
    /// `/etc/shadow`, `/etc/gshadow`, `/etc/sudoers`, SSH host keys, `/etc/ssl/private` and
    /// every other secret kept there would be readable. Another entry is one
    /// ``Sandbox/readablePaths`` away. Names ending in `*` are prefixes.
    static let systemConfigurationNames = [
        "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "ld.so.preload", "localtime", "timezone", "passwd", "group",
        "nsswitch.conf", "hosts", "host.conf", "resolv.conf", "gai.conf", "services", "protocols", "networks", "rpc",
        "mime.types", "ssl/certs", "ssl/openssl.cnf", "ssl/cert.pem", "ca-certificates", "ca-certificates.conf",
        "pki/tls/certs", "pki/tls/cert.pem", "pki/ca-trust/extracted", "crypto-policies", "alternatives", "os-release",
        "lsb-release", "debian_version", "redhat-release", "alpine-release", "locale.alias", "locale.conf",
        "default/locale", "gitconfig", "gitattributes", "inputrc", "terminfo", "magic", "magic.mime", "hostname",
        "fonts", "ssh/ssh_config", "ssh/ssh_config.d", "ssh/ssh_known_hosts", "python*", "perl", "java*", "node*",
        "mailcap", "xattr.conf", "manpath.config",
    ]

    /// The devices every boxed server may write.
    static let systemWritablePaths = ["/dev/null"]

    /// Directories never made readable as a program's "installation": the root, temporary
    /// directories, and (see ``isTooBroad(_:home:)``) the home directory and those above it,
    /// and repositories.
    static let tooBroadDirectories = ["/", "/tmp", "/var/tmp", "/dev/shm", "/var", "/home", "/root", "/Users", "/private/tmp"]

    /// Works out the plan for running `executable` (already resolved to `path`) in `sandbox`.
    ///
    /// - Parameters:
    ///   - baseEnvironment: The environment the allowlist picks from (this process's, or the
    ///     one the app gave).
    ///   - dataDirectory: The server's private data directory (it exists); its `tmp`
    ///     subdirectory becomes `TMPDIR`.
    ///   - currentDirectory: The server's working directory, when the app named one: it
    ///     becomes readable.
    /// - Throws: ``ProcessLaunchError`` when a path the app allowed does not exist.
    init(
        sandbox: Sandbox, executable: String, path: String, arguments: [String], baseEnvironment: [String: String],
        dataDirectory: String, currentDirectory: String?
    ) throws {
        self.executable = path
        programName = executable
        self.arguments = arguments
        self.dataDirectory = dataDirectory
        environment = Self.environment(sandbox: sandbox, base: baseEnvironment, dataDirectory: dataDirectory)
        let workingDirectory = POSIX.currentDirectory() ?? "/"
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : (workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/") + path
        }
        let home = baseEnvironment["HOME"]
        var readable = Self.systemReadablePaths.filter(POSIX.exists) + Self.systemConfigurationPaths()
        readable += Self.installationPrefixes(of: path, searchPath: environment["PATH"], home: home)
        // A script named on the command line (`python3 server.py`): that file, not its directory.
        readable += Self.scriptFiles(in: arguments, relativeTo: absolute(currentDirectory ?? "."))
        if let currentDirectory { readable.append(absolute(currentDirectory)) }
        var writable = Self.systemWritablePaths.filter(POSIX.exists) + [dataDirectory]
        for (paths, kind) in [(sandbox.readablePaths, "readable"), (sandbox.writablePaths, "writable")] {
            for given in paths {
                let full = absolute(given)
                guard POSIX.exists(full) else {
                    throw ProcessLaunchError.cannotLaunch(
                        "cannot launch '\(executable)' in its box: the \(kind) path '\(given)' does not exist")
                }
                if kind == "readable" { readable.append(full) } else { writable.append(full) }
            }
        }
        readablePaths = Self.unique(readable)
        writablePaths = Self.unique(writable)
        // A home the server cannot read only makes programs fail (git stops on an unreadable
        // ~/.gitconfig): unless the app allowed the real one, HOME is a private, empty one.
        if sandbox.environment["HOME"] == nil,
            !(environment["HOME"].map { home in (readable + writable).contains { Self.isPath(home, within: $0) } } ?? false)
        {
            environment["HOME"] = dataDirectory + "/home"
        }
        allowsNetwork = sandbox.allowsNetwork
        allowsUnixSockets = sandbox.allowsUnixSockets
        memoryLimit = sandbox.memoryLimit
        cpuTimeLimit = sandbox.cpuTimeLimit
        fileSizeLimit = sandbox.fileSizeLimit
        openFileLimit = sandbox.openFileLimit
        processLimit = sandbox.processLimit
        dataDirectorySizeLimit = sandbox.dataDirectorySizeLimit
    }

    /// The server's environment: the allowlist (``Sandbox/alwaysPassedEnvironment``, `LC_*`,
    /// ``Sandbox/passedEnvironment``) picked from `base`, a private `TMPDIR`, then
    /// ``Sandbox/environment``, which wins. (`HOME` is then replaced by a private one when the
    /// box does not let the server read the real one.)
    static func environment(sandbox: Sandbox, base: [String: String], dataDirectory: String) -> [String: String] {
        var result: [String: String] = [:]
        let names = Set(Sandbox.alwaysPassedEnvironment + sandbox.passedEnvironment)
        for (name, value) in base where names.contains(name) || name.hasPrefix("LC_") {
            result[name] = value
        }
        result["TMPDIR"] = dataDirectory + "/tmp"
        for (name, value) in sandbox.environment {
            result[name] = value
        }
        return result
    }

    /// The entries of `/etc` in ``systemConfigurationNames`` that exist here.
    static func systemConfigurationPaths(in root: String = "/etc") -> [String] {
        let entries = POSIX.directoryEntries(root) ?? []
        var paths: [String] = []
        for name in systemConfigurationNames {
            if name.hasSuffix("*") {
                let stem = name.dropLast()
                paths += entries.filter { $0.hasPrefix(stem) }.sorted().map { root + "/" + $0 }
            } else if POSIX.exists(root + "/" + name) {
                paths.append(root + "/" + name)
            }
        }
        return paths
    }

    /// The arguments that name existing regular files (a script and its like), symbolic links
    /// resolved: each is readable on its own, whatever directory it lies in.
    static func scriptFiles(in arguments: [String], relativeTo directory: String) -> [String] {
        var files: [String] = []
        for argument in arguments where !argument.isEmpty && !argument.hasPrefix("-") {
            let path = argument.hasPrefix("/") ? argument : (directory.hasSuffix("/") ? directory : directory + "/") + argument
            guard POSIX.isRegularFile(path) else { continue }
            files.append(POSIX.realPath(path) ?? path)
        }
        return files
    }

    /// The installation prefixes a program needs to run: for the program, and for the
    /// interpreter its `#!` line names, every step of its symbolic-link chain and its real
    /// path; each step's prefix (see ``prefixes(of:home:)``).
    ///
    /// A Python virtual environment's `bin/mcp-server-time` names `venv/bin/python`, a link
    /// to, say, `~/.pyenv/versions/3.11.7/bin/python3.11`: both the environment and that
    /// installation are readable.
    static func installationPrefixes(of path: String, searchPath: String?, home: String?) -> [String] {
        var prefixes: [String] = []
        func follow(_ start: String) {
            var current = start
            for _ in 0..<16 {
                prefixes += Self.prefixes(of: current, home: home)
                guard let target = POSIX.symbolicLinkTarget(current) else { break }
                current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
            }
            if let real = POSIX.realPath(start) { prefixes += Self.prefixes(of: real, home: home) }
        }
        follow(path)
        if let interpreter = interpreter(of: path, searchPath: searchPath) {
            follow(interpreter)
        }
        return unique(prefixes)
    }

    /// The interpreter a script's `#!` line names (through `env`, looked up in `searchPath`);
    /// `nil` for a binary.
    static func interpreter(of path: String, searchPath: String?) -> String? {
        guard let bytes = POSIX.readPrefix(of: path, count: 512), bytes.starts(with: Array("#!".utf8)) else { return nil }
        let line = bytes.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard let first = words.first, first.hasPrefix("/") else { return nil }
        guard first.hasSuffix("/env") else { return first }
        guard let name = words.dropFirst().first(where: { !$0.hasPrefix("-") && !$0.contains("=") }) else { return nil }
        if name.hasPrefix("/") { return name }
        for directory in (searchPath ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if POSIX.isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Where a program is installed, the part of the file system it may read whole: the
    /// parent of its `bin`, `sbin`, `libexec` or `shims` (pyenv's) directory when that parent
    /// looks like an installation (it has `lib`, `libexec` or a `pyvenv.cfg`), else the
    /// program's own directory; and when that is too broad (``isTooBroad(_:home:)``: `/`, a
    /// temporary directory, the home directory or one above it, `~/.local`, a repository), the
    /// program's file alone.
    ///
    /// An installation that is itself a repository (pyenv, rbenv and nvm are installed with
    /// `git clone`) is read entry by entry: everything in it but its hidden entries (`.git`).
    static func prefixes(of path: String, home: String?) -> [String] {
        let directory = directory(of: path)
        let name = directory.split(separator: "/").last.map(String.init) ?? ""
        if ["bin", "sbin", "libexec", "shims"].contains(name) {
            let parent = Self.directory(of: directory)
            let looksInstalled = ["/lib", "/libexec", "/pyvenv.cfg"].contains { POSIX.exists(parent + $0) }
            if looksInstalled, !isTooBroad(parent, home: home) {
                return [parent]
            }
            if looksInstalled, POSIX.exists(parent + "/.git"), !isTooBroad(parent, home: home, ignoringRepository: true) {
                return (POSIX.directoryEntries(parent) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { parent + "/" + $0 }
            }
        }
        return [isTooBroad(directory, home: home) ? path : directory]
    }

    /// Whether a directory must never be readable whole as a program's installation: one of
    /// ``tooBroadDirectories``, the home directory, a directory above it, `~/.local`, or a
    /// directory that holds a `.git` (a repository's root: its sources and history, and
    /// often secrets beside them).
    static func isTooBroad(_ directory: String, home: String?, ignoringRepository: Bool = false) -> Bool {
        let trimmed = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        if tooBroadDirectories.contains(trimmed) { return true }
        if let home, !home.isEmpty {
            let homeTrimmed = home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
            if isPath(homeTrimmed, within: trimmed) || trimmed == homeTrimmed + "/.local" { return true }
        }
        return !ignoringRepository && POSIX.exists(trimmed + "/.git")
    }

    /// Whether `path` is `directory` or beneath it.
    static func isPath(_ path: String, within directory: String) -> Bool {
        let trimmed = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return path == trimmed || path.hasPrefix(trimmed == "/" ? "/" : trimmed + "/")
    }

    /// `/a/b` for `/a/b/c`; `/` for `/c`.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    private static func unique(_ paths: [String]) -> [String] {
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }

    // MARK: What the kernel must offer

    /// Why this system cannot enforce the plan, in a sentence; `nil` when it can.
    ///
    /// Never a silent downgrade: no Landlock, or Landlock without TCP rules while the network
    /// is to be closed, are errors.
    func enforcementProblem() -> String? {
        #if os(Linux)
        switch Landlock.support() {
        case .unavailable(let reason):
            return reason
        case .available(let abi):
            if !allowsNetwork && abi < Landlock.networkABI {
                return
                    "this kernel's Landlock (ABI \(abi)) cannot restrict TCP (ABI 4, Linux 6.7, can); allow the network to run the server without that restriction"
            }
        }
        if Seccomp.filter(Seccomp.Policy(allowsNetwork: allowsNetwork, allowsUnixSockets: allowsUnixSockets, refusesMetadataChanges: true))
            == nil
        {
            return "the box's seccomp filter does not know this processor architecture (x86-64 and arm64 only)"
        }
        return nil
        #elseif os(macOS)
        guard POSIX.exists(SandboxProfile.sandboxExec) else {
            return
                "\(SandboxProfile.sandboxExec) is missing, so no sandbox profile can be applied; pass sandbox: nil to run the server unboxed"
        }
        return nil
        #else
        return "the process box exists on Linux (Landlock) and macOS (sandbox-exec) only; on this platform pass sandbox: nil"
        #endif
    }
}
