internal import CMCPPlatform

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's one event loop: a thread that waits for readiness on every registered
/// descriptor at once (epoll on Linux, kqueue on Darwin) and runs small jobs between waits.
///
/// The descriptor transports register their pipes and sockets here instead of each running a
/// reading and a writing thread, so N connections cost one thread, not 2N. A handler is called
/// on the loop's thread when its descriptor is ready; it must not block (it reads what one
/// `read` returns, writes what the descriptor takes without blocking) and must not run long.
///
/// The loop is also a `TaskExecutor`: a task that prefers it runs on the loop's thread between
/// waits (the opt-in fast path of a connection: a request read, handled and answered without
/// waking another thread). Such work shares the thread with every connection's reading, so it
/// must be short or suspend soon.
///
/// It also keeps timers (``execute(after:_:)``): jobs run on its thread once their time has
/// come, at millisecond granularity, which the loop's wait honours without a thread of its own.
///
/// **Lifetime.** The thread starts with the first registration, job or timer and ends when the
/// last registration is gone and no job or timer is pending, after waiting ``linger`` for new work (the
/// process's loop: one second, so that a client making one HTTP exchange after another, each
/// registering and leaving, does not start a thread for each); the next registration starts it
/// again. The
/// poller's descriptor lives for the process (one descriptor, and an `eventfd` on Linux).
/// Nothing has to be closed.
///
/// **Where it exists.** Linux (epoll) and Darwin (kqueue, with an `EVFILT_USER` waker; the
/// same level-triggered contract, see `CMCPPlatform.h`). The kqueue backend is checked only on
/// Linux, against libkqueue (`scripts/check-kqueue.sh`, where libkqueue is installed): it has
/// not been built or run on an Apple system yet. On other systems ``shared`` is `nil` and the
/// transports keep their own threads.
package final class EventLoop: Sendable {
    /// What a registration wants to hear about.
    package struct Interest: OptionSet, Hashable, Sendable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }

        /// The descriptor has bytes to read (or end of input).
        package static let readable = Interest(rawValue: UInt32(MCP_POLL_READABLE))
        /// The descriptor takes bytes without blocking.
        package static let writable = Interest(rawValue: UInt32(MCP_POLL_WRITABLE))
    }

    /// What a wait found for one descriptor.
    package struct Readiness: Hashable, Sendable {
        package var readable: Bool
        package var writable: Bool
        /// The peer hung up or the descriptor is in error (reported whatever the interest).
        package var hangUp: Bool
    }

    private enum Job: Sendable {
        case closure(@Sendable () -> Void)
        case task(UnownedJob)
    }

    private struct Entry {
        let handler: any EventLoopHandler
        var cancelled = false
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextToken: UInt64 = 1
        var jobs: [Job] = []
        var timers = EventLoopTimers<@Sendable () -> Void>()
        /// Timers set since the loop was made (for tests).
        var timersSet = 0
        /// The thread is alive.
        var running = false
        /// The thread is in (or about to enter) its wait: a new job must signal the waker.
        var sleeping = false
    }

    /// The waker's token; registrations count from 1.
    private static let wakerToken: UInt64 = 0
    /// The system call behind ``control(_:_:_:token:)``, for its errors.
    #if canImport(Darwin)
    private static let controlCall = "kevent"
    #else
    private static let controlCall = "epoll_ctl"
    #endif
    /// How many batches of jobs may run back to back before readiness is checked again.
    private static let batchesBetweenPolls = 8

    private let poller: Int32
    private let waker: Int32
    private let state = LockedValue(State())
    /// The timers' clock.
    private let clock = DeadlineClock.continuous

    /// The process's loop, or `nil` where there is none (neither Linux nor Darwin, or the
    /// kernel refused the poller or its waker): callers then use threads of their own.
    package static let shared: EventLoop? = makeLoop(linger: .seconds(1))

    /// Whether new connections (descriptor transports, child processes, the HTTP client's
    /// sockets) join the loop unless told otherwise: on Linux yes, unless the environment
    /// variable `ONDEVICE_MCP_TRANSPORT_LOOP` is `0`; elsewhere only when it is `1` (Darwin's
    /// kqueue backend has been checked on Linux only, not yet run on an Apple system).
    package static let isDefaultForConnections: Bool = {
        let asked = POSIX.environmentValue("ONDEVICE_MCP_TRANSPORT_LOOP")
        #if os(Linux)
        return asked != "0"
        #else
        return asked == "1"
        #endif
    }()

    /// The process's loop when new connections use it by default (see
    /// ``isDefaultForConnections``), else `nil`. Reading it makes the loop only then.
    package static var forConnections: EventLoop? { isDefaultForConnections ? shared : nil }

    /// How long the thread waits for new work once it has none before it ends.
    package let linger: Duration

    /// A loop of its own (tests use one each, so that their counts are theirs), or `nil`
    /// where there is none. Its thread ends `linger` after it runs out of work.
    package static func makeLoop(linger: Duration = .zero) -> EventLoop? {
        // Where CMCPPlatform has no backend, the poller fails with ENOSYS.
        let poller = mcp_poller_create()
        guard poller >= 0 else { return nil }
        let waker = mcp_waker_create(poller, EventLoop.wakerToken)
        guard waker >= 0 else {
            POSIX.close(poller)
            return nil
        }
        return EventLoop(poller: poller, waker: waker, linger: linger)
    }

    private init(poller: Int32, waker: Int32, linger: Duration) {
        self.poller = poller
        self.waker = waker
        self.linger = max(.zero, linger)
    }

    // The thread holds the loop while it runs, so this runs once it has ended.
    deinit {
        mcp_waker_close(waker)
        POSIX.close(poller)
    }

    /// Whether the caller is the loop's thread.
    package var isCurrentThread: Bool {
        // A thread-local marker set by the loop's thread: no lock (every send asks this).
        mcp_thread_marker_get() == UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// The number of live registrations (for tests: every connection gives its back).
    package var registrationCount: Int { state.withLock { $0.entries.count } }

    /// Whether the loop's thread is running (for tests: it ends when nothing is registered).
    package var isRunning: Bool { state.withLock { $0.running } }

    /// Registers `descriptor`; `handler` is called on the loop's thread whenever it is ready
    /// for what `interest` asks (level-triggered: again and again while it stays ready).
    ///
    /// - Throws: ``Errno`` from `epoll_ctl` or `kevent` — `EPERM` for a descriptor that cannot
    ///   be polled (a regular file, `/dev/null`), `EEXIST` when it is already registered (epoll
    ///   only: kqueue replaces the first registration's token) — or from `pthread_create` when
    ///   the loop's thread cannot start. Nothing is registered then.
    package func register(
        _ descriptor: Int32, interest: Interest, handler: any EventLoopHandler
    ) throws(Errno) -> EventLoopRegistration {
        let token = state.withLock { state in
            defer { state.nextToken += 1 }
            state.entries[state.nextToken] = Entry(handler: handler)
            return state.nextToken
        }
        let registration = EventLoopRegistration(loop: self, descriptor: descriptor, token: token)
        do throws(Errno) {
            try registration.start(interest)
            try startThreadIfNeeded()
        } catch {
            registration.abandon()
            _ = state.withLock { $0.entries.removeValue(forKey: token) }
            throw error
        }
        return registration
    }

    /// Runs `job` on the loop's thread, after the events being handled.
    package func execute(_ job: @escaping @Sendable () -> Void) {
        enqueue(.closure(job))
    }

    /// A pending timer of the loop, for ``cancel(_:)``.
    package typealias Timer = EventLoopTimers<@Sendable () -> Void>.ID

    /// Runs `job` on the loop's thread once `delay` has passed (rounded up to whole
    /// milliseconds, the granularity of the loop's wait), unless it is cancelled first.
    ///
    /// Setting a timer from the loop's own thread, or while the loop waits for an earlier
    /// deadline, wakes nothing: the loop sets its next wait from the timers. Only a timer that
    /// falls due before everything the waiting loop knows of wakes it, once, to wait less.
    @discardableResult
    package func execute(after delay: Duration, _ job: @escaping @Sendable () -> Void) -> Timer {
        let (timer, arrival): (Timer, Arrival) = state.withLock { state in
            let (timer, isEarliest) = state.timers.add(job, at: clock.now + max(.zero, delay))
            state.timersSet += 1
            guard state.running else {
                state.running = true
                return (timer, .start)
            }
            guard isEarliest, state.sleeping else { return (timer, .running(wake: false)) }
            state.sleeping = false
            return (timer, .running(wake: true))
        }
        act(on: arrival) {
            // Out of threads: the timer cannot fire on the loop; it fires on Swift's shared
            // executor instead, after its delay (never inline: the caller may hold a lock
            // that the job takes).
            let taken = state.withLock { state in
                state.running = false
                return state.timers.cancel(timer)
            }
            guard taken else { return }
            Task.detached {
                try? await Task.sleep(for: delay)
                job()
            }
        }
        return timer
    }

    /// Cancels `timer`; returns whether it was still pending (its job will not run).
    @discardableResult
    package func cancel(_ timer: Timer) -> Bool {
        state.withLock { $0.timers.cancel(timer) }
    }

    /// The number of pending timers (for tests).
    package var timerCount: Int { state.withLock { $0.timers.count } }

    /// The number of timers set since the loop was made (for tests).
    package var timersSetCount: Int { state.withLock { $0.timersSet } }

    // MARK: Registrations

    /// Changes the kernel's interest for a registration (`operation` 0 add, 1 modify, 2 remove).
    func control(_ operation: Int32, _ descriptor: Int32, _ interest: Interest, token: UInt64) throws(Errno) {
        guard mcp_poller_control(poller, operation, descriptor, interest.rawValue, token) == 0 else {
            throw Errno.current(Self.controlCall)
        }
    }

    /// Ends a registration: no call reaches its handler after this returns on the loop's
    /// thread, or after the job it queues runs elsewhere; then `deregistered()` is called
    /// on the loop's thread.
    func remove(token: UInt64) {
        let handler: (any EventLoopHandler)? = state.withLock { state in
            state.entries[token]?.cancelled = true
            return state.entries[token]?.handler
        }
        guard let handler else { return }
        execute { [self] in
            _ = state.withLock { $0.entries.removeValue(forKey: token) }
            handler.deregistered()
        }
    }

    // MARK: Jobs

    private func enqueue(_ job: Job) {
        let arrival: Arrival = state.withLock { state in
            state.jobs.append(job)
            guard state.running else {
                state.running = true
                return .start
            }
            defer { state.sleeping = false }
            return .running(wake: state.sleeping)
        }
        act(on: arrival) {
            // Out of threads: run what was queued elsewhere rather than never.
            let jobs = state.withLock { state in
                state.running = false
                defer { state.jobs.removeAll() }
                return state.jobs
            }
            for job in jobs { runElsewhere(job) }
        }
    }

    /// What adding work (a job, a timer) found the loop's thread doing.
    private enum Arrival {
        /// Running; `wake`: in its wait, which must end for the new work.
        case running(wake: Bool)
        /// Not running: the work was marked for a thread that must be started.
        case start
    }

    /// Wakes or starts the loop's thread as `arrival` says; when the system has no thread to
    /// give, runs `recover` instead.
    private func act(on arrival: Arrival, orRecover recover: () -> Void) {
        switch arrival {
        case .running(let wake):
            if wake { mcp_waker_signal(waker) }
        case .start:
            do throws(Errno) {
                try POSIX.startThread(named: "MCP event loop") { [self] in run() }
            } catch {
                recover()
            }
        }
    }

    private func startThreadIfNeeded() throws(Errno) {
        let mustStart = state.withLock { state in
            if state.running { return false }
            state.running = true
            return true
        }
        guard mustStart else { return }
        do throws(Errno) {
            try POSIX.startThread(named: "MCP event loop") { [self] in run() }
        } catch {
            state.withLock { $0.running = false }
            throw error
        }
    }

    private func runElsewhere(_ job: Job) {
        switch job {
        case .closure(let closure):
            closure()
        case .task(let job):
            if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
                globalConcurrentExecutor.enqueue(ExecutorJob(job))
            }
        }
    }

    // MARK: The thread

    private func run() {
        mcp_set_thread_marker(UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
        // The thread may be started again later (and a detached thread's number reused).
        defer { mcp_set_thread_marker(nil) }
        var batch: [Job] = []
        var tokens = [UInt64](repeating: 0, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        var batchesSincePoll = 0
        let lingerMilliseconds = Int32(clamping: linger.components.seconds * 1_000 + linger.components.attoseconds / 1_000_000_000_000_000)
        // The thread has waited its linger with nothing to do.
        var lingered = lingerMilliseconds == 0
        while true {
            enum Step {
                case run
                /// `lingering`: out of work, waiting `linger` for more before ending.
                /// `timers`: timers were pending (the ones due after the wait are run).
                case wait(timeout: Int32, lingering: Bool, timers: Bool)
                case end
            }
            let step: Step = state.withLock { state in
                if !state.jobs.isEmpty && batchesSincePoll < Self.batchesBetweenPolls {
                    swap(&state.jobs, &batch)
                    return .run
                }
                if state.jobs.isEmpty && state.entries.isEmpty && state.timers.isEmpty {
                    if lingered {
                        state.running = false
                        return .end
                    }
                    // Work that comes meanwhile signals the waker, as for any sleeping wait.
                    state.sleeping = true
                    return .wait(timeout: lingerMilliseconds, lingering: true, timers: false)
                }
                let idle = state.jobs.isEmpty
                if idle { state.sleeping = true }
                // Reading the clock only when a timer is pending.
                let timeout = !idle ? 0 : state.timers.isEmpty ? -1 : state.timers.waitMilliseconds(at: clock.now) ?? -1
                return .wait(timeout: timeout, lingering: false, timers: !state.timers.isEmpty)
            }
            switch step {
            case .end:
                return
            case .run:
                lingered = lingerMilliseconds == 0
                batchesSincePoll += 1
                for job in batch { run(job) }
                batch.removeAll(keepingCapacity: true)
            case .wait(let timeout, let lingering, let timers):
                batchesSincePoll = 0
                let count = tokens.withUnsafeMutableBufferPointer { tokens in
                    events.withUnsafeMutableBufferPointer { events in
                        mcp_poller_wait(poller, tokens.baseAddress, events.baseAddress, Int32(tokens.count), timeout)
                    }
                }
                // A timer set during the wait either woke it (it is looked at next time round)
                // or falls due after the deadline the wait had: only then is the lock needed.
                var due: [@Sendable () -> Void] = []
                if timeout != 0 || timers {
                    due = state.withLock { state in
                        if timeout != 0 { state.sleeping = false }
                        return timers ? state.timers.takeDue(at: clock.now) : []
                    }
                }
                // A linger that timed out with nothing ends the thread, unless work came in the
                // meantime (it is looked at first); any other wake-up starts the linger afresh.
                lingered = lingering ? count == 0 : lingerMilliseconds == 0
                if count > 0 { dispatch(count: Int(count), tokens: tokens, events: events) }  // else EINTR, or nothing ready
                for job in due { job() }
            }
        }
    }

    private func dispatch(count: Int, tokens: [UInt64], events: [UInt32]) {
        var ready: [(any EventLoopHandler, Readiness)] = []
        ready.reserveCapacity(count)
        state.withLock { state in
            for index in 0..<count where tokens[index] != Self.wakerToken {
                guard let entry = state.entries[tokens[index]], !entry.cancelled else { continue }
                let bits = events[index]
                ready.append(
                    (
                        entry.handler,
                        Readiness(
                            readable: bits & UInt32(MCP_POLL_READABLE) != 0,
                            writable: bits & UInt32(MCP_POLL_WRITABLE) != 0,
                            hangUp: bits & UInt32(MCP_POLL_HANGUP) != 0)
                    ))
            }
        }
        if tokens[0..<count].contains(Self.wakerToken) { mcp_waker_drain(waker) }
        for (handler, readiness) in ready { handler.ready(readiness) }
    }

    private func run(_ job: Job) {
        switch job {
        case .closure(let closure):
            closure()
        case .task(let job):
            if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
}

@available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
extension EventLoop: TaskExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        enqueue(.task(UnownedJob(job)))
    }
}

/// What the loop calls when a registered descriptor is ready. Called on the loop's thread
/// only, one call at a time: it must neither block nor run long.
package protocol EventLoopHandler: AnyObject, Sendable {
    /// The descriptor is ready for what the registration asked, or hung up.
    func ready(_ readiness: EventLoop.Readiness)
    /// The registration is over (``EventLoopRegistration/cancel()``): no call follows. The
    /// descriptor may be closed now.
    func deregistered()
}
