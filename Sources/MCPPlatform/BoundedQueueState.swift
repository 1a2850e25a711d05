/// The logic of a bounded multi-producer, single-consumer queue, without locks or tasks: a
/// value-type state machine whose methods say whom to resume.
///
/// Each element has a cost (bytes, for a message); the queue is bounded both in messages
/// (`capacity`) and in bytes (`byteLimit`). Its ``BoundedQueueAdmission`` says when a message
/// is queued and when waiting producers go on: under both bounds, with producers admitted
/// again once the consumer has drained the queue to half (``BoundedQueueAdmission/underBounds``),
/// or only when the message fits, with producers admitted as soon as theirs does
/// (``BoundedQueueAdmission/whenFits``). Either way one message, even of the largest size,
/// always gets through an empty queue.
///
/// A producer with no room has two ways to wait. One that suspends waits with its message
/// (``park(_:id:message:bytes:isCancelled:)``), in arrival order: messages never pass each
/// other. One that must not suspend, such as a reading thread, asks ``waitForRoom(_:)``
/// before it reads more and queues what it read with ``pushRead(_:bytes:)``: it is woken
/// (named among ``Wakeups/producers``) when there is room again.
///
/// Nothing is dropped silently while the queue is open: a message either reaches the queue
/// or its producer is cancelled. The stream ends in one of three ways:
/// - ``finish(throwing:)``: the producers' side ended (end of input, or its error); what they
///   had read, even while waiting, is delivered first.
/// - ``close()``: the transport closed; what is queued is still delivered, waiting and later
///   producers are refused (``Wakeups/refused``, ``Push/closed``), readers told to stop
///   (``isStopped``).
/// - ``stop()``: the consumer has gone; as ``close()``, and what is queued is dropped.
///
/// ``BoundedQueue`` owns one under a lock and resumes whom the returned ``Wakeups`` name after
/// unlocking, as `InboundBuffer` (the reading thread's queue in MCP) does; tests drive one
/// directly, with plain values as consumers and producers.
@usableFromInline
package struct BoundedQueueState<Element, Consumer, Producer> {
    // Inlinable, and `@usableFromInline` on the type itself: without that attribute the compiler
    // (6.3) serialized none of the `@inlinable` bodies of this package type, so `InboundBuffer`
    // in MCP ran the unspecialized code, looking up generic metadata for every message (about
    // 13 % of the event loop thread's time at 64 requests in flight).

    /// Whom to resume after a state change.
    @usableFromInline
    package struct Wakeups {
        /// The parked consumer, with the next message, the end (`nil`), or the stream's error.
        @usableFromInline package var consumer: (Consumer, Result<Element?, any Error>)?
        /// Producers that go on: their messages are queued (or, the stream having finished,
        /// dropped), or there is room now for those that waited for it.
        @usableFromInline package var producers: [Producer] = []
        /// Waiting producers whose messages were dropped because the queue was closed or
        /// stopped (the shell says so, or lets them go on).
        @usableFromInline package var refused: [Producer] = []

        @inlinable
        package init(consumer: (Consumer, Result<Element?, any Error>)? = nil, producers: [Producer] = [], refused: [Producer] = []) {
            self.consumer = consumer
            self.producers = producers
            self.refused = refused
        }

        @inlinable
        package static var nothing: Wakeups { Wakeups() }
    }

    /// What ``push(_:bytes:)`` did.
    @usableFromInline
    package enum Push {
        /// The message was queued or handed to the consumer.
        case done(Wakeups)
        /// No room: the producer must wait (``park(_:id:message:bytes:isCancelled:)``).
        case full
        /// The stream is over (finished, closed or stopped): the message is dropped.
        case closed
    }

    /// What ``take()`` found.
    @usableFromInline
    package enum Take {
        /// A message, the end of the stream (`nil`), or its error.
        case item(Result<Element?, any Error>, Wakeups)
        /// Nothing yet: park the consumer (``take(orPark:isCancelled:)``).
        case empty
    }

    @usableFromInline
    enum End {
        case finished
        case failed(any Error)
    }

    @usableFromInline
    struct Item {
        @usableFromInline var message: Element
        @usableFromInline var bytes: Int

        @inlinable
        init(message: Element, bytes: Int) {
            self.message = message
            self.bytes = bytes
        }
    }

    @usableFromInline
    struct Waiting {
        @usableFromInline var producer: Producer
        @usableFromInline var id: Int
        @usableFromInline var item: Item

        @inlinable
        init(producer: Producer, id: Int, item: Item) {
            self.producer = producer
            self.id = id
            self.item = item
        }
    }

    /// The most messages queued before producers wait.
    @usableFromInline package let capacity: Int
    /// The most bytes queued before producers wait.
    @usableFromInline package let byteLimit: Int
    /// When messages are queued and waiting producers admitted.
    @usableFromInline package let admission: BoundedQueueAdmission

    @usableFromInline var items = FIFOQueue<Item>()
    @usableFromInline var waiting: [Waiting] = []
    @usableFromInline var roomWaiters: [Producer] = []
    @usableFromInline var consumer: Consumer?
    @usableFromInline var end: End?

    /// The bytes of the messages queued.
    @usableFromInline package internal(set) var bufferedByteCount = 0
    /// The most messages ever queued at once (for tests).
    @usableFromInline package internal(set) var peakCount = 0
    /// The most bytes ever queued at once (for tests).
    @usableFromInline package internal(set) var peakByteCount = 0
    /// Whether the queue was closed or its consumer has gone: messages are refused, and a
    /// reader should stop reading.
    @usableFromInline package internal(set) var isStopped = false

    /// Creates an empty queue; both bounds must be positive.
    @inlinable
    package init(capacity: Int = .max, byteLimit: Int, admission: BoundedQueueAdmission = .underBounds) {
        precondition(capacity > 0 && byteLimit > 0, "the inbound queue's bounds must be positive")
        self.capacity = capacity
        self.byteLimit = byteLimit
        self.admission = admission
    }

    /// The number of messages queued.
    @inlinable
    package var bufferedCount: Int { items.count }

    /// The number of producers waiting with their messages.
    @inlinable
    package var waitingCount: Int { waiting.count }

    /// The number of producers waiting for room (``waitForRoom(_:)``).
    @inlinable
    package var roomWaiterCount: Int { roomWaiters.count }

    /// Whether the consumer is parked with nothing queued and the stream open: the next
    /// message pushed would go straight to it.
    @inlinable
    package var isConsumerWaitingOnEmpty: Bool { consumer != nil && items.isEmpty && end == nil && !isStopped }

    /// Whether a producer asking for room now would go on at once: nobody waits with a
    /// message and the queue is under both bounds, or the stream is over.
    @inlinable
    package var isRoomAvailable: Bool { isStopped || end != nil || (waiting.isEmpty && hasRoom) }

    @inlinable
    var hasRoom: Bool { bufferedCount < capacity && bufferedByteCount < byteLimit }

    /// Whether a message of `bytes` bytes may be queued now, nobody waiting before it.
    @inlinable
    func admits(_ bytes: Int) -> Bool {
        switch admission {
        case .underBounds: hasRoom
        case .whenFits: bufferedCount == 0 || (bufferedCount < capacity && bufferedByteCount + bytes <= byteLimit)
        }
    }

    /// Queues a message of `bytes` bytes, or hands it to the parked consumer; ``Push/full``
    /// when its producer must wait (when other producers already wait, too: they go first).
    @inlinable
    package mutating func push(_ message: Element, bytes: Int) -> Push {
        guard !isStopped, end == nil else { return .closed }
        if let parked = consumer {
            consumer = nil
            return .done(Wakeups(consumer: (parked, .success(message))))
        }
        guard waiting.isEmpty, admits(bytes) else { return .full }
        append(Item(message: message, bytes: bytes))
        return .done(.nothing)
    }

    /// Queues a message its producer has already read, past the bounds if need be (never
    /// ``Push/full``): for a producer that never waits with a message, but asks
    /// ``waitForRoom(_:)`` before it reads more, so that the queue holds at most one read's
    /// worth of messages past the bounds.
    @inlinable
    package mutating func pushRead(_ message: Element, bytes: Int) -> Push {
        guard !isStopped, end == nil else { return .closed }
        if let parked = consumer {
            consumer = nil
            return .done(Wakeups(consumer: (parked, .success(message))))
        }
        append(Item(message: message, bytes: bytes))
        return .done(.nothing)
    }

    /// Makes `producer` wait with its message until there is room, unless there is room now
    /// (its message is then queued and it is among the producers to resume), the stream is
    /// over (it is refused), or its task is cancelled (then `nil` is returned and the message
    /// dropped: resume it with the cancellation).
    @inlinable
    package mutating func park(_ producer: Producer, id: Int, message: Element, bytes: Int, isCancelled: Bool) -> Wakeups? {
        switch push(message, bytes: bytes) {
        case .done(var wakeups):
            wakeups.producers.append(producer)
            return wakeups
        case .closed:
            return Wakeups(refused: [producer])
        case .full:
            if isCancelled { return nil }
            waiting.append(Waiting(producer: producer, id: id, item: Item(message: message, bytes: bytes)))
            return .nothing
        }
    }

    /// Stops a waiting producer whose task was cancelled: returns it (to resume with the
    /// cancellation; its message is dropped), or `nil` when it is not waiting any more.
    @inlinable
    package mutating func cancel(producer id: Int) -> Producer? {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return waiting.remove(at: index).producer
    }

    /// Asked by a producer before it reads more: `true` when there is room (or the stream is
    /// over, so that it finds out), otherwise `waiter` is kept and named among the
    /// ``Wakeups/producers`` once there is room (as the ``admission`` says) or the stream ends.
    @inlinable
    package mutating func waitForRoom(_ waiter: Producer) -> Bool {
        if isRoomAvailable { return true }
        roomWaiters.append(waiter)
        return false
    }

    /// The next message for the consumer, the end of the stream, or ``Take/empty``; admits
    /// waiting producers, and wakes those waiting for room, as the ``admission`` says.
    @inlinable
    package mutating func take() -> Take {
        if let item = items.popFirst() {
            bufferedByteCount -= item.bytes
            var wakeups = Wakeups.nothing
            if !waiting.isEmpty || !roomWaiters.isEmpty { wakeups.producers = makeRoom() }
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

    /// Takes the next message for `parked`, or parks it until there is one. A consumer whose
    /// task is already cancelled gets the end instead of parking, and the queue stays as it
    /// is: the shell's cancellation handler says what else a cancelled consumer does
    /// (``stop()``, ``close()``, or nothing more).
    @inlinable
    package mutating func take(orPark parked: Consumer, isCancelled: Bool) -> Wakeups {
        if case .item(let outcome, var wakeups) = take() {
            wakeups.consumer = (parked, outcome)
            return wakeups
        }
        if isCancelled { return Wakeups(consumer: (parked, .success(nil))) }
        precondition(consumer == nil, "the inbound stream has one consumer")
        consumer = parked
        return .nothing
    }

    /// The parked consumer's task was cancelled: it gets the end; the queue stays as it is.
    @inlinable
    package mutating func releaseConsumer() -> Wakeups {
        guard let parked = consumer else { return .nothing }
        consumer = nil
        return Wakeups(consumer: (parked, .success(nil)))
    }

    /// Ends the stream after what is queued (`error`: it then fails with it). The messages of
    /// producers still waiting were received before the end: they are queued too (past the
    /// bounds), and the producers resumed, with those waiting for room.
    @inlinable
    package mutating func finish(throwing error: (any Error)?) -> Wakeups {
        guard end == nil, !isStopped else { return .nothing }
        var wakeups = Wakeups.nothing
        while !waiting.isEmpty {
            let first = waiting.removeFirst()
            append(first.item)
            wakeups.producers.append(first.producer)
        }
        wakeups.producers += roomWaiters
        roomWaiters.removeAll()
        end = error.map { .failed($0) } ?? .finished
        handEndToParkedConsumer(&wakeups)
        return wakeups
    }

    /// The transport closed: the consumer gets what is queued, then the end (or the error
    /// the stream had already finished with); waiting producers are refused (their messages
    /// dropped), and so are later messages; those waiting for room go on, and readers stop.
    @inlinable
    package mutating func close() -> Wakeups {
        isStopped = true
        if end == nil { end = .finished }
        var wakeups = Wakeups(producers: roomWaiters, refused: waiting.map(\.producer))
        waiting.removeAll()
        roomWaiters.removeAll()
        handEndToParkedConsumer(&wakeups)
        return wakeups
    }

    /// The consumer has gone (its task was cancelled): as ``close()``, and what is queued is
    /// dropped.
    @inlinable
    package mutating func stop() -> Wakeups {
        items.removeAll()
        bufferedByteCount = 0
        return close()
    }

    /// A parked consumer waits on an empty queue: once the stream has ended, it gets the end.
    @inlinable
    mutating func handEndToParkedConsumer(_ wakeups: inout Wakeups) {
        if let parked = consumer, case .item(let outcome, _) = take() {
            consumer = nil
            wakeups.consumer = (parked, outcome)
        }
    }

    @inlinable
    mutating func append(_ item: Item) {
        items.append(item)
        bufferedByteCount += item.bytes
        peakCount = max(peakCount, bufferedCount)
        peakByteCount = max(peakByteCount, bufferedByteCount)
    }

    /// After a take: queues the messages of waiting producers, in order, while the
    /// ``admission`` lets them in, and wakes those waiting for room once nobody waits with a
    /// message and there is room. Returns the producers to resume.
    @inlinable
    mutating func makeRoom() -> [Producer] {
        var admitted: [Producer] = []
        switch admission {
        case .underBounds:
            guard bufferedCount <= capacity / 2, bufferedByteCount <= byteLimit / 2 else { return [] }
            while let first = waiting.first, hasRoom {
                waiting.removeFirst()
                append(first.item)
                admitted.append(first.producer)
            }
        case .whenFits:
            while let first = waiting.first, admits(first.item.bytes) {
                waiting.removeFirst()
                append(first.item)
                admitted.append(first.producer)
            }
        }
        if waiting.isEmpty, hasRoom, !roomWaiters.isEmpty {
            admitted += roomWaiters
            roomWaiters.removeAll()
        }
        return admitted
    }
}
