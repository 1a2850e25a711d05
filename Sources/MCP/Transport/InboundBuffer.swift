internal import MCPCore
internal import MCPPlatform

/// The bounded queue between the reading thread and the task iterating the inbound stream:
/// a `BoundedQueueState` under a lock, whose wake-ups run after unlocking.
///
/// The reading thread never blocks here (it also runs tasks): before each read it asks
/// whether the queue has room (``admitsMore()``), and queues what one read completes past
/// the bounds if need be. Once the queue is full it stops reading, and the consumer wakes it
/// through `wakeReader` when the queue has drained to half of both bounds, or when the
/// stream stops. The queue so holds fewer than `capacity` messages and `byteLimit` bytes,
/// plus what one read completes.
final class InboundBuffer: Sendable {
    /// The reading thread waits for room as a plain mark: one closure wakes it.
    private typealias State = BoundedQueueState<InboundMessage, CheckedContinuation<InboundMessage?, any Error>, Void>

    /// Takes messages on the reading thread instead of the consumer. See
    /// ``setInlineHandler(_:)``.
    struct InlineHandler: Sendable {
        /// Takes a message; returns `false` to leave it (and every message after it) to the
        /// consumer.
        let take: @Sendable (InboundMessage) -> Bool
        /// Called once `take` has been offered the messages of one read, if it took any, before
        /// any message it left reaches the consumer: what it gathered from them can go on.
        let endOfRead: @Sendable () -> Void

        init(take: @escaping @Sendable (InboundMessage) -> Bool, endOfRead: @escaping @Sendable () -> Void = {}) {
            self.take = take
            self.endOfRead = endOfRead
        }
    }

    /// The queue and the inline handler, under one lock.
    private struct Guarded {
        var queue: State
        var inline: InlineHandler?
    }

    private let state: LockedValue<Guarded>
    private let wakeReader: @Sendable () -> Void
    /// Fulfilled the first time the reader is told to wait for room (for tests).
    let readerParked = OneShot<Void>()

    /// Creates an empty queue.
    ///
    /// - Parameters:
    ///   - capacity: The most messages queued before the reader waits.
    ///   - byteLimit: The most bytes queued before the reader waits.
    ///   - wakeReader: Wakes the reading thread; called without the lock held.
    init(capacity: Int, byteLimit: Int, wakeReader: @escaping @Sendable () -> Void) {
        state = LockedValue(Guarded(queue: State(capacity: capacity, byteLimit: byteLimit, admission: .underBounds)))
        self.wakeReader = wakeReader
    }

    /// Whether the consumer is gone or the transport closed: the reader should stop.
    var isStopped: Bool { state.withLock { $0.queue.isStopped } }

    /// Requests (and batches) read and not yet answered, as far as ``noteAnswer()`` knows.
    ///
    /// A hint for when to write, not a protocol record: an answer to a frame that was not a
    /// request (an invalid line, say) never lets it go below zero, and a cancellation counts
    /// its request answered. Should it still count a request that is never answered, the cost
    /// is that answers go out through the loop's next flush (one hop) instead of at once.
    private let unanswered = LockedValue(0)

    /// The requests read and not yet answered (see ``noteAnswer()``).
    var unansweredCount: Int { unanswered.withLock { $0 } }

    /// An answer is about to be sent: returns whether other requests read earlier are still
    /// unanswered (their answers will follow, so this one can wait to be written with them).
    func noteAnswer() -> Bool {
        unanswered.withLock { count in
            count = max(0, count - 1)
            return count > 0
        }
    }

    /// The number of messages waiting for the consumer.
    var bufferedCount: Int { state.withLock { $0.queue.bufferedCount } }

    /// The bytes of the messages waiting for the consumer.
    var bufferedByteCount: Int { state.withLock { $0.queue.bufferedByteCount } }

    /// Called on the reading thread before it reads: whether there is room for more
    /// messages. When there is not, the consumer wakes the reader once there is.
    func admitsMore() -> Bool {
        let admits = state.withLock { state in
            if state.queue.isRoomAvailable { return true }
            // The reader is the one producer waiting for room: marked once until woken.
            if state.queue.roomWaiterCount == 0 { _ = state.queue.waitForRoom(()) }
            return false
        }
        if !admits, readerParked.current == nil { readerParked.fulfill(()) }
        return admits
    }

    /// Called on the reading thread: hands over `batch` (and empties it, keeping its
    /// capacity). Returns `false` when reading should stop.
    func push(_ batch: inout [InboundFrame]) -> Bool {
        var requests = 0
        for frame in batch {
            switch frame.message {
            case .message(.request), .message(.batch): requests += 1
            // A cancelled request may never be answered: count it answered now, so that the
            // count does not keep answers waiting for one that never comes.
            case .message(.notification(let notification)) where notification.method == MCPMethod.cancelled: requests -= 1
            default: break
            }
        }
        if requests != 0 { unanswered.withLock { $0 = max(0, $0 + requests) } }
        // While the consumer waits with nothing queued, the inline handler takes what it can, in
        // order; from the first message it leaves, the rest are queued (so order is kept).
        var first = 0
        if let inline = state.withLock({ $0.queue.isConsumerWaitingOnEmpty ? $0.inline : nil }) {
            while first < batch.count, inline.take(batch[first].message) { first += 1 }
            if first > 0 { inline.endOfRead() }
            if first == batch.count {
                batch.removeAll(keepingCapacity: true)
                return true
            }
        }
        let pushed: State.Wakeups? = state.withLock { state in
            var wakeups = State.Wakeups.nothing
            for frame in batch[first...] {
                switch state.queue.pushRead(frame.message, bytes: frame.byteCount) {
                case .done(let done):
                    if let consumer = done.consumer { wakeups.consumer = consumer }
                case .closed, .full:
                    return nil
                }
            }
            return wakeups
        }
        guard let pushed else { return false }
        batch.removeAll(keepingCapacity: true)
        perform(pushed)
        return true
    }

    /// Lets the reading thread hand messages to `handler` instead of queueing them, while the
    /// consumer waits for the next one with nothing queued (`nil` stops it).
    ///
    /// The handler runs on the reading thread, must not block, and returns `false` for a
    /// message it leaves to the consumer: that message and every one read after it are then
    /// queued, until the consumer has taken them all and waits again. The consumer so sees
    /// its messages in order, after those the handler took. A message read while the queue is
    /// being closed may still reach the handler. Once the messages of a read have been offered,
    /// the handler's `endOfRead` runs, before any message it left is queued.
    ///
    /// For a server loop that only admits and starts requests, this saves waking its task
    /// for every message: the requests start from the reading thread.
    func setInlineHandler(_ handler: InlineHandler?) {
        state.withLock { $0.inline = handler }
    }

    /// Called on the reading thread at end of input (`nil`) or on a read error.
    func finish(throwing error: (any Error)?) {
        let wakeups = state.withLock { $0.queue.finish(throwing: error) }
        perform(wakeups)
    }

    /// Stops the reader and finishes the stream after what is already buffered.
    func close() {
        var wakeups = state.withLock { $0.queue.close() }
        // The reader is woken once, whether it waited for room or not, to see that it must stop.
        wakeups.producers.removeAll()
        perform(wakeups)
        wakeReader()
    }

    /// Called from the inbound stream: the next message, `nil` at the end.
    nonisolated(nonsending) func next() async throws -> InboundMessage? {
        let taken = state.withLock { $0.queue.take() }
        if case .item(let outcome, let wakeups) = taken {
            if !wakeups.producers.isEmpty { wakeReader() }
            return try outcome.get()
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<InboundMessage?, any Error>) in
                let wakeups = state.withLock { $0.queue.take(orPark: continuation, isCancelled: Task.isCancelled) }
                perform(wakeups)
            }
        } onCancel: {
            close()
        }
    }

    private func perform(_ wakeups: State.Wakeups) {
        if !wakeups.producers.isEmpty { wakeReader() }
        if let (consumer, outcome) = wakeups.consumer { consumer.resume(with: outcome) }
    }
}
