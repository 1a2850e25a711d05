internal import Foundation
internal import HTTPClientCore
internal import MCP
internal import MCPCore
internal import MCPPlatform

// Reading responses: JSON bodies and SSE streams, resumed after a drop, within limits.
extension HTTPTransportCore {
    /// The request whose response is being read.
    struct Awaited: Sendable {
        var id: RequestID
        var method: String
        /// Whether the response goes to ``receive()`` (not for the transport's own requests).
        var delivers: Bool
    }

    /// Reads the response to a request: delivers every message in the order it came (the
    /// response too, when `awaited.delivers`) and returns the response. A POST event stream
    /// that ends early is resumed with `Last-Event-ID` when `resumable` (the handshake era) and
    /// the server gave event ids.
    @discardableResult
    func readAnswer(_ response: HTTPResponse, to awaited: Awaited, resumable: Bool) async throws -> InboundMessage {
        let head = response.head
        let method = awaited.method
        switch head.mediaType {
        case "application/json":
            let callLimit = awaited.delivers ? resultLimits.limit(for: awaited.id) : nil
            let body: [UInt8]
            do {
                body = try await readBody(of: response, what: "the response to \(method)", callLimit: callLimit)
            } catch let over as OverCallLimit {
                return try await refuse(awaited, length: over.length, limit: over.limit)
            }
            var answer: InboundMessage?
            let messages = Self.messages(in: body)
            let bytes = body.count / max(1, messages.count)
            for message in messages {
                if answer == nil, Self.answers(message, awaited.id) {
                    let found = Self.identified(message, as: awaited.id)
                    answer = found
                    try await take(found, for: awaited, bytes: bytes, watch: nil)
                } else {
                    try await deliver(message, bytes: bytes, watch: nil)
                }
            }
            guard let answer else {
                throw HTTPTransportError.make(
                    .missingResponse, "the server's JSON response to \(method) does not answer it: \(HTTPSessionState.excerpt(body))",
                    status: head.status)
            }
            return answer
        case "text/event-stream":
            // With a limit on this call's result, no event of its stream may be longer than
            // the limit (or 64 KiB, for the stream's other events).
            let callLimit = awaited.delivers ? resultLimits.limit(for: awaited.id) : nil
            let eventLimit = callLimit.map { min(configuration.maximumEventBytes, max($0, 64 << 10)) } ?? configuration.maximumEventBytes
            var parser = SSEParser(maximumEventBytes: eventLimit)
            let longLived = method == MCPMethod.subscriptionsListen
            let read = try await readEvents(response.body, parser: &parser, answering: awaited, longLived: longLived)
            switch read {
            case .answer(let answer):
                return answer
            case .refused(let error):
                if let callLimit, eventLimit < configuration.maximumEventBytes, error == .eventTooLarge {
                    return try await refuse(awaited, length: nil, limit: callLimit)
                }
                throw error
            case .ended, .dropped:
                break
            }
            let midEvent = parser.finish()
            // Ended or dropped before the answer: resumed from the last complete event.
            if resumable, let lastEventID = parser.lastEventID {
                return try await resume(awaited, after: lastEventID, retry: parser.reconnectionTime)
            }
            if case .dropped(let error) = read { throw error }
            throw HTTPTransportError.make(
                .streamEnded,
                midEvent
                    ? "the server closed the event stream of \(method) in the middle of an event"
                    : "the server closed the event stream of \(method) before it sent the response", status: head.status)
        case "" where head.status == 202 || head.status == 204:
            throw HTTPTransportError.make(
                .missingResponse, "the server answered \(method) with HTTP \(head.status) and no response", status: head.status)
        default:
            let prefix = try await readPrefix(of: response, limit: 4096)
            throw HTTPTransportError.unexpectedContentType(
                head.header("content-type") ?? "none", status: head.status, body: HTTPSessionState.excerpt(prefix))
        }
    }

    /// How reading an event stream ended.
    enum StreamOutcome: Sendable {
        /// The answer to the awaited request came (the stream is not read further).
        case answer(InboundMessage)
        /// The stream ended cleanly.
        case ended
        /// The connection dropped, or the exchanger cut the body: the stream is gone, but what
        /// was read of it stands (the parser has its last complete event id), so it can be
        /// resumed.
        case dropped(HTTPTransportError)
        /// The stream broke a limit of this side (an event or a message too large): it must not
        /// be read again as it is.
        case refused(HTTPTransportError)
    }

    /// Reads events from a stream, delivering each message, until the answer to `awaited`, the
    /// end of the stream, or its failure; `parser` is left as it was at that point (also when
    /// the stream failed), so that a stream can be resumed after its last complete event.
    ///
    /// - Throws: `CancellationError`, or ``HTTPTransportError/idleTimeout`` (not for a
    ///   `longLived` stream), which leave `parser` as it was.
    func readEvents(
        _ body: HTTPBody, parser: inout SSEParser, answering awaited: Awaited?, longLived: Bool
    ) async throws -> StreamOutcome {
        let start = parser
        let read: EventsRead = try await watched(longLived ? nil : configuration.idleTimeout, "an event stream") { [self] watch in
            try await readEvents(body, from: start, answering: awaited, watch: watch)
        }
        parser = read.parser
        return read.outcome
    }

    /// What ``readEvents(_:parser:answering:longLived:)`` read: how it ended, and the parser's
    /// state at the end.
    struct EventsRead: Sendable {
        var outcome: StreamOutcome
        var parser: SSEParser
    }

    func readEvents(
        _ body: HTTPBody, from start: SSEParser, answering awaited: Awaited?, watch: IdleWatch
    ) async throws -> EventsRead {
        var parser = start
        var chunks = body.makeAsyncIterator()
        var events: [SSEEvent] = []
        while true {
            let chunk: Data
            do {
                guard let next = try await chunks.next() else { break }
                chunk = next
            } catch let error as HTTPTransportError {
                return EventsRead(outcome: .dropped(error), parser: parser)
            }
            watch.touch()
            events.removeAll(keepingCapacity: true)
            var tooLarge: SSEParser.EventTooLarge?
            do throws(SSEParser.EventTooLarge) {
                try parser.feed(chunk, into: &events)
            } catch {
                // The events completed before the oversized one are still delivered.
                tooLarge = error
            }
            for event in events where event.type == "message" {
                do {
                    if let answer = try await handleEvent(event, answering: awaited, watch: watch) {
                        return EventsRead(outcome: .answer(answer), parser: parser)
                    }
                } catch let error as HTTPTransportError {
                    return EventsRead(outcome: .refused(error), parser: parser)
                }
            }
            if let tooLarge {
                let error = HTTPTransportError.make(
                    .eventTooLarge, "a server-sent event is larger than the limit of \(tooLarge.limit) bytes; the stream was closed")
                return EventsRead(outcome: .refused(error), parser: parser)
            }
        }
        try Task.checkCancellation()
        return EventsRead(outcome: .ended, parser: parser)
    }

    /// Delivers the messages of a `message` event (waiting for room in the inbound queue,
    /// which `watch` does not count as the server's silence); returns the answer to `awaited`
    /// when the event holds it.
    func handleEvent(_ event: SSEEvent, answering awaited: Awaited?, watch: IdleWatch?) async throws -> InboundMessage? {
        guard event.data.count <= configuration.maximumMessageBytes else {
            throw HTTPTransportError.make(
                .messageTooLarge, "a message of \(event.data.count) bytes is larger than the limit of \(configuration.maximumMessageBytes)")
        }
        // Empty data (a priming event) carries no message.
        guard event.data.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return nil }
        var answer: InboundMessage?
        let messages = Self.messages(in: event.data)
        let bytes = event.data.count / max(1, messages.count)
        for message in messages {
            if answer == nil, let awaited, Self.answers(message, awaited.id) {
                if awaited.delivers, let callLimit = resultLimits.limit(for: awaited.id), bytes > callLimit {
                    answer = try await refuse(awaited, length: bytes, limit: callLimit)
                    continue
                }
                let found = Self.identified(message, as: awaited.id)
                answer = found
                try await take(found, for: awaited, bytes: bytes, watch: watch)
            } else {
                try await deliver(message, bytes: bytes, watch: watch)
            }
        }
        return answer
    }

    /// Delivers a response when it is to be delivered, after learning from it what the
    /// transport needs (the headers a `tools/list` result's tools mirror).
    func take(_ answer: InboundMessage, for awaited: Awaited, bytes: Int, watch: IdleWatch?) async throws {
        if awaited.method == MCPMethod.toolsList, case .message(.response(let list)) = answer {
            locked.withLock { shared in shared.state.learnTools(from: list.result) }
        }
        if awaited.delivers { try await deliver(answer, bytes: bytes, watch: watch) }
    }

    /// Resumes a POST's event stream that ended before its answer: GET with `Last-Event-ID`.
    func resume(_ awaited: Awaited, after lastEventID: String, retry: Int?) async throws -> InboundMessage {
        let method = awaited.method
        var lastEventID = lastEventID
        var retry = retry
        var failures = 0
        while failures < configuration.maximumReconnectionAttempts {
            try await Task.sleep(for: reconnectionDelay(failures: failures, retry: retry))
            let headers = locked.withLock { shared in shared.state.streamHeaders(resumingAfter: lastEventID) }
            let request = try await request(
                method: "GET", url: locked.withLock { shared in shared.state.endpoint }, headers: headers, body: nil)
            let response: HTTPResponse
            do {
                response = try await head(of: request)
            } catch let error as HTTPTransportError where error == .network || error == .idleTimeout {
                failures += 1
                continue
            }
            defer { response.close() }
            guard (200..<300).contains(response.head.status), response.head.mediaType == "text/event-stream" else {
                throw HTTPTransportError.make(
                    .streamEnded,
                    "the event stream of \(method) ended before its response, and resuming it failed (HTTP \(response.head.status))",
                    status: response.head.status)
            }
            var parser = SSEParser(maximumEventBytes: configuration.maximumEventBytes)
            switch try await readEvents(response.body, parser: &parser, answering: awaited, longLived: false) {
            case .answer(let answer):
                return answer
            case .refused(let error):
                throw error
            case .ended, .dropped:
                // Resumed again, from what this stream brought.
                break
            }
            _ = parser.finish()
            if let newer = parser.lastEventID, newer != lastEventID {
                lastEventID = newer
                failures = 0
            } else {
                failures += 1
            }
            retry = parser.reconnectionTime ?? retry
        }
        throw HTTPTransportError.make(
            .streamEnded, "the event stream of \(method) ended before its response, and resuming it failed \(failures) times")
    }

    /// A response body passed its call's result limit (``ResultLimits``): it was not read further.
    struct OverCallLimit: Error {
        var length: Int?
        var limit: Int
    }

    /// Delivers, as the answer to `awaited`, the report that its reply passed the call's
    /// result limit (the client tells its caller so); returns that report.
    func refuse(_ awaited: Awaited, length: Int?, limit: Int) async throws -> InboundMessage {
        resultLimits.noteExceeded(awaited.id, limit: limit)
        let detail =
            length.map { "message of \($0) bytes is longer than the limit of \(limit) bytes for this call" }
            ?? "message is longer than the limit of \(limit) bytes for this call"
        let report = InboundMessage.invalid(InvalidMessage(id: nil, error: .invalidRequest(detail), apparentID: awaited.id))
        try await deliver(report, bytes: 0)
        return report
    }

    /// Reads a JSON body whole, up to the message limit.
    ///
    /// - Throws: ``OverCallLimit`` when the body passes `callLimit` (a limit on this call's
    ///   result smaller than the message limit): reading stops there.
    func readBody(of response: HTTPResponse, what: String, callLimit: Int? = nil) async throws -> [UInt8] {
        let callLimit = callLimit.flatMap { $0 < configuration.maximumMessageBytes ? $0 : nil }
        let limit = callLimit ?? configuration.maximumMessageBytes
        let announced = response.head.header("content-length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let callLimit, let announced, announced > callLimit {
            throw OverCallLimit(length: announced, limit: callLimit)
        }
        if let length = announced, length > limit {
            throw HTTPTransportError.make(
                .messageTooLarge, "\(what) is \(length) bytes, larger than the limit of \(limit); it was not read",
                status: response.head.status)
        }
        return try await watched(configuration.idleTimeout, what) { watch in
            var bytes: [UInt8] = []
            for try await chunk in response.body {
                watch.touch()
                guard bytes.count + chunk.count <= limit else {
                    if let callLimit { throw OverCallLimit(length: nil, limit: callLimit) }
                    throw HTTPTransportError.make(
                        .messageTooLarge, "\(what) is larger than the limit of \(limit) bytes; reading stopped there",
                        status: response.head.status)
                }
                bytes.append(contentsOf: chunk)
            }
            try Task.checkCancellation()
            return bytes
        }
    }

    /// The first `limit` bytes of a body (for an error's excerpt); the rest is not read.
    func readPrefix(of response: HTTPResponse, limit: Int) async throws -> [UInt8] {
        try await watched(configuration.idleTimeout, "an error response") { watch in
            var bytes: [UInt8] = []
            for try await chunk in response.body {
                watch.touch()
                bytes.append(contentsOf: chunk.prefix(limit - bytes.count))
                if bytes.count >= limit { break }
            }
            try Task.checkCancellation()
            return bytes
        }
    }

    /// Runs `body` under the idle timeout (none when `limit` is `nil`).
    func watched<T: Sendable>(
        _ limit: Duration?, _ what: String, _ body: @escaping @Sendable (IdleWatch) async throws -> T
    ) async throws -> T {
        guard let limit else { return try await body(IdleWatch(limit: .seconds(1))) }
        return try await withIdleTimeout(
            limit, timeout: { HTTPTransportError.make(.idleTimeout, "the server sent nothing for \(limit) while sending \(what)") }, body)
    }

    /// Sends a request and waits for its response head, under the idle timeout.
    func head(of request: HTTPRequest) async throws -> HTTPResponse {
        let exchanger = exchanger
        let limit = configuration.idleTimeout
        return try await withIdleTimeout(
            limit,
            timeout: { HTTPTransportError.make(.idleTimeout, "the server did not answer \(request) within \(limit)") }
        ) { _ in
            try await exchanger.exchange(request)
        }
    }

    /// A request with the MCP headers, the app's headers and the authorization.
    func request(method: String, url: URL, headers: [(name: String, value: String)], body: [UInt8]?) async throws -> HTTPRequest {
        var all = headers
        let reserved = Self.transportHeaders.union(headers.map { $0.name.lowercased() })
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) where !reserved.contains(name.lowercased()) {
            all.append((name, value))
        }
        if let authorization = configuration.authorization {
            let value: String?
            do {
                value = try await authorization()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw HTTPTransportError.make(.authorizationFailed, "the app's authorization provider failed: \(error)")
            }
            if let value { all.append(("Authorization", value)) }
        } else if let value = configuration.headers.first(where: { $0.key.lowercased() == "authorization" })?.value {
            all.append(("Authorization", value))
        }
        return HTTPRequest(method: method, url: url, headers: all, body: body)
    }

    /// The headers the transport sets itself, which the app's ``HTTPTransportConfiguration/headers`` cannot replace.
    static let transportHeaders: Set<String> = [
        "accept", "content-type", "mcp-protocol-version", "mcp-session-id", "mcp-method", "mcp-name", "last-event-id",
        "authorization", "content-length", "host",
    ]
}
