internal import MCPPlatform

/// The launcher of the process box: a mode of an executable that boxes its own process and
/// then `exec`s the server.
///
/// A boxed server is not started directly. The library starts a launcher (an executable
/// that calls ``runIfRequested(_:)`` first thing, such as `ondevice-mcp`) with a private first
/// argument and the box's description; the launcher, alone in its new process, reduces its
/// environment to the allowlist, lowers its resource limits, drops every capability (so a
/// server started by root has none), sets `PR_SET_NO_NEW_PRIVS`, confines itself with Landlock
/// (and, when the network is closed, a seccomp filter against Multipath TCP sockets and
/// `listen`, which Landlock's TCP rules miss) and then replaces itself with the server (`execve`), which
/// keeps all of that and can never undo it.
///
/// An app that does not ship `ondevice-mcp` can be its own launcher:
///
/// ```swift
/// // main.swift, before anything else:
/// SandboxLauncher.runIfRequested()
/// ```
///
/// The library then uses the app's own executable. Otherwise it looks, in order, at
/// ``Sandbox/launcherPath``, the `ONDEVICE_MCP_LAUNCHER` environment variable, an
/// executable that called ``runIfRequested(_:)`` (this one), `ondevice-mcp` next to this
/// executable, and `ondevice-mcp` in `PATH`.
///
/// On failure the launcher writes one line starting `ondevice-mcp sandbox:` to standard error
/// and exits with ``setupFailureStatus`` (the box could not be set up: the server never ran),
/// ``executionFailureStatus`` (the server could not be executed) or ``notFoundStatus``.
public enum SandboxLauncher {
    /// The private first argument that starts launcher mode.
    public static let launchArgument = "--ondevice-mcp-sandbox-launch"
    /// The environment variable that names a launcher.
    public static let launcherEnvironmentVariable = "ONDEVICE_MCP_LAUNCHER"
    /// The launcher's exit status when the box could not be set up (the server never ran).
    public static let setupFailureStatus: Int32 = 125
    /// The launcher's exit status when the server could not be executed.
    public static let executionFailureStatus: Int32 = 126
    /// The launcher's exit status when the server's executable does not exist.
    public static let notFoundStatus: Int32 = 127

    private static let registration = Registration()

    /// Runs the launcher when this process was started as one, and never returns then;
    /// otherwise returns at once (and records that this executable can launch boxed servers).
    ///
    /// Call it first thing in `main`, before any thread is started.
    ///
    /// - Parameter arguments: This process's arguments, program name first.
    public static func runIfRequested(_ arguments: [String] = CommandLine.arguments) {
        registration.mark()
        guard arguments.count >= 2, arguments[1] == launchArgument else { return }
        let failure = launch(Array(arguments.dropFirst(2)))
        let line = "ondevice-mcp sandbox: \(failure.message)\n"
        try? POSIX.writeAll(POSIX.standardError, Array(line.utf8))
        POSIX.exitImmediately(failure.status)
    }

    /// Why launching failed, and the status to exit with.
    struct Failure: Error {
        let status: Int32
        let message: String
    }

    /// Applies the box described by `arguments` (one JSON plan) and executes the server;
    /// returns only on failure.
    static func launch(_ arguments: [String]) -> Failure {
        guard arguments.count == 1, let text = arguments.first else {
            return Failure(status: setupFailureStatus, message: "expected one argument (the box description) after \(launchArgument)")
        }
        let plan: SandboxLaunchPlan
        do {
            plan = try SandboxLaunchPlan(json: text)
        } catch {
            return Failure(status: setupFailureStatus, message: error.description)
        }
        if let problem = plan.enforcementProblem() {
            return Failure(status: setupFailureStatus, message: "cannot box '\(plan.programName)': \(problem)")
        }
        #if os(Linux) || os(macOS)
        return apply(plan)
        #else
        return Failure(status: setupFailureStatus, message: "cannot box '\(plan.programName)': no process box on this platform")
        #endif
    }

    #if os(macOS)
    /// Sets the resource limits and the environment, then executes the server under
    /// `sandbox-exec` with the plan's profile (see ``SandboxLaunchPlan/sandboxExecCommandLine()``).
    /// Not run in this project's CI, which has no Mac (the Security model article says so).
    private static func apply(_ plan: SandboxLaunchPlan) -> Failure {
        let commandLine: [String]
        do {
            commandLine = try plan.sandboxExecCommandLine()
        } catch {
            return Failure(status: setupFailureStatus, message: "cannot box '\(plan.programName)': \(error)")
        }
        let exec = POSIX.PreparedExec(
            path: SandboxProfile.sandboxExec, arguments: commandLine,
            environment: plan.environment.keys.sorted().map { "\($0)=\(plan.environment[$0] ?? "")" })
        do throws(Errno) {
            for case (let resource, let value?) in plan.resourceLimits {
                try ResourceLimits.limit(resource, to: UInt64(value))
            }
        } catch {
            return Failure(status: setupFailureStatus, message: "cannot box '\(plan.programName)': \(error)")
        }
        // sandbox-exec applies the profile and then executes the server; if it is missing or
        // refuses the profile it exits before the server starts: the box fails closed.
        let error = exec.run()
        let status = error.isNoSuchFile ? notFoundStatus : executionFailureStatus
        return Failure(status: status, message: "cannot execute \(SandboxProfile.sandboxExec) to box '\(plan.programName)': \(error.message)")
    }
    #endif

    #if os(Linux)
    /// Confines this process as `plan` says, then executes the server.
    private static func apply(_ plan: SandboxLaunchPlan) -> Failure {
        func setupFailure(_ what: String, _ error: Errno) -> Failure {
            Failure(status: setupFailureStatus, message: "cannot box '\(plan.programName)': \(what): \(error)")
        }
        guard case .available(let abi) = Landlock.support() else {
            return Failure(status: setupFailureStatus, message: "cannot box '\(plan.programName)': Landlock is unavailable")
        }
        // Everything that allocates or looks symbols up happens before the limits are lowered.
        let ruleset: Landlock.Ruleset
        do throws(Errno) {
            ruleset = try Landlock.Ruleset(abi: abi, restrictsNetwork: !plan.allowsNetwork)
        } catch {
            return setupFailure("creating the Landlock ruleset", error)
        }
        for path in plan.readablePaths {
            do throws(Errno) {
                try ruleset.allow(Landlock.readRights, beneath: path)
            } catch {
                return setupFailure("allowing reads beneath \(path)", error)
            }
        }
        for path in plan.writablePaths {
            do throws(Errno) {
                try ruleset.allow(ruleset.handledFileSystem, beneath: path)
            } catch {
                return setupFailure("allowing writes beneath \(path)", error)
            }
        }
        let exec = POSIX.PreparedExec(
            path: plan.executable, arguments: [plan.programName] + plan.arguments,
            environment: plan.environment.keys.sorted().map { "\($0)=\(plan.environment[$0] ?? "")" })
        let limits = plan.resourceLimits
        let failureText = "cannot box '\(plan.programName)': "
        ResourceLimits.prepare()
        Seccomp.prepare()
        do throws(Errno) {
            for case (let resource, let value?) in limits {
                try ResourceLimits.limit(resource, to: UInt64(value))
            }
            try ResourceLimits.dropCapabilities()
            try ResourceLimits.forbidNewPrivileges()
            // Landlock's TCP rules miss Multipath TCP sockets and listen without bind: seccomp refuses those.
            if !plan.allowsNetwork { try Seccomp.closeNetworkGaps() }
            try ruleset.restrictSelf()
        } catch {
            return Failure(status: setupFailureStatus, message: failureText + error.description)
        }
        let error = exec.run()
        let status = error.isNoSuchFile ? notFoundStatus : executionFailureStatus
        return Failure(status: status, message: "cannot execute '\(plan.executable)' in its box: \(error.message)")
    }
    #endif

    // MARK: Finding a launcher

    /// Whether this process called ``runIfRequested(_:)``: then its own executable is a launcher.
    static var thisExecutableCanLaunch: Bool { registration.isMarked }

    /// The launcher to start a boxed server with (see the type's discussion for the order).
    ///
    /// - Throws: ``TransportError/launchFailure(_:)``, saying how to provide one, when there is none.
    static func locate(for sandbox: Sandbox, command: String, environment: [String: String]) throws -> String {
        if let explicit = sandbox.launcherPath {
            guard POSIX.isExecutableFile(explicit) else {
                throw TransportError.launchFailure(
                    "cannot launch '\(command)' in its box: the launcher '\(explicit)' (Sandbox.launcherPath) is not an executable file")
            }
            return explicit
        }
        if let named = environment[launcherEnvironmentVariable], !named.isEmpty {
            guard POSIX.isExecutableFile(named) else {
                throw TransportError.launchFailure(
                    "cannot launch '\(command)' in its box: the launcher '\(named)' (\(launcherEnvironmentVariable)) is not an executable file")
            }
            return named
        }
        let current = POSIX.currentExecutablePath()
        if thisExecutableCanLaunch, let current { return current }
        if let current {
            let sibling = SandboxLaunchPlan.directory(of: current) + "/ondevice-mcp"
            if POSIX.isExecutableFile(sibling) { return sibling }
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/ondevice-mcp"
            if POSIX.isExecutableFile(candidate) { return candidate }
        }
        throw TransportError.launchFailure(
            "cannot launch '\(command)' in its box: no launcher found. Ship the ondevice-mcp executable next to this one "
                + "(or in PATH, or name it in \(launcherEnvironmentVariable) or Sandbox.launcherPath); or call "
                + "SandboxLauncher.runIfRequested() first thing in this program's main; or pass sandbox: nil to run the server unboxed")
    }

    /// Records, for the whole process, that ``runIfRequested(_:)`` was called.
    private final class Registration: @unchecked Sendable {
        // Safety: `marked` is read and written with `lock` held.
        private let lock = Lock()
        private var marked = false

        func mark() { lock.withLock { marked = true } }
        var isMarked: Bool { lock.withLock { marked } }
    }
}
