/// The outbound buffer's logic, without locks, threads or descriptors: a value-type state
/// machine whose methods say what the caller must do (write these bytes, signal the
/// writing thread, resume these senders).
///
/// Senders append encoded lines to `pending`. Bytes are written either by a sender (or the
/// connection thread) itself, "inline", when the pipe can take them at once, or by the
/// writing thread, which swaps the whole buffer out and writes it. Only one of them writes
/// at a time, so lines never interleave. When `pending` holds `byteLimit` bytes, senders
/// wait in line (FIFO) and are admitted as it drains. Tasks waiting for room
/// (``Transport/waitForOutboundRoom()``) are resumed once the buffer (pending and being written) is
/// below `byteLimit` with no sender waiting, or once the buffer closes or fails.
///
/// `OutboundBuffer` owns one under a lock and carries out the returned actions after
/// unlocking; tests drive one directly, with plain values as the waiters.
struct OutboundWriteState<Sender, RoomWaiter> {
    /// What ``enqueue(_:deferred:atomicWrite:)`` tells a sender.
    enum EnqueueAction {
        /// The buffer is closed or failed: throw this.
        case refuse(TransportError)
        /// Queued; someone else writes it.
        case queued
        /// Queued; signal the idle writing thread.
        case queuedSignallingWriter
        /// Queued on the connection thread, and a pipe-atomic write's worth is waiting:
        /// write it now (``beginInlineWrite(into:)``).
        case queuedFlushing
        /// Queued as the only bytes, with no writer busy: the sender writes them itself.
        case writeInline
        /// No room: suspend, then call ``enqueue(_:id:sender:isCancelled:)`` with this id.
        case wait(id: UInt64)
    }

    /// What ``enqueue(_:id:sender:isCancelled:)`` tells a suspended sender.
    enum WaitAction {
        /// Resume the sender with this error.
        case refuse(TransportError)
        /// Queued after all: resume the sender; signal the writer when `signalWriter` is set.
        case admitted(signalWriter: Bool)
        /// The task was cancelled before waiting: resume it with `CancellationError`.
        case cancelled
        /// The sender now waits in line; an ``Actions`` value will resume it.
        case suspended
    }

    /// The continuations to resume and the signal to give after a state change. Empty
    /// arrays cost no allocation, so the common case (nothing to do) is free.
    struct Actions {
        /// Senders whose bytes are now queued: resume them.
        var admitted: [Sender] = []
        /// Senders refused because the buffer closed or failed: resume them with ``refusal``.
        var refused: [Sender] = []
        /// The error for ``refused`` senders.
        var refusal: TransportError?
        /// Tasks waiting for room: resume them.
        var room: [RoomWaiter] = []
        /// Wake the writing thread (it has bytes to write, or must end).
        var signalWriter = false

        /// Whether there is nothing to do.
        var isEmpty: Bool {
            admitted.isEmpty && refused.isEmpty && room.isEmpty && !signalWriter
        }
    }

    /// What the inline writer does after writing a piece.
    enum InlineStep {
        /// More bytes were queued meanwhile and are now in the chunk: write them too.
        case writeMore
        /// Done: carry out these actions.
        case done(Actions)
    }

    /// What the writing thread does next.
    enum WriterStep {
        /// Wait for a signal.
        case wait
        /// Write the chunk, after carrying out these actions.
        case write(Actions)
        /// Closed and drained, or failed: end the thread.
        case finish
    }

    private enum Phase {
        case open
        case closing
        case failed(TransportError)
    }

    private struct WaitingSender {
        var id: UInt64
        var bytes: [UInt8]
        var sender: Sender
    }

    /// The buffer's bound, in bytes.
    let byteLimit: Int

    private var pending: [UInt8] = []
    private var senders: [WaitingSender] = []
    private var roomWaiters: [(id: UInt64, waiter: RoomWaiter)] = []
    private var nextID: UInt64 = 0
    private var phase = Phase.open
    /// The writing thread is writing a chunk.
    private var writerBusy = false
    /// A sender or the connection thread is writing a chunk inline.
    private var inlineWriting = false
    /// The bytes taken out of `pending` and not yet written.
    private var inFlight = 0
    /// What an inline writer took out of `pending` and could not write: still in flight,
    /// written before anything in `pending`. Kept apart so that, as with a writing thread
    /// blocked in `write`, it does not count against the room for new senders (a writer
    /// holds at most one chunk besides the `byteLimit` of `pending`).
    private var carry: [UInt8] = []
    /// Whether inline writers try one write that never waits
    /// (``POSIX/writeWithoutWaiting(_:_:)``) before polling for room: set by the buffer for a
    /// pipe or socket, and turned off for good the first time the descriptor refuses it.
    var writesWithoutWaiting = false

    /// Creates an empty, open buffer; `byteLimit` must be positive.
    init(byteLimit: Int) {
        precondition(byteLimit > 0, "the outbound buffer's limit must be positive")
        self.byteLimit = byteLimit
    }

    /// The bytes queued or being written.
    var bufferedByteCount: Int { pending.count + carry.count + inFlight }

    /// The number of senders waiting for room.
    var waitingSenderCount: Int { senders.count }

    /// Whether the buffer still accepts bytes.
    var isOpen: Bool {
        if case .open = phase { return true }
        return false
    }

    /// Whether a task asking for room may go on at once: the buffer holds less than its
    /// limit and no sender waits, or it no longer accepts bytes (nothing to wait for).
    var hasRoom: Bool {
        !isOpen || (senders.isEmpty && bufferedByteCount < byteLimit)
    }

    private var refusal: TransportError? {
        switch phase {
        case .open: nil
        case .closing: TransportError.closed
        case .failed(let error): error
        }
    }

    private var nobodyWriting: Bool { !writerBusy && !inlineWriting }

    /// An event-loop writer can stop listening for writability: there is nothing to write,
    /// or someone else is writing (a sender that queues bytes, or an inline writer that
    /// leaves some, signals it again).
    var loopWriterCanPause: Bool { nothingQueued || !nobodyWriting }

    /// Closed or failed with nothing left to write and no one writing: writing is over.
    var isDrainedAndClosed: Bool { !isOpen && nothingQueued && nobodyWriting }

    /// Nothing waits to be written (neither a carried remainder nor queued lines).
    private var nothingQueued: Bool { pending.isEmpty && carry.isEmpty }

    // MARK: Senders

    /// A sender's encoded line (with its newline) arrives.
    ///
    /// - Parameters:
    ///   - deferred: The sender is the connection thread, which writes after its batch of
    ///     jobs (or as soon as `atomicWrite` bytes are waiting).
    ///   - atomicWrite: The most bytes the descriptor takes in one write without blocking
    ///     when it is writable (`PIPE_BUF`).
    mutating func enqueue(_ bytes: [UInt8], deferred: Bool, atomicWrite: Int) -> EnqueueAction {
        if let refusal { return .refuse(refusal) }
        if deferred, senders.isEmpty, pending.isEmpty || pending.count + bytes.count <= byteLimit {
            pending.append(contentsOf: bytes)
            return pending.count >= atomicWrite ? .queuedFlushing : .queued
        }
        if nobodyWriting, nothingQueued, senders.isEmpty, bytes.count <= atomicWrite {
            pending = bytes
            return .writeInline
        }
        if appendIfRoom(bytes) {
            return nobodyWriting ? .queuedSignallingWriter : .queued
        }
        nextID &+= 1
        return .wait(id: nextID)
    }

    /// A sender told to ``EnqueueAction/wait(id:)`` tries again, and waits in line if it must.
    mutating func enqueue(_ bytes: [UInt8], id: UInt64, sender: Sender, isCancelled: Bool) -> WaitAction {
        if let refusal { return .refuse(refusal) }
        if appendIfRoom(bytes) { return .admitted(signalWriter: nobodyWriting) }
        if isCancelled { return .cancelled }
        senders.append(WaitingSender(id: id, bytes: bytes, sender: sender))
        return .suspended
    }

    /// The waiting sender `id` was cancelled: returns it, if it still waits (resume it with
    /// `CancellationError`), and the tasks waiting for room that its leaving lets go.
    mutating func cancelSender(id: UInt64) -> (sender: Sender?, room: [RoomWaiter]) {
        guard let index = senders.firstIndex(where: { $0.id == id }) else { return (nil, []) }
        let sender = senders.remove(at: index).sender
        return (sender, takeRoomWaitersIfRoom())
    }

    private mutating func appendIfRoom(_ bytes: [UInt8]) -> Bool {
        guard senders.isEmpty, pending.isEmpty || pending.count + bytes.count <= byteLimit else { return false }
        pending.append(contentsOf: bytes)
        return true
    }

    /// Lets waiting senders into the buffer, in order, while they fit.
    private mutating func admitSenders(into actions: inout Actions) {
        while let first = senders.first, pending.isEmpty || pending.count + first.bytes.count <= byteLimit {
            senders.removeFirst()
            pending.append(contentsOf: first.bytes)
            actions.admitted.append(first.sender)
        }
    }

    // MARK: Waiting for room

    /// Allocates the id under which a task may wait for room.
    mutating func makeRoomWaiterID() -> UInt64 {
        nextID &+= 1
        return nextID
    }

    /// A task asks for room: returns it to resume at once when there is room (or its task
    /// is cancelled), or keeps it until there is.
    mutating func waitForRoom(_ waiter: RoomWaiter, id: UInt64, isCancelled: Bool) -> RoomWaiter? {
        if hasRoom || isCancelled { return waiter }
        roomWaiters.append((id, waiter))
        return nil
    }

    /// The task waiting for room under `id` was cancelled: returns it, if it still waits.
    mutating func cancelRoomWaiter(id: UInt64) -> RoomWaiter? {
        guard let index = roomWaiters.firstIndex(where: { $0.id == id }) else { return nil }
        return roomWaiters.remove(at: index).waiter
    }

    private mutating func takeRoomWaitersIfRoom() -> [RoomWaiter] {
        guard !roomWaiters.isEmpty, hasRoom else { return [] }
        defer { roomWaiters.removeAll() }
        return roomWaiters.map(\.waiter)
    }

    // MARK: Writing inline

    /// A sender or the connection thread offers to write what is queued: moves it into
    /// `chunk` (the carried remainder of an earlier write first) and returns `true`, unless
    /// nothing is queued or someone is already writing.
    mutating func beginInlineWrite(into chunk: inout [UInt8]) -> Bool {
        guard !nothingQueued, nobodyWriting else { return false }
        inlineWriting = true
        takeNextChunk(into: &chunk)
        inFlight = chunk.count
        return true
    }

    /// Moves what is written next into the empty `chunk`: the carried remainder, if any,
    /// else everything queued.
    private mutating func takeNextChunk(into chunk: inout [UInt8]) {
        if carry.isEmpty {
            swap(&pending, &chunk)
        } else {
            swap(&carry, &chunk)
        }
    }

    /// The inline writer wrote `written` bytes of `chunk` (all, some, or failed with
    /// `failure`). What it did not write is carried, still in flight, for whoever writes
    /// next (the writing thread, or the event loop's writer); bytes queued meanwhile are
    /// moved into `chunk` to be written next.
    mutating func inlineWriteEnded(_ chunk: inout [UInt8], written: Int, failure: TransportError?) -> InlineStep {
        if let failure {
            chunk.removeAll(keepingCapacity: true)
            inlineWriting = false
            return .done(fail(failure))
        }
        if written < chunk.count {
            if written == 0 {
                swap(&carry, &chunk)
            } else {
                carry = Array(chunk[written...])
            }
        } else if !pending.isEmpty {
            chunk.removeAll(keepingCapacity: true)
            swap(&pending, &chunk)
            inFlight = chunk.count
            return .writeMore
        }
        chunk.removeAll(keepingCapacity: true)
        inlineWriting = false
        inFlight = 0
        var actions = Actions()
        admitSenders(into: &actions)
        actions.room = takeRoomWaitersIfRoom()
        // The writing thread takes over whatever is still queued (or finishes closing). When
        // nothing is, it would only wake to wait again: a wasted thread switch per message.
        actions.signalWriter = !nothingQueued || !isOpen
        return .done(actions)
    }

    // MARK: The writing thread

    /// The writing thread asks what to do: wait, write `chunk` (moved out of the buffer),
    /// or end. `chunk` must be empty (its capacity is reused).
    mutating func writerNext(into chunk: inout [UInt8]) -> WriterStep {
        if inlineWriting || (nothingQueued && isOpen) { return .wait }
        if nothingQueued { return .finish }
        writerBusy = true
        takeNextChunk(into: &chunk)
        inFlight = chunk.count
        var actions = Actions()
        admitSenders(into: &actions)
        return .write(actions)
    }

    /// The writing thread wrote its chunk, or failed with `failure`.
    mutating func writerWrote(failure: TransportError?) -> Actions {
        writerBusy = false
        inFlight = 0
        if let failure { return fail(failure) }
        var actions = Actions()
        actions.room = takeRoomWaitersIfRoom()
        return actions
    }

    // MARK: Closing and failing

    /// Stops accepting bytes; what is queued is still written. Waiting senders are
    /// refused with ``TransportError/closed``; tasks waiting for room go on. The writing
    /// thread is always signalled, so that it ends once it has written what is queued,
    /// whatever state the buffer was in.
    mutating func close() -> Actions {
        var actions = Actions()
        actions.signalWriter = true
        guard isOpen else { return actions }
        phase = .closing
        actions.refused = senders.map(\.sender)
        actions.refusal = .closed
        senders = []
        actions.room = takeRoomWaitersIfRoom()
        return actions
    }

    /// A write failed: nothing more is written or accepted. Waiting senders are refused
    /// with `error`, tasks waiting for room go on, and the writing thread is signalled so
    /// that it ends.
    private mutating func fail(_ error: TransportError) -> Actions {
        phase = .failed(error)
        pending = []
        carry = []
        inFlight = 0
        var actions = Actions()
        actions.refused = senders.map(\.sender)
        actions.refusal = error
        senders = []
        actions.room = takeRoomWaitersIfRoom()
        actions.signalWriter = true
        return actions
    }
}
