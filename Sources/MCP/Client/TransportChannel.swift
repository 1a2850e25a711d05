internal import MCPCore
internal import MCPPlatform

/// A channel to a server over a ``Transport``: requests out, replies matched by id.
///
/// One reader task, owned by the channel, reads the transport until it ends; ``close()``
/// closes the transport and waits for the reader. When the transport ends, every pending
/// request fails at once with ``MCPClientError/connectionClosed``. One more task watches
/// the requests' deadlines (``RequestDeadlines``): a request that times out fails with
/// ``MCPClientError/timedOut`` and the server gets `notifications/cancelled`.
final class TransportChannel: ClientChannel, @unchecked Sendable {
    let transport: any Transport
    let router: ProgressRouter
    private let pending = PendingRequests()
    private let ids = RequestIDs()
    private let deadlines = RequestDeadlines()
    private let lock = Lock()
    private var reader: Task<Void, Never>?
    private var watcher: Task<Void, Never>?

    init(transport: any Transport, router: ProgressRouter) {
        self.transport = transport
        self.router = router
    }

    /// Starts reading the transport.
    func start() {
        let stream = transport.receive()
        let task = startReader { [pending, router] in
            do {
                for try await inbound in stream {
                    await Self.dispatch(inbound, pending: pending, router: router, transport: self.transport)
                }
                pending.failAll(MCPClientError.connectionClosed("the server closed the connection"))
            } catch {
                pending.failAll(MCPClientError.connectionClosed("the connection to the server broke: \(error)"))
            }
            router.finish()
        }
        let watcher = Task { [pending, deadlines, transport] in
            await deadlines.watch { expired in
                let error = MCPClientError.timedOut("\(expired.method) got no reply within \(expired.timeout)")
                guard pending.resolve(expired.id, with: .failure(error)) else { return }
                // The caller has its error; tell the server to stop. Best effort.
                let cancelled = CancelledNotification(requestID: expired.id, reason: "The request timed out after \(expired.timeout).")
                try? await transport.send(.notification(JSONRPCNotification(method: MCPMethod.cancelled, params: cancelled.params)))
            }
        }
        lock.lock()
        reader = task
        self.watcher = watcher
        lock.unlock()
    }

    /// Starts the reader task on the transport's reading thread when it has one, so that a
    /// reply resumes its caller straight from the thread that read it.
    private func startReader(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
            return Task(executorPreference: transport.connectionTaskExecutor, operation: operation)
        }
        return Task(operation: operation)
    }

    private static func dispatch(_ inbound: InboundMessage, pending: PendingRequests, router: ProgressRouter, transport: any Transport) async {
        switch inbound {
        case .message(.response(let response)):
            pending.resolve(response.id, with: .success(response.result))
        case .message(.errorResponse(let response)):
            if let id = response.id {
                pending.resolve(id, with: .failure(response.error))
            }
        case .message(.notification(let notification)):
            router.deliver(notification)
        case .message(.request(let request)):
            // Server-to-client requests: answer ping; this client offers no other capability.
            let reply: JSONRPCMessage =
                request.method == MCPMethod.ping
                ? .response(JSONRPCResponse(id: request.id, result: [:]))
                : .errorResponse(JSONRPCErrorResponse(id: request.id, error: .methodNotFound(request.method)))
            try? await transport.send(reply)
        case .message(.batch), .invalid:
            // Nothing to answer: a client does not reply to malformed server output.
            return
        }
    }

    func request(
        _ method: String, params: JSONValue?, progress: ProgressRouter.Handler?, timeout: Duration?
    ) async throws -> JSONValue {
        let (id, params) = try router.start(params, ids: ids, progress: progress)
        defer { if progress != nil { router.unregister(id.json) } }
        try pending.prepare(id)
        if let timeout { deadlines.add(id, method: method, timeout: timeout) }
        defer { if timeout != nil { deadlines.remove(id) } }
        do {
            try await transport.send(.request(JSONRPCRequest(id: id, method: method, params: params)))
        } catch {
            pending.discard(id)
            throw MCPClientError.connectionClosed("could not send \(method): \(error)")
        }
        do {
            return try await pending.wait(for: id)
        } catch is CancellationError {
            // Tell the server to stop; it will not answer. Best effort: the connection may be gone.
            let cancelled = CancelledNotification(requestID: id, reason: "The client cancelled the request.")
            try? await transport.send(.notification(JSONRPCNotification(method: MCPMethod.cancelled, params: cancelled.params)))
            throw CancellationError()
        }
    }

    func notify(_ notification: JSONRPCNotification) async throws {
        do {
            try await transport.send(.notification(notification))
        } catch {
            throw MCPClientError.connectionClosed("could not send \(notification.method): \(error)")
        }
    }

    func close() async {
        ids.close()
        await transport.close()
        pending.failAll(MCPClientError.connectionClosed("the client closed the connection"))
        let (task, watcher) = lock.withLock { (reader, self.watcher) }
        watcher?.cancel()
        task?.cancel()
        await task?.value
        await watcher?.value
    }
}
