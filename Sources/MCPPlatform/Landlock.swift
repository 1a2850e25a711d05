// Landlock, Linux's unprivileged file-system and network confinement, through its three
// system calls.
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

/// Landlock: confines this process (and what it executes) to the file-system paths and TCP
/// ports it is given, for good.
///
/// Use: check ``support()``, make a ``Landlock/Ruleset``, add paths, then
/// ``Landlock/Ruleset/restrictSelf()`` (after `PR_SET_NO_NEW_PRIVS`, see
/// ``ResourceLimits/forbidNewPrivileges()``).
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
    private static let addRuleNumber = 445
    private static let restrictSelfNumber = 446
    private static let createRulesetVersion = 1 << 0
    private static let rulePathBeneath = 1
    private static let ruleNetPort = 2

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
                return .unavailable("this kernel has no Landlock (landlock_create_ruleset: ENOSYS; Linux 5.13 or later built with CONFIG_SECURITY_LANDLOCK has it)")
            case EOPNOTSUPP:
                return .unavailable("Landlock is turned off in this kernel (landlock_create_ruleset: EOPNOTSUPP; add 'landlock' to the lsm= boot parameter)")
            default:
                return .unavailable("Landlock cannot be used: \(error)")
            }
        }
    }

    /// A Landlock ruleset being built: its descriptor, and the rights it handles.
    package struct Ruleset: ~Copyable {
        private let descriptor: Int32
        /// The file-system rights this ruleset handles (denies unless a rule allows).
        package let handledFileSystem: UInt64

        /// Creates a ruleset that handles every file-system right of `abi`, TCP bind and
        /// connect when `restrictsNetwork` (ABI 4 and later), and the scopes (abstract Unix
        /// sockets, signals) when `abi` has them.
        ///
        /// - Throws: ``Errno`` from `landlock_create_ruleset`.
        package init(abi: Int, restrictsNetwork: Bool) throws(Errno) {
            // struct landlock_ruleset_attr { u64 handled_access_fs; u64 handled_access_net; u64 scoped; }
            var attributes: (UInt64, UInt64, UInt64) = (Landlock.fileSystemRights(abi: abi), 0, 0)
            var size = 8
            if abi >= Landlock.networkABI {
                size = 16
                if restrictsNetwork { attributes.1 = Landlock.bindTCP | Landlock.connectTCP }
            }
            if abi >= Landlock.scopeABI {
                size = 24
                attributes.2 = Landlock.allScopes
            }
            handledFileSystem = attributes.0
            let created = try withUnsafePointer(to: &attributes) { (pointer) throws(Errno) -> Int in
                try Landlock.call(Landlock.createRulesetNumber, Int(bitPattern: pointer), size, 0, 0, "landlock_create_ruleset")
            }
            descriptor = Int32(truncatingIfNeeded: created)
        }

        deinit {
            POSIX.close(descriptor)
        }

        /// Allows `rights` beneath `path` (a directory: everything under it; a file: that file,
        /// with only its file rights). Rights this ruleset does not handle are dropped.
        ///
        /// - Throws: ``Errno`` from `open` (the path does not exist, say) or `landlock_add_rule`.
        package func allow(_ rights: UInt64, beneath path: String) throws(Errno) {
            let opened = open(path, Landlock.pathOnly | O_CLOEXEC)
            guard opened >= 0 else { throw Errno.current("open(\(path))") }
            defer { POSIX.close(opened) }
            var info = stat()
            guard fstat(opened, &info) == 0 else { throw Errno.current("fstat(\(path))") }
            var allowed = rights & handledFileSystem
            if (info.st_mode & S_IFMT) != S_IFDIR { allowed &= Landlock.fileRights }
            guard allowed != 0 else { return }
            // struct landlock_path_beneath_attr { u64 allowed_access; s32 parent_fd; } __attribute__((packed))
            var attribute = [UInt8](repeating: 0, count: 12)
            withUnsafeBytes(of: allowed.littleEndian) { attribute.replaceSubrange(0..<8, with: $0) }
            withUnsafeBytes(of: opened.littleEndian) { attribute.replaceSubrange(8..<12, with: $0) }
            let result: Result<Int, Errno> = attribute.withUnsafeBytes { raw in
                do throws(Errno) {
                    return .success(
                        try Landlock.call(
                            Landlock.addRuleNumber, Int(descriptor), Landlock.rulePathBeneath,
                            Int(bitPattern: raw.baseAddress), 0, "landlock_add_rule(\(path))"))
                } catch {
                    return .failure(error)
                }
            }
            _ = try result.get()
        }

        /// Confines this thread (so call it while the process has one thread, or before
        /// `execve`) to the ruleset, for good; needs `PR_SET_NO_NEW_PRIVS` first.
        ///
        /// - Throws: ``Errno`` from `landlock_restrict_self`.
        package func restrictSelf() throws(Errno) {
            _ = try Landlock.call(Landlock.restrictSelfNumber, Int(descriptor), 0, 0, 0, "landlock_restrict_self")
        }
    }

    /// `O_PATH`: the same value on x86-64 and arm64 (Glibc's module hides it: it is a GNU extension).
    static let pathOnly: Int32 = 0o10000000
}
#endif
