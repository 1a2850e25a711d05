internal import MCPCore
internal import MCPPlatform

/// A ``FileDescriptorTransport``'s descriptors on the process's ``EventLoop``: no thread of
/// its own.
///
/// **Reading.** When the input is readable, the loop's thread reads once (up to 64 KiB),
/// frames and parses the lines and hands the messages to the ``InboundBuffer``. When the
/// buffer is full, the input leaves the loop's set until the consumer has drained it to half
/// (the consumer's wake-up puts it back), so a flooding peer is held back by its pipe.
///
/// **Writing.** Senders write small messages themselves when the pipe takes them at once (as
/// with threads). What they cannot write waits in the ``OutboundBuffer``, and the output
/// joins the loop's set: when it is writable, the loop's thread writes what it takes without
/// blocking, and leaves the set again once the buffer is empty.
///
/// **Closing.** Each descriptor leaves the loop's set before it is closed (a closed number
/// may be reused at once by another connection): the input when reading is over, the output
/// when everything accepted has been written (or writing failed); a descriptor that plays
/// both roles, once both are over. Descriptors the transport does not own are left open.
final class LoopConnection: OutboundLoopWriter {
    private struct State {
        var reader: InputReader?
        var readingStopped = false
        var writingFinished = false
        var inputRegistration: EventLoopRegistration?
        var outputRegistration: EventLoopRegistration?
        /// Starting failed: the descriptors stay the caller's.
        var abandoned = false
        /// A flush of what the loop's jobs sent is queued behind them.
        var flushScheduled = false
        /// The server's request runners at work on this connection (``AnswerBatch``).
        var runners = 0
        /// The timer that writes held answers while runners work.
        var heldAnswersTimer: EventLoop.Timer?
        /// Counts the timers set, so that one firing after it was replaced does nothing more.
        var heldAnswersGeneration = 0
    }

    /// How long an answer a request runner left queued may wait before the loop writes it
    /// (when every runner is busy with a tool that computes without suspending).
    static let heldAnswerDelay: Duration = .milliseconds(1)

    let loop: EventLoop
    private let inbound: InboundBuffer
    private let outbound: OutboundBuffer
    private let inputOwner: DescriptorOwner?
    private let outputOwner: DescriptorOwner?
    private let shared: Bool
    private let state = LockedValue(State())
    /// Fulfilled when reading is over and the input has left the loop (and been closed, when
    /// owned and not shared with the output).
    let inputReleased = OneShot<Void>()

    /// Registers `input` and `output` (one registration when they are the same descriptor).
    ///
    /// - Throws: ``MCPPlatform/Errno`` when a descriptor cannot join the loop (`EPERM` for a
    ///   regular file or `/dev/null`): nothing is registered then and no descriptor closed,
    ///   so the caller can fall back to threads.
    init(
        loop: EventLoop, input: Int32, output: Int32, inputOwner: DescriptorOwner?, outputOwner: DescriptorOwner?,
        inbound: InboundBuffer, outbound: OutboundBuffer, maximumFrameLength: Int, responseLimits: ResultLimits
    ) throws(Errno) {
        self.loop = loop
        self.inbound = inbound
        self.outbound = outbound
        self.inputOwner = inputOwner
        self.outputOwner = outputOwner
        shared = input == output
        let reader = InputReader(descriptor: input, owner: nil, maximumFrameLength: maximumFrameLength, limits: responseLimits)
        state.withLock { $0.reader = reader }

        // The output first, with no interest: if the input then cannot join, nothing has read
        // from it. (The other way round, the loop could read bytes already waiting in the
        // input into this connection's buffer before the output was refused, and the
        // transport that falls back to threads would never see them.)
        let inputRegistration: EventLoopRegistration
        let outputRegistration: EventLoopRegistration
        if shared {
            inputRegistration = try loop.register(input, interest: .readable, handler: Handler(connection: self, role: .both))
            outputRegistration = inputRegistration
        } else {
            outputRegistration = try loop.register(output, interest: [], handler: Handler(connection: self, role: .output))
            do throws(Errno) {
                inputRegistration = try loop.register(input, interest: .readable, handler: Handler(connection: self, role: .input))
            } catch {
                state.withLock { $0.abandoned = true }
                outputRegistration.cancel()
                throw error
            }
        }
        state.withLock { state in
            state.inputRegistration = inputRegistration
            state.outputRegistration = outputRegistration
        }
    }

    /// What one registration's descriptor does for the connection.
    private enum Role {
        case input
        case output
        case both
    }

    /// The loop's handler for one registration; forwards to the connection.
    private final class Handler: EventLoopHandler {
        let connection: LoopConnection
        let role: Role

        init(connection: LoopConnection, role: Role) {
            self.connection = connection
            self.role = role
        }

        func ready(_ readiness: EventLoop.Readiness) {
            if role != .output, readiness.readable || readiness.hangUp { connection.inputReady() }
            if role != .input, readiness.writable || (readiness.hangUp && role == .output) {
                connection.outputReady(hungUp: readiness.hangUp)
            }
        }

        func deregistered() {
            connection.deregistered(role)
        }
    }

    // MARK: Reading

    /// The consumer made room, or stopped: read again, or stop reading. Any thread.
    func wakeReader() {
        if inbound.isStopped {
            stopReading()
        } else {
            state.withLock { $0.inputRegistration }?.insert(.readable)
        }
    }

    /// On the loop's thread: the input is readable (or hung up).
    private func inputReady() {
        guard let reader = state.withLock({ $0.readingStopped ? nil : $0.reader }) else { return }
        guard !inbound.isStopped, reader.readOnce(into: inbound) else {
            stopReading()
            return
        }
        guard !inbound.admitsMore() else { return }
        // Full: out of the set until the consumer makes room. Its wake-up may have come
        // between the check and the removal, so look again afterwards.
        let registration = state.withLock { $0.inputRegistration }
        registration?.remove(.readable)
        if inbound.admitsMore() || inbound.isStopped { wakeReader() }
    }

    /// Reading is over: the input leaves the loop, then is released.
    private func stopReading() {
        let registration: EventLoopRegistration? = state.withLock { state in
            guard !state.readingStopped else { return nil }
            state.readingStopped = true
            return state.inputRegistration
        }
        guard let registration else { return }
        if shared {
            registration.remove(.readable)
            loop.execute { [self] in
                state.withLock { $0.reader = nil }
                inputReleased.fulfill(())
                roleEnded()
            }
        } else {
            registration.cancel()
        }
    }

    // MARK: Writing

    /// The outbound buffer has bytes the senders could not write, or closed: ask the loop
    /// for writability. Any thread.
    func wakeWriter() {
        state.withLock { $0.outputRegistration }?.insert(.writable)
    }

    /// Writes what sends made on the loop's thread queued, once the jobs queued now have run:
    /// the replies of one batch of jobs, one write. Any thread.
    func scheduleFlush() {
        let schedule = state.withLock { state in
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        guard schedule else { return }
        loop.execute { [self] in
            state.withLock { $0.flushScheduled = false }
            outbound.flush()
        }
    }

    /// On the loop's thread: the output takes bytes (or is in error).
    ///
    /// The registration is looked up when it is used, not before draining: an event can come
    /// while ``init`` is still registering (a descriptor already in error is reported the
    /// moment it joins the kernel's set), and the drain can then meet a write failure that a
    /// sender caused meanwhile. A registration read before the drain would be `nil`, and the
    /// finished output would stay in the set for good: `close()` waiting for it, the loop woken
    /// by its error again and again.
    private func outputReady(hungUp: Bool) {
        let finished = outbound.drainOnLoop(hungUp: hungUp) { [self] in
            state.withLock { $0.outputRegistration }?.remove(.writable)
        }
        guard finished else { return }
        let (first, registration) = state.withLock { state in
            defer { state.writingFinished = true }
            return (!state.writingFinished, state.outputRegistration)
        }
        guard first else { return }
        if shared {
            registration?.remove(.writable)
            roleEnded()
        } else {
            registration?.cancel()
        }
    }

    // MARK: Answers of request runners

    /// The outbound buffer's identity, the thread mark under which its answers are left for a
    /// runner to write (``MCPPlatform/POSIX/batchMarker``).
    var outboundIdentity: UnsafeRawPointer { outbound.batchIdentity }

    /// Requests were queued for the runners, starting `startingRunners` more runners (on the
    /// loop's thread, where the server admits requests: setting a timer there wakes nothing).
    /// When other requests are in flight, their answers may be held: the loop then writes held
    /// answers on a timer until the last runner ends. With one request in flight no answer is
    /// ever held, and the loop's wait stays without a deadline (arming a kernel timer for every
    /// wait cost a sequential call a fifth more CPU on a virtual machine).
    func requestsQueued(startingRunners: Int) {
        let overlapping = inbound.unansweredCount > 1
        guard startingRunners > 0 || overlapping else { return }
        state.withLock { state in
            state.runners += startingRunners
            if overlapping, state.runners > 0, state.heldAnswersTimer == nil { setHeldAnswersTimer(&state) }
        }
    }

    /// A request runner ends: it writes what is queued; the last one stops the timer.
    func runnerEnded() {
        outbound.flush()
        let timer: EventLoop.Timer? = state.withLock { state in
            state.runners -= 1
            guard state.runners == 0 else { return nil }
            defer {
                state.heldAnswersTimer = nil
                state.heldAnswersGeneration += 1
            }
            return state.heldAnswersTimer
        }
        if let timer { loop.cancel(timer) }
    }

    /// Writes what is queued (a runner pausing), on the calling thread.
    func writeHeldAnswers() {
        outbound.flush()
    }

    private func setHeldAnswersTimer(_ state: inout State) {
        state.heldAnswersGeneration += 1
        let generation = state.heldAnswersGeneration
        // A strong capture: held for at most a delay (the last runner to end cancels it), and a
        // weak reference would move every retain and release of the connection to a side table.
        state.heldAnswersTimer = loop.execute(after: Self.heldAnswerDelay) { [self] in
            heldAnswersDue(generation: generation)
        }
    }

    /// On the loop's thread: runners have worked for a whole delay; write what they left
    /// queued, and look again after another while they still work.
    private func heldAnswersDue(generation: Int) {
        outbound.flush()
        state.withLock { state in
            guard state.heldAnswersGeneration == generation else { return }
            if state.runners > 0 {
                setHeldAnswersTimer(&state)
            } else {
                state.heldAnswersTimer = nil
            }
        }
    }

    // MARK: Ending

    /// A role of the shared descriptor is over; once both are, it leaves the loop.
    private func roleEnded() {
        let registration: EventLoopRegistration? = state.withLock { state in
            state.readingStopped && state.writingFinished && state.reader == nil ? state.inputRegistration : nil
        }
        registration?.cancel()
    }

    /// On the loop's thread: a descriptor has left the loop; release and report it.
    private func deregistered(_ role: Role) {
        let abandoned = state.withLock { state in
            state.reader = nil
            if role != .output { state.inputRegistration = nil }
            if role != .input { state.outputRegistration = nil }
            return state.abandoned
        }
        guard !abandoned else { return }
        switch role {
        case .input:
            inputOwner?.release()
            inputReleased.fulfill(())
        case .output:
            outputOwner?.release()
            outbound.finished.fulfill(())
        case .both:
            // One owner with two users (see FileDescriptorTransport): the second release closes.
            inputOwner?.release()
            outputOwner?.release()
            outbound.finished.fulfill(())
        }
    }
}
