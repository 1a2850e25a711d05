internal import Foundation
internal import HTTPClientCore
internal import MCP
internal import MCPCore
internal import MCPPlatform

// Renewing an expired session and redoing the handshake.
extension HTTPTransportCore {
    var renewalInProgress: Bool { locked.withLock { shared in shared.renewal != nil } }

    func waitForRenewal() async {
        guard let renewal = locked.withLock({ shared in shared.renewal }) else { return }
        _ = await renewal.value
    }

    /// Redoes the handshake after the session `expired` ended (once, whichever request saw it
    /// first; the others wait for it).
    func renewSession(expired: String) async throws {
        let task: Task<Result<Void, HTTPTransportError>, Never>? = locked.withLock { shared in
            if let renewal = shared.renewal { return renewal }
            guard shared.state.beginRenewal(expired: expired), !shared.closed else { return nil }
            shared.renewals += 1
            let number = shared.renewals
            let stream = shared.standaloneStream.flatMap { shared.tasks[$0] }
            shared.standaloneStream = nil
            let task = Task<Result<Void, HTTPTransportError>, Never> { [self] in
                stream?.cancel()
                let result: Result<Void, HTTPTransportError>
                do {
                    try await redoHandshake(number: number)
                    result = .success(())
                } catch let error as HTTPTransportError {
                    result = .failure(error)
                } catch {
                    result = .failure(
                        HTTPTransportError.make(.sessionExpired, "the session expired, and a new handshake failed: \(error)", status: 404))
                }
                locked.withLock { shared in shared.renewal = nil }
                return result
            }
            shared.renewal = task
            // Owned like every other task: close() cancels it.
            _ = startTask(in: &shared) {
                _ = await withTaskCancellationHandler {
                    await task.value
                } onCancel: {
                    task.cancel()
                }
            }
            return task
        }
        guard let task else { return }
        try await task.value.get()
    }

    /// Replays the client's `initialize` (its answer is kept from the client) and
    /// `notifications/initialized`, without the expired session id.
    func redoHandshake(number: Int) async throws {
        guard let initialize = locked.withLock({ shared in shared.state.initializeRequest }) else {
            throw HTTPTransportError.make(.sessionExpired, "the server's session expired", status: 404)
        }
        let replay = JSONRPCRequest(
            id: .string("ondevice-mcp-session-renewal-\(number)"), method: initialize.method, params: initialize.params)
        let headers: [(name: String, value: String)] = [
            ("Accept", "application/json, text/event-stream"), ("Content-Type", "application/json"),
        ]
        let body = try JSONRPCMessage.request(replay).encoded()
        let request = try await request(
            method: "POST", url: locked.withLock { shared in shared.state.endpoint }, headers: headers, body: body)
        let response = try await head(of: request)
        defer { response.close() }
        guard (200..<300).contains(response.head.status) else {
            let prefix = try await readPrefix(of: response, limit: 4096)
            throw HTTPTransportError.make(
                .sessionExpired,
                "the server's session expired, and a new initialize failed with HTTP \(response.head.status): \(HTTPSessionState.excerpt(prefix))",
                status: response.head.status)
        }
        let session = response.head.header("mcp-session-id").flatMap(HTTPSessionState.validSessionID)
        let answer = try await readAnswer(
            response, to: Awaited(id: replay.id, method: MCPMethod.initialize, delivers: false), resumable: false)
        guard case .message(.response(let result)) = answer else {
            throw HTTPTransportError.make(.sessionExpired, "the server's session expired, and it refused a new initialize: \(answer)")
        }
        let notification = locked.withLock { shared in
            shared.state.renewed(sessionID: session, version: result.result["protocolVersion"]?.stringValue)
            return shared.state.initializedNotification
        }
        guard let notification else { return }
        let outgoing = locked.withLock { shared in shared.state.outgoing(.notification(notification), modernVersion: nil) }
        let notice = try await self.request(
            method: "POST", url: outgoing.url, headers: outgoing.headers, body: try JSONRPCMessage.notification(notification).encoded())
        let noticeResponse = try await head(of: notice)
        noticeResponse.close()
        guard (200..<300).contains(noticeResponse.head.status) else {
            throw HTTPTransportError.make(
                .sessionExpired, "the server's session expired, and it refused notifications/initialized after a new initialize",
                status: noticeResponse.head.status)
        }
        startStandaloneStream()
    }
}
