internal import MCPCore
internal import MCPPlatform

/// Called with each progress report the server sends for one call.
typealias ProgressHandler = @Sendable (ProgressNotification) -> Void

/// The state of one client connection, as a synchronous state machine: events in, actions out.
///
/// Everything a connection changes while it runs is here, behind the one lock of the channel
/// that holds it (``TransportChannel``, ``DirectChannel``): the request ids, each request from
/// the moment it is registered to the moment its caller has its answer (a small state machine
/// per request, in which the caller's waiter is resumed exactly once), the requests'
/// deadlines and the deadline watcher parked on them, the progress handlers by token, what
/// the server sent that answered no request (for a later timeout's message), whether the
/// client closed the connection and why it ended. Its methods never block and never resume
/// anything: what must be resumed (a caller's `Waiter`, the watcher's `Wakeup`) or sent
/// (`notifications/cancelled`) is returned, and the channel does it outside the lock.
///
/// What lives elsewhere: the agreement on a version (``Agreement``, run once before the
/// client exists), the answers to the server's own requests and the roots
/// (``ServerRequestResponder``, no connection state), the notification streams and the
/// `subscriptions/listen` acknowledgement (``NotificationStreams``, a fan-out that outlives
/// no request), per-request result limits cut while reading (the transport's
/// ``ResultLimits``), and the I/O: sending, the reader task and the deadline task (the channel).
///
/// A request is registered *before* it is sent (``start(_:params:timeout:progress:now:awaitsReply:)``),
/// so a reply that comes back before the caller waits is kept rather than lost, and a
/// cancellation that comes before the wait is kept too. When the connection ends
/// (``end(with:)``), every request fails with the reason and every later one fails at once.
///
/// `Waiter` and `Wakeup` are generic so that tests drive the machine with plain values.
struct ClientConnection<Waiter: Sendable, Wakeup: Sendable>: Sendable {
    /// Where one request stands.
    enum RequestState: Sendable {
        /// Sent; nobody is waiting yet.
        case sent
        /// The caller is waiting.
        case waiting(Waiter)
        /// The reply (or the failure) came before the caller started waiting.
        case answered(Result<JSONValue, any Error>)
        /// The caller was cancelled before it started waiting.
        case cancelled
    }

    /// A request registered by ``start(_:params:timeout:progress:now:awaitsReply:)``.
    struct Started: Sendable {
        /// The request's id.
        let id: RequestID
        /// The params to send: with `_meta.progressToken` when the caller wants progress.
        let params: JSONValue?
        /// The deadline watcher, to resume: this request is due before it would wake.
        let wake: Wakeup?
    }

    /// A request whose deadline has passed: its caller fails, and the server is told.
    struct Expiry: Sendable {
        let id: RequestID
        /// The caller to resume with ``error``; `nil` when it has not started waiting (it
        /// finds the error when it does).
        let waiter: Waiter?
        let error: MCPClientError
        /// The notification that tells the server to stop.
        let cancellation: JSONRPCNotification
    }

    /// How many descriptions of unanswerable messages are kept (the newest).
    static var notesKept: Int { 3 }

    /// One request's deadline (a time on the channel's clock).
    struct Deadline: Sendable {
        let instant: Duration
        let id: RequestID
        let method: String
        let timeout: Duration
    }

    private var nextID = 1
    private var requests: [RequestID: RequestState] = [:]
    /// Sorted by instant; equal instants in the order they were added.
    var deadlines: [Deadline] = []
    private var progressHandlers: [JSONValue: ProgressHandler] = [:]
    /// The deadline watcher, parked until `target` (or until there is work, when `nil`).
    var watcher: (wakeup: Wakeup, target: Duration?)?
    private var notes: [String] = []
    private var noteCount = 0
    /// Why the connection ended; every later request fails with it.
    private var endError: (any Error)?

    /// Whether the client closed the connection (no more requests or notifications).
    private(set) var isClosedByClient = false

    init() {}

    // MARK: Requests

    /// Registers a new request: an id, its deadline (`now + timeout`), its progress handler
    /// (with the id as the token), and, when `awaitsReply`, its entry in the table of requests
    /// waiting for a reply (in process the reply is the call's return value: no entry).
    ///
    /// - Throws: ``MCPClientError/connectionClosed`` once the client closed the connection,
    ///   or the reason the connection ended.
    mutating func start(
        _ method: String, params: JSONValue?, timeout: Duration?, progress: ProgressHandler?, now: Duration,
        awaitsReply: Bool = true
    ) throws -> Started {
        guard !isClosedByClient else { throw MCPClientError.connectionClosed("the client closed the connection") }
        if let endError { throw endError }
        let id = RequestID.int(nextID)
        nextID += 1
        if awaitsReply { requests[id] = .sent }
        var params = params
        if let progress {
            progressHandlers[id.json] = progress
            params = ClientRequests.attachProgressToken(id.json, to: params)
        }
        var wake: Wakeup?
        if let timeout { wake = addDeadline(Deadline(instant: now + timeout, id: id, method: method, timeout: timeout)) }
        return Started(id: id, params: params, wake: wake)
    }

    /// The caller starts waiting: the outcome at once when it is already known, or `nil`
    /// (the waiter is kept until the reply, the deadline, a cancellation or the end).
    mutating func wait(for id: RequestID, waiter: Waiter) -> Result<JSONValue, any Error>? {
        switch requests[id] {
        case .sent?:
            requests[id] = .waiting(waiter)
            return nil
        case .answered(let result)?:
            requests[id] = nil
            return result
        case .cancelled?:
            requests[id] = nil
            return .failure(CancellationError())
        case .waiting?, nil:
            return .failure(endError ?? MCPClientError.connectionClosed)
        }
    }

    /// The caller was cancelled: its waiter, to resume with `CancellationError`, when it was
    /// waiting; a cancellation before the wait is kept for ``wait(for:waiter:)``.
    mutating func cancel(_ id: RequestID) -> Waiter? {
        switch requests[id] {
        case .waiting(let waiter)?:
            requests[id] = nil
            return waiter
        case .sent?:
            requests[id] = .cancelled
            return nil
        default:
            return nil
        }
    }

    /// The caller is done with a request (answered, failed, cancelled, or never sent): its
    /// deadline and progress handler are dropped, and so is an entry nobody will wait on.
    mutating func finish(_ id: RequestID) {
        requests[id] = nil
        progressHandlers[id.json] = nil
        // Requests tend to finish in the order they started: search from the front.
        if let index = deadlines.firstIndex(where: { $0.id == id }) { deadlines.remove(at: index) }
    }

    /// How many requests are registered and not yet taken by their callers.
    var pendingCount: Int { requests.count }

    // MARK: What the server sends

    /// A reply (a result, or an error to fail the call with) for request `id`: the waiter to
    /// resume with it, if the caller waits. A reply that no request takes (unknown id, a second
    /// reply, one after the timeout) is noted as `unanswered`, for a later timeout's message.
    mutating func deliver(
        _ result: Result<JSONValue, any Error>, to id: RequestID?, unanswered: @autoclosure () -> String
    ) -> Waiter? {
        let (taken, waiter) = id.map { resolve($0, with: result) } ?? (false, nil)
        if !taken { note(unanswered()) }
        return waiter
    }

    /// Notes something the server sent that no request can take.
    mutating func note(_ description: String) {
        noteCount += 1
        notes.append(description)
        if notes.count > Self.notesKept { notes.removeFirst(notes.count - Self.notesKept) }
    }

    /// A clause for an error message, such as "; meanwhile the server sent 2 messages that
    /// answer no request, the last: a line that is not valid JSON", or "" when there were none.
    var notesSummary: String {
        guard let last = notes.last else { return "" }
        if noteCount == 1 { return "; meanwhile the server sent \(last)" }
        return "; meanwhile the server sent \(noteCount) messages that answer no request, the last: \(last)"
    }

    /// The handler of the call a progress token belongs to, while that call runs.
    func progressHandler(for token: JSONValue) -> ProgressHandler? {
        progressHandlers[token]
    }

    /// Hands `result` to request `id`: whether a request took it, and its waiter.
    mutating func resolve(_ id: RequestID, with result: Result<JSONValue, any Error>) -> (Bool, Waiter?) {
        switch requests[id] {
        case .waiting(let waiter)?:
            requests[id] = nil
            return (true, waiter)
        case .sent?:
            requests[id] = .answered(result)
            return (true, nil)
        case .cancelled?:
            // Kept for the wait, which throws `CancellationError` (``finish(_:)`` drops it).
            return (false, nil)
        case .answered?, nil:
            return (false, nil)
        }
    }

    // MARK: The end

    /// The client closes the connection: no request or notification is sent after this.
    mutating func closeByClient() {
        isClosedByClient = true
    }

    /// The connection ended (`error` says why): every waiting caller, to resume with the
    /// error. Callers not yet waiting find it when they wait, and later requests fail at once
    /// (with the first reason given).
    mutating func end(with error: any Error) -> [Waiter] {
        if endError == nil { endError = error }
        var waiting: [Waiter] = []
        for (id, state) in requests {
            switch state {
            case .waiting(let waiter):
                waiting.append(waiter)
                requests[id] = nil
            case .sent:
                requests[id] = .answered(.failure(error))
            case .answered, .cancelled:
                continue
            }
        }
        return waiting
    }
}
