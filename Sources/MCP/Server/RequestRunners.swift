internal import MCPPlatform

/// Starts a connection's requests on Swift's shared executor from a few tasks that drain a
/// queue, instead of from the connection's loop one task each.
///
/// Each request still runs in its own task: a runner starts it in place
/// (`Task.immediate`), so it runs on the runner's thread until it first suspends, and the
/// runner then goes on to the next request. A request that finishes without suspending (most
/// tool calls) costs no enqueue and no thread wake-up, and its task is allocated and freed on
/// the same thread; only the runners themselves are enqueued, a few per burst of requests.
///
/// A tool that suspends (awaits I/O, an actor, a sleep) frees its runner at once, as before. A
/// tool that computes without suspending holds its runner's thread, as it would hold a thread
/// of the shared pool; with `width` runners (the number of processors) the other requests wait
/// for a runner only as long as they would wait for a thread of the pool.
///
/// A runner yields to other work every ``requestsBetweenYields`` requests, so one busy
/// connection does not keep a thread of the shared pool from other tasks.
///
/// On a connection of the event loop, a runner also writes the answers of the requests it
/// started together, once it has none left to start (``AnswerBatch``).
final class RequestRunners<Item: Sendable>: Sendable {
    private let state: LockedValue<RequestQueueState<Item>>
    private let start: @Sendable (Item) -> Void
    private let batch: AnswerBatch?

    /// Requests a runner starts before it yields.
    static var requestsBetweenYields: Int { 64 }

    /// Creates the runners of one connection; `start` starts one request (on the runner's
    /// thread, where `Task.immediate` runs it in place). With `batch`, answers made while others
    /// are to come are written by the runner when it has started all it could.
    init(width: Int, batch: AnswerBatch? = nil, start: @escaping @Sendable (Item) -> Void) {
        state = LockedValue(RequestQueueState(width: width))
        self.start = start
        self.batch = batch
    }

    /// Queues a request; a runner takes it as soon as one is free.
    func submit(_ item: Item) {
        queued(startingRunners: state.withLock { $0.submit(contentsOf: CollectionOfOne(item)) })
    }

    /// Queues `items` in order, under one lock (and empties the array, keeping its capacity):
    /// the requests of one read, queued by the reading thread as one.
    ///
    /// Queued one by one, each took the queue's lock and the connection's: two locks the
    /// runners contend for, on every request.
    func submit(contentsOf items: inout [Item]) {
        guard !items.isEmpty else { return }
        let starting = state.withLock { $0.submit(contentsOf: items) }
        items.removeAll(keepingCapacity: true)
        queued(startingRunners: starting)
    }

    /// Requests were queued, and `count` more runners counted: tells the batch, starts them.
    private func queued(startingRunners count: Int) {
        batch?.requestsQueued(startingRunners: count)
        for _ in 0..<count { startRunner() }
    }

    private func startRunner() {
        Task { [self] in
            while true {
                // A stretch of requests started in place under one mark of the thread (answers
                // held for the runner to write), not one mark per request.
                let more =
                    if let batch {
                        batch.holdingAnswers { startQueued(upTo: Self.requestsBetweenYields) }
                    } else {
                        startQueued(upTo: Self.requestsBetweenYields)
                    }
                guard more else { break }
                batch?.runnerPaused()
                await Task.yield()
            }
            batch?.runnerEnded()
        }
    }

    /// Starts queued requests in place, one after another, at most `limit` of them. Returns
    /// `false` once the queue is empty (the runner is counted out then and must end), `true`
    /// after `limit` (the runner yields before it goes on).
    private func startQueued(upTo limit: Int) -> Bool {
        for _ in 0..<limit {
            guard let item = state.withLock({ $0.next() }) else { return false }
            start(item)
        }
        return true
    }
}
