import Foundation
import HostilePeerModes
import MCP
import OnDeviceMCPTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One forbidden thing the `box-probe` server tries.
enum ForbiddenAttempt: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case readOutside = "read a file outside its allowance"
    case writeOutside = "write outside its data directory"
    case connectTCP = "connect to a local TCP port"
    /// Landlock's TCP rules miss Multipath TCP: the box's seccomp filter stops it.
    case connectMultipathTCP = "connect to a local TCP port with Multipath TCP"
    /// Landlock does not see `listen` on a socket never bound: the seccomp filter stops it.
    case listenWithoutBind = "listen on a TCP port without binding one"
    case unpassedEnvironment = "read an environment variable that was not passed"
    /// `/proc` is readable in the box; another process's environment in it is not.
    case readAppEnvironment = "read this app's environment through /proc"
    case allocatePastLimit = "map memory past the limit"
    case burnCPU = "burn CPU past the limit"
    case forkWithoutBound = "start processes without bound"

    var testDescription: String { rawValue }
}

/// What a test sets up outside the box for the probe to reach for: a secret file and a
/// directory in a temporary directory, a TCP listener on 127.0.0.1, a secret variable.
final class ProbeFixture: Sendable {
    let directory: TemporaryDirectory
    let listener: LocalListener
    static let secretVariable = "ONDEVICE_MCP_PROBE_SECRET"

    init() throws {
        directory = try TemporaryDirectory()
        try "top secret\n".write(to: directory.url.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        listener = try LocalListener()
    }

    func remove() {
        listener.close()
        directory.remove()
    }

    /// The probe's arguments for `attempt`.
    func arguments(for attempt: ForbiddenAttempt) -> JSONObject {
        switch attempt {
        case .readOutside: ["action": "read", "target": .string(directory.path + "/secret.txt")]
        case .writeOutside: ["action": "write", "target": .string(directory.path + "/written.txt")]
        case .connectTCP: ["action": "connect", "target": .string(String(listener.port))]
        case .connectMultipathTCP: ["action": "connect-mptcp", "target": .string(String(listener.port))]
        case .listenWithoutBind: ["action": "listen", "target": ""]
        case .unpassedEnvironment: ["action": "env", "target": .string(Self.secretVariable)]
        case .readAppEnvironment: ["action": "read", "target": .string("/proc/\(getpid())/environ")]
        // 3 GiB of address space, never touched: past the default box's 2 GiB.
        case .allocatePastLimit: ["action": "allocate", "target": "3072"]
        // 4 s of CPU, past a 1 s limit. Not 2: the server is the first process of the box's PID
        // namespace, which the kernel does not let SIGXCPU end, so the end is the hard limit's
        // SIGKILL at 2 s, checked at the scheduler's tick; a probe stopping at 2 s could win.
        case .burnCPU: ["action": "cpu", "target": "4"]
        // 200 processes, past a limit of 20.
        case .forkWithoutBound: ["action": "fork", "target": "200"]
        }
    }

    /// The box for `attempt`: the default box, with the limit the attempt goes past.
    func sandbox(for attempt: ForbiddenAttempt) throws -> Sandbox {
        var box = Sandboxes.defaultForThisBuild
        switch attempt {
        case .burnCPU: box.cpuTimeLimit = 1
        case .forkWithoutBound: box.processLimit = 20
        case .allocatePastLimit: box.memoryLimit = Sandbox.standard.memoryLimit
        default: break
        }
        return box
    }

    /// The environment the server's is made from: this process's, plus the secret.
    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging([Self.secretVariable: "s3cret"]) { $1 }
    }
}

/// A TCP socket listening on 127.0.0.1 on a port of the system's choice; connections wait
/// in its backlog, never accepted.
final class LocalListener: Sendable {
    let descriptor: Int32
    let port: UInt16

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        #if canImport(Darwin)
        let socketType = SOCK_STREAM
        #else
        let socketType = Int32(SOCK_STREAM.rawValue)
        #endif
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            closeDescriptor(descriptor)
            throw Failure(description: "bind/listen on 127.0.0.1: errno \(errno)")
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() {
        closeDescriptor(descriptor)
    }
}

/// `close(2)`, under a name the listener's own `close()` does not shadow.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// Runs the probe (in `sandbox`, or unboxed) and asks it to try `arguments`; returns the
/// text it answered, or the error of the call, and how the probe ended.
func runProbe(
    _ arguments: JSONObject, sandbox: Sandbox?, environment: [String: String]
) async throws -> (answer: Result<String, any Error>, status: ProcessTransport.ExitStatus, dataDirectory: String?) {
    let transport = try ProcessTransport.launch(
        try BuiltProducts.hostilePeer(), arguments: [HostileMode.boxProbe.rawValue], environment: environment, standardError: .capture,
        sandbox: sandbox)
    let answer: Result<String, any Error>
    do {
        let client = try await withHangGuard(hangGuard, "connecting to the probe") {
            try await MCPClient.connect(over: transport, configuration: configuration(requestTimeout: Sanitizers.stretched(.seconds(60))))
        }
        do {
            answer = .success(
                try await withHangGuard(hangGuard * 2, "calling the probe") {
                    try await client.callTool(name: "probe", arguments: arguments).text
                })
        } catch {
            answer = .failure(error)
        }
        await client.close()
    } catch {
        await transport.close()
        throw error
    }
    await transport.close()
    return (answer, try await transport.exitStatus, transport.sandboxDataDirectory)
}

@Suite("The process box stops a server on real processes; the same server unboxed succeeds", .serialized)
struct SandboxEnforcementTests {
    @Test("Boxed, the attempt is stopped", arguments: ForbiddenAttempt.allCases)
    func boxed(_ attempt: ForbiddenAttempt) async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let box = try fixture.sandbox(for: attempt)
        if attempt == .allocatePastLimit && Sanitizers.threadSanitizerIsActive {
            // The probe is built with ThreadSanitizer, whose shadow memory no address-space
            // limit allows: it cannot run under one at all. The plain test run covers this case.
            return
        }
        let run = try await runProbe(fixture.arguments(for: attempt), sandbox: box, environment: fixture.environment)
        switch attempt {
        case .burnCPU:
            // The CPU limit ends the server: SIGXCPU (or SIGKILL a second later); the call fails.
            #expect(throws: (any Error).self) { try run.answer.get() }
            #expect(run.status == .signaled(SIGXCPU) || run.status == .signaled(SIGKILL), "\(run.status)")
        default:
            let text = try run.answer.get()
            #expect(text.hasPrefix("stopped"), "\(text)")
            switch attempt {
            case .readOutside, .connectTCP, .connectMultipathTCP, .listenWithoutBind:
                #expect(text.contains("Permission denied"), "\(text)")
            case .writeOutside:
                // Landlock's refusal, or (with the box's own mount namespace) a read-only file system.
                #expect(text.contains("Permission denied") || text.contains("Read-only file system"), "\(text)")
            case .readAppEnvironment:
                // Landlock's refusal, or (with the box's own PID namespace) no such process at all.
                #expect(text.contains("Permission denied") || text.contains("No such file or directory"), "\(text)")
            case .allocatePastLimit: #expect(text.contains("Cannot allocate memory"), "\(text)")
            case .forkWithoutBound: #expect(text.contains("Resource temporarily unavailable"), "\(text)")
            default: break
            }
            #expect(!FileManager.default.fileExists(atPath: fixture.directory.path + "/written.txt"))
        }
    }

    @Test("Unboxed, the same attempt succeeds", arguments: ForbiddenAttempt.allCases)
    func unboxed(_ attempt: ForbiddenAttempt) async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let run = try await runProbe(fixture.arguments(for: attempt), sandbox: nil, environment: fixture.environment)
        let text = try run.answer.get()
        #expect(text.hasPrefix("done"), "\(text)")
        switch attempt {
        case .readOutside: #expect(text.contains("top secret"))
        case .writeOutside: #expect(FileManager.default.fileExists(atPath: fixture.directory.path + "/written.txt"))
        case .unpassedEnvironment: #expect(text.contains("s3cret"))
        case .forkWithoutBound: #expect(text.contains("started 200"))
        default: break
        }
        #expect(run.status == .exited(0))
    }

    @Test("Boxed, the server writes its private data directory, which goes when the connection closes")
    func dataDirectory() async throws {
        let box = Sandboxes.defaultForThisBuild
        let transport = try ProcessTransport.launch(
            try BuiltProducts.hostilePeer(), arguments: [HostileMode.boxProbe.rawValue], standardError: .capture, sandbox: box)
        let directory = try #require(transport.sandboxDataDirectory)
        let client = try await withHangGuard(hangGuard, "connecting to the probe") {
            try await MCPClient.connect(over: transport, configuration: configuration(requestTimeout: Sanitizers.stretched(.seconds(60))))
        }
        let temporary = try await client.callTool(name: "probe", arguments: ["action": "env", "target": "TMPDIR"]).text
        #expect(temporary == "done: TMPDIR=\(directory)/tmp")
        let written = try await client.callTool(name: "probe", arguments: ["action": "write", "target": .string(directory + "/tmp/note")])
            .text
        #expect(written.hasPrefix("done"), "\(written)")
        let readBack = try await client.callTool(name: "probe", arguments: ["action": "read", "target": .string(directory + "/tmp/note")])
            .text
        #expect(readBack.contains("written by the probe"), "\(readBack)")
        let system = try await client.callTool(name: "probe", arguments: ["action": "read", "target": "/etc/passwd"]).text
        #expect(system.hasPrefix("done"), "\(system)")
        await client.close()
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test("Started by root, the boxed server has no capabilities", .enabled(if: ResourceLimitsProbe.runsAsRoot))
    func noCapabilities() async throws {
        let box = Sandboxes.defaultForThisBuild
        let arguments: JSONObject = ["action": "capabilities", "target": ""]
        let boxed = try await runProbe(arguments, sandbox: box, environment: ProcessInfo.processInfo.environment)
        #expect(try boxed.answer.get() == "done: CapEff 0000000000000000")
        let unboxed = try await runProbe(arguments, sandbox: nil, environment: ProcessInfo.processInfo.environment)
        #expect(try unboxed.answer.get() != "done: CapEff 0000000000000000")
    }

    @Test("A path allowed by the app is readable, or writable, in the box", arguments: [false, true])
    func allowedPaths(writable: Bool) async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        var box = try fixture.sandbox(for: .readOutside)
        if writable { box.writablePaths = [fixture.directory.path] } else { box.readablePaths = [fixture.directory.path] }
        let read = try await runProbe(fixture.arguments(for: .readOutside), sandbox: box, environment: fixture.environment)
        #expect(try read.answer.get().contains("top secret"))
        let write = try await runProbe(fixture.arguments(for: .writeOutside), sandbox: box, environment: fixture.environment)
        #expect(try write.answer.get().hasPrefix(writable ? "done" : "stopped"))
    }

    @Test("What the box cannot set up is a clear launch failure")
    func launchFailures() async throws {
        var missing = Sandboxes.defaultForThisBuild
        missing.readablePaths = ["/ondevice-mcp/no/such/path"]
        let error = #expect(throws: TransportError.launchFailure("")) {
            _ = try ProcessTransport.launch(try BuiltProducts.hostilePeer(), arguments: [HostileMode.boxProbe.rawValue], sandbox: missing)
        }
        expect(String(describing: error), mentions: .all("readable path", "/ondevice-mcp/no/such/path", "does not exist"))
    }
}

/// Who the tests run as.
enum ResourceLimitsProbe {
    static var runsAsRoot: Bool { geteuid() == 0 || getuid() == 0 }
}
