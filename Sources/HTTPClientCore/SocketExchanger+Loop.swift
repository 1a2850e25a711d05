internal import Foundation
internal import MCPPlatform

extension SocketExchanger {
    /// One exchange on the process's ``MCPPlatform/EventLoop``: no thread of its own.
    ///
    /// A thin shell around ``HTTPExchangeMachine``: it does the calls the machine asks for
    /// (connect, send, receive, never waiting) when the loop says the socket is ready, and
    /// watches the socket for what the machine awaits. Reading pauses by taking the socket out
    /// of the loop's set while the window is full; the reader's ``taken(_:)`` puts it back.
    ///
    /// **Descriptors.** Only the loop's thread reads and writes the socket once it is
    /// registered; a cancellation (any thread) ends the registration, and the socket is closed
    /// in the handler's `deregistered()`, after it has left the loop. A socket whose response
    /// completed cleanly goes back to the pool from the loop's thread, after leaving the set.
    ///
    /// **Names.** An address literal is connected to at once; a name is looked up on the
    /// ``NameResolver``'s thread (`getaddrinfo` blocks), never on the loop.
    final class LoopExchange: Sendable {
        private struct State {
            var machine: HTTPExchangeMachine
            var addresses: [SocketAddress] = []
            var socket: LoopSocket?
            var registration: EventLoopRegistration?
            var cancelled = false
            /// The first attempt; a reused connection the server had closed gets a second.
            var firstAttempt = true
            /// The outcome (the body's end or failure) is delivered.
            var ended = false
        }

        let loop: EventLoop
        private let target: Target
        private let method: String
        private let request: [UInt8]
        private let pool: ConnectionPool
        private let statistics: Statistics
        private let body: AsyncThrowingStream<Data, any Error>.Continuation
        private let ended: @Sendable (LoopExchange) -> Void
        private let state: LockedValue<State>
        /// The head, or the failure before it.
        let head = OneShot<Result<HTTPResponseHead, any Error>>()

        /// An exchange of `request` (serialized) with `target`; `ended` runs once its outcome is delivered.
        init(
            loop: EventLoop, request: [UInt8], method: String, target: Target, window: Int, pool: ConnectionPool,
            statistics: Statistics, body: AsyncThrowingStream<Data, any Error>.Continuation,
            ended: @escaping @Sendable (LoopExchange) -> Void
        ) {
            self.loop = loop
            self.request = request
            self.method = method
            self.target = target
            self.pool = pool
            self.statistics = statistics
            self.body = body
            self.ended = ended
            state = LockedValue(
                State(
                    machine: HTTPExchangeMachine(
                        request: request, method: method, authority: target.authority, window: window, reused: false)))
        }

        /// Starts: over a kept-alive connection when the pool has one, else a new connection.
        func start() {
            if let reused = pool.take(target.key) {
                let proceed = state.withLock { state in
                    state.machine = HTTPExchangeMachine(
                        request: request, method: method, authority: target.authority, window: state.machine.window, reused: true)
                    return !state.cancelled
                }
                guard proceed else {
                    POSIX.close(reused)
                    return
                }
                attach(reused)
            } else {
                resolve()
            }
        }

        /// Stops the exchange: the head's waiter and the body's reader get `CancellationError`,
        /// and the socket leaves the loop and is closed. Harmless once the response has ended.
        ///
        /// - Parameter finishingBody: `false` when the body's stream has ended already (its
        ///   reader's task was cancelled, or the reader dropped it): the stream ends as it does.
        func cancel(finishingBody: Bool = true) {
            let registration: EventLoopRegistration? = state.withLock { state in
                guard !state.cancelled else { return nil }
                state.cancelled = true
                state.machine.cancel()
                return state.registration
            }
            registration?.cancel()
            end(.failure(CancellationError()), finishingBody: finishingBody)
        }

        /// The reader took `count` bytes: reading resumes once enough room is free.
        func taken(_ count: Int) {
            state.withLock { state in
                state.machine.taken(count)
                Self.watch(&state)
            }
        }

        // MARK: Connecting

        private func resolve() {
            if let literals = POSIX.addressLiterals(host: target.host, port: target.port) {
                resolved(.success(literals))
            } else {
                NameResolver.shared.resolve(host: target.host, port: target.port) { [self] in resolved($0) }
            }
        }

        private func resolved(_ result: Result<[SocketAddress], SocketFailure>) {
            let action: HTTPExchangeMachine.Action? = state.withLock { state in
                guard !state.cancelled else { return nil }
                switch result {
                case .success(let addresses):
                    state.addresses = addresses
                    return state.machine.resolved(addressCount: addresses.count)
                case .failure(let failure):
                    return state.machine.resolutionFailed(failure.description)
                }
            }
            if let action { perform([action]) }
        }

        private func connect(to index: Int) {
            let address: SocketAddress? = state.withLock { state in
                state.cancelled || index >= state.addresses.count ? nil : state.addresses[index]
            }
            guard let address else { return }
            let descriptor: Int32
            do throws(SocketFailure) {
                descriptor = try POSIX.startConnect(to: address)
            } catch {
                perform([state.withLock { $0.machine.connectFailed(error.description) }])
                return
            }
            attach(descriptor)
        }

        /// Registers a socket (connecting, or kept alive and ready to send) with the loop.
        private func attach(_ descriptor: Int32) {
            let socket = LoopSocket(descriptor: descriptor, exchange: self)
            let proceed = state.withLock { state in
                guard !state.cancelled else { return false }
                state.socket = socket
                return true
            }
            guard proceed else {
                POSIX.close(descriptor)
                return
            }
            let registration: EventLoopRegistration
            do throws(Errno) {
                registration = try loop.register(descriptor, interest: .writable, handler: socket)
            } catch {
                state.withLock { $0.socket = nil }
                POSIX.close(descriptor)
                perform([state.withLock { $0.machine.connectFailed("cannot watch the socket: \(error)") }])
                return
            }
            let cancelled = state.withLock { state in
                state.registration = registration
                Self.watch(&state)
                return state.cancelled
            }
            if cancelled { registration.cancel() }
        }

        /// Ends the current socket's registration; it is closed when it has left the loop,
        /// unless it went back to the pool.
        private func dropSocket() {
            let registration = state.withLock { state in
                defer {
                    state.socket = nil
                    state.registration = nil
                }
                return state.registration
            }
            registration?.cancel()
        }

        // MARK: Readiness

        /// On the loop's thread: `socket` is ready.
        func ready(_ readiness: EventLoop.Readiness, on socket: LoopSocket) {
            let awaiting: HTTPExchangeMachine.Wait = state.withLock { state in
                // Until `attach` has the registration, the loop's early calls are ignored
                // (level-triggered: they come again once the interest is set).
                state.socket === socket && state.registration != nil && !state.cancelled ? state.machine.awaiting : .nothing
            }
            switch awaiting {
            case .writable where readiness.writable || readiness.hangUp: writable(socket)
            case .readable where readiness.readable || readiness.hangUp: readable(socket)
            default: break
            }
        }

        private func writable(_ socket: LoopSocket) {
            if state.withLock({ $0.machine.isConnecting }) {
                if let failure = POSIX.connectionFailure(socket.descriptor) {
                    let action = state.withLock { $0.machine.connectFailed(failure.description) }
                    dropSocket()
                    perform([action])
                    return
                }
                state.withLock { $0.machine.connected() }
                statistics.noteConnection()
            }
            let unsent = state.withLock { $0.machine.unsent }
            switch POSIX.sendAvailable(socket.descriptor, unsent) {
            case .transferred(let count):
                state.withLock { state in
                    state.machine.sent(count)
                    Self.watch(&state)
                }
            case .wouldBlock:
                break
            case .failed(let reason):
                perform([state.withLock { $0.machine.sendFailed(reason) }])
            }
        }

        private func readable(_ socket: LoopSocket) {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
            defer { buffer.deallocate() }
            let actions: [HTTPExchangeMachine.Action]
            switch POSIX.receiveAvailable(socket.descriptor, into: buffer) {
            case .transferred(let count):
                let (made, waiting, paused) = state.withLock { state in
                    let actions = state.machine.received(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                    Self.watch(&state)
                    return (actions, state.machine.waiting, state.machine.paused)
                }
                statistics.noteUnread(waiting)
                if paused { statistics.notePause() }
                actions = made
            case .wouldBlock:
                return
            case .failed(let reason):
                actions = [state.withLock { $0.machine.receiveFailed(reason) }]
            }
            perform(actions)
        }

        // MARK: Actions

        private func perform(_ actions: [HTTPExchangeMachine.Action]) {
            for action in actions {
                switch action {
                case .connect(let index):
                    connect(to: index)
                case .head(let status, let headers):
                    head.fulfill(.success(HTTPResponseHead(status: status, headers: headers)))
                case .body(let chunk):
                    body.yield(Data(chunk))
                case .complete(let reusable):
                    complete(reusable: reusable)
                case .fail(let message, let retry):
                    failed(HTTPClientError(.network, message), retry: retry)
                }
            }
        }

        /// On the loop's thread: the response is complete; a reusable socket leaves the loop's
        /// set (at once: no call of its handler follows on this thread) and goes back to the pool.
        private func complete(reusable: Bool) {
            let (socket, registration) = state.withLock { state in
                defer {
                    state.socket = nil
                    state.registration = nil
                }
                return (state.socket, state.registration)
            }
            if reusable, let socket {
                socket.keep()
                registration?.cancel()
                pool.put(socket.descriptor, for: target.key)
            } else {
                registration?.cancel()
            }
            end(.success(()))
        }

        private func failed(_ error: HTTPClientError, retry: Bool) {
            dropSocket()
            let again = state.withLock { state in
                guard retry, state.firstAttempt, !state.cancelled else { return false }
                state.firstAttempt = false
                state.machine = HTTPExchangeMachine(
                    request: request, method: method, authority: target.authority, window: state.machine.window, reused: false)
                return true
            }
            if again {
                resolve()
            } else {
                end(.failure(error))
            }
        }

        /// Delivers the outcome, once: the head's waiter (if it still waits) and the body.
        private func end(_ outcome: Result<Void, any Error>, finishingBody: Bool = true) {
            let first = state.withLock { state in
                defer { state.ended = true }
                return !state.ended
            }
            guard first else { return }
            switch outcome {
            case .success:
                body.finish()
            case .failure(let error):
                head.fulfill(.failure(error))
                if finishingBody { body.finish(throwing: error) }
            }
            ended(self)
        }

        /// Asks the loop for what the machine awaits.
        private static func watch(_ state: inout State) {
            let interest: EventLoop.Interest =
                switch state.machine.awaiting {
                case .writable: .writable
                case .readable: .readable
                case .nothing: []
                }
            state.registration?.update(interest)
        }
    }

    /// The loop's handler for one socket of a ``LoopExchange``: forwards readiness, and closes
    /// the socket once it has left the loop, unless it went back to the pool.
    final class LoopSocket: EventLoopHandler {
        let descriptor: Int32
        private let exchange: LoopExchange
        /// The socket went back to the pool: leaving the loop does not close it.
        private let kept = LockedValue(false)

        init(descriptor: Int32, exchange: LoopExchange) {
            self.descriptor = descriptor
            self.exchange = exchange
        }

        /// Marks the socket as gone back to the pool (before its registration ends).
        func keep() {
            kept.withLock { $0 = true }
        }

        func ready(_ readiness: EventLoop.Readiness) {
            exchange.ready(readiness, on: self)
        }

        func deregistered() {
            if !kept.withLock({ $0 }) { POSIX.close(descriptor) }
        }
    }
}
