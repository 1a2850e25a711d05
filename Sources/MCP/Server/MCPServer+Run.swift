internal import MCPCore
internal import MCPPlatform

extension MCPServer {
    /// The default limit on requests one connection may have in flight (a batch counts as
    /// its number of elements, up to this limit); past it, reading pauses until one finishes.
    public static let maximumConcurrentRequests = 1024

    /// The default time requests still running when the peer closes its side may take to
    /// answer before they are cancelled.
    public static let endOfInputGracePeriod: Duration = .milliseconds(500)

    /// How a connection is served: where its requests run, and its limits.
    public struct ConnectionOptions: Sendable {
        /// Where a connection's requests run.
        public struct RequestExecution: Hashable, Sendable {
            enum Kind: Hashable, Sendable {
                case shared
                case connectionThread
            }

            let kind: Kind

            /// Each request runs in its own task on Swift's shared concurrent executor (the
            /// default): a tool that computes for seconds without suspending cannot hold up
            /// reading, `notifications/cancelled` or `ping`, which the connection answers itself.
            ///
            /// Where `Task.immediate` exists (Linux; Apple systems from 26), a connection's
            /// requests are started by at most one runner task per processor, each starting
            /// them in place one after another: a request that finishes without suspending
            /// (most tool calls) costs no enqueue and no thread wake-up of its own, and one that
            /// suspends hands its runner on at once. A request cancelled while it waits for a
            /// runner never starts; one running is cancelled as with a task of its own, from its
            /// first instruction (a tool that computes and checks `Task.isCancelled` sees it).
            /// On the event loop (stdio and pipes on Linux), the answers a runner makes while
            /// other requests are in flight are written together when it has no request left
            /// to start, or by the loop within about a millisecond if every runner is busy.
            public static let shared = RequestExecution(kind: .shared)

            /// Each request runs on the connection's reading thread, where the transport has
            /// one (``StdioTransport``, ``FileDescriptorTransport``) and the system has task
            /// executors: where `Task.immediate` exists (Linux; Apple systems from 26) a request
            /// starts as soon as it is read, before the next message is read, and is handled
            /// and answered with no thread switch and no enqueue, the fastest a stdio round trip
            /// gets (before 26 it is enqueued on that thread). The price: a tool that computes without
            /// suspending holds that thread, and with it the whole connection, until it
            /// returns. Choose it only for tools that always return quickly or suspend.
            public static let connectionThread = RequestExecution(kind: .connectionThread)
        }

        /// Where requests run; ``RequestExecution/shared`` by default.
        public var requestExecution: RequestExecution
        /// The most requests in flight at once (a batch counts as its number of elements, up
        /// to this limit); at least 1. While that many run, and while the connection's
        /// output is backed up (a peer that does not read its answers), the server stops
        /// reading, so the peer is slowed down by the pipe instead of filling memory.
        public var maximumConcurrentRequests: Int
        /// How long requests still running at end of input may go without one of them
        /// finishing before the rest are cancelled.
        public var endOfInputGracePeriod: Duration

        public init(
            requestExecution: RequestExecution = .shared,
            maximumConcurrentRequests: Int = MCPServer.maximumConcurrentRequests,
            endOfInputGracePeriod: Duration = MCPServer.endOfInputGracePeriod
        ) {
            self.requestExecution = requestExecution
            self.maximumConcurrentRequests = max(1, maximumConcurrentRequests)
            self.endOfInputGracePeriod = endOfInputGracePeriod
        }
    }

    /// Serves a connection until the peer closes it.
    ///
    /// Each request is handled in its own task, so a slow tool never delays `ping` or another
    /// call; responses go out as they are ready. `notifications/cancelled` cancels the named
    /// request's task, and that request gets no response. `ping` is answered by the
    /// connection's loop itself. A frame that is not a valid message is answered with the
    /// error that says why (`-32700` with `id: null` for text that is not JSON), and the
    /// connection goes on; an answer names an id only when a well-formed request carried it
    /// (``MCPCore/InvalidMessage/id``), never one scanned out of broken text. An answer the
    /// connection cannot carry (a result holding a number JSON cannot represent, or longer than
    /// the transport's frames) is replaced by a `-32603` error for its id that says why.
    ///
    /// At most ``ConnectionOptions/maximumConcurrentRequests`` requests run at once; a batch
    /// counts as its elements, and its elements run with at most that many at a time. While
    /// the limit is reached, or while the transport's output is backed up because the peer
    /// does not read, the loop stops reading, so memory stays bounded whatever the peer does.
    ///
    /// When the peer closes the connection (for stdio, end of input), requests still
    /// running get ``ConnectionOptions/endOfInputGracePeriod`` to answer, renewed while
    /// they keep finishing, and are cancelled once a whole period passes with none finishing; the transport is closed, and `run` returns. Cancelling the task that runs
    /// this function cancels every request and closes the transport too.
    ///
    /// On a ``StdioTransport`` or ``FileDescriptorTransport`` (and where the system has task
    /// executors), the loop runs on the transport's reading thread, and while it waits with
    /// nothing queued, that thread admits and starts each request that can start at once
    /// itself, without waking the loop. Requests run on Swift's shared executor unless
    /// ``ConnectionOptions/RequestExecution/connectionThread`` asks for that thread too.
    ///
    /// - Throws: The transport's error when the connection breaks.
    public nonisolated func run(on transport: some Transport, options: ConnectionOptions = ConnectionOptions()) async throws {
        try await transport.preferringConnectionThread {
            try await serve(transport, options: options)
        }
    }

    private nonisolated func serve(_ transport: some Transport, options: ConnectionOptions) async throws {
        let inFlight = InFlightRequests(limit: options.maximumConcurrentRequests)
        let session = await openSession { message in
            // A failed send means the peer is gone; the inbound stream ends soon after.
            try? await transport.send(message)
        }
        // Requests that can start at once start from the reading thread, while this loop waits
        // with nothing queued; everything else (ping, other notifications, invalid frames, a
        // request that must wait for a slot or for output room) comes to the loop, in order.
        let inline = transport as? any InlineReadingTransport
        // On such a transport (stdio, pipes), a call's answer is written straight to the text of
        // its line, with no tree of the result (`respondWithLine`).
        let answerWriter = inline?.answerWriter
        let run: @Sendable (Admitted) async -> Void = { [self] admitted in
            // From here until it finishes, a cancellation reaches the request's task through its
            // record; one cancelled before it began (while it waited for a runner) never runs.
            guard inFlight.begin(admitted.ticket) else {
                inFlight.finish(admitted.ticket)
                return
            }
            // Each way is a function of its own, so that this closure's frame, which the request's
            // task holds throughout, stays small: the frames of a request come from its task's
            // allocator, which takes a block from `malloc` whenever they outgrow the last one.
            if let answerWriter, case .request(let request) = admitted.message {
                await answer(request, session: session, through: answerWriter)
            } else {
                await answer(admitted, session: session, through: transport)
            }
            inFlight.finish(admitted.ticket)
        }
        let starter = RequestStarter(transport: transport, execution: options.requestExecution, run: run)
        let batchWidth = options.maximumConcurrentRequests
        // The output's queue, not the transport: the handler runs for every message, and an
        // existential captured there is copied (retained and released) on each use.
        let outbound = inline?.outbound
        // The requests of one read are started together at its end (`startStaged()`), before
        // anything the handler leaves reaches the loop.
        let handler = InboundBuffer.InlineHandler { inbound in
            guard case .message(let message) = inbound else { return false }
            switch message {
            case .request(let request) where request.method == MCPMethod.ping:
                return false
            case .request, .batch:
                guard outbound?.hasRoom ?? false else { return false }
                let weight = message.slots(limit: batchWidth)
                guard let ticket = inFlight.admitNow(message.id, weight: weight) else { return false }
                starter.stage(Admitted(message: message, ticket: ticket, weight: weight))
                return true
            case .notification(let notification):
                guard let cancelled = notification.cancelledRequestID else { return false }
                inFlight.cancel(cancelled)
                return true
            case .response, .errorResponse:
                return false
            }
        } endOfRead: {
            starter.startStaged()
        }
        inline?.setInlineHandler(handler)
        var failure: (any Error)?
        await withTaskCancellationHandler {
            do {
                var messages = InboundMessages(of: transport)
                while let inbound = try await messages.next() {
                    switch inbound {
                    case .invalid(let invalid):
                        try? await transport.send(invalid.response)
                    case .message(.notification(let notification)):
                        if let cancelled = notification.cancelledRequestID {
                            inFlight.cancel(cancelled)
                        } else {
                            await receive(notification, session: session)
                        }
                    case .message(.response), .message(.errorResponse):
                        // Replies to the server's own requests (roots/list).
                        if case .message(let reply) = inbound { receiveReply(reply, session: session) }
                    case .message(.request(let request)) where request.method == MCPMethod.ping:
                        // Answered here, so that no busy tool can delay it.
                        if let response = await handle(.request(request), session: session) {
                            try? await transport.send(response)
                        }
                    case .message(let message):
                        let weight = message.slots(limit: batchWidth)
                        let ticket = await inFlight.admit(message.id, weight: weight)
                        await transport.waitForOutboundRoom()
                        starter.start(Admitted(message: message, ticket: ticket, weight: weight))
                    }
                }
            } catch {
                failure = error
                inFlight.cancelAll()
            }
        } onCancel: {
            inFlight.cancelAll()
        }
        inline?.setInlineHandler(nil)
        // The peer is done sending. Requests still running get a short grace period to
        // answer (so `echo request | ondevice-mcp serve` works), renewed while they keep
        // finishing (a busy machine answering a long pipeline loses nothing); once a whole
        // period passes with none finishing, the rest are cancelled.
        if failure == nil, !inFlight.isEmpty {
            let deadline = Task {
                // A deadline, not a wait for an event: cancelled as soon as the requests end.
                var finished = inFlight.finishedCount
                while true {
                    do {
                        try await Task.sleep(for: options.endOfInputGracePeriod)
                    } catch {
                        return
                    }
                    let now = inFlight.finishedCount
                    if now == finished { break }
                    finished = now
                }
                inFlight.cancelAll()
            }
            await inFlight.waitUntilEmpty()
            deadline.cancel()
        }
        inFlight.cancelAll()
        await inFlight.waitUntilEmpty()
        await closeSession(session)
        await transport.close()
        if let failure { throw failure }
    }
}

extension MCPServer {
    /// Answers a request on a descriptor transport, a call's answer written straight to the
    /// text of its line (``respondWithLine(to:session:)``).
    ///
    /// A cancelled request gets no answer: every cancellation of a request that has begun
    /// cancels its task (under the in-flight lock, while it is registered).
    fileprivate nonisolated(nonsending) func answer(
        _ request: JSONRPCRequest, session: Int, through writer: FileDescriptorTransport
    ) async {
        let line = await respondWithLine(to: request, session: session)
        guard !Task.isCancelled else { return }
        do {
            try await writer.sendAnswer(encoded: line)
        } catch let error as TransportError where error == .frameTooLarge {
            try? await writer.send(Self.refusedAnswer(to: request.id, because: error.detail))
        } catch {
            // The connection is gone; the loop ends soon after.
        }
    }

    /// Answers an admitted request or batch (its elements at most its slots at a time) on any
    /// transport; a cancelled one gets no answer, as above.
    fileprivate nonisolated(nonsending) func answer(_ admitted: Admitted, session: Int, through transport: some Transport) async {
        let response: JSONRPCMessage?
        if case .batch(let elements) = admitted.message {
            response = await handleBatch(elements, session: session, width: admitted.weight)
        } else {
            response = await handle(admitted.message, session: session)
        }
        guard let response, !Task.isCancelled else { return }
        do {
            try await transport.send(response)
        } catch let error as TransportError where error == .encodingFailure || error == .frameTooLarge {
            // An answer the transport refuses still gets one: the error that says why.
            try? await transport.send(Self.refusedAnswer(to: response.id, because: error.detail))
        } catch {
            // The connection is gone; the loop ends soon after.
        }
    }
}

extension JSONRPCMessage {
    /// The in-flight slots a request takes: one, or a batch's elements up to `limit` (its
    /// elements then run at most `limit` at a time).
    fileprivate func slots(limit: Int) -> Int {
        if case .batch(let elements) = self { return min(elements.count, limit) }
        return 1
    }
}

extension JSONRPCNotification {
    /// The request a well-formed `notifications/cancelled` names; `nil` for any other
    /// notification (which the loop receives as a notification).
    fileprivate var cancelledRequestID: RequestID? {
        guard method == MCPMethod.cancelled else { return nil }
        return (try? CancelledNotification(params: params))?.requestID
    }
}

/// A request the connection's loop has admitted, to be started in its own task.
///
/// A class: it is handed from the reading thread to a runner's queue and into the request's
/// task, and each hand-off of a struct holding the message copied the message (every reference
/// in it retained) through generic value operations.
private final class Admitted: Sendable {
    let message: JSONRPCMessage
    let ticket: InFlightTicket
    /// The slots it holds: a batch runs this many of its elements at a time.
    let weight: Int

    init(message: JSONRPCMessage, ticket: InFlightTicket, weight: Int) {
        self.message = message
        self.ticket = ticket
        self.weight = weight
    }
}

/// Starts a connection's request tasks on the executor its options ask for.
///
/// - `.connectionThread`: each request starts in place on the connection's thread (where the
///   loop that admits it runs), and stays there.
/// - `.shared`, where `Task.immediate` exists (Linux; Apple systems from 26): the requests go
///   to ``RequestRunners``, which start them in place on threads of the shared executor, a
///   few runners per burst instead of an enqueue and a thread wake-up per request.
/// - `.shared` on older Apple systems: one task per request, enqueued on the shared executor.
///
/// A class, whose runners and staged requests are stored apart from the choice of way: the
/// reading thread stages every request through it, and a struct holding an enum with an
/// existential payload was copied, through value witnesses, on each of those calls.
private final class RequestStarter: Sendable {
    /// Where a request not handed to the runners starts.
    private enum Way: Sendable {
        case connectionThread(any Sendable)
        case tasks
    }

    /// The requests of one read the reading thread has admitted, until it hands them to the
    /// runners together (``RequestRunners/submit(contentsOf:)``).
    private final class StagedRequests: @unchecked Sendable {
        // Safety: only the connection's reading thread touches `items`, in its inline handler
        // and the end of read that follows it (`InboundBuffer.InlineHandler`); `InputReader`
        // pushes each read from that one thread. Unchecked for exclusivity for the same reason.
        @exclusivity(unchecked) var items: [Admitted] = []
    }

    /// The runners and the requests staged for them.
    private struct Runners {
        let queue: RequestRunners<Admitted>
        let staged = StagedRequests()
    }

    private let way: Way
    /// The runners, when the requests go to them (and not by `way`).
    private let runners: Runners?
    private let run: @Sendable (Admitted) async -> Void

    init(
        transport: some Transport, execution: MCPServer.ConnectionOptions.RequestExecution,
        run: @escaping @Sendable (Admitted) async -> Void
    ) {
        self.run = run
        var runners: Runners?
        switch execution.kind {
        case .connectionThread:
            if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *), let executor = transport.connectionTaskExecutor {
                way = .connectionThread(executor)
            } else {
                way = .tasks
            }
        case .shared:
            // Where there are runners, they take every request and `way` is not read.
            way = .tasks
            // No executor preference: a task with one pays for it on every executor check (its
            // status-record lock: ~7 % of a call's CPU at 64 in flight).
            if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
                let batch = (transport as? any AnswerBatchingTransport)?.answerBatch
                runners = Runners(
                    queue: RequestRunners(width: POSIX.processorCount, batch: batch) { admitted in
                        // No handle kept: the request records its task as it begins.
                        _ = Task.immediate { await run(admitted) }
                    })
            }
        }
        self.runners = runners
    }

    /// On the reading thread, in the inline handler: starts `admitted` as ``start(_:)`` does,
    /// or, for the runners, keeps it to be queued with the rest of its read by
    /// ``startStaged()``.
    func stage(_ admitted: Admitted) {
        guard let runners else { return start(admitted) }
        runners.staged.items.append(admitted)
    }

    /// On the reading thread, at the end of a read: queues what ``stage(_:)`` kept, under one
    /// lock.
    func startStaged() {
        guard let runners else { return }
        runners.queue.submit(contentsOf: &runners.staged.items)
    }

    /// Starts `admitted` in its own task (which records itself against its ticket as it begins).
    func start(_ admitted: Admitted) {
        if let runners {
            runners.queue.submit(admitted)
            return
        }
        let run = self.run
        switch way {
        case .connectionThread(let preference):
            if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *), let executor = preference as? any TaskExecutor {
                if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
                    // Started in place on the connection's thread (the loop's caller is there):
                    // no enqueue and no executor switch until the request first suspends.
                    _ = Task.immediate(executorPreference: executor) { await run(admitted) }
                } else {
                    _ = Task(executorPreference: executor) { await run(admitted) }
                }
                return
            }
        case .tasks:
            break
        }
        _ = Task { await run(admitted) }
    }
}
