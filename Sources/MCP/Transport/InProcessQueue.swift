internal import MCPCore
internal import MCPPlatform

/// One direction of an ``InProcessTransport``: a FIFO of messages bounded in bytes.
///
/// Senders append while the queue holds less than `byteLimit` bytes (any message when it is
/// empty); otherwise they wait in line, as continuations, until the receiver has taken
/// enough. ``finish()`` ends it: the receiver gets what is queued and then the end, waiting
/// and later senders get ``TransportError/closed``.
final class InProcessQueue: @unchecked Sendable {
    // Safety: every stored property below is read and written with `lock` held.
    private let lock = Lock()
    private let byteLimit: Int
    private var items: [(message: InboundMessage, size: Int)] = []
    private var head = 0
    private var bytes = 0
    private var finished = false
    private var receiver: CheckedContinuation<InboundMessage?, any Error>?
    private var senders: [(id: UInt64, message: InboundMessage, size: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var roomWaiters: [CheckedContinuation<Void, Never>] = []
    private var nextID: UInt64 = 0

    init(byteLimit: Int) {
        self.byteLimit = max(1, byteLimit)
    }

    private var isEmptyLocked: Bool { head == items.count }

    private func fitsLocked(_ size: Int) -> Bool {
        senders.isEmpty && (isEmptyLocked || bytes + size <= byteLimit)
    }

    /// Appends a message, suspending while the queue is full.
    func enqueue(_ message: InboundMessage, size: Int) async throws {
        lock.lock()
        if finished {
            lock.unlock()
            throw TransportError.closed
        }
        if fitsLocked(size) {
            let waiting = appendLocked(message, size: size)
            lock.unlock()
            waiting?.resume(returning: message)
            return
        }
        nextID += 1
        let id = nextID
        lock.unlock()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if finished {
                    lock.unlock()
                    continuation.resume(throwing: TransportError.closed)
                } else if fitsLocked(size) {
                    let waiting = appendLocked(message, size: size)
                    lock.unlock()
                    waiting?.resume(returning: message)
                    continuation.resume()
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    senders.append((id, message, size, continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            let sender = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                guard let index = senders.firstIndex(where: { $0.id == id }) else { return nil }
                return senders.remove(at: index).continuation
            }
            sender?.resume(throwing: CancellationError())
        }
    }

    /// Queues a message, or hands it straight to a waiting receiver (returned, to resume
    /// outside the lock).
    private func appendLocked(_ message: InboundMessage, size: Int) -> CheckedContinuation<InboundMessage?, any Error>? {
        if let waiting = receiver {
            receiver = nil
            return waiting
        }
        items.append((message, size))
        bytes += size
        return nil
    }

    /// The next message, or `nil` once finished and drained.
    func next() async throws -> InboundMessage? {
        lock.lock()
        if let (message, resumed) = takeLocked() {
            lock.unlock()
            resume(resumed)
            return message
        }
        if finished {
            lock.unlock()
            return nil
        }
        lock.unlock()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<InboundMessage?, any Error>) in
                lock.lock()
                if let (message, resumed) = takeLocked() {
                    lock.unlock()
                    resume(resumed)
                    continuation.resume(returning: message)
                } else if finished || Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    receiver = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            let waiting = lock.withLock {
                defer { receiver = nil }
                return receiver
            }
            waiting?.resume(returning: nil)
        }
    }

    private typealias Resumed = (senders: [CheckedContinuation<Void, any Error>], room: [CheckedContinuation<Void, Never>])

    /// Takes the first message and admits the waiting senders that now fit.
    private func takeLocked() -> (InboundMessage, Resumed)? {
        guard !isEmptyLocked else { return nil }
        let (message, size) = items[head]
        head += 1
        bytes -= size
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 256, head * 2 >= items.count {
            items.removeSubrange(0..<head)
            head = 0
        }
        var admitted: [CheckedContinuation<Void, any Error>] = []
        while let first = senders.first, isEmptyLocked || bytes + first.size <= byteLimit {
            senders.removeFirst()
            items.append((first.message, first.size))
            bytes += first.size
            admitted.append(first.continuation)
        }
        var room: [CheckedContinuation<Void, Never>] = []
        if senders.isEmpty, bytes < byteLimit {
            room = roomWaiters
            roomWaiters = []
        }
        return (message, (admitted, room))
    }

    private func resume(_ resumed: Resumed) {
        for sender in resumed.senders { sender.resume() }
        for waiter in resumed.room { waiter.resume() }
    }

    /// Returns once the queue holds less than its limit and nobody waits to send (or it is finished).
    func waitForRoom() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if finished || (senders.isEmpty && bytes < byteLimit) {
                lock.unlock()
                continuation.resume()
            } else {
                roomWaiters.append(continuation)
                lock.unlock()
            }
        }
    }

    /// Ends the queue: what is queued can still be read; waiting senders fail.
    func finish() {
        lock.lock()
        finished = true
        let waitingReceiver = isEmptyLocked ? receiver : nil
        if waitingReceiver != nil { receiver = nil }
        let refused = senders.map(\.continuation)
        senders = []
        let room = roomWaiters
        roomWaiters = []
        lock.unlock()
        waitingReceiver?.resume(returning: nil)
        for sender in refused { sender.resume(throwing: TransportError.closed) }
        for waiter in room { waiter.resume() }
    }
}
