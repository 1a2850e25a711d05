internal import MCPCore
internal import MCPPlatform

/// Delivers server notifications to each of the client's notification streams, and holds
/// the `subscriptions/listen` acknowledgement.
///
/// A progress report also goes to the handler of the call it belongs to: the channel looks
/// the handler up in its ``ClientConnection`` and passes it to ``deliver(_:progressHandler:)``.
///
/// Every access to ``MCPClient/notifications`` makes a stream of its own (``subscribe()``),
/// so any number of consumers can listen at once; each stream keeps at most its newest
/// 1,024 undelivered notifications, so a consumer that stops reading costs bounded memory.
/// A stream ends when the connection does, or when its consumer stops iterating.
final class NotificationStreams: Sendable {
    /// How many undelivered notifications one subscriber's stream keeps (the newest).
    static let subscriberBufferLimit = 1024

    private struct State {
        var subscribers: [UInt64: AsyncStream<ServerNotification>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        var finished = false
        var acknowledged = false
        var acknowledgementWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = LockedValue(State())

    /// A new stream of the notifications that arrive from now on.
    func subscribe() -> AsyncStream<ServerNotification> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ServerNotification.self, bufferingPolicy: .bufferingNewest(Self.subscriberBufferLimit))
        let id: UInt64? = state.withLock { state in
            if state.finished { return nil }
            defer { state.nextSubscriber += 1 }
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many streams are subscribed.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Routes one notification from the server; a progress report also goes to the handler
    /// `progressHandler` gives for its token.
    func deliver(_ notification: JSONRPCNotification, progressHandler: (JSONValue) -> ProgressHandler?) {
        switch notification.method {
        case MCPMethod.toolsListChanged:
            broadcast(.toolListChanged)
        case MCPMethod.progress:
            guard let progress = try? ProgressNotification(params: notification.params) else {
                broadcast(.other(notification))
                return
            }
            progressHandler(progress.progressToken)?(progress)
            broadcast(.progress(progress))
        case MCPMethod.subscriptionsAcknowledged:
            let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
                state.acknowledged = true
                defer { state.acknowledgementWaiters = [:] }
                return Array(state.acknowledgementWaiters.values)
            }
            for waiter in waiters { waiter.resume() }
        default:
            broadcast(.other(notification))
        }
    }

    private func broadcast(_ notification: ServerNotification) {
        let targets = state.withLock { Array($0.subscribers.values) }
        for continuation in targets { continuation.yield(notification) }
    }

    /// The connection ended: every stream finishes, and waits for an acknowledgement return.
    func finish() {
        let (streams, waiters) = state.withLock { state in
            state.finished = true
            defer {
                state.subscribers = [:]
                state.acknowledgementWaiters = [:]
            }
            return (Array(state.subscribers.values), Array(state.acknowledgementWaiters.values))
        }
        for continuation in streams { continuation.finish() }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the server has acknowledged a `subscriptions/listen` request, the
    /// connection has ended, or the calling task is cancelled.
    func waitForAcknowledgement() async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.acknowledged || state.finished || Task.isCancelled { return true }
                    state.acknowledgementWaiters[id] = waiter
                    return false
                }
                if ready { waiter.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.acknowledgementWaiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
