// A seccomp filter that closes the TCP doors Landlock leaves open.
//
// Landlock's TCP rules (ABI 4+) govern `bind` and `connect` of `IPPROTO_TCP` sockets only.
// Verified on Linux 6.18 (ABI 7): a socket made with `socket(AF_INET, SOCK_STREAM,
// IPPROTO_MPTCP)` connects past them (go-landlock documents the same gap), and `listen` on a
// socket never bound binds an ephemeral port on every interface and accepts connections. So
// when the box closes the network, the launcher also installs this filter: `listen` and
// `socket(…, IPPROTO_MPTCP)` fail with `EACCES`, and so does every system call of a foreign
// ABI (x32, 32-bit compat), whose calls the filter could not inspect (`ENOSYS`).
//
// The program (classic BPF over `struct seccomp_data { int nr; u32 arch; u64 ip; u64 args[6]; }`):
//
//      0: ld  [4]                    ; arch
//      1: jeq #NATIVE, 0, 7          ; foreign ABI → 9
//      2: ld  [0]                    ; nr
//      3: jge #0x40000000, 5, 0      ; x32 → 9
//      4: jeq #__NR_listen, 5, 0     ; → 10
//      5: jeq #__NR_socket, 0, 2     ; other calls → 8
//      6: ld  [32]                   ; args[2] (protocol), low 32 bits
//      7: jeq #IPPROTO_MPTCP, 2, 0   ; → 10
//      8: ret #SECCOMP_RET_ALLOW
//      9: ret #SECCOMP_RET_ERRNO|ENOSYS
//     10: ret #SECCOMP_RET_ERRNO|EACCES

#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Seccomp filters the launcher installs on itself before `execve` (needs
/// `PR_SET_NO_NEW_PRIVS` first).
package enum Seccomp {
    #if arch(x86_64)
    private static let nativeArchitecture: UInt32 = 0xC000_003E  // AUDIT_ARCH_X86_64
    private static let socketCall: UInt32 = 41
    private static let listenCall: UInt32 = 50
    #elseif arch(arm64)
    private static let nativeArchitecture: UInt32 = 0xC000_00B7  // AUDIT_ARCH_AARCH64
    private static let socketCall: UInt32 = 198
    private static let listenCall: UInt32 = 201
    #endif

    private typealias PrctlFunction = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    /// `prctl(2)`, variadic in the C library: see ResourceLimits.swift.
    private static let prctlFunction: PrctlFunction? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "prctl") else { return nil }
        return unsafeBitCast(symbol, to: PrctlFunction.self)
    }()

    /// One BPF instruction, as `struct sock_filter` lays it out (8 bytes, little-endian).
    private static func instruction(_ code: UInt16, _ jumpIfTrue: UInt8, _ jumpIfFalse: UInt8, _ operand: UInt32) -> UInt64 {
        UInt64(code) | UInt64(jumpIfTrue) << 16 | UInt64(jumpIfFalse) << 24 | UInt64(operand) << 32
    }

    /// The filter, ready to install (built in advance: installing it allocates nothing).
    package static let networkFilter: [UInt64]? = {
        #if arch(x86_64) || arch(arm64)
        let load: UInt16 = 0x20  // BPF_LD | BPF_W | BPF_ABS
        let equal: UInt16 = 0x15  // BPF_JMP | BPF_JEQ | BPF_K
        let greaterOrEqual: UInt16 = 0x35  // BPF_JMP | BPF_JGE | BPF_K
        let ret: UInt16 = 0x06  // BPF_RET | BPF_K
        let allow: UInt32 = 0x7FFF_0000
        let error: UInt32 = 0x0005_0000
        return [
            instruction(load, 0, 0, 4),
            instruction(equal, 0, 7, nativeArchitecture),
            instruction(load, 0, 0, 0),
            instruction(greaterOrEqual, 5, 0, 0x4000_0000),
            instruction(equal, 5, 0, listenCall),
            instruction(equal, 0, 2, socketCall),
            instruction(load, 0, 0, 32),
            instruction(equal, 2, 0, 262),  // IPPROTO_MPTCP
            instruction(ret, 0, 0, allow),
            instruction(ret, 0, 0, error | UInt32(ENOSYS)),
            instruction(ret, 0, 0, error | UInt32(EACCES)),
        ]
        #else
        return nil
        #endif
    }()

    /// Resolves what ``closeNetworkGaps()`` needs, so that nothing is looked up later.
    package static func prepare() {
        _ = prctlFunction
        _ = networkFilter
    }

    /// Installs the filter: from now on this thread, and the program it executes, cannot make
    /// Multipath TCP sockets nor listen on any socket (nor make system calls of a foreign ABI).
    ///
    /// - Throws: ``Errno`` from `prctl(PR_SET_SECCOMP)`, or `ENOSYS` on an architecture the
    ///   filter does not know.
    package static func closeNetworkGaps() throws(Errno) {
        guard let prctlFunction, let filter = networkFilter else {
            throw Errno(code: ENOSYS, operation: "seccomp (no filter for this architecture)")
        }
        let status: Int32 = filter.withUnsafeBufferPointer { instructions in
            // struct sock_fprog { unsigned short len; struct sock_filter *filter; }: 16 bytes.
            var program: (UInt64, UInt) = (UInt64(instructions.count), UInt(bitPattern: instructions.baseAddress))
            return withUnsafePointer(to: &program) { pointer in
                // PR_SET_SECCOMP = 22, SECCOMP_MODE_FILTER = 2.
                prctlFunction(22, 2, UInt(bitPattern: pointer), 0, 0)
            }
        }
        guard status == 0 else { throw Errno.current("prctl(PR_SET_SECCOMP)") }
    }
}
#endif
