internal import Foundation
internal import MCPPlatform

extension SocketExchanger {
    /// One request and its response: the reading thread, the head's waiter, and how much
    /// of the body waits unread.
    final class Exchange: Sendable {
        private struct State {
            var headWaiter: CheckedContinuation<HTTPResponseHead, any Error>?
            var early: Result<HTTPResponseHead, any Error>?
            var headDelivered = false
            var cancelled = false
            /// The body's stream ended on its reader's side (its task was cancelled, or it
            /// was dropped): the thread finishes it without an error, so that the reader sees
            /// the end as every cancelled stream's, however the two race.
            var bodyAbandoned = false
            var released = false
            /// Bytes delivered to the body and not yet taken by its reader.
            var waiting = 0
        }

        // The wake-up pipe's descriptors are immutable and closed only by `release()` once
        // the thread is done and `cancel()` can no longer write to them (`released`).
        private let state = ConditionalValue(State())
        private let wake: (read: Int32, write: Int32)
        private let window: Int

        private let statistics: Statistics

        init(window: Int, statistics: Statistics) throws {
            self.window = window
            self.statistics = statistics
            do {
                wake = try POSIX.makeWakePipe()
            } catch {
                throw HTTPClientError(.network, "cannot make the connection's wake-up pipe: \(error)")
            }
        }

        /// Stops the exchange: the head's waiter gets `CancellationError` at once, and the
        /// thread stops whatever it waits for (connecting, sending, reading, room to deliver).
        ///
        /// - Parameter finishingBody: `false` when the body's stream has ended already (its
        ///   reader's task was cancelled, or the reader dropped it): the stream ends as it does.
        func cancel(finishingBody: Bool = true) {
            state.withLock { state in
                state.cancelled = true
                if !finishingBody { state.bodyAbandoned = true }
                if !state.released { POSIX.signalWakePipe(wake.write) }
            }
            state.broadcast()
            deliverHead(.failure(CancellationError()))
        }

        /// Closes the wake-up pipe: the thread is done with it.
        func release() {
            state.withLock { state in
                guard !state.released else { return }
                state.released = true
                POSIX.close(wake.read)
                POSIX.close(wake.write)
            }
        }

        func awaitHead(_ waiter: CheckedContinuation<HTTPResponseHead, any Error>) {
            let early: Result<HTTPResponseHead, any Error>? = state.withLock { state in
                defer { state.early = nil }
                if state.early == nil { state.headWaiter = waiter }
                return state.early
            }
            if let early { waiter.resume(with: early) }
        }

        /// Delivers the head (or the failure before it); the first call wins.
        private func deliverHead(_ result: Result<HTTPResponseHead, any Error>) {
            let waiter: CheckedContinuation<HTTPResponseHead, any Error>? = state.withLock { state in
                guard !state.headDelivered else { return nil }
                state.headDelivered = true
                defer { state.headWaiter = nil }
                if state.headWaiter == nil { state.early = result }
                return state.headWaiter
            }
            waiter?.resume(with: result)
        }

        /// The reader took `count` bytes: reading may go on once enough room is free.
        func taken(_ count: Int) {
            let room = state.withLock { state in
                state.waiting -= count
                return state.waiting <= window / 2
            }
            if room { state.signal() }
        }

        /// Counts a chunk as waiting, then blocks while more than the window waits unread.
        /// Returns `false` once the exchange is cancelled.
        private func admit(_ count: Int) -> Bool {
            let waiting = state.withLock { state in
                state.waiting += count
                return state.waiting
            }
            statistics.noteUnread(waiting)
            if waiting > window { statistics.notePause() }
            return state.waitWithLock(until: { state in
                state.waiting > window && !state.cancelled ? nil : !state.cancelled
            })
        }

        private var isCancelled: Bool { state.withLock { $0.cancelled } }

        /// The thread's body: connects (or reuses a connection), sends, and reads the response
        /// into `body` until it ends, fails or is cancelled.
        func run(
            _ bytes: [UInt8], method: String, to target: Target, pool: ConnectionPool,
            body: AsyncThrowingStream<Data, any Error>.Continuation
        ) {
            defer { release() }
            var outcome: Result<Void, any Error>
            var attempt = 0
            repeat {
                attempt += 1
                let reused = attempt == 1 ? pool.take(target.key) : nil
                outcome = exchange(bytes, method: method, to: target, over: reused, pool: pool, body: body)
                // A kept-alive connection the server closed before it answered: once more, on a new one.
                if case .failure(let error as StaleConnection) = outcome {
                    outcome = .failure(error.underlying)
                    if reused != nil, !isCancelled { continue }
                }
                break
            } while attempt < 2
            switch outcome {
            case .success:
                body.finish()
            case .failure(let error):
                let failure: any Error = isCancelled ? CancellationError() : error
                deliverHead(.failure(failure))
                if state.withLock({ $0.bodyAbandoned }) {
                    body.finish()
                } else {
                    body.finish(throwing: failure)
                }
            }
        }

        /// A reused connection that failed before any byte of its response arrived.
        private struct StaleConnection: Error {
            var underlying: any Error
        }

        private func exchange(
            _ bytes: [UInt8], method: String, to target: Target, over reused: Int32?, pool: ConnectionPool,
            body: AsyncThrowingStream<Data, any Error>.Continuation
        ) -> Result<Void, any Error> {
            let socket: Int32
            if let reused {
                socket = reused
            } else {
                do throws(SocketFailure) {
                    socket = try POSIX.connectTCP(host: target.host, port: target.port, wake: wake.read)
                    statistics.noteConnection()
                } catch {
                    return .failure(Self.describe(error, "cannot connect to \(target.authority)"))
                }
            }
            var keep = false
            defer { if !keep { POSIX.close(socket) } }
            do throws(SocketFailure) {
                try POSIX.sendAll(socket, bytes, wake: wake.read)
            } catch {
                let failure = Self.describe(error, "cannot send the request to \(target.authority)")
                return .failure(reused != nil ? StaleConnection(underlying: failure) : failure)
            }
            var parser = HTTP1ResponseParser(requestMethod: method)
            var received = 0
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
            defer { buffer.deallocate() }
            while true {
                let count: Int
                do throws(SocketFailure) {
                    count = try POSIX.receive(socket, into: buffer, wake: wake.read)
                } catch {
                    let failure = Self.describe(error, "the connection to \(target.authority) failed")
                    return .failure(reused != nil && received == 0 ? StaleConnection(underlying: failure) : failure)
                }
                received += count
                let events: [HTTP1ResponseParser.Event]
                do throws(HTTP1ResponseParser.Malformed) {
                    events = count == 0 ? try parser.finish() : try parser.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                } catch {
                    let failure = HTTPClientError(.network, "\(target.authority) sent a broken HTTP response: \(error)")
                    return .failure(reused != nil && received == 0 ? StaleConnection(underlying: failure) : failure)
                }
                // A reader that stopped (or closed the response) mid-batch ends the exchange,
                // unless the batch completes the response: then the connection is clean and kept.
                var stopped = false
                for event in events {
                    switch event {
                    case .head(let status, let headers):
                        deliverHead(.success(HTTPResponseHead(status: status, headers: headers)))
                    case .body(let chunk):
                        guard !chunk.isEmpty, !stopped else { continue }
                        body.yield(Data(chunk))
                        if !admit(chunk.count) { stopped = true }
                    case .end(let reusable):
                        if reusable {
                            keep = true
                            pool.put(socket, for: target.key)
                        }
                        return stopped ? .failure(CancellationError()) : .success(())
                    }
                }
                if stopped { return .failure(CancellationError()) }
            }
        }

        private static func describe(_ failure: SocketFailure, _ what: String) -> any Error {
            switch failure {
            case .cancelled: CancellationError()
            case .failed(let reason): HTTPClientError(.network, "\(what): \(reason)")
            }
        }
    }
}
