// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
import Foundation
import HTTPClientCore
import JSONCore
import MCPPlatform

// The request and stream code both of the model's front doors run: one chat-completions
// request sent, its answer read event by event into a `StreamedCompletion`, an observer told
// of each event, the times of each part kept for `requestMetrics`.

#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
extension ChatCompletionsModel {
    /// One chat-completions request and its answer.
    struct Exchange<Observer: CompletionObserver>: Sendable {
        /// The answer, as its events left it.
        var stream: StreamedCompletion
        /// The observer, as the answer's events left it.
        var observer: Observer
        /// When the caller started building the request, when it was sent, when its headers
        /// and its last byte arrived.
        var started: ContinuousClock.Instant
        var sent: ContinuousClock.Instant
        var headersReceived: ContinuousClock.Instant?
        var received: ContinuousClock.Instant
        /// The request body's size in bytes.
        var requestBytes: Int
        /// What the first answer did when it was cut as degenerate and asked again.
        var retried: DegenerateOutput? = nil

        /// Reports the request's timings to the configuration's `requestMetrics`, if any: the
        /// answer's decoding ends now.
        func reportMetrics(_ configuration: ChatCompletionsConfiguration) {
            guard let report = configuration.requestMetrics else { return }
            report(
                ChatCompletionsRequestMetrics(
                    building: sent - started, timeToHeaders: (headersReceived ?? received) - sent, exchange: received - sent,
                    decoding: ContinuousClock.now - received, requestBytes: requestBytes, server: stream.completion.timings,
                    retriedAfter: retried))
        }
    }

    /// Sends `built` to the server's `chat/completions` and reads the answer (an event stream,
    /// or JSON), calling `observer` after each event; `started` is when the caller began
    /// building the request.
    ///
    /// An answer cut as degenerate is asked once more with the retry's repetition controls
    /// (``ChatRequestBuilder/Built/retryBody``), when there is one and the observer can take back
    /// what it passed on (``CompletionObserver/restart()``); the retry's answer is the one
    /// returned, and a cut of the retry is final.
    ///
    /// - Throws: ``ServerFailure`` for an over-long request, a rate limit or a content filter;
    ///   ``ChatCompletionsError/degenerateOutput`` as soon as the answer is degenerate (the
    ///   request's connection is then closed) and cannot be asked again; ``ChatCompletionsError``
    ///   for the rest; `CancellationError` when the task is cancelled (the connection is then
    ///   closed too).
    func exchange<Observer: CompletionObserver>(
        _ built: ChatRequestBuilder.Built, observer: Observer, started: ContinuousClock.Instant
    ) async throws -> Exchange<Observer> {
        let url = baseURL.appendingPathComponent("chat/completions")
        let http = try await request("POST", url, body: built.body)
        let sent = ContinuousClock.now
        let cut: DegenerateCut<Observer>
        do {
            let (stream, observer, headersReceived) = try await completion(of: http, observer: observer)
            return Exchange(
                stream: stream, observer: observer, started: started, sent: sent, headersReceived: headersReceived,
                received: ContinuousClock.now, requestBytes: http.body?.count ?? 0)
        } catch let failure as DegenerateCut<Observer> {
            cut = failure
        }
        var observer = cut.observer
        guard let retryBody = built.retryBody, await observer.restart() else { throw cut.error }
        try Task.checkCancellation()
        let retry = try await request("POST", url, body: retryBody)
        do {
            let (stream, observer, headersReceived) = try await completion(of: retry, observer: observer)
            return Exchange(
                stream: stream, observer: observer, started: started, sent: sent, headersReceived: headersReceived,
                received: ContinuousClock.now, requestBytes: (http.body?.count ?? 0) + (retry.body?.count ?? 0),
                retried: cut.error.degeneration)
        } catch let failure as DegenerateCut<Observer> {
            throw failure.error
        }
    }

    /// An answer cut as degenerate, with the observer as the cut left it (for a retry).
    struct DegenerateCut<Observer: CompletionObserver>: Error {
        var error: ChatCompletionsError
        var observer: Observer
    }

    /// Sends a chat-completions request and reads its answer, noting when its headers arrived.
    private func completion<Observer: CompletionObserver>(
        of request: HTTPRequest, observer: Observer
    ) async throws -> (StreamedCompletion, Observer, ContinuousClock.Instant) {
        let limit = configuration.maximumResponseBytes
        let idle = configuration.idleTimeout
        let detecting = configuration.detectsDegenerateOutput
        let exchanger = exchanger
        return try await Self.run(idle, "answering") { watch in
            var observer = observer
            let response = try await exchanger.exchange(request)
            defer { response.close() }
            let headersReceived = ContinuousClock.now
            watch.touch()
            guard (200..<300).contains(response.head.status) else {
                let body = try await Self.prefix(of: response, limit: 64 << 10, watch: watch)
                throw ServerFailure.classify(status: response.head.status, body: body, headers: response.head.headers)
            }
            if response.head.mediaType == "text/event-stream" {
                var parser = SSEParser(maximumEventBytes: limit)
                // A degenerate event throws out of here: the response is closed (the server
                // stops generating) and the turn fails with degenerateOutput.
                var stream = StreamedCompletion(detecting: detecting)
                var total = 0
                for try await chunk in response.body {
                    watch.touch()
                    total += chunk.count
                    guard total <= limit else {
                        throw ChatCompletionsError.make(.invalidResponse, "the model's answer is larger than \(limit) bytes")
                    }
                    let events: [SSEEvent]
                    do {
                        events = try parser.feed(chunk)
                    } catch {
                        throw ChatCompletionsError.make(.invalidResponse, "an event of the answer is larger than \(limit) bytes")
                    }
                    for event in events {
                        let ended: Bool
                        do {
                            ended = try stream.take(event.data)
                        } catch let cut as ChatCompletionsError where cut.degeneration != nil {
                            throw DegenerateCut(error: cut, observer: observer)
                        }
                        if ended { return (stream, observer, headersReceived) }
                        try await observer.observe(stream)
                        // Waiting for the session to take what the observer sent is not the
                        // server being quiet.
                        watch.touch()
                    }
                }
                try Task.checkCancellation()
                // A server that ends the stream without [DONE] after a finish reason is done too.
                guard stream.completion.finishReason != nil else {
                    throw ChatCompletionsError.make(.invalidResponse, "the server ended the answer's stream before it finished")
                }
                return (stream, observer, headersReceived)
            }
            let bytes = try await Self.prefix(of: response, limit: limit + 1, watch: watch)
            guard bytes.count <= limit else {
                throw ChatCompletionsError.make(.invalidResponse, "the model's answer is larger than \(limit) bytes")
            }
            do {
                return (try StreamedCompletion.whole(bytes, detecting: detecting), observer, headersReceived)
            } catch let cut as ChatCompletionsError where cut.degeneration != nil {
                throw DegenerateCut(error: cut, observer: observer)
            }
        }
    }

    /// Whether an answer whose content is now `length` bytes, and was `reported` bytes at the
    /// last report, is reported again. Each report parses (or copies) the whole answer so far:
    /// every change is reported up to 16 KiB, then only growth of an eighth or more, so a long
    /// answer streamed in tiny events costs linear work, not quadratic.
    static func reportsPartial(length: Int, reported: Int) -> Bool {
        guard length != reported else { return false }
        return length <= 16 << 10 || length - reported >= reported / 8
    }
}
