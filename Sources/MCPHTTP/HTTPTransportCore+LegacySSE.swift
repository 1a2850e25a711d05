internal import Foundation
internal import HTTPClientCore
internal import MCP
internal import MCPCore
internal import MCPPlatform

// Falling back to the HTTP+SSE transport (2024-11-05).
extension HTTPTransportCore {
    /// GETs the endpoint as an HTTP+SSE server's event stream; returns `true` when its
    /// `endpoint` event came (the transport now speaks HTTP+SSE), `false` when it is not one.
    func fallBackToLegacySSE() async throws -> Bool {
        let (allowed, url) = locked.withLock { shared in (shared.state.beginLegacyProbe(), shared.state.endpoint) }
        guard allowed else { return locked.withLock { shared in shared.state.isLegacySSE } }
        let request = try await request(method: "GET", url: url, headers: [("Accept", "text/event-stream")], body: nil)
        let response: HTTPResponse
        do {
            response = try await head(of: request)
        } catch let error as HTTPTransportError where error == .network {
            return false
        }
        guard (200..<300).contains(response.head.status), response.head.mediaType == "text/event-stream" else {
            response.close()
            return false
        }
        let endpoint = OneShot<Result<URL, HTTPTransportError>>()
        let reader: Task<Void, Never>? = locked.withLock { shared in
            startTask(in: &shared) { [self] in
                await readLegacyStream(response.body, endpoint: endpoint, base: url)
                response.close()
            }
        }
        guard reader != nil else {
            response.close()
            throw TransportError.closed
        }
        let limit = configuration.idleTimeout
        let found = try await withIdleTimeout(
            limit, timeout: { HTTPTransportError.make(.invalidEndpoint, "the HTTP+SSE server sent no endpoint event within \(limit)") }
        ) { _ in
            await endpoint.wait()
        }
        switch found {
        case .success(let postURL)?:
            locked.withLock { shared in shared.state.legacyProbeSucceeded(postURL: postURL) }
            return true
        case .failure(let error)?:
            reader?.cancel()
            throw error
        case nil:
            reader?.cancel()
            throw CancellationError()
        }
    }

    /// Reads the HTTP+SSE event stream: the `endpoint` event first, then messages. Its end
    /// ends the connection (``receive()`` throws).
    func readLegacyStream(
        _ body: HTTPBody, endpoint: OneShot<Result<URL, HTTPTransportError>>, base: URL
    )
        async
    {
        var parser = SSEParser(maximumEventBytes: configuration.maximumEventBytes)
        var failure: any Error = HTTPTransportError.make(.streamEnded, "the HTTP+SSE server closed its event stream")
        do {
            for try await chunk in body {
                let events: [SSEEvent]
                do throws(SSEParser.EventTooLarge) {
                    events = try parser.feed(chunk)
                } catch {
                    throw HTTPTransportError.make(.eventTooLarge, "a server-sent event is larger than the limit of \(error.limit) bytes")
                }
                for event in events {
                    switch event.type {
                    case "endpoint":
                        guard let target = URL(string: event.text.trimmingCharacters(in: .whitespaces), relativeTo: base)?.absoluteURL,
                            target.scheme?.lowercased() == base.scheme?.lowercased(), target.host?.lowercased() == base.host?.lowercased(),
                            target.port == base.port
                        else {
                            let error = HTTPTransportError.make(
                                .invalidEndpoint, "the HTTP+SSE server's endpoint \"\(event.text)\" is not a URL on its own origin")
                            endpoint.fulfill(.failure(error))
                            throw error
                        }
                        endpoint.fulfill(.success(target))
                    case "message":
                        _ = try await handleEvent(event, answering: nil, watch: nil)
                    default:
                        continue
                    }
                }
            }
            try Task.checkCancellation()
        } catch is CancellationError {
            endpoint.fulfill(.failure(HTTPTransportError.make(.streamEnded, "the HTTP+SSE stream was closed")))
            return
        } catch {
            failure = error
        }
        endpoint.fulfill(
            .failure(HTTPTransportError.make(.invalidEndpoint, "the HTTP+SSE server's stream ended before its endpoint event")))
        let ended = locked.withLock { shared in
            guard !shared.closed else { return false }
            let session = shared.state.sessionID.map { " (session \($0))" } ?? ""
            shared.endReason = "the HTTP+SSE event stream from \(base.absoluteString)\(session) ended"
            return true
        }
        if ended { inboundQueue.finish(throwing: failure) }
    }
}
