// Resource limits (`setrlimit`) and `PR_SET_NO_NEW_PRIVS`, for the process box's launcher.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The resource limits a process sets on itself before it `exec`s another program, which
/// keeps them (they are inherited across `execve` and `fork`).
package enum ResourceLimits {
    /// A limited resource.
    package enum Resource: Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// `RLIMIT_AS`: bytes of address space.
        case addressSpace
        /// `RLIMIT_CPU`: seconds of CPU time (`SIGXCPU` at the limit, `SIGKILL` a second later).
        case cpuTime
        /// `RLIMIT_FSIZE`: the largest file the process may write, in bytes (`SIGXFSZ`/`EFBIG`).
        case fileSize
        /// `RLIMIT_NOFILE`: one more than the highest descriptor number.
        case openFiles
        /// `RLIMIT_NPROC`: processes (and threads, on Linux) of the real user.
        case processes

        package var description: String {
            switch self {
            case .addressSpace: "RLIMIT_AS"
            case .cpuTime: "RLIMIT_CPU"
            case .fileSize: "RLIMIT_FSIZE"
            case .openFiles: "RLIMIT_NOFILE"
            case .processes: "RLIMIT_NPROC"
            }
        }

        var number: Int32 {
            #if os(Linux)
            // asm-generic/resource.h: the same on x86-64 and arm64.
            switch self {
            case .addressSpace: 9
            case .cpuTime: 0
            case .fileSize: 1
            case .openFiles: 7
            case .processes: 6
            }
            #else
            switch self {
            case .addressSpace: RLIMIT_AS
            case .cpuTime: RLIMIT_CPU
            case .fileSize: RLIMIT_FSIZE
            case .openFiles: RLIMIT_NOFILE
            case .processes: RLIMIT_NPROC
            }
            #endif
        }
    }

    /// Lowers `resource` to `value`, soft and hard limit alike, so the process cannot raise it
    /// again. For CPU time the hard limit is one second above the soft one: `SIGXCPU` first,
    /// then `SIGKILL` for a process that ignores it. A value above the current hard limit is
    /// lowered to it (only a privileged process could raise it).
    ///
    /// - Throws: ``Errno`` from `getrlimit` or `setrlimit`.
    package static func limit(_ resource: Resource, to value: UInt64) throws(Errno) {
        var current = rlimit()
        guard getrlimit(rawResource(resource), &current) == 0 else { throw Errno.current("getrlimit(\(resource))") }
        let hardCap = UInt64(current.rlim_max)
        var soft = min(value, hardCap)
        var hard = soft
        if resource == .cpuTime {
            soft = min(value, hardCap)
            hard = min(soft &+ 1, hardCap)
        }
        var wanted = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard))
        guard setrlimit(rawResource(resource), &wanted) == 0 else { throw Errno.current("setrlimit(\(resource), \(value))") }
    }

    #if os(Linux) && canImport(Glibc)
    private static func rawResource(_ resource: Resource) -> __rlimit_resource_t {
        __rlimit_resource_t(resource.number)
    }
    #else
    private static func rawResource(_ resource: Resource) -> Int32 {
        resource.number
    }
    #endif

    /// Whether this process runs as root, for which Linux does not apply `RLIMIT_NPROC`
    /// (nor to a process with `CAP_SYS_RESOURCE` or `CAP_SYS_ADMIN`).
    package static var processLimitIsIgnored: Bool {
        geteuid() == 0 || getuid() == 0
    }

    #if os(Linux)
    private typealias PrctlFunction = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    /// `prctl(2)`, which is variadic in the C library: looked up and called with its five
    /// `long`-sized arguments (see Landlock.swift for why that is sound on Linux).
    private static let prctlFunction: PrctlFunction? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "prctl") else { return nil }
        return unsafeBitCast(symbol, to: PrctlFunction.self)
    }()

    /// Resolves the C functions this type calls through `dlsym`, so that nothing is looked up
    /// (or allocated) after the limits are set.
    package static func prepare() {
        _ = prctlFunction
    }

    /// `prctl(PR_SET_NO_NEW_PRIVS, 1)`: from now on, `execve` never grants privileges
    /// (set-user-ID bits, file capabilities), for this process and its children. Landlock
    /// requires it of an unprivileged process.
    ///
    /// - Throws: ``Errno`` from `prctl`.
    package static func forbidNewPrivileges() throws(Errno) {
        guard let prctlFunction else { throw Errno(code: ENOSYS, operation: "dlsym(prctl)") }
        // PR_SET_NO_NEW_PRIVS = 38 (linux/prctl.h).
        guard prctlFunction(38, 1, 0, 0, 0) == 0 else { throw Errno.current("prctl(PR_SET_NO_NEW_PRIVS)") }
    }

    /// Empties the capability bounding set and the ambient set (`PR_CAPBSET_DROP` for every
    /// capability, `PR_CAP_AMBIENT_CLEAR_ALL`), so that the program executed next has no
    /// capabilities even when it runs as root (whose `execve` otherwise grants it the whole
    /// bounding set again).
    ///
    /// Without `CAP_SETPCAP` (an ordinary user, who has no capabilities to lose) the bounding
    /// set cannot be changed, and that is not an error.
    ///
    /// - Throws: ``Errno`` when a capability the process could drop stays.
    package static func dropCapabilities() throws(Errno) {
        guard let prctlFunction else { throw Errno(code: ENOSYS, operation: "dlsym(prctl)") }
        // PR_CAP_AMBIENT = 47, PR_CAP_AMBIENT_CLEAR_ALL = 4 (Linux 4.3); EINVAL before it.
        if prctlFunction(47, 4, 0, 0, 0) != 0 && errno != EINVAL { throw Errno.current("prctl(PR_CAP_AMBIENT_CLEAR_ALL)") }
        // PR_CAPBSET_DROP = 24; EINVAL past the last capability this kernel knows.
        for capability in UInt(0)..<64 {
            if prctlFunction(24, capability, 0, 0, 0) == 0 { continue }
            if errno == EINVAL { break }
            if errno == EPERM { return }  // no CAP_SETPCAP: nothing to drop
            throw Errno.current("prctl(PR_CAPBSET_DROP, \(capability))")
        }
    }
    #endif
}
