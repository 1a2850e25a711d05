internal import MCPCore
internal import MCPPlatform
internal import MCPSandbox

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if MCP_CAN_SPAWN

// Launching: finding the executable, preparing the launch through its hook, starting the
// child on pipes, and connecting to it.
extension ProcessTransport {
    static func launch(
        _ executable: String, arguments: [String], environment: [String: String]?, currentDirectory: String?,
        standardError: StandardErrorHandling, hook: (any ProcessLaunchHook)?, terminationGracePeriod: Duration, maximumFrameLength: Int
    ) throws -> ProcessTransport {
        POSIX.ignoreBrokenPipeSignal()
        let baseEnvironment = environment ?? ProcessInfo.processInfo.environment
        let resolved = try resolve(executable, searchPath: baseEnvironment["PATH"])
        if let currentDirectory, !POSIX.isDirectory(currentDirectory) {
            throw TransportError.launchFailure(
                "cannot launch '\(executable)': the working directory '\(currentDirectory)' does not exist")
        }
        let request = ProcessLaunchRequest(
            executable: executable, path: resolved, arguments: arguments, environment: baseEnvironment, currentDirectory: currentDirectory)
        let prepared: (any PreparedProcessLaunch)?
        do {
            prepared = try hook?.prepareLaunch(request)
        } catch {
            throw TransportError.launchFailure(error.message)
        }
        do {
            return try start(
                executable, path: resolved, arguments: arguments, environment: baseEnvironment, currentDirectory: currentDirectory,
                standardError: standardError, prepared: prepared, terminationGracePeriod: terminationGracePeriod,
                maximumFrameLength: maximumFrameLength)
        } catch {
            prepared?.cleanUp()
            throw error
        }
    }

    /// Starts the server at `path` (through its prepared launch, when there is one) and
    /// connects to it.
    static func start(
        _ executable: String, path: String, arguments: [String], environment: [String: String], currentDirectory: String?,
        standardError: StandardErrorHandling, prepared: (any PreparedProcessLaunch)?, terminationGracePeriod: Duration,
        maximumFrameLength: Int
    ) throws -> ProcessTransport {

        var opened: [Int32] = []
        func makePipe() throws -> (read: Int32, write: Int32) {
            do {
                let pipe = try POSIX.makePipe()
                opened += [pipe.read, pipe.write]
                return pipe
            } catch {
                throw TransportError.launchFailure("cannot launch '\(executable)': \(error)")
            }
        }
        let input: (read: Int32, write: Int32)
        let output: (read: Int32, write: Int32)
        let errorPipe: (read: Int32, write: Int32)?
        let pid: Int32
        var leadsProcessGroup = false
        var notes: [String] = []
        do {
            input = try makePipe()
            output = try makePipe()
            var childError = POSIX.ChildStandardError.inherit
            switch standardError.mode {
            case .inherit:
                errorPipe = nil
            case .discard:
                errorPipe = nil
                childError = .null
            case .capture, .forward:
                let pipe = try makePipe()
                errorPipe = pipe
                childError = .descriptor(pipe.write)
            }
            if let prepared {
                var errorDescriptor: Int32?
                var null: Int32?
                switch childError {
                case .inherit: break
                case .descriptor(let descriptor): errorDescriptor = descriptor
                case .null:
                    do {
                        null = try POSIX.openNullDevice()
                    } catch {
                        throw TransportError.launchFailure("cannot launch '\(executable)': \(error)")
                    }
                    errorDescriptor = null
                }
                defer { if let null { POSIX.close(null) } }
                let started: StartedProcess
                do {
                    started = try prepared.spawn(standardInput: input.read, standardOutput: output.write, standardError: errorDescriptor)
                } catch {
                    throw TransportError.launchFailure(error.message)
                }
                (pid, leadsProcessGroup, notes) = (started.processIdentifier, started.leadsProcessGroup, started.notes)
            } else {
                do {
                    pid = try POSIX.spawn(
                        path: path, arguments: arguments, environment: environment,
                        currentDirectory: currentDirectory,
                        standardInput: input.read, standardOutput: output.write, standardError: childError)
                } catch {
                    throw TransportError.launchFailure("cannot launch '\(executable)': \(error)")
                }
            }
        } catch {
            for descriptor in opened { POSIX.close(descriptor) }
            throw error
        }
        // The child has its own copies of these ends; ours must go so that end of file works.
        POSIX.close(input.read)
        POSIX.close(output.write)
        if let errorPipe { POSIX.close(errorPipe.write) }

        let child: ChildProcess
        do {
            child = try ChildProcess(pid: pid, leadsProcessGroup: leadsProcessGroup)
        } catch {
            // Out of threads: nothing would reap the child, so end and reap it here.
            for descriptor in [output.read, input.write] + (errorPipe.map { [$0.read] } ?? []) {
                POSIX.close(descriptor)
            }
            POSIX.send(signal: POSIX.killSignal, to: pid)
            _ = POSIX.waitUntilEnded(pid)
            _ = POSIX.reap(pid)
            throw TransportError.launchFailure("cannot launch '\(executable)': cannot start a thread: \(error)")
        }
        var capture: StandardErrorCapture?
        if let errorPipe {
            let forward: Int32?
            let limit: Int
            switch standardError.mode {
            case .capture(let kept):
                (forward, limit) = (nil, kept)
            case .forward(let kept):
                (forward, limit) = (2, kept)  // this process's standard error
            case .inherit, .discard:
                (forward, limit) = (nil, 0)
            }
            do {
                capture = try StandardErrorCapture(reading: errorPipe.read, keepingLast: limit, forwardingTo: forward)
            } catch {
                POSIX.close(errorPipe.read)
                POSIX.close(output.read)
                POSIX.close(input.write)
                child.signal(POSIX.killSignal)  // Its waiter thread reaps it.
                throw TransportError.launchFailure("cannot launch '\(executable)': cannot start a thread: \(error)")
            }
        }
        let connection: FileDescriptorTransport
        do {
            connection = try FileDescriptorTransport(
                readingFrom: output.read, writingTo: input.write,
                closesInput: true, closesOutput: true, maximumFrameLength: maximumFrameLength)
        } catch {
            // Out of descriptors: the child cannot be spoken to, so it must not outlive this call.
            POSIX.close(output.read)
            POSIX.close(input.write)
            child.signal(POSIX.killSignal)  // Its waiter thread reaps it.
            throw error
        }
        return ProcessTransport(
            command: executable, child: child, connection: connection,
            standardErrorCapture: capture, terminationGracePeriod: terminationGracePeriod, prepared: prepared, sandboxNotes: notes)
    }

    /// Finds the file to execute, the way a shell does.
    static func resolve(_ executable: String, searchPath: String?) throws -> String {
        guard !executable.isEmpty else {
            throw TransportError.launchFailure("cannot launch a command with an empty name")
        }
        if executable.contains("/") {
            let path =
                executable.hasPrefix("/")
                ? executable : FileManager.default.currentDirectoryPath + "/" + executable
            guard POSIX.isExecutableFile(path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "is not an executable file" : "does not exist"
                throw TransportError.launchFailure("cannot launch '\(executable)': \(path) \(reason)")
            }
            return path
        }
        let directories = (searchPath ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        for directory in directories {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + executable
            if POSIX.isExecutableFile(candidate) { return candidate }
        }
        throw TransportError.launchFailure(
            "cannot launch '\(executable)': no executable of that name in PATH (\(searchPath ?? "unset"))")
    }
}

#endif  // MCP_CAN_SPAWN
