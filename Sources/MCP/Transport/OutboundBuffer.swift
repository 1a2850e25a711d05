internal import MCPPlatform

/// The bounded byte buffer between senders and the writing thread: an
/// ``OutboundWriteState`` under a lock, whose actions (write, signal, resume) run after
/// unlocking.
///
/// The writing thread swaps the whole buffer out and writes it with one `write(2)` (more
/// only for partial writes). A small message with nothing before it is written by its
/// sender instead (see ``enqueue(_:deferred:)``), and the connection thread writes what its
/// jobs sent after each batch (``flush()``). Every way writing ends (closed and drained, or
/// a failed write on either path) ends the writing thread and fulfils ``finished``.
final class OutboundBuffer: Sendable {
    private let state: ConditionalValue<State>
    private let descriptor: Int32
    private let byteLimit: Int

    private typealias State = OutboundWriteState<CheckedContinuation<Void, any Error>, CheckedContinuation<Void, Never>>
    private typealias Actions = State.Actions

    /// Fulfilled when the writing thread (or the event loop's writer) has ended and released
    /// its descriptor.
    let finished = OneShot<Void>()

    /// On the event loop: the loop's writer, which is woken in place of a writing thread and
    /// flushes after the loop's current jobs (held weakly: the loop holds it while registered).
    private let loopWriter = LockedValue(LoopWriterReference())

    /// Fulfilled the first time the writing thread waits for bytes (for tests that need
    /// it idle, so that a small send is written inline).
    let writerWaiting = OneShot<Void>()

    /// Creates an empty buffer for `descriptor`, holding at most about `byteLimit` bytes.
    init(byteLimit: Int, descriptor: Int32) {
        var initial = State(byteLimit: byteLimit)
        initial.writesWithoutWaiting = POSIX.isPipeOrSocket(descriptor)
        state = ConditionalValue(initial)
        self.byteLimit = byteLimit
        self.descriptor = descriptor
    }

    /// Whether inline writes are made with one call that never waits (a pipe or socket the
    /// system writes that way, until it first refuses), rather than after a `poll`.
    var writesWithoutWaiting: Bool { state.withLock { $0.writesWithoutWaiting } }

    /// The buffer's identity as a thread's batch mark (``MCPPlatform/POSIX/batchMarker``).
    var batchIdentity: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// The bytes queued or being written.
    var bufferedByteCount: Int { state.withLock { $0.bufferedByteCount } }

    /// The number of senders waiting for room.
    var waitingSenderCount: Int { state.withLock { $0.waitingSenderCount } }

    /// Queues `bytes` for writing, suspending while the buffer is full.
    ///
    /// When nothing is queued and no one is writing, a small message is written by the
    /// sender itself: a pipe that `poll` reports writable takes up to `PIPE_BUF` bytes
    /// without blocking, and skipping the hand-off to the writing thread saves a thread
    /// wake-up per message (most of the cost of a request/response round trip).
    ///
    /// - Throws: ``TransportError/closed`` (or the failure that ended writing) when the
    ///   buffer no longer accepts bytes; `CancellationError` when the task is cancelled
    ///   while waiting for room.
    nonisolated(nonsending) func enqueue(_ bytes: [UInt8], deferred: Bool = false) async throws {
        let action = state.withLock { $0.enqueue(bytes, deferred: deferred, atomicWrite: POSIX.atomicPipeWrite) }
        let id: UInt64
        switch action {
        case .refuse(let error):
            throw error
        case .queued:
            // Left for the request runner that set the mark, which writes it when done; else
            // for the loop, after its current jobs.
            if deferred, POSIX.batchMarker != batchIdentity, let writer = loopWriter.withLock({ $0.writer }) {
                writer.scheduleFlush()
            }
            return
        case .queuedSignallingWriter:
            signalWriter()
            return
        case .queuedFlushing:
            flush()
            return
        case .writeInline:
            if let failure = flush() { throw failure }
            return
        case .wait(let waitID):
            id = waitID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let action = state.withLock { $0.enqueue(bytes, id: id, sender: continuation, isCancelled: Task.isCancelled) }
                switch action {
                case .refuse(let error):
                    continuation.resume(throwing: error)
                case .admitted(let signalWriter):
                    if signalWriter { self.signalWriter() }
                    continuation.resume()
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                case .suspended:
                    break
                }
            }
        } onCancel: {
            let (sender, room) = state.withLock { $0.cancelSender(id: id) }
            sender?.resume(throwing: CancellationError())
            for waiter in room { waiter.resume() }
        }
    }

    /// Whether ``waitForRoom()`` would return at once now.
    var hasRoom: Bool { state.withLock { $0.hasRoom } }

    /// Returns at once while the buffer holds less than its limit and no sender waits;
    /// otherwise when it has drained below the limit, closed or failed, or the calling
    /// task is cancelled.
    nonisolated(nonsending) func waitForRoom() async {
        let id: UInt64? = state.withLock { state in
            state.hasRoom ? nil : state.makeRoomWaiterID()
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { $0.waitForRoom(continuation, id: id, isCancelled: Task.isCancelled) }
                now?.resume()
            }
        } onCancel: {
            let waiter = state.withLock { $0.cancelRoomWaiter(id: id) }
            waiter?.resume()
        }
    }

    /// Writes what is queued on the calling thread, as much as the descriptor takes without
    /// blocking; what it does not take goes to the writing thread. Messages queued
    /// meanwhile are written too, so a busy connection wakes no thread at all. Does nothing
    /// while the writing thread or another sender is writing (they take these bytes next).
    ///
    /// A pipe or socket on Linux 6.5 and later is written with one call that never waits
    /// (``POSIX/writeWithoutWaiting(_:_:)``); other descriptors in pieces of at most
    /// ``POSIX/atomicPipeWrite`` bytes while `poll` says they take them without blocking.
    ///
    /// Called by a sender for its own small message, and by the connection thread after each
    /// batch of jobs. Neither may block in `write`: the connection thread also reads, and a
    /// peer that is itself blocked writing to us would never drain the pipe.
    ///
    /// - Returns: The error that ended writing, if a write failed (the buffer has failed
    ///   too, and the writing thread has been told to end).
    @discardableResult
    func flush(writingToErrored: Bool = false) -> TransportError? {
        var chunk: [UInt8] = []
        var withoutWaiting = false
        let began = state.withLock { state in
            withoutWaiting = state.writesWithoutWaiting
            return state.beginInlineWrite(into: &chunk)
        }
        guard began else { return nil }
        while true {
            var failure: Errno?
            var written: Int?
            if withoutWaiting {
                written = Self.writeWithoutWaiting(chunk, to: descriptor, evenIfErrored: writingToErrored, failure: &failure)
                if written == nil {
                    withoutWaiting = false
                    state.withLock { $0.writesWithoutWaiting = false }
                }
            }
            let count = written ?? Self.writeWithoutBlocking(chunk, to: descriptor, evenIfErrored: writingToErrored, failure: &failure)
            let error = failure.map(closedError(after:))
            switch state.withLock({ $0.inlineWriteEnded(&chunk, written: count, failure: error) }) {
            case .writeMore:
                continue
            case .done(let actions):
                perform(actions)
                return error
            }
        }
    }

    /// Writes as much of `bytes` as the descriptor takes now, in one call that never waits;
    /// returns how many bytes were written, or `nil` when that did not work (nothing was
    /// written: poll instead, and from then on).
    ///
    /// A failed write is reported only with `evenIfErrored` (the loop saw the descriptor in
    /// error and writes to learn why). Otherwise the poll that follows finds a descriptor in
    /// error and leaves the bytes to the writing thread, whose write fails with the reason,
    /// as without this call; any other failure stops these writes for the buffer.
    private static func writeWithoutWaiting(
        _ bytes: [UInt8], to descriptor: Int32, evenIfErrored: Bool, failure: inout Errno?
    ) -> Int? {
        let outcome = bytes.withUnsafeBytes { POSIX.writeWithoutWaiting(descriptor, $0) }
        switch outcome {
        case .wrote(let count):
            return count
        case .unsupported:
            return nil
        case .failed(let error):
            guard evenIfErrored else { return nil }
            failure = error
            return 0
        }
    }

    /// Writes `bytes` in pieces of at most ``POSIX/atomicPipeWrite`` while the descriptor
    /// can take them without blocking; returns how many bytes were written.
    private static func writeWithoutBlocking(
        _ bytes: [UInt8], to descriptor: Int32, evenIfErrored: Bool = false, failure: inout Errno?
    ) -> Int {
        var written = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count, POSIX.isWritable(descriptor, orErrored: evenIfErrored) {
                let piece = min(POSIX.atomicPipeWrite, buffer.count - written)
                do throws(Errno) {
                    try POSIX.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: buffer[written..<(written + piece)]))
                } catch {
                    failure = error
                    return
                }
                written += piece
            }
        }
        return written
    }

    /// The error that closes the buffer after a failed write.
    private func closedError(after error: Errno) -> TransportError {
        error.isBrokenPipe
            ? TransportError.closed("the peer closed the connection (broken pipe)")
            : TransportError.closed("writing to descriptor \(descriptor) failed: \(error)")
    }

    /// Stops accepting bytes; what is buffered is still written. Waiting senders fail.
    func close() {
        let actions = state.withLock { $0.close() }
        perform(actions)
    }

    /// The writing thread's loop: runs until closed and drained, or until a write fails.
    /// Then releases the descriptor and fulfils ``finished``.
    func write(to descriptor: Int32, owner: DescriptorOwner?) {
        enum Step {
            case announceWaiting
            case finish
            case write(Actions)
        }
        var chunk: [UInt8] = []
        var announcedWaiting = false
        loop: while true {
            // Waits (the lock released) while there is nothing to write, once the wait has
            // been announced.
            let step: Step = state.waitWithLock(until: { state in
                switch state.writerNext(into: &chunk) {
                case .wait: announcedWaiting ? nil : .announceWaiting
                case .finish: .finish
                case .write(let actions): .write(actions)
                }
            })
            switch step {
            case .announceWaiting:
                // Announced outside the lock, then the state is looked at again.
                announcedWaiting = true
                writerWaiting.fulfill(())
            case .finish:
                break loop
            case .write(let actions):
                perform(actions)
                var failure: TransportError?
                do throws(Errno) {
                    try POSIX.writeAll(descriptor, chunk)
                } catch {
                    failure = closedError(after: error)
                }
                if chunk.capacity > 2 * byteLimit {
                    chunk = []
                } else {
                    chunk.removeAll(keepingCapacity: true)
                }
                let done = state.withLock { $0.writerWrote(failure: failure) }
                if !done.isEmpty { perform(done) }
            }
        }
        owner?.release()
        finished.fulfill(())
    }

    /// Hands writing to the event loop's `writer`: it is woken whenever the writing thread
    /// would have been signalled, and asked to flush after the loop's current jobs when a
    /// send made on the loop's thread is queued (``enqueue(_:deferred:)`` with `deferred`), so
    /// that the replies of one batch of jobs go out in one write. No writing thread is started.
    func writeOnLoop(_ writer: any OutboundLoopWriter) {
        loopWriter.withLock { $0.writer = writer }
        writerWaiting.fulfill(())
    }

    /// On the event loop's thread, when the descriptor is writable: writes what it takes
    /// without blocking. Calls `pause` (under the buffer's lock, so that no sender's wake-up
    /// is lost) when there is nothing left to write; returns `true` once writing is over
    /// (closed and drained, or failed).
    /// `hungUp`: the loop reported the descriptor in error; the write is made anyway, so that
    /// it fails with the reason (a broken pipe) instead of waiting for writability forever.
    func drainOnLoop(hungUp: Bool, pause: () -> Void) -> Bool {
        flush(writingToErrored: hungUp)
        return state.withLock { state in
            if state.isDrainedAndClosed { return true }
            if state.loopWriterCanPause { pause() }
            return false
        }
    }

    /// Wakes whoever writes for the senders: the event loop's writer, or the writing thread.
    private func signalWriter() {
        if let writer = loopWriter.withLock({ $0.writer }) {
            writer.wakeWriter()
        } else {
            state.signal()
        }
    }

    /// Resumes and signals as `actions` says; called without the lock held.
    private func perform(_ actions: Actions) {
        if actions.signalWriter { signalWriter() }
        for sender in actions.admitted { sender.resume() }
        if let refusal = actions.refusal {
            for sender in actions.refused { sender.resume(throwing: refusal) }
        }
        for waiter in actions.room { waiter.resume() }
    }
}

/// What writes a buffer on the event loop (``LoopConnection``).
protocol OutboundLoopWriter: AnyObject, Sendable {
    /// There are bytes the senders could not write, or the buffer closed: ask the loop for
    /// writability.
    func wakeWriter()
    /// Flush what sends on the loop's thread queued, after the loop's current jobs.
    func scheduleFlush()
}

/// A weak reference to the loop's writer.
private struct LoopWriterReference {
    weak var writer: (any OutboundLoopWriter)?
}
