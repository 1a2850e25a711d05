/// Changes how a server process is started: the process transport asks a hook to prepare each
/// launch, has the prepared launch start the server on the transport's pipes, and cleans it up
/// once the server has ended.
///
/// ``Sandbox`` is the hook that boxes a server; `MCP`'s `ProcessTransport` and
/// `ServerEndpoint.process(…)` use it for their `sandbox:` parameter, and take any other hook
/// as `launchHook:`. The transport knows nothing of how a box is built: only this protocol.
///
/// The hook runs before any pipe is made, so a launch it refuses leaves nothing behind.
public protocol ProcessLaunchHook: Sendable {
    /// Prepares the launch `request` describes.
    ///
    /// - Throws: ``ProcessLaunchError`` saying, in a sentence that names the command, why the
    ///   launch cannot be made here; nothing is left behind then.
    func prepareLaunch(_ request: ProcessLaunchRequest) throws(ProcessLaunchError) -> any PreparedProcessLaunch
}

/// A launch a ``ProcessLaunchHook`` prepared: it starts the server once, and cleans up after it.
public protocol PreparedProcessLaunch: Sendable {
    /// A private data directory the launch made for the server, if it made one (a box's, with
    /// the server's `TMPDIR` in it); removed by ``cleanUp()``.
    var sandboxDataDirectory: String? { get }

    /// Starts the server on the given descriptors: its standard input, output, and error
    /// (`nil`: this process's).
    ///
    /// - Throws: ``ProcessLaunchError`` naming the step that failed and why.
    func spawn(standardInput: Int32, standardOutput: Int32, standardError: Int32?) throws(ProcessLaunchError) -> StartedProcess

    /// What the server's standard error `text` says about the launch's limits (a box's
    /// refusal, in a sentence), when it says something; `nil` otherwise.
    func explanation(ofStandardError text: String) -> String?

    /// Removes what the launch made (whatever is left of a box, its data directory). Called
    /// once, after the server has ended or when it could not be started.
    func cleanUp()
}

/// What a ``ProcessLaunchHook`` is asked to start.
public struct ProcessLaunchRequest: Hashable, Sendable {
    /// The command as given (a name or a path), for messages.
    public var executable: String
    /// The file to execute, already looked up.
    public var path: String
    /// The arguments, not including the executable itself.
    public var arguments: [String]
    /// The environment the launch starts from (for a box, the source its allowlist picks from).
    public var environment: [String: String]
    /// The server's working directory; `nil`: the hook's choice (this process's, or a box's
    /// data directory).
    public var currentDirectory: String?

    public init(executable: String, path: String, arguments: [String], environment: [String: String], currentDirectory: String?) {
        self.executable = executable
        self.path = path
        self.arguments = arguments
        self.environment = environment
        self.currentDirectory = currentDirectory
    }
}

/// A server a ``PreparedProcessLaunch`` started.
public struct StartedProcess: Hashable, Sendable {
    /// The server's process id.
    public var processIdentifier: Int32
    /// Whether the server leads a process group of its own, so that signals go to the group
    /// (`false` when it is the first process of a PID namespace, which takes its processes
    /// with it).
    public var leadsProcessGroup: Bool
    /// What the launch went without, in words (a box's missing protections).
    public var notes: [String]

    public init(processIdentifier: Int32, leadsProcessGroup: Bool, notes: [String] = []) {
        self.processIdentifier = processIdentifier
        self.leadsProcessGroup = leadsProcessGroup
        self.notes = notes
    }
}

/// Why a ``ProcessLaunchHook`` could not prepare or start a launch.
public struct ProcessLaunchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure it is; more kinds may come.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public var description: String { name }

        /// The launch cannot be made: what it needs is missing here, or a step failed.
        public static let cannotLaunch = Kind(name: "cannotLaunch")
    }

    public let kind: Kind
    /// The failure in a sentence that names the command.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// A launch that cannot be made, in `message`.
    static func cannotLaunch(_ message: String) -> ProcessLaunchError {
        ProcessLaunchError(.cannotLaunch, message)
    }
}
