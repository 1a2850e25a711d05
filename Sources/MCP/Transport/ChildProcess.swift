internal import MCPPlatform

// Processes can be started on macOS, Mac Catalyst and Linux only (MCP_CAN_SPAWN, Package.swift).
#if MCP_CAN_SPAWN

/// A spawned child: waited for from the start, signalled safely.
///
/// With the event loop (the default on Linux, see ``FileDescriptorTransport/defaultEngine``) on Linux 5.3 and
/// later, the child's end is a readable `pidfd` on the process's
/// ``MCPPlatform/EventLoop``: no thread per child. Elsewhere (Darwin included, whose kqueue
/// loop has no `pidfd`) a dedicated thread waits with `waitid(WNOWAIT)`, which does not reap. Either way the child is reaped with the lock held,
/// and ``signal(_:)`` takes the same lock and never signals a reaped child, so a signal can
/// never reach an unrelated process that was given the same pid after the child was reaped.
final class ChildProcess: Sendable {
    let pid: Int32
    /// Whether signals go to the child's process group (a boxed server without a PID
    /// namespace of its own leads one).
    let leadsProcessGroup: Bool
    let exit = OneShot<ProcessTransport.ExitStatus>()
    /// Whether the child was reaped (after which its pid may name another process).
    private let reaped = LockedValue(false)

    /// Starts waiting for the child.
    ///
    /// - Throws: ``Errno`` when the waiting thread cannot be started (only where there is no
    ///   event loop or no `pidfd`).
    init(pid: Int32, leadsProcessGroup: Bool = false) throws(Errno) {
        self.pid = pid
        self.leadsProcessGroup = leadsProcessGroup
        if let loop = FileDescriptorTransport.defaultLoop, let processDescriptor = POSIX.openProcessDescriptor(pid) {
            do throws(Errno) {
                let waiter = ExitWaiter(child: self, descriptor: processDescriptor)
                let registration = try loop.register(processDescriptor, interest: .readable, handler: waiter)
                waiter.registration.withLock { $0 = registration }
                return
            } catch {
                POSIX.close(processDescriptor)
            }
        }
        try POSIX.startThread(named: "MCP child \(pid) waiter") { [self] in
            _ = POSIX.waitUntilEnded(pid)
            reap()
        }
    }

    /// The child has ended: reaps it and reports how.
    fileprivate func reap() {
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

/// The event loop's handler for a child's `pidfd`: readable once the child has ended.
private final class ExitWaiter: EventLoopHandler {
    let child: ChildProcess
    let descriptor: Int32
    let registration = LockedValue<EventLoopRegistration?>(nil)

    init(child: ChildProcess, descriptor: Int32) {
        self.child = child
        self.descriptor = descriptor
    }

    func ready(_ readiness: EventLoop.Readiness) {
        guard let registration = registration.withLock({ $0 }) else { return }
        child.reap()
        registration.cancel()
    }

    func deregistered() {
        POSIX.close(descriptor)
    }
}

#endif  // MCP_CAN_SPAWN
