// Landlock, Linux's unprivileged file-system and network confinement: whether the kernel has
// it, and its rights (the child of the process box applies the rules, in CMCPPlatform).
//
// The C library has no wrappers for them, and `syscall(2)` is variadic, which Swift cannot
// call. So `syscall` is looked up once with `dlsym` and called through a fixed-arity
// `@convention(c)` signature (the number and four `long` arguments in, one `long` out; unused
// arguments are 0). On Linux's x86-64 and arm64 calling
// conventions integer arguments of a variadic call travel exactly as those of a fixed-arity
// call, and glibc's and musl's `syscall` only move registers. This is confined to this file.
//
// Facts (include/uapi/linux/landlock.h, Documentation/userspace-api/landlock.rst):
// - syscalls 444 `landlock_create_ruleset`, 445 `landlock_add_rule`, 446 `landlock_restrict_self`
//   (the same number on every architecture);
// - ABI 1 (Linux 5.13) file rights bits 0–12; ABI 2 (5.19) adds REFER (bit 13); ABI 3 (6.2)
//   TRUNCATE (bit 14); ABI 4 (6.7) TCP bind and connect rules; ABI 5 (6.10) IOCTL_DEV (bit 15);
//   ABI 6 (6.12) scopes: abstract Unix sockets and signals; ABI 7 (6.15) audit flags;
// - `struct landlock_path_beneath_attr` is packed: a u64 then an s32, 12 bytes.

#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Landlock: what the running kernel offers, and the rights the process box's rules use (the
/// child applies them, in CMCPPlatform, before it executes the server).
package enum Landlock {
    /// What the running kernel offers.
    package enum Support: Hashable, Sendable {
        /// Landlock works, at this ABI version.
        case available(abi: Int)
        /// Landlock cannot be used, and why (in words, ready for a message).
        case unavailable(String)
    }

    // MARK: Access rights

    /// `LANDLOCK_ACCESS_FS_EXECUTE`.
    package static let execute: UInt64 = 1 << 0
    /// `LANDLOCK_ACCESS_FS_WRITE_FILE`.
    package static let writeFile: UInt64 = 1 << 1
    /// `LANDLOCK_ACCESS_FS_READ_FILE`.
    package static let readFile: UInt64 = 1 << 2
    /// `LANDLOCK_ACCESS_FS_READ_DIR`.
    package static let readDirectory: UInt64 = 1 << 3
    /// `LANDLOCK_ACCESS_FS_TRUNCATE` (ABI 3).
    package static let truncate: UInt64 = 1 << 14
    /// `LANDLOCK_ACCESS_FS_IOCTL_DEV` (ABI 5).
    package static let ioctlDevice: UInt64 = 1 << 15
    /// `LANDLOCK_ACCESS_NET_BIND_TCP` (ABI 4).
    package static let bindTCP: UInt64 = 1 << 0
    /// `LANDLOCK_ACCESS_NET_CONNECT_TCP` (ABI 4).
    package static let connectTCP: UInt64 = 1 << 1
    /// `LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL` (ABI 6).
    package static let allScopes: UInt64 = (1 << 0) | (1 << 1)

    /// The rights that apply to a file (not a directory): a path-beneath rule on a file may
    /// hold only these.
    package static let fileRights: UInt64 = execute | writeFile | readFile | truncate | ioctlDevice

    /// Reading, listing and executing.
    package static let readRights: UInt64 = execute | readFile | readDirectory

    /// Every file-system right the kernel at `abi` knows: all of them are handled (denied
    /// unless a rule allows them).
    package static func fileSystemRights(abi: Int) -> UInt64 {
        switch abi {
        case ...1: (1 << 13) - 1
        case 2: (1 << 14) - 1
        case 3, 4: (1 << 15) - 1
        default: (1 << 16) - 1
        }
    }

    /// The first ABI with TCP rules.
    package static let networkABI = 4
    /// The first ABI with scopes (abstract Unix sockets, signals).
    package static let scopeABI = 6

    // MARK: System calls

    private typealias SyscallFunction = @convention(c) (Int, Int, Int, Int, Int) -> Int

    /// `syscall(2)`, looked up once (see the top of this file for why).
    private static let syscallFunction: SyscallFunction? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "syscall") else { return nil }
        return unsafeBitCast(symbol, to: SyscallFunction.self)
    }()

    private static let createRulesetNumber = 444
    private static let createRulesetVersion = 1 << 0

    private static func call(
        _ number: Int, _ first: Int, _ second: Int, _ third: Int, _ fourth: Int, _ operation: String
    ) throws(Errno) -> Int {
        guard let syscallFunction else { throw Errno(code: ENOSYS, operation: "dlsym(syscall)") }
        let result = syscallFunction(number, first, second, third, fourth)
        guard result >= 0 else { throw Errno.current(operation) }
        return result
    }

    /// Whether this kernel has Landlock, and at which ABI version
    /// (`landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)`).
    package static func support() -> Support {
        do throws(Errno) {
            let abi = try call(createRulesetNumber, 0, 0, createRulesetVersion, 0, "landlock_create_ruleset")
            return .available(abi: abi)
        } catch {
            switch error.code {
            case ENOSYS:
                return .unavailable(
                    "this kernel has no Landlock (landlock_create_ruleset: ENOSYS; Linux 5.13 or later built with CONFIG_SECURITY_LANDLOCK has it)"
                )
            case EOPNOTSUPP:
                return .unavailable(
                    "Landlock is turned off in this kernel (landlock_create_ruleset: EOPNOTSUPP; add 'landlock' to the lsm= boot parameter)"
                )
            default:
                return .unavailable("Landlock cannot be used: \(error)")
            }
        }
    }

}
#endif
