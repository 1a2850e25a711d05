internal import MCPCore
internal import MCPPlatform

/// One direction of an ``InProcessTransport``: a FIFO of messages bounded in bytes.
///
/// Senders append while the queue holds less than `byteLimit` bytes (any message when it is
/// empty); otherwise they wait in line, as continuations, until the receiver has taken
/// enough. ``finish()`` ends it: the receiver gets what is queued and then the end, waiting
/// and later senders get ``TransportError/closed``.
final class InProcessQueue: Sendable {
    private typealias Sender = (id: UInt64, message: InboundMessage, size: Int, continuation: CheckedContinuation<Void, any Error>)
    private typealias Resumed = (senders: [CheckedContinuation<Void, any Error>], room: [CheckedContinuation<Void, Never>])

    /// The queue's logic: what the shell resumes is returned, and resumed after unlocking.
    private struct State {
        let byteLimit: Int
        var items: [(message: InboundMessage, size: Int)] = []
        var head = 0
        var bytes = 0
        var finished = false
        var receiver: CheckedContinuation<InboundMessage?, any Error>?
        var senders: [Sender] = []
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        var nextID: UInt64 = 0

        var isEmpty: Bool { head == items.count }

        func fits(_ size: Int) -> Bool {
            senders.isEmpty && (isEmpty || bytes + size <= byteLimit)
        }

        /// Queues a message, or hands it straight to a waiting receiver (returned, to resume).
        mutating func append(_ message: InboundMessage, size: Int) -> CheckedContinuation<InboundMessage?, any Error>? {
            if let waiting = receiver {
                receiver = nil
                return waiting
            }
            items.append((message, size))
            bytes += size
            return nil
        }

        /// Takes the first message and admits the waiting senders that now fit.
        mutating func take() -> (InboundMessage, Resumed)? {
            guard !isEmpty else { return nil }
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
            while let first = senders.first, isEmpty || bytes + first.size <= byteLimit {
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
    }

    private let state: LockedValue<State>

    init(byteLimit: Int) {
        state = LockedValue(State(byteLimit: max(1, byteLimit)))
    }

    /// Appends a message, suspending while the queue is full.
    func enqueue(_ message: InboundMessage, size: Int) async throws {
        enum Fast {
            case closed
            case queued(CheckedContinuation<InboundMessage?, any Error>?)
            case wait(UInt64)
        }
        let fast: Fast = state.withLock { state in
            if state.finished { return .closed }
            if state.fits(size) { return .queued(state.append(message, size: size)) }
            state.nextID += 1
            return .wait(state.nextID)
        }
        let id: UInt64
        switch fast {
        case .closed:
            throw TransportError.closed
        case .queued(let receiver):
            receiver?.resume(returning: message)
            return
        case .wait(let waiting):
            id = waiting
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: (Result<Void, any Error>?, CheckedContinuation<InboundMessage?, any Error>?) = state.withLock { state in
                    if state.finished { return (.failure(TransportError.closed), nil) }
                    if state.fits(size) { return (.success(()), state.append(message, size: size)) }
                    if Task.isCancelled { return (.failure(CancellationError()), nil) }
                    state.senders.append((id, message, size, continuation))
                    return (nil, nil)
                }
                outcome.1?.resume(returning: message)
                if let result = outcome.0 { continuation.resume(with: result) }
            }
        } onCancel: {
            let sender: CheckedContinuation<Void, any Error>? = state.withLock { state in
                guard let index = state.senders.firstIndex(where: { $0.id == id }) else { return nil }
                return state.senders.remove(at: index).continuation
            }
            sender?.resume(throwing: CancellationError())
        }
    }

    /// The next message, or `nil` once finished and drained.
    func next() async throws -> InboundMessage? {
        let fast: (InboundMessage, Resumed)?? = state.withLock { state in
            if let taken = state.take() { return .some(taken) }
            return state.finished ? .some(nil) : nil
        }
        if let fast {
            guard let taken = fast else { return nil }
            resume(taken.1)
            return taken.0
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<InboundMessage?, any Error>) in
                let ready: (InboundMessage, Resumed)?? = state.withLock { state in
                    if let taken = state.take() { return .some(taken) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.receiver = continuation
                    return nil
                }
                guard let ready else { return }
                if let taken = ready {
                    resume(taken.1)
                    continuation.resume(returning: taken.0)
                } else {
                    continuation.resume(returning: nil)
                }
            }
        } onCancel: {
            let waiting: CheckedContinuation<InboundMessage?, any Error>? = state.withLock { state in
                defer { state.receiver = nil }
                return state.receiver
            }
            waiting?.resume(returning: nil)
        }
    }

    private func resume(_ resumed: Resumed) {
        for sender in resumed.senders { sender.resume() }
        for waiter in resumed.room { waiter.resume() }
    }

    /// Returns once the queue holds less than its limit and nobody waits to send (or it is finished).
    func waitForRoom() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.finished || (state.senders.isEmpty && state.bytes < state.byteLimit) { return true }
                state.roomWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends the queue: what is queued can still be read; waiting senders fail.
    func finish() {
        let (receiver, refused, room) = state.withLock { state in
            state.finished = true
            let receiver = state.isEmpty ? state.receiver : nil
            if receiver != nil { state.receiver = nil }
            defer {
                state.senders = []
                state.roomWaiters = []
            }
            return (receiver, state.senders.map(\.continuation), state.roomWaiters)
        }
        receiver?.resume(returning: nil)
        for sender in refused { sender.resume(throwing: TransportError.closed) }
        for waiter in room { waiter.resume() }
    }
}
