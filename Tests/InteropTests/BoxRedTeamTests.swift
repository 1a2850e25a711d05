import Foundation
import MCP
import OnDeviceMCPTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if os(Linux)

/// `Tests/Interop/box_probe.py`, run boxed or not, asked to try one way out.
enum RedTeamProbe {
    static var script: String { Package.interopScript("box_probe.py") }
    static let hangGuard: Duration = .seconds(120)

    /// The default box, with what a test changes.
    static func box(_ change: (inout Sandbox) -> Void = { _ in }) -> Sandbox {
        var box = Sandbox.standard
        change(&box)
        return box
    }

    static func launch(sandbox: Sandbox?, environment: [String: String]? = nil, python: String? = nil) throws -> ProcessTransport {
        try ProcessTransport.launch(
            try python ?? PythonPeers.python(), arguments: [script], environment: environment, standardError: .capture, sandbox: sandbox)
    }

    /// Connects to a launched probe.
    static func connect(_ transport: ProcessTransport) async throws -> MCPClient {
        try await withHangGuard(hangGuard, "connecting to the box probe") {
            try await MCPClient.connect(over: transport, configuration: MCPClient.Configuration(requestTimeout: .seconds(90)))
        }
    }

    /// Asks a connected probe to try `action` on `target`.
    static func attempt(_ client: MCPClient, _ action: String, _ target: String = "") async throws -> String {
        try await withHangGuard(hangGuard, "probe \(action)") {
            try await client.callTool(name: "probe", arguments: ["action": .string(action), "target": .string(target)]).text
        }
    }

    /// Launches the probe, asks it once, and closes it.
    static func attempt(
        _ action: String, _ target: String = "", sandbox: Sandbox?, environment: [String: String]? = nil
    ) async throws -> String {
        let transport = try launch(sandbox: sandbox, environment: environment)
        let client = try await connect(transport)
        do {
            let text = try await attempt(client, action, target)
            await client.close()
            return text
        } catch {
            await client.close()
            throw error
        }
    }

    /// The processes of this system whose command line contains `text`.
    static func processes(containing text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return data.range(of: Data(text.utf8)) != nil
        }
    }
}

/// One way out the outside red team found (or one like it), and what it takes.
enum Escape: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case tcpFastOpen = "TCP Fast Open to 127.0.0.1"
    case tcpFastOpen6 = "TCP Fast Open to ::1"
    case ioUring = "io_uring"
    case keyrings = "the caller's session and user keyrings"
    case shadow = "/etc/shadow"
    case chmod = "setting a setuid bit on a file outside the box"
    case chown = "chown to root of a file outside the box"
    case utime = "the times of a file outside the box"
    case setxattr = "a user.* extended attribute of a file outside the box"
    case inotify = "inotify on a directory it may not list"
    case udp = "UDP to 127.0.0.1"
    case unixPath = "a pathname Unix-domain socket"
    case unixAbstract = "an abstract Unix-domain socket"
    case netlink = "a netlink socket"
    case vsock = "an AF_VSOCK socket"

    var testDescription: String { rawValue }

    /// The errno the box refuses it with: EACCES for sockets, EROFS for files outside a
    /// read-only file system, EPERM for the system calls the filter refuses, and EACCES
    /// from Landlock for a file it may not read.
    var refusal: String {
        switch self {
        case .tcpFastOpen, .tcpFastOpen6, .udp, .unixPath, .unixAbstract, .netlink, .vsock, .shadow: "errno 13"
        case .chmod, .chown, .utime, .setxattr: "errno 30"
        case .ioUring, .keyrings, .inotify: "errno 1"
        }
    }

    /// Whether the attempt works for this process unboxed (the control).
    var worksUnboxed: Bool {
        switch self {
        case .shadow, .chown: geteuid() == 0
        // The kernel may lack vsock altogether: then the control says nothing.
        case .vsock: false
        default: true
        }
    }
}

/// What an escape reaches for: listeners of this process and a file outside every box.
final class EscapeFixture: Sendable {
    let directory: TemporaryDirectory
    let victim: String
    let tcp: LocalSocket
    let tcp6: LocalSocket
    let udp: LocalSocket
    let unixPath: LocalSocket
    let unixAbstract: LocalSocket

    init() throws {
        directory = try TemporaryDirectory("red-team")
        victim = directory.path + "/victim"
        try "not yours\n".write(toFile: victim, atomically: true, encoding: .utf8)
        tcp = try LocalSocket.tcp()
        tcp6 = try LocalSocket.tcp(ipv6: true)
        udp = try LocalSocket.udp()
        unixPath = try LocalSocket.unix(directory.path + "/socket")
        unixAbstract = try LocalSocket.unix("@ondevice-mcp-red-team-\(UUID().uuidString)")
    }

    func remove() {
        for socket in [tcp, tcp6, udp, unixPath, unixAbstract] { socket.close() }
        directory.remove()
    }

    func request(_ escape: Escape) -> (action: String, target: String) {
        switch escape {
        case .tcpFastOpen: ("tfo", tcp.target)
        case .tcpFastOpen6: ("tfo", tcp6.target)
        case .ioUring: ("io_uring", "")
        case .keyrings: ("keyring", "")
        case .shadow: ("read", "/etc/shadow")
        case .chmod: ("metadata", "chmod \(victim)")
        case .chown: ("metadata", "chown \(victim)")
        case .utime: ("metadata", "utime \(victim)")
        case .setxattr: ("metadata", "setxattr \(victim)")
        case .inotify: ("inotify", directory.path)
        case .udp: ("udp", udp.target)
        case .unixPath: ("unix", unixPath.target)
        case .unixAbstract: ("unix", unixAbstract.target)
        case .netlink: ("netlink", "")
        case .vsock: ("vsock", "")
        }
    }

    /// The victim's mode, owner and modification time, to see that nothing changed.
    func victimState() throws -> [FileAttributeKey: String] {
        let attributes = try FileManager.default.attributesOfItem(atPath: victim)
        return [.posixPermissions, .ownerAccountID, .modificationDate].reduce(into: [:]) { state, key in
            state[key] = attributes[key].map { "\($0)" } ?? "-"
        }
    }
}

@Suite(
    "The box holds against the outside red team, on real processes; unboxed, each way out works",
    .serialized, .enabled(if: PythonPeers.enabled, PythonPeers.skipComment), .timeLimit(.minutes(5)))
struct BoxRedTeamTests {
    @Test("Boxed, the way out is refused with the box's errno and changes nothing", arguments: Escape.allCases)
    func boxed(_ escape: Escape) async throws {
        let fixture = try EscapeFixture()
        defer { fixture.remove() }
        let before = try fixture.victimState()
        let (action, target) = fixture.request(escape)
        let text = try await RedTeamProbe.attempt(action, target, sandbox: RedTeamProbe.box())
        #expect(text.hasPrefix("stopped"), "\(text)")
        #expect(text.contains(escape.refusal), "\(text)")
        #expect(try fixture.victimState() == before)
    }

    @Test("Unboxed, the same way out works (the control)", arguments: Escape.allCases.filter(\.worksUnboxed))
    func unboxed(_ escape: Escape) async throws {
        let fixture = try EscapeFixture()
        defer { fixture.remove() }
        let (action, target) = fixture.request(escape)
        let text = try await RedTeamProbe.attempt(action, target, sandbox: nil)
        #expect(text.hasPrefix("done"), "\(text)")
    }

    @Test("With the network allowed, TCP Fast Open works, but vsock and Unix-domain sockets stay refused unless asked for")
    func networkAllowed() async throws {
        let fixture = try EscapeFixture()
        defer { fixture.remove() }
        let open = RedTeamProbe.box { $0.allowsNetwork = true }
        #expect(try await RedTeamProbe.attempt("tfo", fixture.tcp.target, sandbox: open).hasPrefix("done"))
        let vsock = try await RedTeamProbe.attempt("vsock", sandbox: open)
        #expect(vsock.hasPrefix("stopped") && vsock.contains("errno 13"), "\(vsock)")
        let unix = try await RedTeamProbe.attempt("unix", fixture.unixPath.target, sandbox: open)
        #expect(unix.hasPrefix("stopped") && unix.contains("errno 13"), "\(unix)")
        let allowed = RedTeamProbe.box { $0.allowsUnixSockets = true }
        let reached = try await RedTeamProbe.attempt("unix", fixture.unixPath.target, sandbox: allowed)
        #expect(reached.hasPrefix("done"), "\(reached)")
        // A pair of connected sockets is not a way out: it always works.
        #expect(try await RedTeamProbe.attempt("socketpair", sandbox: RedTeamProbe.box()).hasPrefix("done"))
    }

    /// Finding 3: a child and a double-forked daemon survived the call.
    @Test(
        "Every process the server started, a double-forked daemon included, is gone when the connection closes", arguments: [true, false])
    func processTree(boxed: Bool) async throws {
        let token = "ondevice-mcp-red-team-\(UInt32.random(in: 0...UInt32.max))"
        let transport = try RedTeamProbe.launch(sandbox: boxed ? RedTeamProbe.box() : nil)
        let client = try await RedTeamProbe.connect(transport)
        let started = try await RedTeamProbe.attempt(client, "daemons", token)
        #expect(started.hasPrefix("done"), "\(started)")
        #expect(RedTeamProbe.processes(containing: token).count == 2, "both are running while the connection is open")
        await client.close()
        let left = RedTeamProbe.processes(containing: token)
        if boxed {
            #expect(left.isEmpty, "still running after close: \(left)")
        } else {
            // The control: unboxed, both outlive the connection (then this test ends them).
            #expect(left.count == 2)
            for pid in left { kill(pid, SIGKILL) }
        }
    }

    /// Finding 4: the box's plan, environment included, was a launcher's argument.
    @Test("A secret given to a boxed server is in its environment and nowhere else a process can read")
    func secretsStayInTheServer() async throws {
        let secret = "secret-\(UUID().uuidString)"
        let box = RedTeamProbe.box { $0.environment["PROBE_TOKEN"] = secret }
        let transport = try RedTeamProbe.launch(sandbox: box)
        let client = try await RedTeamProbe.connect(transport)
        // While the server runs: every process's command line and environment.
        var places: [String] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(entry) != nil {
            for part in ["cmdline", "environ"] {
                if let data = FileManager.default.contents(atPath: "/proc/\(entry)/\(part)"), data.range(of: Data(secret.utf8)) != nil {
                    places.append("\(entry)/\(part)")
                }
            }
        }
        #expect(places == ["\(transport.processIdentifier)/environ"], "\(places)")
        #expect(try await RedTeamProbe.attempt(client, "env", "PROBE_TOKEN") == "done: PROBE_TOKEN=\(secret)")
        // From inside: only the server itself, the first process of its own namespace.
        #expect(try await RedTeamProbe.attempt(client, "scan", secret) == "done: found in 1/environ")
        await client.close()
    }

    /// Finding 4, as the red team did it: a daemon of one box read the launch plans (with
    /// `--pass-env` tokens and a configuration's `env`) of the boxes launched after it.
    @Test("A process of one box, watching every process, never sees the secret of a box launched after it")
    func watcherSeesNoLaterSecret() async throws {
        let watcher = try RedTeamProbe.launch(sandbox: RedTeamProbe.box())
        let watching = try await RedTeamProbe.connect(watcher)
        let secret = "later-secret-\(UUID().uuidString)"
        #expect(try await RedTeamProbe.attempt(watching, "watch-start", secret) == "done: watching")
        for _ in 0..<3 {
            let later = RedTeamProbe.box { $0.environment["PROBE_TOKEN"] = secret }
            let text = try await RedTeamProbe.attempt("env", "PROBE_TOKEN", sandbox: later)
            #expect(text == "done: PROBE_TOKEN=\(secret)")
        }
        let seen = try await RedTeamProbe.attempt(watching, "watch-stop")
        await watching.close()
        #expect(seen.hasPrefix("stopped: not found"), "\(seen)")
    }

    /// Finding 9: a descriptor the caller left open was readable.
    @Test("A descriptor this process left open (not close-on-exec) does not reach the boxed server", arguments: [true, false])
    func inheritedDescriptor(boxed: Bool) async throws {
        let directory = try TemporaryDirectory("red-team-descriptor")
        defer { directory.remove() }
        let path = directory.path + "/secret"
        try "inherited secret\n".write(toFile: path, atomically: true, encoding: .utf8)
        let descriptor = open(path, O_RDONLY)  // deliberately without O_CLOEXEC
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let text = try await RedTeamProbe.attempt("descriptor", String(descriptor), sandbox: boxed ? RedTeamProbe.box() : nil)
        if boxed {
            #expect(text.hasPrefix("stopped") && text.contains("errno 9"), "\(text)")
        } else {
            #expect(text.contains("inherited secret"), "\(text)")
        }
    }

    /// Finding 7: a script's directory (the home, a repository, /tmp) became readable.
    @Test("The script named on the command line is readable in the box; the files beside it are not")
    func scriptOnly() async throws {
        let sibling = Package.interopScript("python_client.py")
        let boxed = try await RedTeamProbe.attempt("read", sibling, sandbox: RedTeamProbe.box())
        #expect(boxed.hasPrefix("stopped") && boxed.contains("errno 13"), "\(boxed)")
        #expect(try await RedTeamProbe.attempt("read", sibling, sandbox: nil).hasPrefix("done"))
    }

    /// Finding 10: limits were per process.
    @Test(
        "The box's limits hold for the box as a whole, across processes",
        arguments: ["processes", "threads", "memory", "files"])
    func wholeBoxLimits(resource: String) async throws {
        let directory = try TemporaryDirectory("red-team-limits")
        defer { directory.remove() }
        var box = RedTeamProbe.box()
        let target: String
        switch resource {
        case "processes":
            box.processLimit = 24
            target = "60"
        case "threads":
            box.processLimit = 24
            target = "60"
        case "memory":
            // Each process fits its own address-space limit; together they do not fit the box.
            box.memoryLimit = 320 << 20
            target = "3 150"
        default:
            box.dataDirectorySizeLimit = 48 << 20
            target = "3 30"
        }
        let transport = try RedTeamProbe.launch(sandbox: box)
        let client = try await RedTeamProbe.connect(transport)
        var request = target
        if resource == "files" {
            // The files go to the server's TMPDIR, in its data directory.
            let temporary = try await RedTeamProbe.attempt(client, "env", "TMPDIR")
            request = String(temporary.dropFirst("done: TMPDIR=".count)) + " " + target
        }
        let boxed = try await RedTeamProbe.attempt(client, resource, request)
        await client.close()
        #expect(boxed.hasPrefix("stopped"), "\(boxed)")
        #expect(transport.sandboxNotes.isEmpty, "\(transport.sandboxNotes)")
        let unboxedTarget = resource == "files" ? directory.path + " " + target : target
        let unboxed = try await RedTeamProbe.attempt(resource, unboxedTarget, sandbox: nil)
        #expect(unboxed.hasPrefix("done"), "\(unboxed)")
    }
}

/// The box as an ordinary user builds it (a user namespace of its own), through the CLI run
/// with `setpriv` as `nobody`: only where this test runs as root.
@Suite(
    "The box holds for an ordinary user too", .serialized,
    .enabled(
        if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")),
    .timeLimit(.minutes(3)))
struct BoxRedTeamOrdinaryUserTests {
    /// A directory `nobody` can reach, with copies of the CLI and the probe.
    final class Stage: Sendable {
        let directory: String
        let cli: String
        let probe: String
        let victim: String

        init() async throws {
            directory = "/tmp/ondevice-mcp-nobody-\(UUID().uuidString)"
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            cli = directory + "/ondevice-mcp"
            probe = directory + "/box_probe.py"
            victim = directory + "/victim"
            try await Self.copy(try BuiltProducts.ondeviceMCP(), to: cli)
            try await Self.copy(RedTeamProbe.script, to: probe)
            try "nobody's file\n".write(toFile: victim, atomically: true, encoding: .utf8)
            // The victim belongs to nobody: the owner may change its mode, unboxed.
            try #require(chown(victim, 65534, 65534) == 0, "chown: errno \(errno)")
        }

        func remove() { try? FileManager.default.removeItem(atPath: directory) }

        /// Copies an executable with `cp`, a process of its own, so that no descriptor of this
        /// process ever has the copy open for writing. A close-on-exec descriptor was not
        /// enough: a child another test forks between `open` and `close` holds it until its own
        /// `execve`, and running the copy in that window fails with "Text file busy" (seen in CI).
        /// Waited for off Swift's threads: a `Process.waitUntilExit()` here held one of them while
        /// another test's tool held the other, and every test of the run starved.
        static func copy(_ source: String, to destination: String) async throws {
            let copying = try await SpawnedProcess.run("/bin/cp", arguments: [source, destination])
            try #require(copying.status == .exited(0), "cp \(source) \(destination): \(copying.status) \(copying.standardErrorTail)")
            try #require(chmod(destination, 0o755) == 0, "chmod(\(destination)): errno \(errno)")
        }

        /// `ondevice-mcp call probe` as nobody; the text it printed.
        func call(_ action: String, _ target: String, boxed: Bool) async throws -> (status: SpawnedProcess.Status, output: String) {
            let arguments =
                try String(data: JSONSerialization.data(withJSONObject: ["action": action, "target": target]), encoding: .utf8) ?? "{}"
            var command = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", cli, "call", "probe", arguments]
            if !boxed { command.append("--no-sandbox") }
            command += ["--", "/usr/bin/python3", probe]
            let run = try await SpawnedProcess.run("/usr/bin/setpriv", arguments: command, hangGuard: .seconds(90))
            return (run.status, run.output + run.standardErrorTail)
        }
    }

    @Test("As nobody, boxed: no setuid bit on its own file outside the box, no keyrings, no io_uring, no inotify, no TCP Fast Open")
    func boxedAsNobody() async throws {
        let stage = try await Stage()
        defer { stage.remove() }
        let listener = try LocalSocket.tcp()
        defer { listener.close() }
        let attempts: [(String, String, String)] = [
            ("metadata", "chmod \(stage.victim)", "errno 30"), ("keyring", "", "errno 1"), ("io_uring", "", "errno 1"),
            ("inotify", "/tmp", "errno 1"), ("tfo", listener.target, "errno 13"), ("read", "/etc/shadow", "errno 13"),
        ]
        for (action, target, refusal) in attempts {
            let boxed = try await stage.call(action, target, boxed: true)
            #expect(boxed.output.contains("stopped") && boxed.output.contains(refusal), "\(action): \(boxed)")
        }
        let identity = try await stage.call("identity", "", boxed: true)
        #expect(identity.output.contains("done: pid 1 uid 65534"), "\(identity)")
        let mode = try FileManager.default.attributesOfItem(atPath: stage.victim)[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }

    @Test("As nobody, unboxed: the same attempts work (the control)")
    func unboxedAsNobody() async throws {
        let stage = try await Stage()
        defer { stage.remove() }
        for (action, target) in [("metadata", "chmod \(stage.victim)"), ("keyring", ""), ("io_uring", ""), ("inotify", "/tmp")] {
            let unboxed = try await stage.call(action, target, boxed: false)
            #expect(unboxed.output.contains("done"), "\(action): \(unboxed)")
        }
    }

    @Test("As nobody, a double-forked daemon ends with the connection")
    func daemonsAsNobody() async throws {
        let stage = try await Stage()
        defer { stage.remove() }
        let token = "ondevice-mcp-nobody-\(UInt32.random(in: 0...UInt32.max))"
        let run = try await stage.call("daemons", token, boxed: true)
        #expect(run.output.contains("done"), "\(run)")
        #expect(RedTeamProbe.processes(containing: token).isEmpty)
    }
}

#endif
