internal import MCPCore
internal import MCPPlatform

/// The reading thread of a ``FileDescriptorTransport``, which also runs the connection's tasks.
///
/// The thread waits (`poll`, no timeout) for two things at once: input from the peer and a
/// byte on a private wake-up pipe. Input is read, split into lines and parsed on the thread;
/// the messages go to the ``InboundBuffer`` that the transport's stream reads from.
///
/// The thread is also a `TaskExecutor`. A server run loop or a client's reader that prefers
/// it (`withTaskExecutorPreference`) runs here, together with the child tasks it starts and
/// the default actors they call: a request read from the pipe is parsed, handled and
/// answered on this one thread, without waking another thread in between. That wake-up is
/// most of the cost of a stdio round trip; the pipe's own is the rest. Jobs run before the
/// thread waits for more input, and input is also checked between long runs of jobs, so a
/// busy connection still reads.
///
/// Once the transport is gone (``retire()``), the thread runs what is queued and ends; jobs
/// that still arrive go to the global concurrent executor, so a task that prefers this
/// executor never stalls.
final class ConnectionExecutor: Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        /// The thread is in (or about to enter) `poll`: an enqueue must write to the wake-up pipe.
        var sleeping = false
        var retired = false
        var ended = false
        /// The thread, once it runs: sends made on it are written after the batch of jobs.
        var thread: POSIX.ThreadID?

        /// Whether the caller must write to the wake-up pipe; the thread is awake afterwards.
        mutating func takeWake() -> Bool {
            defer { sleeping = false }
            return sleeping && !ended
        }
    }

    // The wake-up pipe's descriptors are written once in `init` and closed by the thread when
    // it ends (after `ended` is set, so no one writes to a closed descriptor).
    private let state = LockedValue(State())
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Fulfilled when the thread has stopped reading and released the input descriptor.
    let inputReleased = OneShot<Void>()

    /// How many batches of jobs may run back to back before input is checked again.
    private static let batchesBetweenReads = 8

    init() throws(Errno) {
        (wakeRead, wakeWrite) = try POSIX.makeWakePipe()
    }

    /// Whether the caller is this executor's thread.
    var isCurrentThread: Bool {
        let current = POSIX.ThreadID.current
        return state.withLock { $0.thread == current }
    }

    /// Wakes the thread so that it looks at its state again (room in the inbound buffer,
    /// the transport closed). Does nothing when it is already awake.
    func wake() {
        if state.withLock({ $0.takeWake() }) { POSIX.signalWakePipe(wakeWrite) }
    }

    /// The transport is gone: run what is queued, then end the thread.
    func retire() {
        let mustWrite = state.withLock { state in
            state.retired = true
            return state.takeWake()
        }
        if mustWrite { POSIX.signalWakePipe(wakeWrite) }
    }

    /// The thread could not be started: closes the wake-up pipe, which only the thread
    /// would otherwise close. Jobs that arrive later go to the global concurrent executor.
    func abandon() {
        state.withLock { state in
            state.retired = true
            state.ended = true
            state.sleeping = false
        }
        POSIX.close(wakeRead)
        POSIX.close(wakeWrite)
    }

    /// Queues a job; returns `false` when the thread is retired and the caller must run it elsewhere.
    private func append(_ job: UnownedJob) -> Bool {
        let outcome: (queued: Bool, mustWrite: Bool) = state.withLock { state in
            guard !state.retired else { return (false, false) }
            state.jobs.append(job)
            defer { state.sleeping = false }
            return (true, state.sleeping)
        }
        if outcome.mustWrite { POSIX.signalWakePipe(wakeWrite) }
        return outcome.queued
    }

    // MARK: The thread

    /// The thread's body: reads `input` into `inbound` until the input ends or the buffer
    /// stops, and runs jobs until retired. After each batch of jobs, and after each read, what
    /// they sent is written out (`outbound.flush()`): many replies, one `write`.
    func run(
        reading input: Int32, owner: DescriptorOwner?, into inbound: InboundBuffer, flushing outbound: OutboundBuffer,
        maximumFrameLength: Int, responseLimits: ResultLimits? = nil
    ) {
        let current = POSIX.ThreadID.current
        state.withLock { $0.thread = current }
        var reader: InputReader? = InputReader(
            descriptor: input, owner: owner, maximumFrameLength: maximumFrameLength, limits: responseLimits)
        var batch: [UnownedJob] = []
        var batchesSinceRead = 0
        while true {
            if reader != nil, inbound.isStopped {
                reader = nil  // Releases the descriptor.
            }
            if reader == nil, inputReleased.current == nil { inputReleased.fulfill(()) }
            enum Step {
                case end
                case wait(idle: Bool)
                case run
            }
            let readerGone = reader == nil
            let step: Step = state.withLock { state in
                guard state.jobs.isEmpty || batchesSinceRead >= Self.batchesBetweenReads else {
                    swap(&state.jobs, &batch)
                    return .run
                }
                let idle = state.jobs.isEmpty
                if idle && state.retired && readerGone {
                    state.ended = true
                    return .end
                }
                if idle { state.sleeping = true }
                return .wait(idle: idle)
            }
            if case .wait(let idle) = step {
                if reader != nil, inbound.isStopped {
                    // Closed after the check at the top but before `sleeping` was set, so that
                    // close() wrote no wake-up: go round again (releasing the input) instead of
                    // waiting for a peer that may never write.
                    if idle { state.withLock { $0.sleeping = false } }
                    continue
                }
                batchesSinceRead = 0
                let wantsInput = reader != nil && inbound.admitsMore()
                let ready = POSIX.waitForInput(wantsInput ? input : nil, wake: wakeRead, timeout: idle ? -1 : 0)
                if idle { state.withLock { $0.sleeping = false } }
                if ready.wake { POSIX.drainWakePipe(wakeRead) }
                if ready.input, let current = reader {
                    if !current.readOnce(into: inbound) { reader = nil }
                    // Requests the server started from the read (its inline handler) may have
                    // answered on this thread: those answers wait for a flush, as a job's do.
                    outbound.flush()
                }
                continue
            }
            if case .end = step { break }
            batchesSinceRead += 1
            runJobs(batch)
            batch.removeAll(keepingCapacity: true)
            outbound.flush()
        }
        POSIX.close(wakeRead)
        POSIX.close(wakeWrite)
    }

    private func runJobs(_ batch: [UnownedJob]) {
        if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
            let executor = asUnownedTaskExecutor()
            for job in batch { job.runSynchronously(on: executor) }
        } else {
            // Without task executors (older Apple systems) nothing can enqueue a job here.
            precondition(batch.isEmpty, "a job reached a connection thread without task executor support")
        }
    }
}

@available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
extension ConnectionExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        if !append(unowned) {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
        }
    }
}
