#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import MCPPlatform

/// One boxed server launch, made ready: the launcher to start, its arguments, the plan it
/// carries and the private data directory made for it.
struct BoxedLaunch {
    /// The launcher executable.
    let launcher: String
    /// The launcher's arguments: ``SandboxLauncher/launchArgument`` and the plan as JSON.
    let launcherArguments: [String]
    /// What the launcher applies.
    let plan: SandboxLaunchPlan
    /// The server's private data directory (with `tmp` inside, its `TMPDIR`, and `home`,
    /// its `HOME` unless the box allows the real one).
    let dataDirectory: String

    /// Checks that the box can be enforced here, finds a launcher and makes the data directory.
    ///
    /// - Throws: ``TransportError/launchFailure(_:)`` saying what is missing; nothing is
    ///   left behind then.
    init(
        sandbox: Sandbox, executable: String, path: String, arguments: [String], baseEnvironment: [String: String],
        currentDirectory: String?
    ) throws {
        launcher = try SandboxLauncher.locate(for: sandbox, command: executable, environment: ProcessInfo.processInfo.environment)
        let parent = sandbox.dataDirectoryParent ?? FileManager.default.temporaryDirectory.path(percentEncoded: false)
        let directory: String
        do {
            directory = try POSIX.makePrivateDirectory(in: parent, prefix: "ondevice-mcp-box-")
        } catch {
            throw TransportError.launchFailure("cannot launch '\(executable)' in its box: cannot make its data directory: \(error)")
        }
        do {
            try POSIX.makeDirectory(directory + "/tmp")
            try POSIX.makeDirectory(directory + "/home")
        } catch {
            Self.removeDataDirectory(directory)
            throw TransportError.launchFailure("cannot launch '\(executable)' in its box: cannot make its data directory: \(error)")
        }
        do {
            let plan = try SandboxLaunchPlan(
                sandbox: sandbox, executable: executable, path: path, arguments: arguments, baseEnvironment: baseEnvironment,
                dataDirectory: directory, currentDirectory: currentDirectory)
            if let problem = plan.enforcementProblem() {
                throw TransportError.launchFailure("cannot launch '\(executable)' in its box: \(problem)")
            }
            self.plan = plan
        } catch {
            Self.removeDataDirectory(directory)
            throw error
        }
        dataDirectory = directory
        launcherArguments = [SandboxLauncher.launchArgument, plan.json]
    }

    /// Removes a data directory and everything in it (errors are ignored: it is in a
    /// temporary directory).
    static func removeDataDirectory(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
