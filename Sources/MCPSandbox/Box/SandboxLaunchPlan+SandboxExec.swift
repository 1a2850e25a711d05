internal import MCPPlatform

extension SandboxLaunchPlan {
    /// The argument vector that runs this plan's server under `sandbox-exec` with a profile of
    /// the same meaning (``SandboxProfile``): what the boxed child executes on macOS, after it
    /// has set the resource limits and with the plan's environment (a profile does neither).
    ///
    /// Platform-neutral, so that it is compiled and tested on Linux too; only its use is macOS's.
    func sandboxExecCommandLine() throws -> [String] {
        let box = Sandbox(
            readablePaths: readablePaths.filter { !Self.systemReadablePaths.contains($0) },
            writablePaths: writablePaths.filter { $0 != dataDirectory && !Self.systemWritablePaths.contains($0) },
            allowsNetwork: allowsNetwork)
        let temporary = environment["TMPDIR"].flatMap { Self.isPath($0, within: dataDirectory) ? nil : $0 }
        let profile = try SandboxProfile(
            sandbox: box, executable: executable, dataDirectory: dataDirectory, temporaryDirectory: temporary)
        return profile.commandLine(arguments: arguments)
    }
}
