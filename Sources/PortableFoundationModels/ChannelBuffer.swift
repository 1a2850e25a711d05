// PortableFoundationModels: Apple's FoundationModels API where the framework does not exist.
#if !canImport(FoundationModels)

/// The queue behind a `LanguageModelExecutorGenerationChannel`: what an executor sends, waiting
/// for the session to take it.
///
/// A session's channel is bounded: it holds at most ``sessionCapacity`` events, and a `send`
/// beyond that suspends until the session takes one (or the channel closes, or the sending task
/// is cancelled), so an executor that streams faster than the session assembles cannot grow
/// memory without bound. One reader takes events in order; the reader's `next` suspends until
/// an event arrives or the channel finishes.
///
/// A channel made with the public `init()` (to test an executor without a session) is a
/// recorder instead: it keeps everything sent, never suspends a sender, and its reader ends when
/// it has read everything kept so far.
///
/// The channel owns no task. The session runs the executor and the reader in one task group
/// for the request, finishes the channel when the executor returns or throws, and closes it
/// when the reader stops early; either way every suspended sender resumes.
final class ChannelBuffer: Sendable {

    /// How many events a session's channel holds before a sender waits.
    static let sessionCapacity = 32

    enum Mode {
        /// At most this many events wait; a sender beyond that suspends.
        case bounded(Int)
        /// Keeps everything; the reader ends when it has read what was kept.
        case recorder
    }

    private struct Sender {
        var id: Int
        var event: ChannelEvent
        var continuation: CheckedContinuation<Void, Never>
    }

    /// The channel's state, behind the lock; its methods run with the lock held, and return the
    /// continuations to resume after it is released.
    private struct State {
        let mode: Mode
        var queue: [ChannelEvent] = []
        var head = 0
        /// No more events will come: the reader reads what is queued, then ends.
        var finished = false
        /// The reader waits for the next event.
        var reader: CheckedContinuation<ChannelEvent?, Never>?
        /// Senders suspended because the queue is full, oldest first.
        var senders: [Sender] = []
        /// Ids of senders that are about to suspend (allocated, not yet registered or resumed).
        var pendingSenders: Set<Int> = []
        /// Ids of pending senders whose task was cancelled before they suspended.
        var cancelledSenders: Set<Int> = []
        var nextSenderID = 0

        var hasRoom: Bool {
            switch mode {
            case .bounded(let capacity): queue.count - head < capacity
            case .recorder: true
            }
        }

        var isRecorderEmpty: Bool {
            if case .recorder = mode { return queue.count == head }
            return false
        }

        /// Queues `event`, gives it to a waiting reader, or drops it when the channel has ended;
        /// `nil` when the channel is full.
        mutating func place(_ event: ChannelEvent) -> CheckedContinuation<ChannelEvent?, Never>?? {
            if finished { return .some(nil) }
            if let waiting = reader {
                reader = nil
                return .some(waiting)
            }
            if hasRoom {
                queue.append(event)
                return .some(nil)
            }
            return nil
        }

        /// The oldest queued event, moving the oldest waiting sender's event into the freed place
        /// (its continuation is returned, to resume outside the lock).
        mutating func dequeue() -> Taken? {
            guard head < queue.count else { return nil }
            let event = queue[head]
            head += 1
            if head > 64, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            var resumed: CheckedContinuation<Void, Never>?
            if !senders.isEmpty {
                let sender = senders.removeFirst()
                queue.append(sender.event)
                resumed = sender.continuation
            }
            return Taken(event: event, sender: resumed)
        }
    }

    private let state: LockedValue<State>

    init(mode: Mode) {
        state = LockedValue(State(mode: mode))
    }

    /// Events queued and not yet read.
    var count: Int { state.withLock { $0.queue.count - $0.head } }

    // MARK: Sending

    /// What a sender does after its look at the channel.
    private enum Placement {
        /// The event is queued, dropped, or given to the reader (resumed here).
        case done(CheckedContinuation<ChannelEvent?, Never>?)
        /// The channel is full: wait, with this id.
        case wait(Int)
    }

    /// Queues `event`, waiting while the channel is full. Returns at once, dropping the event,
    /// when the channel has finished or closed; a cancelled sender stops waiting and drops it.
    nonisolated(nonsending) func send(_ event: ChannelEvent) async {
        let placement: Placement = state.withLock { state in
            if let placed = state.place(event) { return .done(placed) }
            state.nextSenderID += 1
            state.pendingSenders.insert(state.nextSenderID)
            return .wait(state.nextSenderID)
        }
        let id: Int
        switch placement {
        case .done(let waitingReader):
            waitingReader?.resume(returning: event)
            return
        case .wait(let allocated):
            id = allocated
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let placed: CheckedContinuation<ChannelEvent?, Never>?? = state.withLock { state in
                    state.pendingSenders.remove(id)
                    if state.cancelledSenders.remove(id) != nil { return .some(nil) }
                    if let placed = state.place(event) { return placed }
                    state.senders.append(Sender(id: id, event: event, continuation: continuation))
                    return nil
                }
                if let placed {
                    placed?.resume(returning: event)
                    continuation.resume()
                }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
                if let index = state.senders.firstIndex(where: { $0.id == id }) {
                    return state.senders.remove(at: index).continuation
                }
                if state.pendingSenders.contains(id) { state.cancelledSenders.insert(id) }
                return nil
            }
            continuation?.resume()
        }
    }

    // MARK: Reading

    /// The next event, waiting for one; `nil` once the channel has finished and been read, or
    /// closed. A reader whose task is cancelled closes the channel. Only one reader may wait at a
    /// time: a second one gets `nil`.
    nonisolated(nonsending) func next() async -> ChannelEvent? {
        if let ready = takeReady() { return ready.event }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ChannelEvent?, Never>) in
                let ready: Taken? = state.withLock { state in
                    if let taken = state.dequeue() { return taken }
                    if state.finished || state.reader != nil || state.isRecorderEmpty { return Taken(event: nil, sender: nil) }
                    state.reader = continuation
                    return nil
                }
                if let ready {
                    ready.sender?.resume()
                    continuation.resume(returning: ready.event)
                }
            }
        } onCancel: {
            close()
        }
    }

    private struct Taken {
        var event: ChannelEvent?
        var sender: CheckedContinuation<Void, Never>?
    }

    /// An event (or the end) that needs no waiting.
    private func takeReady() -> Taken? {
        let taken: Taken? = state.withLock { state in
            if let taken = state.dequeue() { return taken }
            if state.finished || state.isRecorderEmpty { return Taken(event: nil, sender: nil) }
            return nil
        }
        taken?.sender?.resume()
        return taken
    }

    // MARK: Ending

    /// No more events: the reader reads what is queued, then ends. Senders still waiting resume
    /// and their events are dropped.
    func finish() {
        end(dropQueued: false)
    }

    /// The reader is gone: queued events are dropped, and every waiting sender resumes.
    func close() {
        end(dropQueued: true)
    }

    private func end(dropQueued: Bool) {
        let (waitingReader, waitingSenders): (CheckedContinuation<ChannelEvent?, Never>?, [Sender]) = state.withLock { state in
            state.finished = true
            if dropQueued {
                state.queue = []
                state.head = 0
            }
            defer {
                state.reader = nil
                state.senders = []
            }
            return (state.reader, state.senders)
        }
        waitingReader?.resume(returning: nil)
        for sender in waitingSenders { sender.continuation.resume() }
    }
}
#endif
