internal import MCPPlatform

// Processes cannot be started on watchOS and tvOS (no posix_spawn).
#if !os(watchOS) && !os(tvOS)

/// A spawned child: waited for by a dedicated thread from the start, signalled safely.
///
/// The thread waits with `waitid(WNOWAIT)`, which does not reap, then reaps with the lock
/// held. ``signal(_:)`` takes the same lock and never signals a reaped child, so a signal can
/// never reach an unrelated process that was given the same pid after the child was reaped.
final class ChildProcess: Sendable {
    let pid: Int32
    /// Whether signals go to the child's process group (a boxed server without a PID
    /// namespace of its own leads one).
    let leadsProcessGroup: Bool
    let exit = OneShot<ProcessTransport.ExitStatus>()
    /// Whether the waiter thread reaped the child (after which its pid may name another process).
    private let reaped = LockedValue(false)

    /// Starts waiting for the child.
    ///
    /// - Throws: ``Errno`` when the waiting thread cannot be started.
    init(pid: Int32, leadsProcessGroup: Bool = false) throws(Errno) {
        self.pid = pid
        self.leadsProcessGroup = leadsProcessGroup
        try POSIX.startThread(named: "MCP child \(pid) waiter") { [self] in
            _ = POSIX.waitUntilEnded(pid)
            let result: POSIX.ChildExit = reaped.withLock { reaped in
                reaped = true
                return POSIX.reap(pid)
            }
            let status: ProcessTransport.ExitStatus =
                switch result {
                case .exited(let code): .exited(code)
                case .signaled(let signal): .signaled(signal)
                case .unavailable: .unavailable
                }
            exit.fulfill(status)
        }
    }

    /// Sends `signal` to the child (and its process group, when it leads one) unless it has
    /// been reaped: until then its process id, and so its group's, cannot name another process.
    func signal(_ signal: Int32) {
        reaped.withLock { reaped in
            guard !reaped else { return }
            POSIX.send(signal: signal, to: leadsProcessGroup ? -pid : pid)
        }
    }

    /// The exit status, or `nil` if the child is still running after `duration`.
    func waitForExit(within duration: Duration) async -> ProcessTransport.ExitStatus? {
        await exit.wait(within: duration)
    }
}

#endif  // !os(watchOS) && !os(tvOS)
