/// One frame read from the peer: the message it became, and the bytes it took on the wire.
struct InboundFrame: Sendable {
    /// The message, or the report of a frame that was not one.
    var message: InboundMessage
    /// The frame's length in bytes (for an oversized frame, the bytes kept of it), which is
    /// what the frame costs while it waits in the inbound queue.
    var byteCount: Int
}

/// The inbound queue's logic, without locks or threads: a value-type state machine whose
/// methods say what the caller must do (resume the consumer, wake the reader).
///
/// The reading thread pushes batches of frames, and asks before each read whether the
/// queue admits more (``admitsMore()``): it does while it holds fewer than `capacity`
/// messages and fewer than `byteLimit` bytes, so at least one message (even one of the
/// largest size) always gets through. A reader told "no" is remembered, and woken once the
/// consumer has drained the queue to half of both bounds. The consumer takes messages one
/// at a time; when there is none it parks (its `Consumer` value, a continuation in the
/// transport, is kept here) until a push, the end of input, or ``stop()``.
///
/// `InboundBuffer` owns one under a lock and carries out the returned actions after
/// unlocking; tests drive one directly, with plain values as consumers.
struct InboundQueueState<Consumer> {
    /// What the caller must do after a state change.
    enum Action {
        /// Nothing.
        case none
        /// Resume this parked consumer with this outcome (`nil`: the end of the stream); wake
        /// the reader too when `wakeReader` is set.
        case resumeConsumer(Consumer, Result<InboundMessage?, any Error>, wakeReader: Bool)
        /// Wake the reading thread, so that it reads again or sees that it must stop.
        case wakeReader
    }

    /// What ``push(_:)`` tells the reading thread.
    enum PushAction {
        /// The queue is stopped or ended: stop reading.
        case stopReading
        /// The frames were queued (or one went straight to the consumer): go on.
        case keepReading(Action)
    }

    /// What ``take()`` found.
    enum Take {
        /// A message, the end of the stream, or its error; wake the reader when `wakeReader` is set.
        case item(Result<InboundMessage?, any Error>, wakeReader: Bool)
        /// Nothing yet: park the consumer (``take(orPark:isCancelled:)``).
        case empty
    }

    private enum End {
        case finished
        case failed(any Error)
    }

    /// The most messages the reader may queue before it waits.
    let capacity: Int
    /// The most bytes (sum of ``InboundFrame/byteCount``) the reader may queue before it waits.
    let byteLimit: Int

    private var items: [InboundFrame] = []
    private var head = 0
    private var end: End?
    private var consumer: Consumer?
    private var readerWaiting = false

    /// The bytes of the messages waiting for the consumer.
    private(set) var bufferedByteCount = 0
    /// Whether the consumer has gone or the transport closed: the reader should stop.
    private(set) var isStopped = false

    /// Creates an empty queue; both bounds must be positive.
    init(capacity: Int, byteLimit: Int) {
        precondition(capacity > 0 && byteLimit > 0, "the inbound queue's bounds must be positive")
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    /// The number of messages waiting for the consumer.
    var bufferedCount: Int { items.count - head }

    /// Whether the reader has been told to wait for room and not yet woken.
    var isReaderWaiting: Bool { readerWaiting }

    /// Asked by the reader before it reads: whether there is room for more. When there is
    /// not, the reader is remembered and a later ``take()`` says when to wake it.
    mutating func admitsMore() -> Bool {
        if !isStopped, bufferedCount >= capacity || bufferedByteCount >= byteLimit {
            readerWaiting = true
            return false
        }
        return true
    }

    /// Queues `batch` (and empties it, keeping its capacity). A parked consumer gets the
    /// first frame directly.
    mutating func push(_ batch: inout [InboundFrame]) -> PushAction {
        guard !isStopped, end == nil else { return .stopReading }
        guard !batch.isEmpty else { return .keepReading(.none) }
        var action = Action.none
        var first = 0
        if let waiting = consumer {
            consumer = nil
            action = .resumeConsumer(waiting, .success(batch[0].message), wakeReader: false)
            first = 1
        }
        if first < batch.count {
            for index in first..<batch.count { bufferedByteCount += batch[index].byteCount }
            items.append(contentsOf: batch[first...])
        }
        batch.removeAll(keepingCapacity: true)
        return .keepReading(action)
    }

    /// The reader reached the end of input (`error` is `nil`) or failed. The consumer sees
    /// the end after the messages already queued.
    mutating func finish(throwing error: (any Error)?) -> Action {
        guard end == nil else { return .none }
        end = error.map { .failed($0) } ?? .finished
        guard let waiting = consumer else { return .none }
        consumer = nil
        guard case .item(let outcome, let wake) = take() else { return .none }
        return .resumeConsumer(waiting, outcome, wakeReader: wake)
    }

    /// Stops the reader and ends the stream after what is already queued (``close()`` of
    /// the transport, or the consumer cancelled). A parked consumer gets the end at once.
    mutating func stop() -> Action {
        isStopped = true
        if end == nil { end = .finished }
        readerWaiting = false
        guard let waiting = consumer else { return .wakeReader }
        consumer = nil
        return .resumeConsumer(waiting, .success(nil), wakeReader: true)
    }

    /// The next message for the consumer, the end of the stream, or ``Take/empty``.
    mutating func take() -> Take {
        if head < items.count {
            let item = items[head]
            head += 1
            bufferedByteCount -= item.byteCount
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= items.count {
                items.removeSubrange(0..<head)
                head = 0
            }
            var wake = false
            if readerWaiting, bufferedCount <= capacity / 2, bufferedByteCount <= byteLimit / 2 {
                readerWaiting = false
                wake = true
            }
            return .item(.success(item.message), wakeReader: wake)
        }
        switch end {
        case .failed(let error):
            end = .finished
            return .item(.failure(error), wakeReader: false)
        case .finished:
            return .item(.success(nil), wakeReader: false)
        case nil:
            return .empty
        }
    }

    /// Takes the next message for `waiting`, or parks it until there is one. A consumer
    /// whose task is already cancelled stops the queue instead of parking.
    mutating func take(orPark waiting: Consumer, isCancelled: Bool) -> Action {
        if case .item(let outcome, let wake) = take() {
            return .resumeConsumer(waiting, outcome, wakeReader: wake)
        }
        if isCancelled {
            consumer = waiting
            return stop()
        }
        precondition(consumer == nil, "the inbound stream has one consumer")
        consumer = waiting
        return .none
    }
}
