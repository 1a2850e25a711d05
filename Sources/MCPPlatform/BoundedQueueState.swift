/// The logic of a bounded multi-producer, single-consumer queue, without locks or tasks: a
/// value-type state machine whose methods say whom to resume.
///
/// Each element has a cost (bytes, for a message). An element is queued while fewer than `capacity`
/// messages and fewer than `byteLimit` bytes wait (so one message, even of the largest size,
/// always gets through); past that, its producer waits with it, in arrival order, and reads
/// nothing more of its stream meanwhile. Once the consumer has drained the queue to half of
/// both bounds, waiting producers are admitted in order while there is room, and go on
/// reading. Nothing is dropped: a message either reaches the queue or its producer is
/// cancelled (the request it reads was cancelled, or the transport closed). The queue so
/// holds at most `capacity` messages, and fewer than `byteLimit` bytes plus one message; each
/// waiting producer holds one message more.
///
/// ``BoundedQueue`` owns one under a lock and resumes whom the returned ``Wakeups`` name after
/// unlocking; tests drive one directly, with plain values as consumers and producers.
package struct BoundedQueueState<Element, Consumer, Producer> {
    /// Whom to resume after a state change.
    package struct Wakeups {
        /// The parked consumer, with the next message, the end (`nil`), or the stream's error.
        package var consumer: (Consumer, Result<Element?, any Error>)?
        /// Producers whose messages are now queued (or dropped, the stream being over): they go on.
        package var producers: [Producer] = []

        package static var nothing: Wakeups { Wakeups() }
    }

    /// What ``push(_:bytes:)`` did.
    package enum Push {
        /// The message was queued or handed to the consumer (or dropped: the stream is over).
        case done(Wakeups)
        /// No room: the producer must wait (``park(_:id:message:bytes:isCancelled:)``).
        case full
    }

    /// What ``take()`` found.
    package enum Take {
        /// A message, the end of the stream (`nil`), or its error.
        case item(Result<Element?, any Error>, Wakeups)
        /// Nothing yet: park the consumer (``take(orPark:isCancelled:)``).
        case empty
    }

    private enum End {
        case finished
        case failed(any Error)
    }

    private struct Item {
        var message: Element
        var bytes: Int
    }

    private struct Waiting {
        var producer: Producer
        var id: Int
        var item: Item
    }

    /// The most messages queued before producers wait.
    package let capacity: Int
    /// The most bytes queued before producers wait.
    package let byteLimit: Int

    private var items: [Item] = []
    private var head = 0
    private var waiting: [Waiting] = []
    private var consumer: Consumer?
    private var end: End?

    /// The bytes of the messages queued.
    package internal(set) var bufferedByteCount = 0
    /// The most messages ever queued at once (for tests).
    package internal(set) var peakCount = 0
    /// The most bytes ever queued at once (for tests).
    package internal(set) var peakByteCount = 0
    /// Whether the consumer has gone: messages are dropped, nobody waits.
    package internal(set) var isStopped = false

    /// Creates an empty queue; both bounds must be positive.
    package init(capacity: Int, byteLimit: Int) {
        precondition(capacity > 0 && byteLimit > 0, "the inbound queue's bounds must be positive")
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    /// The number of messages queued.
    package var bufferedCount: Int { items.count - head }

    /// The number of producers waiting for room.
    package var waitingCount: Int { waiting.count }

    private var hasRoom: Bool { bufferedCount < capacity && bufferedByteCount < byteLimit }

    /// Queues a message of `bytes` bytes, or hands it to the parked consumer; ``Push/full``
    /// when its producer must wait (when other producers already wait, too: they go first).
    package mutating func push(_ message: Element, bytes: Int) -> Push {
        guard !isStopped, end == nil else { return .done(.nothing) }
        if let parked = consumer {
            consumer = nil
            return .done(Wakeups(consumer: (parked, .success(message))))
        }
        guard waiting.isEmpty, hasRoom else { return .full }
        append(Item(message: message, bytes: bytes))
        return .done(.nothing)
    }

    /// Makes `producer` wait with its message until there is room, unless there is room now
    /// (its message is then queued and it is among the producers to resume) or its task is
    /// cancelled (then `nil` is returned and the message dropped: resume it with the
    /// cancellation).
    package mutating func park(_ producer: Producer, id: Int, message: Element, bytes: Int, isCancelled: Bool) -> Wakeups? {
        switch push(message, bytes: bytes) {
        case .done(var wakeups):
            wakeups.producers.append(producer)
            return wakeups
        case .full:
            if isCancelled { return nil }
            waiting.append(Waiting(producer: producer, id: id, item: Item(message: message, bytes: bytes)))
            return .nothing
        }
    }

    /// Stops a waiting producer whose task was cancelled: returns it (to resume with the
    /// cancellation; its message is dropped), or `nil` when it is not waiting any more.
    package mutating func cancel(producer id: Int) -> Producer? {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return waiting.remove(at: index).producer
    }

    /// The next message for the consumer, the end of the stream, or ``Take/empty``; admits
    /// waiting producers once the queue has drained to half of both bounds.
    package mutating func take() -> Take {
        if head < items.count {
            let item = items[head]
            head += 1
            bufferedByteCount -= item.bytes
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= items.count {
                items.removeSubrange(0..<head)
                head = 0
            }
            var wakeups = Wakeups.nothing
            if !waiting.isEmpty, bufferedCount <= capacity / 2, bufferedByteCount <= byteLimit / 2 {
                wakeups.producers = admitWaiting(all: false)
            }
            return .item(.success(item.message), wakeups)
        }
        switch end {
        case .failed(let error):
            end = .finished
            return .item(.failure(error), .nothing)
        case .finished:
            return .item(.success(nil), .nothing)
        case nil:
            return .empty
        }
    }

    /// Takes the next message for `waiting`, or parks it until there is one. A consumer
    /// whose task is already cancelled stops the queue instead of parking.
    package mutating func take(orPark parked: Consumer, isCancelled: Bool) -> Wakeups {
        if case .item(let outcome, var wakeups) = take() {
            wakeups.consumer = (parked, outcome)
            return wakeups
        }
        if isCancelled {
            var wakeups = stop()
            wakeups.consumer = (parked, .success(nil))
            return wakeups
        }
        precondition(consumer == nil, "the inbound stream has one consumer")
        consumer = parked
        return .nothing
    }

    /// Ends the stream after what is queued (`error`: it then fails with it). The messages of
    /// producers still waiting were received before the end: they are queued too (past the
    /// bounds), and the producers resumed.
    package mutating func finish(throwing error: (any Error)?) -> Wakeups {
        guard end == nil, !isStopped else { return .nothing }
        var wakeups = Wakeups.nothing
        wakeups.producers = admitWaiting(all: true)
        end = error.map { .failed($0) } ?? .finished
        if let parked = consumer, case .item(let outcome, _) = take() {
            consumer = nil
            wakeups.consumer = (parked, outcome)
        }
        return wakeups
    }

    /// The consumer has gone (its task was cancelled): what is queued is dropped, waiting
    /// producers go on (their messages dropped), and so are later messages. A parked
    /// consumer gets the end.
    package mutating func stop() -> Wakeups {
        isStopped = true
        if end == nil { end = .finished }
        items.removeAll()
        head = 0
        bufferedByteCount = 0
        var wakeups = Wakeups(producers: waiting.map(\.producer))
        waiting.removeAll()
        if let parked = consumer {
            consumer = nil
            wakeups.consumer = (parked, .success(nil))
        }
        return wakeups
    }

    private mutating func append(_ item: Item) {
        items.append(item)
        bufferedByteCount += item.bytes
        peakCount = max(peakCount, bufferedCount)
        peakByteCount = max(peakByteCount, bufferedByteCount)
    }

    /// Queues the messages of waiting producers, in order, while there is room (`all`: every
    /// one); returns the producers admitted.
    private mutating func admitWaiting(all: Bool) -> [Producer] {
        var admitted: [Producer] = []
        while let first = waiting.first, all || hasRoom {
            waiting.removeFirst()
            append(first.item)
            admitted.append(first.producer)
        }
        return admitted
    }
}
