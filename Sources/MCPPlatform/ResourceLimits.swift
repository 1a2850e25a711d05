// Resource limits, for the process box (which the child sets before `execve`, CMCPPlatform).

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

        /// The resource's number for `setrlimit`/`prlimit64`.
        package var number: Int32 {
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

    /// This process's hard limit of `resource` (children can only lower it); `UInt64.max` for
    /// none.
    package static func hardLimit(_ resource: Resource) -> UInt64 {
        var current = rlimit()
        guard getrlimit(rawResource(resource), &current) == 0 else { return .max }
        return UInt64(current.rlim_max)
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
}
