// Processes can be started on macOS, Mac Catalyst and Linux only (MCP_CAN_SPAWN, Package.swift):
// no ProcessTransport on iOS, visionOS, watchOS and tvOS (nor its imports, which would be unused).
#if MCP_CAN_SPAWN
public import MCPCore
internal import MCPPlatform
public import MCPSandbox

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The client side of MCP's stdio transport: a server started as a child process, spoken to
/// over its standard input and output.
///
/// ```swift
/// let server = try ProcessTransport.launch("uvx", arguments: ["mcp-server-time"])
/// ```
///
/// On macOS, Mac Catalyst and Linux only: iOS and visionOS apps may not start processes and
/// watchOS and tvOS cannot, so this type is compiled out there.
///
/// The child is started with `posix_spawn`: its standard input and output are pipes, its
/// standard error is inherited, discarded or captured (``StandardErrorHandling``). Every
/// other descriptor of this process is close-on-exec, and the child gets the default
/// `SIGPIPE` disposition back.
///
/// When the child exits on its own, its standard output reaches end of file and the stream of
/// ``receive()`` finishes, so the client sees the connection end; ``exitStatus`` tells how it
/// ended. ``close()`` follows the MCP stdio shutdown rule: close the child's standard input,
/// wait, then `SIGTERM`, wait, then `SIGKILL`. The child is always reaped, by a thread that
/// waits for it from the moment it starts: no zombies.
public final class ProcessTransport: Transport {
    /// What to do with the child's standard error.
    public struct StandardErrorHandling: Hashable, Sendable {
        enum Mode: Hashable, Sendable {
            case inherit
            case discard
            case capture(Int)
            case forward(Int)
        }

        let mode: Mode

        /// The child writes to this process's standard error directly. Errors about the
        /// connection cannot quote what it wrote; ``forward`` can.
        public static let inherit = StandardErrorHandling(mode: .inherit)

        /// What the child writes passes through to this process's standard error, and the
        /// last 16 KiB are kept, so that when the child exits or closes its output the pending
        /// calls fail with its exit status and the end of what it wrote (the default).
        public static let forward = StandardErrorHandling(mode: .forward(16 * 1024))

        /// The child's standard error goes to `/dev/null`.
        public static let discard = StandardErrorHandling(mode: .discard)

        /// The last 64 KiB the child writes to standard error are kept, for
        /// ``ProcessTransport/capturedStandardError()``.
        public static let capture = StandardErrorHandling(mode: .capture(64 * 1024))

        /// The last `byteCount` bytes the child writes to standard error are kept.
        public static func capture(keepingLast byteCount: Int) -> StandardErrorHandling {
            StandardErrorHandling(mode: .capture(max(1, byteCount)))
        }
    }

    /// How a child process ended.
    public enum ExitStatus: Hashable, Sendable, CustomStringConvertible {
        /// The child exited with this status code.
        case exited(Int32)
        /// The child was ended by this signal.
        case signaled(Int32)
        /// The status could not be collected: something else in this process reaped the
        /// child (for example a `SIGCHLD` handler that waits for every child).
        case unavailable

        /// The status in words, such as "exited with status 3".
        public var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            case .unavailable: "ended (status unavailable)"
            }
        }
    }

    /// The default time ``close()`` gives the child at each step before escalating: 2 seconds.
    public static let defaultTerminationGracePeriod: Duration = .seconds(2)

    /// The child's process id.
    public let processIdentifier: Int32

    /// The command as given to ``launch(_:arguments:environment:currentDirectory:standardError:sandbox:terminationGracePeriod:maximumFrameLength:)``,
    /// for messages.
    public let command: String

    /// The boxed server's private data directory (its `TMPDIR` lives in it), removed when
    /// ``close()`` has ended the server; `nil` for a server launched without a ``Sandbox``.
    ///
    /// Where the box has a mount namespace of its own, the server sees a file system of its
    /// own at this path (``Sandbox/dataDirectorySizeLimit``): what it writes there is not
    /// visible from this process.
    public var sandboxDataDirectory: String? { prepared?.sandboxDataDirectory }

    /// What the box of this server went without, in words (empty for an unboxed server, and
    /// for a box with every protection): a limit the system would not let this process apply
    /// to the whole box, or namespaces the kernel would not make (then the fallbacks the
    /// Security model article lists apply).
    public let sandboxNotes: [String]

    /// The time ``close()`` waits after closing the child's input, and again after `SIGTERM`.
    public let terminationGracePeriod: Duration

    let connection: FileDescriptorTransport
    private let child: ChildProcess
    private let standardErrorCapture: StandardErrorCapture?
    private let closeState = CloseState()
    /// The launch a hook prepared (a box), cleaned up when the server has ended.
    private let prepared: (any PreparedProcessLaunch)?

    init(
        command: String, child: ChildProcess, connection: FileDescriptorTransport,
        standardErrorCapture: StandardErrorCapture?, terminationGracePeriod: Duration, prepared: (any PreparedProcessLaunch)?,
        sandboxNotes: [String]
    ) {
        self.prepared = prepared
        self.sandboxNotes = sandboxNotes
        self.command = command
        self.child = child
        self.processIdentifier = child.pid
        self.connection = connection
        self.standardErrorCapture = standardErrorCapture
        self.terminationGracePeriod = terminationGracePeriod
    }

    /// Starts a server process and connects to its standard input and output.
    ///
    /// - Parameters:
    ///   - executable: A path (absolute, or relative to this process's working directory)
    ///     when it contains a slash; otherwise a name looked up in the `PATH` of
    ///     `environment` (or of this process, when `environment` is `nil`; `/usr/bin:/bin`
    ///     when there is none).
    ///   - arguments: The arguments, not including the executable itself.
    ///   - environment: The child's whole environment; `nil` inherits this process's.
    ///   - currentDirectory: The child's working directory; `nil` inherits this process's.
    ///   - standardError: Where the child's standard error goes.
    ///   - sandbox: The box the server runs in; `nil` (the default of this low-level call)
    ///     runs it with this process's rights. Boxed, the server gets a private data directory
    ///     (removed by ``close()``) as its `TMPDIR` and, unless `currentDirectory` names
    ///     another, its working directory; `environment` (or this process's) is only the
    ///     source its environment allowlist picks from; and every process it starts ends with
    ///     the connection.
    ///   - terminationGracePeriod: How long ``close()`` waits at each step of the shutdown.
    ///   - maximumFrameLength: The largest message accepted, in bytes (default 16 MiB).
    /// - Throws: ``TransportError/launchFailure(_:)``, naming the command, when the
    ///   executable cannot be found or started, the working directory does not exist, or the
    ///   box cannot be enforced here (no Landlock, a path to allow is missing) or could not
    ///   be set up (the step that failed and why).
    public static func launch(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        currentDirectory: String? = nil,
        standardError: StandardErrorHandling = .forward,
        sandbox: Sandbox? = nil,
        terminationGracePeriod: Duration = ProcessTransport.defaultTerminationGracePeriod,
        maximumFrameLength: Int = FileDescriptorTransport.defaultMaximumFrameLength
    ) throws -> ProcessTransport {
        try launch(
            executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory, standardError: standardError,
            hook: sandbox, terminationGracePeriod: terminationGracePeriod, maximumFrameLength: maximumFrameLength)
    }

    /// Starts a server process through a launch hook (``Sandbox`` is the one that boxes it)
    /// and connects to its standard input and output.
    ///
    /// The parameters are those of
    /// ``launch(_:arguments:environment:currentDirectory:standardError:sandbox:terminationGracePeriod:maximumFrameLength:)``,
    /// with `launchHook` in place of `sandbox`: the hook prepares the launch before any pipe
    /// is made, starts the server on the transport's pipes, and is cleaned up once the server
    /// has ended.
    ///
    /// - Throws: ``TransportError/launchFailure(_:)``, naming the command, when the
    ///   executable cannot be found, the working directory does not exist, or the hook
    ///   refuses or fails (its ``ProcessLaunchError``'s message).
    public static func launch(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        currentDirectory: String? = nil,
        standardError: StandardErrorHandling = .forward,
        launchHook: any ProcessLaunchHook,
        terminationGracePeriod: Duration = ProcessTransport.defaultTerminationGracePeriod,
        maximumFrameLength: Int = FileDescriptorTransport.defaultMaximumFrameLength
    ) throws -> ProcessTransport {
        try launch(
            executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory, standardError: standardError,
            hook: launchHook, terminationGracePeriod: terminationGracePeriod, maximumFrameLength: maximumFrameLength)
    }

    /// Sends one message to the child's standard input (queued for the writing thread).
    ///
    /// - Throws: ``TransportError/closed`` after ``close()`` or once the child has closed
    ///   its input (for example because it exited).
    public nonisolated(nonsending) func send(_ message: JSONRPCMessage) async throws {
        try await connection.send(message)
    }

    /// The messages the child writes to its standard output; finishes when the child closes
    /// it (normally by exiting) or after ``close()``.
    public func receive() -> AsyncThrowingStream<InboundMessage, any Error> {
        connection.receive()
    }

    /// How the child ended, waiting for it to end if it has not.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public var exitStatus: ExitStatus {
        get async throws {
            guard let status = await child.exit.wait() else { throw CancellationError() }
            return status
        }
    }

    /// The last bytes the child has written to standard error so far, as text (invalid
    /// UTF-8 replaced); empty unless launched with `standardError: .capture` or `.forward`.
    public func capturedStandardError() -> String {
        standardErrorCapture?.text ?? ""
    }

    /// Waits until the child's standard error is closed (normally when the child and any
    /// process it started have exited), then returns ``capturedStandardError()``.
    ///
    /// Returns at once when standard error is not captured, and early (with what has been
    /// captured so far) when the calling task is cancelled.
    public func capturedStandardErrorAtEnd() async -> String {
        guard let standardErrorCapture else { return "" }
        _ = await standardErrorCapture.ended.wait()
        return standardErrorCapture.text
    }

    /// Shuts the child down and closes the connection.
    ///
    /// 1. Stops accepting messages and finishes the inbound stream; messages already queued
    ///    are written, then the child's standard input is closed (its cue to exit).
    /// 2. Waits up to ``terminationGracePeriod`` for the child to exit, then sends `SIGTERM`.
    /// 3. Waits up to ``terminationGracePeriod`` again, then sends `SIGKILL`, and waits for the
    ///    child to be reaped.
    ///
    /// Calling it again, or from several tasks, waits for the same shutdown. Cancelling the
    /// calling task skips the remaining waits: the child is then killed at once.
    public func close() async {
        guard closeState.begin(child) else {
            _ = await closeState.done.wait()
            return
        }
        await Self.shutDown(child, connection: connection, gracePeriod: terminationGracePeriod, prepared: prepared)
        closeState.done.fulfill(())
    }

    /// The safety net for a transport dropped without ``close()``: the same shutdown runs in
    /// a task of its own (input closed, then `SIGTERM`, then `SIGKILL`), so the child never
    /// outlives its transport by more than two grace periods.
    deinit {
        guard closeState.begin(child) else { return }
        let (child, connection, gracePeriod, prepared) = (child, connection, terminationGracePeriod, prepared)
        Task { await Self.shutDown(child, connection: connection, gracePeriod: gracePeriod, prepared: prepared) }
    }

    /// MCP's stdio shutdown: close the child's input, wait, `SIGTERM`, wait, `SIGKILL`; then
    /// whatever is left of the box goes, and its private data directory.
    ///
    /// A boxed server with a PID namespace of its own is that namespace's first process: it
    /// ignores `SIGTERM` unless it handles it, and when it ends, the kernel ends every process
    /// it started. Without the namespace, the signals go to its process group.
    private static func shutDown(
        _ child: ChildProcess, connection: FileDescriptorTransport, gracePeriod: Duration, prepared: (any PreparedProcessLaunch)?
    ) async {
        defer { prepared?.cleanUp() }
        connection.beginClose()
        if await child.waitForExit(within: gracePeriod) == nil {
            child.signal(POSIX.terminateSignal)
            if await child.waitForExit(within: gracePeriod) == nil {
                child.signal(POSIX.killSignal)
                _ = await child.exit.wait()
            }
        }
    }
}

extension ProcessTransport: TransportEndReporting {
    /// How long the end of the child's output waits for the child to exit (the usual reason
    /// for it), and then for the end of its standard error, before saying what it knows.
    static let endReportGracePeriod: Duration = .milliseconds(500)

    /// "the server process (cmd) closed its output and exited with status 3; its standard error ended with: …", or "the
    /// server process closed its output (it is still running)".
    func endDescription() async -> String? {
        var description: String
        // An exit that comes only after this side began closing the child's input is the
        // child obeying the shutdown, not the reason its output ended.
        if let status = await child.waitForExit(within: Self.endReportGracePeriod), closeState.exitPrecededClose(status) {
            description = "the server process (\(command)) closed its output and \(status)"
            if let standardErrorCapture {
                // The child is gone; its standard error ends with it (unless a process it
                // started still holds it open).
                _ = await standardErrorCapture.ended.wait(within: Self.endReportGracePeriod)
            }
        } else {
            description = "the server process (\(command)) closed its output (it is still running)"
        }
        let text = standardErrorCapture?.text ?? ""
        let tail = Self.lastLines(of: text)
        if !tail.isEmpty { description += "; its standard error ended with: \(tail)" }
        if let explanation = prepared?.explanation(ofStandardError: text) {
            description += "; \(explanation)"
        }
        return description
    }

    /// The last few non-empty lines of `text`, on one line, at most about 500 characters.
    static func lastLines(of text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace) }
            .filter { !$0.isEmpty }
        var joined = lines.suffix(3).joined(separator: " | ")
        if joined.count > 500 { joined = "…" + String(joined.suffix(500)) }
        return joined
    }
}

/// Makes ``ProcessTransport/close()`` run its shutdown once.
private final class CloseState: Sendable {
    /// Whether the shutdown began, and whether the child had already exited then.
    private struct State {
        var started = false
        var exitedBeforeShutdown = false
    }

    private let state = LockedValue(State())
    let done = OneShot<Void>()

    /// Whether the child's exit with `status` came on its own: before this side began closing it.
    func exitPrecededClose(_ status: ProcessTransport.ExitStatus) -> Bool {
        state.withLock { !$0.started || $0.exitedBeforeShutdown }
    }

    /// `true` for the first caller only; `child` is looked at to tell later whether it exited
    /// on its own.
    func begin(_ child: ChildProcess) -> Bool {
        let exited = child.exit.current != nil
        return state.withLock { state in
            defer { state.started = true }
            if !state.started { state.exitedBeforeShutdown = exited }
            return !state.started
        }
    }
}

#endif  // MCP_CAN_SPAWN
