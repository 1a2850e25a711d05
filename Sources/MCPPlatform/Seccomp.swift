// The process box's seccomp filter: the system calls a boxed server is refused, as a classic
// BPF program the child installs just before `execve` (CMCPPlatform).
//
// Why each is refused (x86-64 and arm64 numbers; a call of any other ABI, x32 or 32-bit
// compatibility, is refused with ENOSYS, since the filter could not tell what it is):
//
// | calls | errno | why |
// |---|---|---|
// | `io_uring_setup`, `_enter`, `_register` | EPERM | io_uring runs socket, connect and listen operations that no seccomp rule sees |
// | `keyctl`, `add_key`, `request_key` | EPERM | the caller's session and user keyrings |
// | `inotify_init`, `inotify_init1`, `fanotify_init` | EPERM | watching a directory tells names the box may not list |
// | `bpf`, `perf_event_open`, `userfaultfd` | EPERM | kernel attack surface no server needs |
// | `unshare`, `setns`, `clone` with a `CLONE_NEW*` flag, `mount` and the new mount API, `pivot_root`, `umount2` | EPERM | a new namespace gives back capabilities inside it |
// | `clone3` | ENOSYS | its flags are behind a pointer; the C library falls back to `clone` |
// | kernel modules, `kexec_*`, `name_to_handle_at`, `open_by_handle_at` | EPERM | never a server's business |
// | `socket` (network closed) | EACCES | every family: TCP Fast Open, UDP, raw, netlink, vsock, Unix-domain; `socketpair` stays (Unix-domain only) |
// | `socket` (network open) | EACCES | families other than IPv4, IPv6, netlink route and (when allowed) Unix-domain: vsock, packet, Bluetooth… |
// | `listen` (network closed) | EACCES | a socket that was never bound (one inherited) |
// | `chmod`/`chown`/`utime`/`*setxattr`/`*removexattr` families (no read-only mounts) | EPERM | where the box could not make the file system read-only, metadata changes outside the box's paths cannot be told apart from those inside |

#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The seccomp filter of the process box.
package enum Seccomp {
    /// What the filter lets through.
    package struct Policy: Hashable, Sendable {
        /// TCP and UDP over IPv4 and IPv6, and netlink route sockets.
        package var allowsNetwork: Bool
        /// Unix-domain sockets made with `socket` (pathname and abstract); `socketpair` is always allowed.
        package var allowsUnixSockets: Bool
        /// Refuses every call that changes a file's mode, owner, times or extended attributes
        /// (for a box whose file system could not be made read-only outside its writable paths).
        package var refusesMetadataChanges: Bool

        package init(allowsNetwork: Bool, allowsUnixSockets: Bool, refusesMetadataChanges: Bool) {
            self.allowsNetwork = allowsNetwork
            self.allowsUnixSockets = allowsUnixSockets
            self.refusesMetadataChanges = refusesMetadataChanges
        }
    }

    #if arch(x86_64)
    static let nativeArchitecture: UInt32 = 0xC000_003E  // AUDIT_ARCH_X86_64
    static let numbers = Numbers(
        socket: 41, socketpair: 53, listen: 50, clone: 56, clone3: 435,
        refused: [
            425, 426, 427,  // io_uring_setup, io_uring_enter, io_uring_register
            250, 248, 249,  // keyctl, add_key, request_key
            253, 294, 300,  // inotify_init, inotify_init1, fanotify_init
            321, 298, 323,  // bpf, perf_event_open, userfaultfd
            272, 308, 165, 166, 155,  // unshare, setns, mount, umount2, pivot_root
            // open_tree, move_mount, fsopen, fsconfig, fsmount, fspick, mount_setattr, open_tree_attr
            428, 429, 430, 431, 432, 433, 442, 467,
            246, 320, 175, 313, 176,  // kexec_load, kexec_file_load, init_module, finit_module, delete_module
            303, 304,  // name_to_handle_at, open_by_handle_at
        ],
        metadata: [
            90, 91, 268, 452,  // chmod, fchmod, fchmodat, fchmodat2
            92, 93, 94, 260,  // chown, fchown, lchown, fchownat
            132, 235, 261, 280,  // utime, utimes, futimesat, utimensat
            188, 189, 190, 463,  // setxattr, lsetxattr, fsetxattr, setxattrat
            197, 198, 199, 466,  // removexattr, lremovexattr, fremovexattr, removexattrat
        ])
    #elseif arch(arm64)
    static let nativeArchitecture: UInt32 = 0xC000_00B7  // AUDIT_ARCH_AARCH64
    static let numbers = Numbers(
        socket: 198, socketpair: 199, listen: 201, clone: 220, clone3: 435,
        refused: [
            425, 426, 427,  // io_uring_setup, io_uring_enter, io_uring_register
            219, 217, 218,  // keyctl, add_key, request_key
            26, 262,  // inotify_init1, fanotify_init
            280, 241, 282,  // bpf, perf_event_open, userfaultfd
            97, 268, 40, 39, 41,  // unshare, setns, mount, umount2, pivot_root
            428, 429, 430, 431, 432, 433, 442, 467,  // open_tree … mount_setattr, open_tree_attr
            104, 294, 105, 273, 106,  // kexec_load, kexec_file_load, init_module, finit_module, delete_module
            264, 265,  // name_to_handle_at, open_by_handle_at
        ],
        metadata: [
            52, 53, 452,  // fchmod, fchmodat, fchmodat2
            55, 54,  // fchown, fchownat
            88,  // utimensat
            5, 6, 7, 463,  // setxattr, lsetxattr, fsetxattr, setxattrat
            14, 15, 16, 466,  // removexattr, lremovexattr, fremovexattr, removexattrat
        ])
    #endif

    /// The system-call numbers the filter names, for one architecture.
    struct Numbers {
        let socket: UInt32
        let socketpair: UInt32
        let listen: UInt32
        let clone: UInt32
        let clone3: UInt32
        let refused: [UInt32]
        let metadata: [UInt32]
    }

    /// Every `CLONE_NEW*` flag: `NEWNS`, `NEWCGROUP`, `NEWUTS`, `NEWIPC`, `NEWUSER`, `NEWPID`, `NEWNET`, `NEWTIME`.
    static let newNamespaceFlags: UInt32 =
        0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000 | 0x1000_0000 | 0x2000_0000
        | 0x4000_0000 | 0x80

    /// `AF_UNIX`, `AF_INET`, `AF_INET6`, `AF_NETLINK`; `NETLINK_ROUTE`.
    static let unixFamily: UInt32 = 1
    static let inetFamily: UInt32 = 2
    static let inet6Family: UInt32 = 10
    static let netlinkFamily: UInt32 = 16
    static let netlinkRoute: UInt32 = 0

    /// The filter for `policy`, as `struct sock_filter`s (8 bytes each, as the kernel reads
    /// them); `nil` on an architecture it does not know.
    package static func filter(_ policy: Policy) -> [UInt64]? {
        #if arch(x86_64) || arch(arm64)
        var program = Program()
        let numbers = Self.numbers
        program.load(.architecture)
        program.jumpUnless(equal: nativeArchitecture, to: .refuse(ENOSYS))
        program.load(.number)
        program.jump(ifAtLeast: 0x4000_0000, to: .refuse(ENOSYS))  // x32
        for number in numbers.refused {
            program.jump(ifEqual: number, to: .refuse(EPERM))
        }
        program.jump(ifEqual: numbers.clone3, to: .refuse(ENOSYS))
        program.jump(ifEqual: numbers.clone, to: .label("clone"))
        program.jump(ifEqual: numbers.socket, to: .label("socket"))
        program.jump(ifEqual: numbers.socketpair, to: .label("socketpair"))
        if !policy.allowsNetwork {
            program.jump(ifEqual: numbers.listen, to: .refuse(EACCES))
        }
        if policy.refusesMetadataChanges {
            for number in numbers.metadata {
                program.jump(ifEqual: number, to: .refuse(EPERM))
            }
        }
        program.give(.allow)

        program.mark("clone")
        program.load(.argument(0))
        program.jump(ifAnyBit: newNamespaceFlags, to: .refuse(EPERM))
        program.give(.allow)

        program.mark("socket")
        program.load(.argument(0))
        if policy.allowsUnixSockets {
            program.jump(ifEqual: unixFamily, to: .allow)
        }
        if policy.allowsNetwork {
            program.jump(ifEqual: inetFamily, to: .allow)
            program.jump(ifEqual: inet6Family, to: .allow)
            program.jumpUnless(equal: netlinkFamily, to: .refuse(EACCES))
            program.load(.argument(2))
            program.jump(ifEqual: netlinkRoute, to: .allow)
        }
        program.give(.refuse(EACCES))

        program.mark("socketpair")
        program.load(.argument(0))
        program.jump(ifEqual: unixFamily, to: .allow)
        program.give(.refuse(EACCES))
        return program.assembled()
        #else
        return nil
        #endif
    }

    /// A small assembler for classic BPF: straight-line code with forward jumps to labels
    /// and to shared return instructions, resolved into 8-bit offsets at the end.
    struct Program {
        enum Field {
            case number
            case architecture
            /// The low 32 bits of argument `n` (little-endian `u64 args[6]` at offset 16).
            case argument(Int)

            var offset: UInt32 {
                switch self {
                case .number: 0
                case .architecture: 4
                case .argument(let index): 16 + 8 * UInt32(index)
                }
            }
        }

        enum Target: Hashable {
            case allow
            case refuse(Int32)
            case label(String)
        }

        private enum Instruction {
            case load(UInt32)
            case jump(code: UInt16, value: UInt32, ifTrue: Target?, ifFalse: Target?)
            case give(Target)
        }

        private var instructions: [Instruction] = []
        private var labels: [String: Int] = [:]

        mutating func load(_ field: Field) { instructions.append(.load(field.offset)) }
        mutating func jump(ifEqual value: UInt32, to target: Target) {
            instructions.append(.jump(code: 0x15, value: value, ifTrue: target, ifFalse: nil))
        }
        mutating func jumpUnless(equal value: UInt32, to target: Target) {
            instructions.append(.jump(code: 0x15, value: value, ifTrue: nil, ifFalse: target))
        }
        mutating func jump(ifAtLeast value: UInt32, to target: Target) {
            instructions.append(.jump(code: 0x35, value: value, ifTrue: target, ifFalse: nil))
        }
        mutating func jump(ifAnyBit mask: UInt32, to target: Target) {
            instructions.append(.jump(code: 0x45, value: mask, ifTrue: target, ifFalse: nil))
        }
        mutating func give(_ target: Target) { instructions.append(.give(target)) }
        mutating func mark(_ label: String) { labels[label] = instructions.count }

        /// The program, with one return instruction per outcome after the code.
        func assembled() -> [UInt64] {
            var outcomes: [Target] = []
            for case .jump(_, _, let ifTrue, let ifFalse) in instructions {
                for case let target? in [ifTrue, ifFalse] where !Self.isLabel(target) && !outcomes.contains(target) {
                    outcomes.append(target)
                }
            }
            func position(of target: Target) -> Int {
                if case .label(let name) = target { return labels[name] ?? 0 }
                return instructions.count + (outcomes.firstIndex(of: target) ?? 0)
            }
            func returnValue(_ target: Target) -> UInt32 {
                switch target {
                case .allow, .label: 0x7FFF_0000  // SECCOMP_RET_ALLOW
                case .refuse(let code): 0x0005_0000 | UInt32(code)  // SECCOMP_RET_ERRNO
                }
            }
            var result: [UInt64] = []
            for (index, instruction) in instructions.enumerated() {
                switch instruction {
                case .load(let offset):
                    result.append(Self.encode(0x20, 0, 0, offset))  // BPF_LD | BPF_W | BPF_ABS
                case .jump(let code, let value, let ifTrue, let ifFalse):
                    let trueOffset = ifTrue.map { position(of: $0) - index - 1 } ?? 0
                    let falseOffset = ifFalse.map { position(of: $0) - index - 1 } ?? 0
                    precondition((0...255).contains(trueOffset) && (0...255).contains(falseOffset), "BPF jump out of range")
                    result.append(Self.encode(code, UInt8(trueOffset), UInt8(falseOffset), value))
                case .give(let target):
                    result.append(Self.encode(0x06, 0, 0, returnValue(target)))  // BPF_RET | BPF_K
                }
            }
            for outcome in outcomes {
                result.append(Self.encode(0x06, 0, 0, returnValue(outcome)))
            }
            return result
        }

        private static func isLabel(_ target: Target) -> Bool {
            if case .label = target { return true }
            return false
        }

        /// One `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }`, little-endian.
        private static func encode(_ code: UInt16, _ jumpIfTrue: UInt8, _ jumpIfFalse: UInt8, _ operand: UInt32) -> UInt64 {
            UInt64(code) | UInt64(jumpIfTrue) << 16 | UInt64(jumpIfFalse) << 24 | UInt64(operand) << 32
        }
    }
}
#endif
