#if MCP_CAN_SPAWN

/// The box as a launch hook: the process transport's `sandbox:` boxes a server through this.
extension Sandbox: ProcessLaunchHook {
    /// Checks that the box can be enforced here and makes its data directory (and, on Linux,
    /// its control groups); the launch's child applies the box between `clone` and `execve`,
    /// with no launcher.
    ///
    /// - Throws: ``ProcessLaunchError`` saying what is missing (no Landlock, a path to allow
    ///   that does not exist); nothing is left behind then.
    public func prepareLaunch(_ request: ProcessLaunchRequest) throws(ProcessLaunchError) -> any PreparedProcessLaunch {
        try BoxedLaunch(
            sandbox: self, executable: request.executable, path: request.path, arguments: request.arguments,
            baseEnvironment: request.environment, currentDirectory: request.currentDirectory)
    }
}

#endif
