internal import Foundation
internal import HTTPClientCore
internal import MCP
internal import MCPCore
internal import MCPPlatform

/// The transport's state and I/O, apart from the public object so that tasks can hold it
/// while the public object's `deinit` still runs when the app drops it.
final class HTTPTransportCore: Sendable {
    let configuration: HTTPTransportConfiguration
    let exchanger: any HTTPExchanging
    let inbound: AsyncThrowingStream<InboundMessage, any Error>
    /// What ``inbound`` hands out: the messages received and not yet taken, bounded in count
    /// and bytes; a reading task waits there for room (and reads no further meanwhile; what the
    /// exchanger receives meanwhile is bounded by the exchanger: see
    /// ``URLSessionExchanger/maximumWaitingBytes``).
    let inboundQueue: BoundedQueue<InboundMessage>

    /// What the transport's tasks share: the session's state machine and the tasks' bookkeeping.
    struct Shared {
        var state: HTTPSessionState
        var closed = false
        /// Every task the transport started and has not seen end, by key.
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextTaskKey = 0
        /// The POSTs of requests in progress, to stop reading them when the request is cancelled.
        var inFlight: [RequestID: Exchange] = [:]
        /// The handshake being redone, which requests wait for.
        var renewal: Task<Result<Void, HTTPTransportError>, Never>?
        var renewals = 0
        /// The key of the GET stream's task.
        var standaloneStream: Int?
        /// How many POSTs of ``send(_:)`` are in progress.
        var posts = 0
        /// The callers of ``waitForOutboundRoom()`` waiting for fewer POSTs, by key.
        var roomWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextRoomWaiter = 0
        /// Why the inbound stream ended, once it has (not by ``close()``).
        var endReason: String?

        /// The waiters to resume now that a POST ended or the transport closed.
        mutating func takeRoomWaiters(limit: Int) -> [CheckedContinuation<Void, Never>] {
            guard closed || posts < limit else { return [] }
            defer { roomWaiters = [:] }
            return Array(roomWaiters.values)
        }
    }

    let locked: LockedValue<Shared>
    /// The per-call result limits a client registers (see ``HTTPClientTransport/resultLimits``).
    let resultLimits = ResultLimits()

    init(url: URL, configuration: HTTPTransportConfiguration, exchanger: any HTTPExchanging) {
        self.configuration = configuration
        self.exchanger = exchanger
        locked = LockedValue(Shared(state: HTTPSessionState(endpoint: url)))
        let queue = BoundedQueue<InboundMessage>(capacity: configuration.maximumQueuedMessages, byteLimit: configuration.maximumQueuedBytes)
        inboundQueue = queue
        inbound = AsyncThrowingStream(unfolding: { try await queue.next() })
    }

    /// One POST of a request, which a cancellation can stop.
    final class Exchange: Sendable {
        private let state = LockedValue((task: Task<Void, Never>?.none, abandoned: false))

        func attach(_ task: Task<Void, Never>) {
            let cancel = state.withLock { state in
                state.task = task
                return state.abandoned
            }
            if cancel { task.cancel() }
        }

        /// Stops the POST: its request was cancelled or timed out.
        func abandon() {
            let task = state.withLock { state in
                state.abandoned = true
                return state.task
            }
            task?.cancel()
        }

        var isAbandoned: Bool { state.withLock { $0.abandoned } }
    }

    var isClosed: Bool { locked.withLock { shared in shared.closed } }

    /// The session the server assigned, if any (for tests and diagnostics).
    var sessionID: String? { locked.withLock { shared in shared.state.sessionID } }

    // MARK: Closing

    /// Ends the session, cancels every task and finishes the inbound stream.
    func close() async {
        let (end, running, room): (HTTPRequest?, [Task<Void, Never>], [CheckedContinuation<Void, Never>]) = locked.withLock { shared in
            guard !shared.closed else { return (nil, [], []) }
            shared.closed = true
            let room = shared.takeRoomWaiters(limit: configuration.maximumQueuedMessages)
            let end = shared.state.sessionEnd()
            let running = Array(shared.tasks.values)
            return (end, running, room)
        }
        for waiter in room { waiter.resume() }
        for task in running { task.cancel() }
        for task in running { await task.value }
        if let end {
            // Best effort, bounded: the session ends on the server too.
            var request = end
            for (name, value) in configuration.headers where !Self.transportHeaders.contains(name.lowercased()) {
                request.headers.append((name, value))
            }
            if let authorization = configuration.authorization, let value = try? await authorization() {
                request.headers.append(("Authorization", value))
            }
            let exchanger = exchanger
            let deletion = request
            _ = try? await withIdleTimeout(configuration.closeTimeout, timeout: { CancellationError() }) { _ in
                let response = try await exchanger.exchange(deletion)
                defer { response.close() }
                for try await _ in response.body {}
            }
        }
        inboundQueue.finish(throwing: nil)
        exchanger.shutdown()
    }

    /// The safety net for a transport dropped without ``close()``: closes in the background.
    func abandon() {
        guard !isClosed else { return }
        Task { [self] in await close() }
    }
}
