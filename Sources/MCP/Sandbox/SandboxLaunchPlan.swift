import MCPCore
internal import MCPPlatform

/// Everything the launcher needs to box one server, worked out by the library from a
/// ``Sandbox``: the program, its whole environment, the paths it may read and write, and
/// its limits.
///
/// The library builds it (where it can still report problems as ``TransportError``s) and
/// hands it to the launcher as one JSON argument; the launcher only applies it. Paths are
/// absolute and exist.
struct SandboxLaunchPlan: Hashable, Sendable {
    /// The server's program, an absolute path.
    var executable: String
    /// The server's `argv[0]`: the command as the app gave it.
    var programName: String
    /// The server's arguments, after the program name.
    var arguments: [String]
    /// The server's whole environment.
    var environment: [String: String]
    /// Paths the server may read and execute (directories: everything beneath them).
    var readablePaths: [String]
    /// Paths the server may read, write, create and remove beneath.
    var writablePaths: [String]
    /// Whether TCP connect and bind are left alone.
    var allowsNetwork: Bool
    /// `RLIMIT_AS`, in bytes.
    var memoryLimit: Int?
    /// `RLIMIT_CPU`, in seconds.
    var cpuTimeLimit: Int?
    /// `RLIMIT_FSIZE`, in bytes.
    var fileSizeLimit: Int?
    /// `RLIMIT_NOFILE`.
    var openFileLimit: Int?
    /// `RLIMIT_NPROC`.
    var processLimit: Int?

    /// The system paths every boxed server may read: libraries, configuration, the
    /// toolchain's runtime, a few devices, and `/proc` (those that exist).
    ///
    /// `/proc` as a whole, because a process reads its threads' entries by thread id
    /// (`/proc/<tid>/stat`: libdispatch does, and traps when it cannot), and those cannot be
    /// named before the threads exist. What another process keeps there behind a ptrace
    /// check (`environ`, `mem`, `maps`, `fd`) stays closed: Landlock refuses a boxed process
    /// ptrace access to any process outside its box. World-readable entries (`cmdline`,
    /// `stat`, `status`) of other processes can be read, as any local user can.
    static let systemReadablePaths = [
        "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt/swift",
        "/dev/urandom", "/dev/random", "/dev/zero", "/proc", "/sys/devices/system/cpu",
    ]

    /// The devices every boxed server may write.
    static let systemWritablePaths = ["/dev/null"]

    /// Works out the plan for running `executable` (already resolved to `path`) in `sandbox`.
    ///
    /// - Parameters:
    ///   - baseEnvironment: The environment the allowlist picks from (this process's, or the
    ///     one the app gave).
    ///   - dataDirectory: The server's private data directory (it exists); its `tmp`
    ///     subdirectory becomes `TMPDIR`.
    ///   - currentDirectory: The server's working directory, when the app named one: it
    ///     becomes readable.
    /// - Throws: ``TransportError/launchFailure(_:)`` when a path the app allowed does not exist.
    init(
        sandbox: Sandbox, executable: String, path: String, arguments: [String], baseEnvironment: [String: String],
        dataDirectory: String, currentDirectory: String?
    ) throws {
        self.executable = path
        programName = executable
        self.arguments = arguments
        environment = Self.environment(sandbox: sandbox, base: baseEnvironment, dataDirectory: dataDirectory)
        let workingDirectory = POSIX.currentDirectory() ?? "/"
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : (workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/") + path
        }
        var readable = Self.systemReadablePaths.filter(POSIX.exists)
        readable += Self.installationPrefixes(of: path, searchPath: environment["PATH"], home: baseEnvironment["HOME"])
        if let currentDirectory { readable.append(absolute(currentDirectory)) }
        var writable = Self.systemWritablePaths.filter(POSIX.exists) + [dataDirectory]
        for (paths, kind) in [(sandbox.readablePaths, "readable"), (sandbox.writablePaths, "writable")] {
            for given in paths {
                let full = absolute(given)
                guard POSIX.exists(full) else {
                    throw TransportError.launchFailure(
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
        memoryLimit = sandbox.memoryLimit
        cpuTimeLimit = sandbox.cpuTimeLimit
        fileSizeLimit = sandbox.fileSizeLimit
        openFileLimit = sandbox.openFileLimit
        processLimit = sandbox.processLimit
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

    /// The installation prefixes a program needs to run: for the program, and for the
    /// interpreter its `#!` line names, every step of its symbolic-link chain and its real
    /// path; each step's prefix (see ``prefix(of:home:)``).
    ///
    /// A Python virtual environment's `bin/mcp-server-time` names `venv/bin/python`, a link
    /// to, say, `~/.pyenv/versions/3.11.7/bin/python3.11`: both the environment and that
    /// installation are readable.
    static func installationPrefixes(of path: String, searchPath: String?, home: String?) -> [String] {
        var prefixes: [String] = []
        func follow(_ start: String) {
            var current = start
            for _ in 0..<16 {
                prefixes.append(prefix(of: current, home: home))
                guard let target = POSIX.symbolicLinkTarget(current) else { break }
                current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
            }
            if let real = POSIX.realPath(start) { prefixes.append(prefix(of: real, home: home)) }
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

    /// Where a program is installed: the parent of its `bin`, `sbin` or `libexec` directory
    /// when that parent looks like an installation (it has `lib` or a `pyvenv.cfg`) and is
    /// neither `/`, the home directory nor `~/.local`; else the program's own directory.
    static func prefix(of path: String, home: String?) -> String {
        let directory = directory(of: path)
        let name = directory.split(separator: "/").last.map(String.init) ?? ""
        guard ["bin", "sbin", "libexec"].contains(name) else { return directory }
        let parent = Self.directory(of: directory)
        var tooBroad = ["/"]
        if let home, !home.isEmpty {
            let trimmed = home.hasSuffix("/") && home.count > 1 ? String(home.dropLast()) : home
            tooBroad += [trimmed, trimmed + "/.local"]
        }
        guard !tooBroad.contains(parent),
            POSIX.isDirectory(parent + "/lib") || POSIX.exists(parent + "/pyvenv.cfg")
        else { return directory }
        return parent
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
    /// Never a silent downgrade: no Landlock, Landlock without TCP rules while the network
    /// is to be closed, or a process limit for root (which Linux does not apply) are errors.
    func enforcementProblem() -> String? {
        #if os(Linux)
        switch Landlock.support() {
        case .unavailable(let reason):
            return reason
        case .available(let abi):
            if !allowsNetwork && abi < Landlock.networkABI {
                return "this kernel's Landlock (ABI \(abi)) cannot restrict TCP (ABI 4, Linux 6.7, can); allow the network to run the server without that restriction"
            }
        }
        if processLimit != nil && ResourceLimits.processLimitIsIgnored {
            return "a process limit cannot be enforced for root (Linux ignores RLIMIT_NPROC for it); leave processLimit nil or run as another user"
        }
        return nil
        #elseif os(macOS)
        guard POSIX.exists(SandboxProfile.sandboxExec) else {
            return "\(SandboxProfile.sandboxExec) is missing, so no sandbox profile can be applied; pass sandbox: nil to run the server unboxed"
        }
        return nil
        #else
        return "the process box exists on Linux (Landlock) and macOS (sandbox-exec) only; on this platform pass sandbox: nil"
        #endif
    }

    // MARK: JSON

    /// The plan as one line of JSON, for the launcher's argument.
    var json: String {
        func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
        func number(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }
        var environmentObject = JSONObject()
        for name in environment.keys.sorted() {
            environmentObject[name] = environment[name].map { .string($0) }
        }
        let value: JSONValue = [
            "executable": .string(executable), "programName": .string(programName), "arguments": strings(arguments),
            "environment": .object(environmentObject), "readablePaths": strings(readablePaths),
            "writablePaths": strings(writablePaths), "allowsNetwork": .bool(allowsNetwork),
            "memoryLimit": number(memoryLimit), "cpuTimeLimit": number(cpuTimeLimit), "fileSizeLimit": number(fileSizeLimit),
            "openFileLimit": number(openFileLimit), "processLimit": number(processLimit),
        ]
        // Strings and integers only: writing cannot fail.
        return (try? JSONWriter().string(from: value)) ?? "{}"
    }

    /// A malformed plan argument.
    struct DecodingError: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads a plan written by ``json``.
    init(json text: String) throws(DecodingError) {
        let value: JSONValue
        do {
            value = try JSONReader().read(text)
        } catch {
            throw DecodingError(description: "the box description is not JSON: \(error)")
        }
        func string(_ key: String) throws(DecodingError) -> String {
            guard let string = value[key]?.stringValue else { throw DecodingError(description: "the box description has no string '\(key)'") }
            return string
        }
        func strings(_ key: String) throws(DecodingError) -> [String] {
            guard let array = value[key]?.arrayValue else { throw DecodingError(description: "the box description has no array '\(key)'") }
            var result: [String] = []
            for element in array {
                guard let string = element.stringValue else { throw DecodingError(description: "'\(key)' holds a non-string") }
                result.append(string)
            }
            return result
        }
        func number(_ key: String) throws(DecodingError) -> Int? {
            guard let element = value[key] else { throw DecodingError(description: "the box description has no '\(key)'") }
            if element.isNull { return nil }
            guard let number = element.intValue, number >= 0 else { throw DecodingError(description: "'\(key)' is not a count") }
            return number
        }
        executable = try string("executable")
        programName = try string("programName")
        arguments = try strings("arguments")
        guard let environmentObject = value["environment"]?.objectValue else {
            throw DecodingError(description: "the box description has no object 'environment'")
        }
        var environment: [String: String] = [:]
        for (name, element) in environmentObject {
            guard let string = element.stringValue else { throw DecodingError(description: "environment variable \(name) is not a string") }
            environment[name] = string
        }
        self.environment = environment
        readablePaths = try strings("readablePaths")
        writablePaths = try strings("writablePaths")
        guard let allowsNetwork = value["allowsNetwork"]?.boolValue else {
            throw DecodingError(description: "the box description has no boolean 'allowsNetwork'")
        }
        self.allowsNetwork = allowsNetwork
        memoryLimit = try number("memoryLimit")
        cpuTimeLimit = try number("cpuTimeLimit")
        fileSizeLimit = try number("fileSizeLimit")
        openFileLimit = try number("openFileLimit")
        processLimit = try number("processLimit")
    }
}
