internal import MCPPlatform

/// The bounded queue between the reading thread and the task iterating the inbound stream:
/// an ``InboundQueueState`` under a lock, whose actions run after unlocking.
///
/// The reading thread never blocks here (it also runs tasks): once the queue is full it
/// stops reading (``admitsMore()``), and the consumer wakes it through `wakeReader` when the
/// queue has drained to half, or when the stream stops.
final class InboundBuffer: Sendable {
    private let state: LockedValue<InboundQueueState<CheckedContinuation<InboundMessage?, any Error>>>
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
        state = LockedValue(InboundQueueState(capacity: capacity, byteLimit: byteLimit))
        self.wakeReader = wakeReader
    }

    /// Whether the consumer is gone or the transport closed: the reader should stop.
    var isStopped: Bool { state.withLock { $0.isStopped } }

    /// The number of messages waiting for the consumer.
    var bufferedCount: Int { state.withLock { $0.bufferedCount } }

    /// The bytes of the messages waiting for the consumer.
    var bufferedByteCount: Int { state.withLock { $0.bufferedByteCount } }

    /// Called on the reading thread before it reads: whether there is room for more
    /// messages. When there is not, the consumer wakes the reader once there is.
    func admitsMore() -> Bool {
        let admits = state.withLock { $0.admitsMore() }
        if !admits, readerParked.current == nil { readerParked.fulfill(()) }
        return admits
    }

    /// Called on the reading thread: hands over `batch` (and empties it). Returns `false`
    /// when reading should stop.
    func push(_ batch: inout [InboundFrame]) -> Bool {
        let action = state.withLock { $0.push(&batch) }
        switch action {
        case .stopReading:
            return false
        case .keepReading(let action):
            perform(action)
            return true
        }
    }

    /// Called on the reading thread at end of input (`nil`) or on a read error.
    func finish(throwing error: (any Error)?) {
        let action = state.withLock { $0.finish(throwing: error) }
        perform(action)
    }

    /// Stops the reader and finishes the stream after what is already buffered.
    func close() {
        let action = state.withLock { $0.stop() }
        perform(action)
    }

    /// Called from the inbound stream: the next message, `nil` at the end.
    nonisolated(nonsending) func next() async throws -> InboundMessage? {
        let taken = state.withLock { $0.take() }
        if case .item(let outcome, let wake) = taken {
            if wake { wakeReader() }
            return try outcome.get()
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<InboundMessage?, any Error>) in
                let action = state.withLock { $0.take(orPark: continuation, isCancelled: Task.isCancelled) }
                perform(action)
            }
        } onCancel: {
            close()
        }
    }

    private func perform(_ action: InboundQueueState<CheckedContinuation<InboundMessage?, any Error>>.Action) {
        switch action {
        case .none:
            break
        case .resumeConsumer(let consumer, let outcome, let wake):
            if wake { wakeReader() }
            consumer.resume(with: outcome)
        case .wakeReader:
            wakeReader()
        }
    }
}
