/// A bounded multi-producer, single-consumer async queue: a ``BoundedQueueState`` under a
/// lock, whose wake-ups run after unlocking.
///
/// A producer that finds the queue full suspends in ``push(_:bytes:whileWaiting:)`` with its
/// element, and so reads no further until the consumer has made room: back-pressure. The
/// HTTP transport's inbound messages go through one, from the tasks reading the server's
/// responses and streams to the task iterating its `receive()` (what an HTTP exchanger receives
/// meanwhile is bounded by the exchanger: see `URLSessionExchanger` in HTTPClientCore); so do
/// each direction's messages of the in-process transport.
package final class BoundedQueue<Element: Sendable>: Sendable {
    /// What a cancelled consumer does to the queue.
    package enum ConsumerCancellation: Sendable {
        /// It stops the queue (``stop()``): the consumer has gone for good.
        case stopsQueue
        /// Only its receive ends (with the end of the stream); the queue stays as it is.
        case endsReceive
    }

    private typealias State = BoundedQueueState<Element, CheckedContinuation<Element?, any Error>, CheckedContinuation<Void, any Error>>

    private let locked: LockedValue<(state: State, nextProducer: Int)>
    private let closedError: (any Error)?
    private let consumerCancellation: ConsumerCancellation
    /// Fulfilled the first time a producer waits for room (for tests).
    package let producerWaited = OneShot<Void>()

    /// Creates an empty queue.
    ///
    /// - Parameters:
    ///   - capacity: The most messages queued before producers wait.
    ///   - byteLimit: The most bytes queued before producers wait.
    ///   - admission: When messages are queued and waiting producers admitted.
    ///   - closedError: What a producer gets when the stream is over (finished, closed or
    ///     stopped) and its message dropped; `nil`: it goes on as if the message was queued.
    ///   - consumerCancellation: What a consumer cancelled while it waits does to the queue.
    package init(
        capacity: Int = .max, byteLimit: Int, admission: BoundedQueueAdmission = .underBounds, closedError: (any Error)? = nil,
        consumerCancellation: ConsumerCancellation = .stopsQueue
    ) {
        locked = LockedValue((State(capacity: capacity, byteLimit: byteLimit, admission: admission), 0))
        self.closedError = closedError
        self.consumerCancellation = consumerCancellation
    }

    /// The number of messages queued.
    package var bufferedCount: Int { locked.withLock { $0.state.bufferedCount } }

    /// The bytes of the messages queued.
    package var bufferedByteCount: Int { locked.withLock { $0.state.bufferedByteCount } }

    /// The most messages, and bytes, ever queued at once.
    package var peak: (count: Int, bytes: Int) { locked.withLock { ($0.state.peakCount, $0.state.peakByteCount) } }

    /// Queues an element that costs `bytes` bytes, waiting for room when the queue
    /// is full; `watch`, when given, does not count the wait as the server's silence.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled while it waits (the
    ///   message is then dropped); the `closedError` given at creation, if any, when the
    ///   stream is over.
    package func push(_ message: Element, bytes: Int, whileWaiting watch: IdleWatch? = nil) async throws {
        let fast = locked.withLock { $0.state.push(message, bytes: bytes) }
        switch fast {
        case .done(let wakeups):
            perform(wakeups)
            return
        case .closed:
            if let closedError { throw closedError }
            return
        case .full:
            break
        }
        producerWaited.fulfill(())
        let id = locked.withLock { locked in
            locked.nextProducer += 1
            return locked.nextProducer
        }
        watch?.hold()
        defer { watch?.release() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (producer: CheckedContinuation<Void, any Error>) in
                let wakeups = locked.withLock {
                    $0.state.park(producer, id: id, message: message, bytes: bytes, isCancelled: Task.isCancelled)
                }
                if let wakeups {
                    perform(wakeups)
                } else {
                    producer.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let producer = locked.withLock { $0.state.cancel(producer: id) }
            producer?.resume(throwing: CancellationError())
        }
    }

    /// Returns once a message pushed now would not wait: nobody waits with one, and the
    /// queue is under its bounds (as its admission says, after draining); or the stream is
    /// over.
    package func waitForRoom() async {
        if locked.withLock({ $0.state.isRoomAvailable }) { return }
        // Room waiters are only ever resumed normally.
        try? await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            let now = locked.withLock { $0.state.waitForRoom(waiter) }
            if now { waiter.resume() }
        }
    }

    /// The next element, `nil` at the end; called from the one consumer.
    package nonisolated(nonsending) func next() async throws -> Element? {
        let taken = locked.withLock { $0.state.take() }
        if case .item(let outcome, let wakeups) = taken {
            perform(wakeups)
            return try outcome.get()
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (consumer: CheckedContinuation<Element?, any Error>) in
                let wakeups = locked.withLock { $0.state.take(orPark: consumer, isCancelled: Task.isCancelled) }
                perform(wakeups)
            }
        } onCancel: {
            switch consumerCancellation {
            case .stopsQueue:
                stop()
            case .endsReceive:
                perform(locked.withLock { $0.state.releaseConsumer() })
            }
        }
    }

    /// Ends the stream after what is queued; with `error`, it then throws it. The messages
    /// of producers still waiting are delivered before the end.
    package func finish(throwing error: (any Error)?) {
        let wakeups = locked.withLock { $0.state.finish(throwing: error) }
        perform(wakeups)
    }

    /// Closes the queue: what is queued can still be taken, then the end; waiting and later
    /// producers are refused (with the `closedError` given at creation, if any).
    package func close() {
        let wakeups = locked.withLock { $0.state.close() }
        perform(wakeups)
    }

    /// The consumer has gone: drops what is queued and what comes later.
    package func stop() {
        let wakeups = locked.withLock { $0.state.stop() }
        perform(wakeups)
    }

    private func perform(_ wakeups: State.Wakeups) {
        for producer in wakeups.producers { producer.resume() }
        for producer in wakeups.refused {
            if let closedError {
                producer.resume(throwing: closedError)
            } else {
                producer.resume()
            }
        }
        if let (consumer, outcome) = wakeups.consumer { consumer.resume(with: outcome) }
    }
}
