internal import Foundation
internal import HTTPClientCore
internal import MCP
internal import MCPCore
internal import MCPPlatform

// Sending a message: the POST, its response, and the tool headers a call needs.
extension HTTPTransportCore {
    func send(_ message: JSONRPCMessage) async throws {
        guard !isClosed else { throw TransportError.closed }
        let body: [UInt8]
        do {
            body = try message.encoded()
        } catch {
            throw TransportError.encodingFailure("the message cannot be encoded as JSON: \(error)")
        }
        if case .notification(let notification) = message, notification.method == MCPMethod.cancelled,
            let cancelled = try? CancelledNotification(params: notification.params)
        {
            // Stop reading the cancelled request's response. In 2026-07-28 that is the
            // cancellation itself; before it, the server is told with the notification.
            let (exchange, modern) = locked.withLock { shared in
                (shared.inFlight.removeValue(forKey: cancelled.requestID), shared.state.isModern)
            }
            exchange?.abandon()
            if modern { return }
        }
        let outcome = OneShot<Result<Void, any Error>>()
        let exchange = Exchange()
        let requestID = message.id.flatMap { id -> RequestID? in
            if case .request = message { return id }
            return nil
        }
        let started: Task<Void, Never>? = locked.withLock { shared in
            guard !shared.closed else { return nil }
            let outgoing = shared.state.prepare(message)
            if let requestID { shared.inFlight[requestID] = exchange }
            shared.posts += 1
            return startTask(in: &shared) { [self] in
                let result: Result<Void, any Error>
                do {
                    try await post(outgoing, body: body)
                    result = .success(())
                } catch {
                    if isClosed {
                        result = .failure(TransportError.closed)
                    } else if exchange.isAbandoned {
                        result = .success(())
                    } else {
                        result = .failure(error)
                    }
                }
                let room = locked.withLock { shared in
                    if let requestID, shared.inFlight[requestID] === exchange { shared.inFlight[requestID] = nil }
                    shared.posts -= 1
                    return shared.takeRoomWaiters(limit: configuration.maximumQueuedMessages)
                }
                for waiter in room { waiter.resume() }
                outcome.fulfill(result)
            }
        }
        guard let started else { throw TransportError.closed }
        exchange.attach(started)
        if requestID != nil {
            // A cancelled caller stops the POST; its request is over for this side.
            let result = await withTaskCancellationHandler {
                await outcome.wait()
            } onCancel: {
                exchange.abandon()
            }
            try result?.get()
        } else {
            // A notification's POST goes on even when its caller is cancelled (a
            // notifications/cancelled is sent from a cancelled task).
            try await outcome.wait()?.get()
        }
    }

    /// Returns once fewer than `maximumQueuedMessages` POSTs are in progress, the transport
    /// is closed, or the calling task is cancelled.
    func waitForOutboundRoom() async {
        let limit = configuration.maximumQueuedMessages
        let key: Int? = locked.withLock { shared in
            guard !shared.closed, shared.posts >= limit else { return nil }
            shared.nextRoomWaiter += 1
            return shared.nextRoomWaiter
        }
        guard let key else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let ready = locked.withLock { shared in
                    if shared.closed || shared.posts < limit || Task.isCancelled { return true }
                    shared.roomWaiters[key] = waiter
                    return false
                }
                if ready { waiter.resume() }
            }
        } onCancel: {
            let waiter = locked.withLock { $0.roomWaiters.removeValue(forKey: key) }
            waiter?.resume()
        }
    }

    /// Why the inbound stream ended, once it has (not by ``close()``).
    var endReason: String? { locked.withLock { $0.endReason } }

    /// Starts a task the transport owns (until it ends, or until ``close()`` cancels it);
    /// call with the lock held, on its value. `nil` once closed.
    func startTask(in shared: inout Shared, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never>? {
        guard !shared.closed else { return nil }
        let key = shared.nextTaskKey
        shared.nextTaskKey += 1
        let task = Task { [self] in
            await body()
            _ = locked.withLock { shared in shared.tasks.removeValue(forKey: key) }
        }
        shared.tasks[key] = task
        return task
    }

    /// POSTs a message and reads what comes back, renewing an expired session and falling
    /// back to HTTP+SSE as needed.
    func post(_ first: HTTPSessionState.Outgoing, body: [UInt8]) async throws {
        var outgoing = first
        var renewed = false
        var relisted = false
        var attempt = 0
        while true {
            attempt += 1
            if attempt > 1 || renewalInProgress {
                await waitForRenewal()
                outgoing = locked.withLock { shared in shared.state.outgoing(first.message, modernVersion: first.modernVersion) }
            }
            let request = try await request(method: "POST", url: outgoing.url, headers: outgoing.headers, body: body)
            let response = try await head(of: request)
            defer { response.close() }
            let verdict = locked.withLock { shared in shared.state.verdict(status: response.head.status, for: outgoing) }
            switch verdict {
            case .success:
                locked.withLock { shared in shared.state.succeeded(response.head, for: outgoing) }
                try await accept(response, for: outgoing)
                return
            case .unauthorized:
                let challenge = response.head.header("www-authenticate")
                throw HTTPTransportError.unauthorized(
                    challenge: challenge, resourceMetadata: challenge.flatMap(HTTPSessionState.resourceMetadata(inChallenge:)))
            case .sessionExpired(let session):
                guard !renewed else {
                    throw HTTPTransportError.make(
                        .sessionExpired, "the server answered 404 for the session again after a new handshake", status: 404)
                }
                renewed = true
                try await renewSession(expired: session)
            case .failure where (300..<400).contains(response.head.status):
                let target = response.head.header("location").map { " to \($0)" } ?? ""
                throw HTTPTransportError.httpStatus(
                    response.head.status, body: "the server redirects\(target); redirects are not followed (use the final URL)")
            case .failure:
                let status = response.head.status
                let prefix = try await readPrefix(of: response, limit: min(configuration.maximumMessageBytes, 64 << 10))
                var action = locked.withLock { shared in
                    shared.state.failureAction(status: status, body: prefix, contentType: response.head.mediaType, for: outgoing)
                }
                if action == .tryLegacySSE {
                    if try await fallBackToLegacySSE() { continue }
                    action = locked.withLock { shared in
                        shared.state.failureAction(status: status, body: prefix, contentType: response.head.mediaType, for: outgoing)
                    }
                }
                if case .deliver(let answer) = action, answer.error.code == .headerMismatch, !relisted,
                    outgoing.method == MCPMethod.toolsCall, outgoing.modernVersion != nil
                {
                    // The tool mirrors arguments into headers this side did not know of:
                    // list the tools (as the spec advises), then send the call again.
                    relisted = true
                    if try await learnToolHeaders(for: outgoing) { continue }
                }
                switch action {
                case .deliver(let answer), .refuseProbe(let answer):
                    try await deliver(.errorResponse(answer), bytes: prefix.count)
                    return
                case .fail(let error):
                    throw error
                case .tryLegacySSE:
                    throw HTTPTransportError.httpStatus(status, body: HTTPSessionState.excerpt(prefix))
                }
            }
        }
    }

    /// Reads a successful POST's response.
    func accept(_ response: HTTPResponse, for outgoing: HTTPSessionState.Outgoing) async throws {
        let isLegacy = locked.withLock { shared in shared.state.isLegacySSE }
        guard let id = outgoing.requestID, let method = outgoing.method, !isLegacy else {
            // A notification or a response: 202 (or any 2xx) is all there is. Over HTTP+SSE the
            // answer to a request comes on the event stream.
            if outgoing.method == MCPMethod.initialized, !isLegacy { startStandaloneStream() }
            return
        }
        _ = try await readAnswer(response, to: Awaited(id: id, method: method, delivers: true), resumable: outgoing.modernVersion == nil)
    }

    /// Lists the tools (2026-07-28, with the call's envelope) to learn which arguments the
    /// called tool mirrors into headers; returns whether it mirrors any.
    func learnToolHeaders(for call: HTTPSessionState.Outgoing) async throws -> Bool {
        guard case .request(let original) = call.message, let name = original.params?["name"]?.stringValue else { return false }
        var meta = original.params?["_meta"]?.objectValue ?? [:]
        meta[MCPMetaKey.progressToken] = nil
        var cursor: String?
        var pages = 0
        repeat {
            pages += 1
            var params: JSONObject = ["_meta": .object(meta)]
            if let cursor { params["cursor"] = .string(cursor) }
            let list = JSONRPCRequest(
                id: .string("ondevice-mcp-tool-headers-\(pages)"), method: MCPMethod.toolsList, params: .object(params))
            let outgoing = locked.withLock { shared in shared.state.outgoing(.request(list), modernVersion: call.modernVersion) }
            let httpRequest = try await request(
                method: "POST", url: outgoing.url, headers: outgoing.headers, body: try JSONRPCMessage.request(list).encoded())
            let response = try await head(of: httpRequest)
            defer { response.close() }
            guard (200..<300).contains(response.head.status) else { return false }
            let answer = try await readAnswer(
                response, to: Awaited(id: list.id, method: MCPMethod.toolsList, delivers: false), resumable: false)
            guard case .message(.response(let page)) = answer else { return false }
            locked.withLock { shared in shared.state.learnTools(from: page.result) }
            cursor = page.result["nextCursor"]?.stringValue
        } while cursor != nil && pages < 50
        return locked.withLock { shared in shared.state.parameterHeaders[name] != nil }
    }
}
