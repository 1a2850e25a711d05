internal import Foundation
internal import HTTPClientCore
internal import MCP
internal import MCPCore
internal import MCPPlatform

// The standalone GET stream of the handshake era.
extension HTTPTransportCore {
    /// Opens the standalone GET stream (handshake era) unless it is open.
    func startStandaloneStream() {
        locked.withLock { shared in
            guard shared.standaloneStream == nil, !shared.closed, !shared.state.isLegacySSE, !shared.state.isModern else { return }
            // startTask gives the task this key.
            let key = shared.nextTaskKey
            if startTask(in: &shared, { [self] in await runStandaloneStream(key: key) }) != nil {
                shared.standaloneStream = key
            }
        }
    }

    /// Keeps the GET stream open: reopens it with `Last-Event-ID` when it drops, waiting
    /// longer after each failure, and gives up after a few failures in a row, or when the
    /// server has none (`405`) or the session is gone.
    func runStandaloneStream(key: Int) async {
        var failures = 0
        var retry: Int?
        defer {
            locked.withLock { shared in
                if shared.standaloneStream == key { shared.standaloneStream = nil }
            }
        }
        while !Task.isCancelled, failures < configuration.maximumReconnectionAttempts {
            let (headers, url) = locked.withLock { shared in
                (shared.state.streamHeaders(resumingAfter: shared.state.standaloneLastEventID), shared.state.endpoint)
            }
            do {
                let request = try await request(method: "GET", url: url, headers: headers, body: nil)
                let response = try await head(of: request)
                defer { response.close() }
                let status = response.head.status
                if (200..<300).contains(status), response.head.mediaType == "text/event-stream" {
                    var parser = SSEParser(maximumEventBytes: configuration.maximumEventBytes)
                    var broke = false
                    do {
                        // A stream that drops or breaks a limit is reopened after its last
                        // complete event: what came before it was delivered.
                        switch try await readEvents(response.body, parser: &parser, answering: nil, longLived: true) {
                        case .answer, .ended: break
                        case .dropped, .refused: broke = true
                        }
                    } catch is CancellationError {
                        return
                    } catch {
                        broke = true
                    }
                    _ = parser.finish()
                    let lastEventID = parser.lastEventID
                    let previous = locked.withLock { shared in
                        let previous = shared.state.standaloneLastEventID
                        if let lastEventID { shared.state.standaloneLastEventID = lastEventID }
                        return previous
                    }
                    // A stream that brought something new was a success; one that broke, or
                    // ended with nothing new, counts toward giving up.
                    if !broke, parser.dispatchedEvents > 0 || lastEventID != previous {
                        failures = 0
                    } else {
                        failures += 1
                    }
                    retry = parser.reconnectionTime ?? retry
                } else if [401, 403, 404, 405].contains(status) || (200..<300).contains(status) {
                    // No stream here (405), the session is gone (a POST will renew it), or no
                    // credentials: nothing to retry.
                    return
                } else {
                    failures += 1
                }
            } catch is CancellationError {
                return
            } catch {
                failures += 1
            }
            do {
                try await Task.sleep(for: reconnectionDelay(failures: failures, retry: retry))
            } catch {
                return
            }
        }
    }

    /// How long to wait before reopening a stream: the server's `retry` when it gave one,
    /// else the configured delay doubled per failure, at most the maximum.
    func reconnectionDelay(failures: Int, retry: Int?) -> Duration {
        if let retry { return min(.milliseconds(retry), configuration.maximumReconnectionDelay) }
        var delay = configuration.reconnectionDelay
        for _ in 0..<max(0, failures - 1) where delay < configuration.maximumReconnectionDelay {
            delay *= 2
        }
        return min(delay, configuration.maximumReconnectionDelay)
    }
}
