internal import MCPPlatform

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if MCP_CAN_SPAWN

/// One boxed server launch: the plan, its private data directory and control groups, and the
/// spawn that applies the box in the child before it executes the server.
///
/// No helper program and no command line carries the box: the plan stays in this process's
/// memory, and the child (CMCPPlatform, between `clone` and `execve`) applies it.
final class BoxedLaunch: PreparedProcessLaunch {
    /// What the child applies.
    let plan: SandboxLaunchPlan
    /// The server's private data directory (with `tmp` inside, its `TMPDIR`, and `home`, its
    /// `HOME` unless the box allows the real one).
    let dataDirectory: String
    /// The server's working directory; `nil`: its data directory.
    private let currentDirectory: String?
    #if os(Linux)
    /// The whole box's task and memory limits, where they could be made.
    private let controlGroups: ControlGroups
    #endif

    /// Checks that the box can be enforced here and makes the data directory (and, on Linux,
    /// the control groups).
    ///
    /// - Throws: ``ProcessLaunchError`` saying what is missing; nothing is left
    ///   behind then.
    init(
        sandbox: Sandbox, executable: String, path: String, arguments: [String], baseEnvironment: [String: String],
        currentDirectory: String?
    ) throws(ProcessLaunchError) {
        let parent = sandbox.dataDirectoryParent ?? FileManager.default.temporaryDirectory.path(percentEncoded: false)
        let directory: String
        do {
            directory = try POSIX.makePrivateDirectory(in: parent, prefix: "ondevice-mcp-box-")
        } catch {
            throw ProcessLaunchError.cannotLaunch("cannot launch '\(executable)' in its box: cannot make its data directory: \(error)")
        }
        do {
            try POSIX.makeDirectory(directory + "/tmp")
            try POSIX.makeDirectory(directory + "/home")
            let plan = try SandboxLaunchPlan(
                sandbox: sandbox, executable: executable, path: path, arguments: arguments, baseEnvironment: baseEnvironment,
                dataDirectory: directory, currentDirectory: currentDirectory)
            if let problem = plan.enforcementProblem() {
                throw ProcessLaunchError.cannotLaunch("cannot launch '\(executable)' in its box: \(problem)")
            }
            self.plan = plan
        } catch let error as ProcessLaunchError {
            Self.removeDataDirectory(directory)
            throw error
        } catch {
            Self.removeDataDirectory(directory)
            throw ProcessLaunchError.cannotLaunch("cannot launch '\(executable)' in its box: cannot make its data directory: \(error)")
        }
        dataDirectory = directory
        self.currentDirectory = currentDirectory
        #if os(Linux)
        controlGroups = ControlGroups.make(taskLimit: plan.processLimit, memoryLimit: plan.memoryLimit)
        #endif
    }

    /// Starts the server in its box, on the given standard input, output and error (`nil`:
    /// this process's).
    ///
    /// - Throws: ``ProcessLaunchError`` naming the step that failed and why.
    func spawn(standardInput: Int32, standardOutput: Int32, standardError: Int32?) throws(ProcessLaunchError) -> StartedProcess {
        do {
            return try start(standardInput: standardInput, standardOutput: standardOutput, standardError: standardError)
        } catch let error as ProcessLaunchError {
            throw error
        } catch {
            throw .cannotLaunch("cannot launch '\(plan.programName)' in its box: \(error)")
        }
    }

    /// The server's private data directory.
    var sandboxDataDirectory: String? { dataDirectory }

    /// What a refusal of the box the server reported on its standard error was (a
    /// ``SandboxDenial``), in a sentence.
    func explanation(ofStandardError text: String) -> String? {
        SandboxDenial(standardError: text)?.description
    }

    private func start(standardInput: Int32, standardOutput: Int32, standardError: Int32?) throws -> StartedProcess {
        var request = BoxSpawn.Request(
            path: plan.executable, arguments: [plan.programName] + plan.arguments,
            environment: plan.environment.keys.sorted().map { "\($0)=\(plan.environment[$0] ?? "")" },
            standardInput: standardInput, standardOutput: standardOutput)
        request.standardError = standardError
        request.directory = currentDirectory ?? dataDirectory
        request.limits = Self.resourceLimits(of: plan)
        #if os(Linux)
        request.newSessionKeyring = true
        request.dropsPrivileges = true
        request.cgroupProcs = controlGroups.procsDescriptors
        if case .available(let abi) = Landlock.support() {
            let network = !plan.allowsNetwork && abi >= Landlock.networkABI ? Landlock.bindTCP | Landlock.connectTCP : 0
            let size = abi >= Landlock.scopeABI ? 24 : abi >= Landlock.networkABI ? 16 : 8
            request.landlock = (size, Landlock.fileSystemRights(abi: abi), network, abi >= Landlock.scopeABI ? Landlock.allScopes : 0)
            request.rules =
                plan.readablePaths.map { ($0, Landlock.readRights) } + plan.writablePaths.map { ($0, Landlock.fileSystemRights(abi: abi)) }
        }
        var notes = controlGroups.notes
        do {
            let started = try spawn(request, namespaces: true)
            return StartedProcess(processIdentifier: started.processIdentifier, leadsProcessGroup: false, notes: notes + started.notes)
        } catch let failure as NamespaceFailure {
            notes.append(
                "no namespaces of its own (\(failure.reason)): the file system is not read-only outside its paths (so every change of a file's mode, owner, times or extended attributes is refused instead), /proc shows other processes, and a process it starts in a session of its own can outlive it"
            )
        }
        let started = try spawn(request, namespaces: false)
        return StartedProcess(processIdentifier: started.processIdentifier, leadsProcessGroup: true, notes: notes + started.notes)
        #elseif os(macOS)
        do {
            request.path = SandboxProfile.sandboxExec
            request.arguments = try plan.sandboxExecCommandLine()
        } catch {
            throw ProcessLaunchError.cannotLaunch("cannot launch '\(plan.programName)' in its box: \(error)")
        }
        let started = try spawn(request)
        return StartedProcess(processIdentifier: started.processIdentifier, leadsProcessGroup: true, notes: started.notes)
        #else
        // Unreachable: ``SandboxLaunchPlan/enforcementProblem()`` refuses the box here first.
        throw ProcessLaunchError.cannotLaunch("cannot launch '\(plan.programName)' in its box: no process box on this platform")
        #endif
    }

    #if os(Linux)
    /// The kernel would not make the box's namespaces: the launch goes on without them.
    private struct NamespaceFailure: Error {
        let reason: String
    }

    /// The stages that only the namespaces need: a failure there means trying without them.
    private static let namespaceStages: Set<BoxSpawn.Stage> = [.userMaps, .mountPrivate, .mountReadOnly, .mountData, .dataSubdirectory]

    /// Spawns with or without the box's namespaces.
    private func spawn(_ base: BoxSpawn.Request, namespaces: Bool) throws -> (processIdentifier: Int32, notes: [String]) {
        var request = base
        request.filter = Seccomp.filter(
            Seccomp.Policy(
                allowsNetwork: plan.allowsNetwork, allowsUnixSockets: plan.allowsUnixSockets, refusesMetadataChanges: !namespaces))
        if namespaces {
            // CLONE_NEWPID, CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWNET; CLONE_NEWUSER for anyone but root.
            var flags: Int32 = 0x2000_0000 | 0x0002_0000 | 0x0800_0000
            if !plan.allowsNetwork { flags |= 0x4000_0000 }
            if !POSIX.isRoot {
                flags |= 0x1000_0000
                request.userMap = "\(POSIX.userID) \(POSIX.userID) 1\n"
                request.groupMap = "\(POSIX.groupID) \(POSIX.groupID) 1\n"
            }
            request.namespaces = flags
            request.readOnlyMounts = true
            request.writablePaths = plan.writablePaths
                .filter { $0 != dataDirectory && !SandboxLaunchPlan.systemWritablePaths.contains($0) }
                .map { ($0, POSIX.isOnReadOnlyFileSystem($0)) }
            let size = plan.dataDirectorySizeLimit.map { "size=\($0)," } ?? ""
            request.dataDirectory = (dataDirectory, size + "mode=0700", [dataDirectory + "/tmp", dataDirectory + "/home"])
            request.mountsProc = true
        }
        do {
            let started = try BoxSpawn.spawn(request)
            return (started.processIdentifier, started.notes.map { Self.describe($0, in: request, program: plan.programName) })
        } catch {
            if namespaces, error.report == nil, error.error.isNamespaceRefusal {
                throw NamespaceFailure(reason: "clone: \(error.error.message)")
            }
            if namespaces, let report = error.report, Self.namespaceStages.contains(report.stage) {
                throw NamespaceFailure(reason: Self.describe(report, in: request, program: plan.programName))
            }
            throw Self.launchFailure(error, request: request, program: plan.programName)
        }
    }
    #elseif os(macOS)
    private func spawn(_ request: BoxSpawn.Request) throws -> (processIdentifier: Int32, notes: [String]) {
        do {
            let started = try BoxSpawn.spawn(request)
            return (started.processIdentifier, started.notes.map { Self.describe($0, in: request, program: plan.programName) })
        } catch {
            throw Self.launchFailure(error, request: request, program: plan.programName)
        }
    }
    #endif

    /// The error for a failed spawn: what the child was doing, on which path, and why.
    private static func launchFailure(_ failure: BoxSpawn.Failure, request: BoxSpawn.Request, program: String) -> ProcessLaunchError {
        guard let report = failure.report else {
            return .cannotLaunch("cannot launch '\(program)' in its box: \(failure.error)")
        }
        if report.stage == .exec {
            return .cannotLaunch("cannot launch '\(program)': \(request.path): \(report.error.message) (in its box)")
        }
        return .cannotLaunch("cannot launch '\(program)' in its box: \(describe(report, in: request, program: program))")
    }

    /// A report in words: the step, the path or limit it concerns, the error.
    private static func describe(_ report: BoxSpawn.Report, in request: BoxSpawn.Request, program: String) -> String {
        var subject = ""
        if let index = report.index {
            switch report.stage {
            case .mountWritable where index < request.writablePaths.count: subject = " \(request.writablePaths[index].path)"
            case .landlockRule where index < request.rules.count: subject = " for \(request.rules[index].path)"
            case .dataSubdirectory:
                if let data = request.dataDirectory, index < data.subdirectories.count { subject = " \(data.subdirectories[index])" }
            case .limit where index < request.limits.count: subject = " (resource \(request.limits[index].resource))"
            default: break
            }
        }
        return "\(report.stage)\(subject): \(report.error.message) (errno \(report.error.code))"
    }

    /// The per-process limits the child sets: each lowered to this process's hard limit (only
    /// a privileged process could raise one); CPU time with a hard limit a second above the
    /// soft one (`SIGXCPU` first, then `SIGKILL`).
    static func resourceLimits(of plan: SandboxLaunchPlan) -> [(resource: Int32, soft: UInt64, hard: UInt64)] {
        var limits: [(resource: Int32, soft: UInt64, hard: UInt64)] = []
        let wanted: [(ResourceLimits.Resource, Int?)] = [
            (.openFiles, plan.openFileLimit), (.fileSize, plan.fileSizeLimit), (.cpuTime, plan.cpuTimeLimit),
            (.addressSpace, plan.memoryLimit),
        ]
        for case (let resource, let value?) in wanted {
            let cap = ResourceLimits.hardLimit(resource)
            let soft = min(UInt64(max(0, value)), cap)
            let hard = resource == .cpuTime ? min(soft &+ 1, cap) : soft
            limits.append((resource.number, soft, hard))
        }
        return limits
    }

    /// Ends whatever is left of the box (its control groups' processes) and removes its
    /// control groups and data directory; call it once the server has ended.
    func cleanUp() {
        #if os(Linux)
        controlGroups.remove()
        #endif
        Self.removeDataDirectory(dataDirectory)
    }

    /// Removes a data directory and everything in it (errors are ignored: it is in a
    /// temporary directory).
    static func removeDataDirectory(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}

#endif
