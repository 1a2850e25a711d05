internal import MCPCore
internal import MCPPlatform

/// Delivers server notifications: progress to the handler of the call it belongs to, and
/// everything to each of the client's notification streams.
///
/// Every access to ``MCPClient/notifications`` makes a stream of its own (``subscribe()``),
/// so any number of consumers can listen at once; each stream keeps at most its newest
/// 1,024 undelivered notifications, so a consumer that stops reading costs bounded memory.
/// A stream ends when the connection does, or when its consumer stops iterating.
final class ProgressRouter: @unchecked Sendable {
    typealias Handler = @Sendable (ProgressNotification) -> Void

    /// How many undelivered notifications one subscriber's stream keeps (the newest).
    static let subscriberBufferLimit = 1024

    // Safety: every stored property below is read and written with `lock` held.
    private let lock = Lock()
    private var handlers: [JSONValue: Handler] = [:]
    private var subscribers: [UInt64: AsyncStream<ServerNotification>.Continuation] = [:]
    private var nextSubscriber: UInt64 = 0
    private var finished = false
    private var acknowledged = false
    private var acknowledgementWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter: UInt64 = 0

    /// A new stream of the notifications that arrive from now on.
    func subscribe() -> AsyncStream<ServerNotification> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ServerNotification.self, bufferingPolicy: .bufferingNewest(Self.subscriberBufferLimit))
        lock.lock()
        if finished {
            lock.unlock()
            continuation.finish()
            return stream
        }
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            lock.withLock { _ = subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many streams are subscribed.
    var subscriberCount: Int { lock.withLock { subscribers.count } }

    func register(_ token: JSONValue, _ handler: @escaping Handler) {
        lock.withLock { handlers[token] = handler }
    }

    /// Gives a new request its id and, when the caller wants progress, a progress token
    /// (the id) in `params._meta` and a registered handler; the caller unregisters it.
    ///
    /// - Throws: ``MCPClientError/connectionClosed`` once the channel is closed.
    func start(_ params: JSONValue?, ids: RequestIDs, progress: Handler?) throws -> (RequestID, JSONValue?) {
        guard let id = ids.make() else {
            throw MCPClientError.connectionClosed("the client closed the connection")
        }
        guard let progress else { return (id, params) }
        register(id.json, progress)
        return (id, ClientRequests.attachProgressToken(id.json, to: params))
    }

    func unregister(_ token: JSONValue) {
        lock.withLock { handlers[token] = nil }
    }

    /// Routes one notification from the server.
    func deliver(_ notification: JSONRPCNotification) {
        switch notification.method {
        case MCPMethod.toolsListChanged:
            broadcast(.toolListChanged)
        case MCPMethod.progress:
            guard let progress = try? ProgressNotification(params: notification.params) else {
                broadcast(.other(notification))
                return
            }
            let handler = lock.withLock { handlers[progress.progressToken] }
            handler?(progress)
            broadcast(.progress(progress))
        case MCPMethod.subscriptionsAcknowledged:
            lock.lock()
            acknowledged = true
            let waiters = acknowledgementWaiters.values
            acknowledgementWaiters = [:]
            lock.unlock()
            for waiter in waiters { waiter.resume() }
        default:
            broadcast(.other(notification))
        }
    }

    private func broadcast(_ notification: ServerNotification) {
        let targets = lock.withLock { Array(subscribers.values) }
        for continuation in targets { continuation.yield(notification) }
    }

    /// The connection ended: every stream finishes, and waits for an acknowledgement return.
    func finish() {
        lock.lock()
        finished = true
        let streams = subscribers.values
        subscribers = [:]
        let waiters = acknowledgementWaiters.values
        acknowledgementWaiters = [:]
        lock.unlock()
        for continuation in streams { continuation.finish() }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the server has acknowledged a `subscriptions/listen` request, the
    /// connection has ended, or the calling task is cancelled.
    func waitForAcknowledgement() async {
        let id = lock.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                lock.lock()
                if acknowledged || finished || Task.isCancelled {
                    lock.unlock()
                    waiter.resume()
                } else {
                    acknowledgementWaiters[id] = waiter
                    lock.unlock()
                }
            }
        } onCancel: {
            let waiter = lock.withLock { acknowledgementWaiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
