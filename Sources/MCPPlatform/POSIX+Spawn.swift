// Starting a child process with `posix_spawn`, and waiting for, reaping and signalling it.

internal import CMCPPlatform

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension POSIX {
    // Processes can be started on macOS, Mac Catalyst and Linux only (MCP_CAN_SPAWN,
    // Package.swift): posix_spawn and the wait family are unavailable on watchOS and tvOS, and
    // iOS and visionOS apps may not start processes. ProcessTransport is compiled out there too.
    #if MCP_CAN_SPAWN

    /// What a child's standard error is connected to.
    package enum ChildStandardError: Sendable {
        case inherit
        case null
        case descriptor(Int32)
    }

    /// `posix_spawn_file_actions_addchdir` (POSIX 2024: Darwin 26) or its `_np` forerunner
    /// (glibc 2.29, musl 1.1.24, macOS 10.15), looked up at run time: Glibc's Swift module
    /// hides the `_np` name, and the macOS 26 SDK deprecates it.
    private typealias AddChdirFunction = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32
    private static let addChdirFunction: AddChdirFunction? = {
        guard
            let symbol = lookUpSymbol("posix_spawn_file_actions_addchdir")
                ?? lookUpSymbol("posix_spawn_file_actions_addchdir_np")
        else { return nil }
        return unsafeBitCast(symbol, to: AddChdirFunction.self)
    }()

    #if canImport(Darwin)
    private typealias FileActions = posix_spawn_file_actions_t?
    private typealias SpawnAttributes = posix_spawnattr_t?
    private static func makeFileActions() -> FileActions { nil }
    private static func makeSpawnAttributes() -> SpawnAttributes { nil }
    #else
    private typealias FileActions = posix_spawn_file_actions_t
    private typealias SpawnAttributes = posix_spawnattr_t
    private static func makeFileActions() -> FileActions { posix_spawn_file_actions_t() }
    private static func makeSpawnAttributes() -> SpawnAttributes { posix_spawnattr_t() }
    #endif

    /// Starts `path` (an absolute or relative path, not looked up in `PATH`) with
    /// `posix_spawn`, its standard input and output on the given descriptors.
    ///
    /// The child gets the default disposition of `SIGPIPE` (which this process ignores) and
    /// an empty signal mask. Every other descriptor of ours is close-on-exec.
    ///
    /// - Returns: The child's process id.
    package static func spawn(
        path: String,
        arguments: [String],
        environment: [String: String],
        currentDirectory: String?,
        standardInput childInput: Int32,
        standardOutput childOutput: Int32,
        standardError childError: ChildStandardError
    ) throws(SpawnError) -> Int32 {
        var actions = makeFileActions()
        guard posix_spawn_file_actions_init(&actions) == 0 else {
            throw SpawnError(description: "posix_spawn_file_actions_init failed")
        }
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = makeSpawnAttributes()
        guard posix_spawnattr_init(&attributes) == 0 else {
            throw SpawnError(description: "posix_spawnattr_init failed")
        }
        defer { posix_spawnattr_destroy(&attributes) }

        var status = posix_spawn_file_actions_adddup2(&actions, childInput, standardInput)
        if status == 0 { status = posix_spawn_file_actions_adddup2(&actions, childOutput, standardOutput) }
        switch childError {
        case .inherit:
            break
        case .null:
            if status == 0 {
                status = posix_spawn_file_actions_addopen(&actions, standardError, "/dev/null", O_WRONLY, 0)
            }
        case .descriptor(let descriptor):
            if status == 0 { status = posix_spawn_file_actions_adddup2(&actions, descriptor, standardError) }
        }
        if status == 0, let currentDirectory {
            guard let addChdirFunction else {
                throw SpawnError(
                    description: "this C library cannot set a child's working directory "
                        + "(posix_spawn_file_actions_addchdir_np is missing; glibc 2.29 or later has it)")
            }
            status = withUnsafeMutablePointer(to: &actions) { pointer in
                addChdirFunction(UnsafeMutableRawPointer(pointer), currentDirectory)
            }
        }
        guard status == 0 else {
            throw SpawnError(description: Errno(code: status, operation: "posix_spawn_file_actions").description)
        }

        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        status = posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        if status == 0 { status = posix_spawnattr_setsigmask(&attributes, &emptyMask) }
        if status == 0 {
            status = posix_spawnattr_setflags(
                &attributes, Int16(truncatingIfNeeded: POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        }
        guard status == 0 else {
            throw SpawnError(description: Errno(code: status, operation: "posix_spawnattr").description)
        }

        let argv = CStringArray([path] + arguments)
        let envp = CStringArray(environment.map { "\($0.key)=\($0.value)" })
        defer {
            argv.deallocate()
            envp.deallocate()
        }
        var pid: pid_t = 0
        status = spawnLock.withLock {
            posix_spawn(&pid, path, &actions, &attributes, argv.pointers, envp.pointers)
        }
        guard status == 0 else {
            throw SpawnError(description: Errno(code: status, operation: "posix_spawn").message)
        }
        return pid
    }

    /// A NULL-terminated array of C strings, as `posix_spawn` takes them.
    private struct CStringArray {
        var pointers: [UnsafeMutablePointer<CChar>?]

        init(_ strings: [String]) {
            pointers = strings.map { strdup($0) }
            pointers.append(nil)
        }

        func deallocate() {
            for pointer in pointers { free(pointer) }
        }
    }

    // MARK: Child processes

    /// How a reaped child ended, decoded from a `wait` status.
    package enum ChildExit: Hashable, Sendable {
        case exited(Int32)
        case signaled(Int32)
        /// Someone else reaped the child (for example a `SIGCHLD` handler reaping all children).
        case unavailable
    }

    /// Blocks until `pid` has ended, without reaping it (`waitid` with `WNOWAIT`), so that
    /// signals can still be sent to it safely until ``reap(_:)``.
    ///
    /// - Returns: `false` when the child cannot be waited for (already reaped elsewhere).
    package static func waitUntilEnded(_ pid: Int32) -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            if errno == EINTR { continue }
            return false
        }
        return true
    }

    /// Collects an ended child's status, freeing its process table entry.
    package static func reap(_ pid: Int32) -> ChildExit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno == EINTR { continue }
            return .unavailable
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros, so decode by hand (same layout on
        // Linux and Darwin): the low 7 bits are the signal, 0 when the child exited.
        let signal = status & 0x7F
        if signal == 0 { return .exited((status >> 8) & 0xFF) }
        return .signaled(signal)
    }

    /// Sends `signal` to `pid`; errors (the child is gone) are ignored.
    package static func send(signal: Int32, to pid: Int32) {
        _ = kill(pid, signal)
    }

    #endif  // MCP_CAN_SPAWN
}

extension POSIX {
    /// A descriptor that becomes readable when process `pid` ends (`pidfd_open`, Linux 5.3 and
    /// later; close-on-exec), or `nil` where there is none.
    package static func openProcessDescriptor(_ pid: Int32) -> Int32? {
        let descriptor = mcp_pidfd_open(pid)
        return descriptor >= 0 ? descriptor : nil
    }
}
