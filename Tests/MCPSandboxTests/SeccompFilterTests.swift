#if os(Linux) && (arch(x86_64) || arch(arm64))
import MCPPlatform
import Testing

/// The box's seccomp filter, run by a small classic-BPF interpreter over the `seccomp_data`
/// of one call: the decisions, without a process.
enum FilterRun {
    /// `SECCOMP_RET_ALLOW`, or the errno of `SECCOMP_RET_ERRNO`.
    enum Decision: Hashable, CustomStringConvertible {
        case allow
        case refuse(Int32)

        var description: String {
            switch self {
            case .allow: "allow"
            case .refuse(let code): "errno \(code)"
            }
        }
    }

    static func decide(_ program: [UInt64], number: UInt32, arguments: [UInt64] = [], architecture: UInt32? = nil) -> Decision? {
        #if arch(x86_64)
        let native: UInt32 = 0xC000_003E
        #else
        let native: UInt32 = 0xC000_00B7
        #endif
        var data = [UInt32](repeating: 0, count: 16)
        data[0] = number
        data[1] = architecture ?? native
        for (index, argument) in arguments.enumerated() {
            data[4 + 2 * index] = UInt32(truncatingIfNeeded: argument)
            data[5 + 2 * index] = UInt32(truncatingIfNeeded: argument >> 32)
        }
        var accumulator: UInt32 = 0
        var counter = 0
        while counter < program.count {
            let instruction = program[counter]
            let code = UInt16(truncatingIfNeeded: instruction)
            let jumpIfTrue = Int(UInt8(truncatingIfNeeded: instruction >> 16))
            let jumpIfFalse = Int(UInt8(truncatingIfNeeded: instruction >> 24))
            let operand = UInt32(truncatingIfNeeded: instruction >> 32)
            counter += 1
            switch code {
            case 0x20: accumulator = data[Int(operand) / 4]
            case 0x15: counter += accumulator == operand ? jumpIfTrue : jumpIfFalse
            case 0x35: counter += accumulator >= operand ? jumpIfTrue : jumpIfFalse
            case 0x45: counter += accumulator & operand != 0 ? jumpIfTrue : jumpIfFalse
            case 0x06:
                if operand == 0x7FFF_0000 { return .allow }
                guard operand & 0xFFFF_0000 == 0x0005_0000 else { return nil }
                return .refuse(Int32(operand & 0xFFFF))
            default: return nil
            }
        }
        return nil
    }
}

@Suite("The box's seccomp filter, decided call by call")
struct SeccompFilterTests {
    #if arch(x86_64)
    static let socket: UInt32 = 41, socketpair: UInt32 = 53, listen: UInt32 = 50, clone: UInt32 = 56, clone3: UInt32 = 435
    static let ioUringSetup: UInt32 = 425, keyctl: UInt32 = 250, inotifyInit1: UInt32 = 294, unshare: UInt32 = 272
    static let fchmodat: UInt32 = 268, read: UInt32 = 0, write: UInt32 = 1, openat: UInt32 = 257
    #else
    static let socket: UInt32 = 198, socketpair: UInt32 = 199, listen: UInt32 = 201, clone: UInt32 = 220, clone3: UInt32 = 435
    static let ioUringSetup: UInt32 = 425, keyctl: UInt32 = 219, inotifyInit1: UInt32 = 26, unshare: UInt32 = 97
    static let fchmodat: UInt32 = 53, read: UInt32 = 63, write: UInt32 = 64, openat: UInt32 = 56
    #endif

    static func filter(network: Bool = false, unix: Bool = false, metadata: Bool = false) throws -> [UInt64] {
        try #require(
            Seccomp.filter(Seccomp.Policy(allowsNetwork: network, allowsUnixSockets: unix, refusesMetadataChanges: metadata)))
    }

    @Test("Every policy assembles to a program with only known instructions, ending in returns")
    func assembles() throws {
        for network in [false, true] {
            for unix in [false, true] {
                for metadata in [false, true] {
                    let program = try Self.filter(network: network, unix: unix, metadata: metadata)
                    #expect(program.count < 256)
                    #expect(FilterRun.decide(program, number: Self.read) == .allow)
                }
            }
        }
    }

    @Test("With the network closed, no socket of any family; socketpair of Unix-domain sockets only")
    func closedNetwork() throws {
        let program = try Self.filter()
        for family: UInt64 in [1, 2, 10, 16, 17, 40] {
            #expect(FilterRun.decide(program, number: Self.socket, arguments: [family, 1, 0]) == .refuse(13), "family \(family)")
        }
        #expect(FilterRun.decide(program, number: Self.socketpair, arguments: [1, 1, 0]) == .allow)
        #expect(FilterRun.decide(program, number: Self.socketpair, arguments: [2, 1, 0]) == .refuse(13))
        #expect(FilterRun.decide(program, number: Self.listen) == .refuse(13))
    }

    @Test("With the network open, IPv4, IPv6 and netlink route; not vsock, packet or Unix-domain unless allowed")
    func openNetwork() throws {
        let program = try Self.filter(network: true)
        #expect(FilterRun.decide(program, number: Self.socket, arguments: [2, 1, 0]) == .allow)
        #expect(FilterRun.decide(program, number: Self.socket, arguments: [10, 2, 0]) == .allow)
        #expect(FilterRun.decide(program, number: Self.socket, arguments: [16, 3, 0]) == .allow)
        #expect(FilterRun.decide(program, number: Self.socket, arguments: [16, 3, 9]) == .refuse(13), "netlink audit")
        #expect(FilterRun.decide(program, number: Self.socket, arguments: [40, 1, 0]) == .refuse(13), "vsock")
        #expect(FilterRun.decide(program, number: Self.socket, arguments: [17, 3, 0]) == .refuse(13), "packet")
        #expect(FilterRun.decide(program, number: Self.socket, arguments: [1, 1, 0]) == .refuse(13), "Unix-domain")
        #expect(FilterRun.decide(program, number: Self.listen) == .allow)
        let unix = try Self.filter(network: true, unix: true)
        #expect(FilterRun.decide(unix, number: Self.socket, arguments: [1, 1, 0]) == .allow)
    }

    @Test("io_uring, keyrings, inotify and new namespaces are refused; clone3 says it does not exist; plain clone works")
    func refusedCalls() throws {
        let program = try Self.filter(network: true)
        for number in [Self.ioUringSetup, Self.keyctl, Self.inotifyInit1, Self.unshare] {
            #expect(FilterRun.decide(program, number: number) == .refuse(1), "call \(number)")
        }
        #expect(FilterRun.decide(program, number: Self.clone3) == .refuse(38))
        // fork (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD) and pthread_create: no namespace flag.
        #expect(FilterRun.decide(program, number: Self.clone, arguments: [0x0120_0011]) == .allow)
        #expect(FilterRun.decide(program, number: Self.clone, arguments: [0x003D_0F00]) == .allow)
        #expect(FilterRun.decide(program, number: Self.clone, arguments: [0x1000_0000 | 17]) == .refuse(1), "CLONE_NEWUSER")
        #expect(FilterRun.decide(program, number: Self.clone, arguments: [0x80]) == .refuse(1), "CLONE_NEWTIME")
    }

    @Test("Metadata changes are refused only where the box could not make the file system read-only")
    func metadata() throws {
        #expect(FilterRun.decide(try Self.filter(), number: Self.fchmodat) == .allow)
        #expect(FilterRun.decide(try Self.filter(metadata: true), number: Self.fchmodat) == .refuse(1))
    }

    @Test("A call of another ABI (x32, or 32-bit i386) is refused: the filter cannot read it")
    func foreignABI() throws {
        let program = try Self.filter(network: true)
        #expect(FilterRun.decide(program, number: Self.write, architecture: 0x4000_0003) == .refuse(38))
        #if arch(x86_64)
        #expect(FilterRun.decide(program, number: 0x4000_0000 | Self.openat) == .refuse(38))
        #endif
    }
}
#endif
