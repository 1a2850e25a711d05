internal import MCPPlatform

extension SandboxLaunchPlan {
    /// The private data directory of this launch: the first writable path that is not a
    /// system device (the plan puts it right after those).
    var dataDirectory: String? {
        writablePaths.first { !Self.systemWritablePaths.contains($0) }
    }

    /// The argument vector that runs this plan's server under `sandbox-exec` with a profile of
    /// the same meaning (``SandboxProfile``): what the launcher executes on macOS, after it has
    /// set the resource limits and the environment itself (a profile does neither).
    ///
    /// Platform-neutral, so that it is compiled and tested on Linux too; only its use is macOS's.
    func sandboxExecCommandLine() throws -> [String] {
        guard let dataDirectory else {
            throw TransportError.launchFailure("cannot box '\(programName)': the plan has no private data directory")
        }
        let box = Sandbox(
            readablePaths: readablePaths.filter { !Self.systemReadablePaths.contains($0) },
            writablePaths: writablePaths.filter { $0 != dataDirectory && !Self.systemWritablePaths.contains($0) },
            allowsNetwork: allowsNetwork)
        let temporary = environment["TMPDIR"].flatMap { Self.isPath($0, within: dataDirectory) ? nil : $0 }
        let profile = try SandboxProfile(
            sandbox: box, executable: executable, dataDirectory: dataDirectory, temporaryDirectory: temporary)
        return profile.commandLine(arguments: arguments)
    }

    /// The resource limits of the plan, in the order the launcher applies them.
    var resourceLimits: [(ResourceLimits.Resource, Int?)] {
        [
            (.openFiles, openFileLimit), (.fileSize, fileSizeLimit), (.processes, processLimit),
            (.cpuTime, cpuTimeLimit), (.addressSpace, memoryLimit),
        ]
    }
}
