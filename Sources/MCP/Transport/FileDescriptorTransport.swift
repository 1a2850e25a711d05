public import MCPCore
internal import MCPPlatform

/// A transport over a pair of file descriptors, one JSON-RPC message per line: the engine
/// under ``StdioTransport`` and ``ProcessTransport``, usable on its own for pipes and
/// connected stream sockets.
///
/// ```swift
/// let transport = try FileDescriptorTransport(readingFrom: socket, writingTo: socket)
/// ```
///
/// **Where the work happens.** The transport can join the process's event loop
/// (``MCPPlatform/EventLoop``: epoll on Linux, kqueue on Darwin): one thread for every
/// descriptor transport of the process, so N connections (N child processes, with their
/// `pidfd`s on Linux and standard error) cost one thread, not 2N–4N; on Darwin each child's
/// exit is still awaited on a thread of its own (no `pidfd`). The loop is the default on Linux
/// (`ONDEVICE_MCP_TRANSPORT_LOOP=0` in the environment turns it off). On Darwin it is opt-in
/// (`ONDEVICE_MCP_TRANSPORT_LOOP=1`): its kqueue backend has been checked on Linux only, not
/// yet run on an Apple system; see ``defaultEngine``. A descriptor the kernel cannot poll (a
/// regular file, `/dev/null`), every system without the loop, and every transport when the
/// loop is off, gets threads of its own: a reading thread and a writing thread, as described
/// below.
///
/// **Reading.** When the input is readable, the loop's thread (or the reading thread, which
/// waits with `poll`, no timeout, on the input and a private wake-up pipe) reads up to 64 KiB,
/// splits the bytes into lines with a
/// bounded framer and parses each line into a ``JSONRPCMessage`` on that thread. A line
/// that is not a message arrives as ``InboundMessage/invalid(_:)`` with an error that names
/// what was wrong: `-32700` when it is not JSON or is nested too deeply (the reader's error,
/// with its byte offset), `-32600` when it is JSON but not JSON-RPC, or longer than
/// ``maximumFrameLength``. Its ``MCPCore/InvalidMessage/apparentID`` is the id its first
/// 4 KiB seem to hold (so a client can fail the matching call at once); its
/// ``MCPCore/InvalidMessage/id``, which an answer names, is set only when a well-formed
/// request carried it (see "Answers to frames that are not messages" in the MCP article). A line longer than the limit is reported as soon
/// as it passes the limit, not when its newline comes, and the rest of it is skipped; the
/// reader never holds more of a line than the limit. At most about 4,096 messages, and at
/// most about 32 MiB or twice ``maximumFrameLength`` (whichever is larger; one message is
/// always let through), wait for the consumer, plus those of one read; beyond that reading
/// stops (on the loop, the input leaves its set) until the consumer catches up, so a flooding
/// peer is slowed down by the pipe, not buffered without bound. End of input finishes the
/// stream of ``receive()``; a read error fails it with ``TransportError/ioFailure(_:)``.
///
/// **The connection's thread.** The thread that reads is also a `TaskExecutor` (the loop's
/// thread, or the reading thread). On systems that
/// have task executors (Linux; macOS 15, iOS 18 and later), ``MCPServer/run(on:options:)`` runs its
/// loop there (and, with ``MCPServer/ConnectionOptions/RequestExecution/connectionThread``,
/// every request's task and the server actor's work), and ``MCPClient`` reads its replies
/// there: a request is read, handled and answered without waking another thread, which is
/// most of the cost of a stdio round trip. (``MCPClient/withConnectionThread(isolation:_:)``
/// puts a caller there too.) Work on it shares the thread with reading (on the loop, with
/// every connection's reading), so code that runs long synchronously there delays reading
/// until it returns or suspends — which is why a server's requests run on Swift's shared
/// executor unless asked otherwise.
///
/// **Writing.** ``send(_:)`` encodes the message in the caller's task. On the connection's
/// thread, messages are queued and written after the current batch of work (or as soon as a
/// pipe-atomic write's worth is queued): many replies, one `write(2)`. Elsewhere a small
/// message is written by the sender itself when the pipe can take it at once; everything
/// else goes to the loop (which writes what the descriptor takes without blocking, whenever it
/// is writable) or to the dedicated writing thread, which empties the buffer with as few
/// `write` calls as possible. A write that could block never happens on the loop or in a sender. At most
/// about 1 MiB waits to be written (sixteen times what a pipe holds); beyond that senders
/// suspend (they never block a thread) until the writer has drained the buffer (a server loop can also wait for room before it
/// reads the next request: ``Transport/waitForOutboundRoom()``). Once writing fails (for example
/// `EPIPE`: the peer is gone; `SIGPIPE` is ignored process-wide; or `ENOSPC` when the output
/// is a full file) or the transport is closed, waiting and later sends throw
/// ``TransportError/closed``.
///
/// **Closing.** ``close()`` stops accepting messages, finishes the inbound stream (messages
/// already received can still be read from it), stops reading, and returns once everything
/// accepted has been written or writing has failed (promptly, whichever way writing
/// failed). A descriptor is closed (if the transport owns it) only once it has left the loop,
/// or by its own thread when that is done with it, so no descriptor is closed while it may
/// still be used, and no number the loop watches is reused behind its back.
///
/// The transport never sets `O_NONBLOCK` on the descriptors it is given, and never polls
/// with a timeout: every wait is for an event.
public final class FileDescriptorTransport: Transport {
    /// The default limit on the size of one message, in bytes: 16 MiB.
    public static let defaultMaximumFrameLength = LineFramer.defaultMaximumFrameLength

    /// The largest message accepted in either direction, in bytes, not counting the newline.
    public let maximumFrameLength: Int

    let inbound: InboundBuffer
    let outbound: OutboundBuffer
    /// Per-request reply limits, which the reading thread enforces (see ``ResultLimits``).
    let responseLimits: ResultLimits
    private let messages: AsyncThrowingStream<InboundMessage, any Error>
    /// What reads and writes: the process's event loop, or the transport's own threads.
    let engine: Engine

    /// What reads and writes for a transport.
    enum Engine: Sendable {
        /// The process's event loop (``LoopConnection``).
        case loop(LoopConnection)
        /// A reading thread that also runs tasks that prefer it, and a writing thread.
        case threads(ConnectionExecutor)
    }

    /// Which engine a new transport asks for.
    enum EngineChoice: Sendable, Equatable {
        /// The event loop when there is one and the descriptors can join it, else threads.
        case automatic
        /// The event loop, or fail.
        case loop
        /// Threads of its own.
        case threads
    }

    /// The engine of new transports: on Linux the event loop (`automatic`) unless the
    /// environment variable `ONDEVICE_MCP_TRANSPORT_LOOP=0` asks for threads of their own;
    /// elsewhere threads unless `ONDEVICE_MCP_TRANSPORT_LOOP=1` asks for the loop.
    ///
    /// The loop costs one thread for every connection of the process (8 stdio servers: 1
    /// thread instead of 24). It is opt-in on Darwin because its kqueue backend has only been
    /// checked on Linux (against a model of kqueue), never run on an Apple system. The threads
    /// stay for systems without the loop, for descriptors the kernel cannot poll, and as a
    /// switch for comparing the two (CI runs the transport suites on both).
    static let defaultEngine: EngineChoice = EventLoop.isDefaultForConnections ? .automatic : .threads

    /// The process's event loop, when new transports and child processes use it.
    static var defaultLoop: EventLoop? { defaultEngine == .threads ? nil : EventLoop.shared }

    /// Whether the caller is the thread that reads this transport's input.
    var isOnConnectionThread: Bool {
        switch engine {
        case .loop(let connection): connection.loop.isCurrentThread
        case .threads(let executor): executor.isCurrentThread
        }
    }

    /// Starts reading from one descriptor and writing to another (which may be the same one).
    ///
    /// - Parameters:
    ///   - input: The descriptor to read messages from. Left in blocking mode.
    ///   - output: The descriptor to write messages to. Left in blocking mode.
    ///   - closesDescriptors: Whether the transport closes the descriptors when it is done
    ///     with them (a descriptor passed for both roles is closed once).
    ///   - maximumFrameLength: The largest message accepted, in bytes; longer inbound lines
    ///     are reported as invalid and skipped, longer outbound messages are refused.
    /// - Throws: ``TransportError/invalidConfiguration(_:)`` when `maximumFrameLength` is
    ///   not positive; ``TransportError/ioFailure(_:)`` when the process is out of
    ///   descriptors for the reading thread's wake-up pipe, or out of threads. When it
    ///   throws, the descriptors are left open: the caller still owns them.
    public convenience init(
        readingFrom input: Int32,
        writingTo output: Int32,
        closesDescriptors: Bool = true,
        maximumFrameLength: Int = FileDescriptorTransport.defaultMaximumFrameLength
    ) throws(TransportError) {
        try self.init(
            readingFrom: input, writingTo: output,
            closesInput: closesDescriptors, closesOutput: closesDescriptors,
            maximumFrameLength: maximumFrameLength)
    }

    /// Starts a thread: a name and a body. The transport's threads are started through one,
    /// so that tests can make thread creation fail.
    typealias ThreadStarter = @Sendable (_ name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) -> Void

    /// The default bound on the bytes waiting in the inbound queue for `maximumFrameLength`:
    /// 32 MiB or twice the frame limit, whichever is larger.
    static func defaultInboundByteLimit(maximumFrameLength: Int) -> Int {
        let (twice, overflow) = maximumFrameLength.multipliedReportingOverflow(by: 2)
        return max(32 * 1024 * 1024, overflow ? Int.max : twice)
    }

    /// The designated initialiser, with the buffer bounds tests may shrink and the way
    /// threads are started.
    ///
    /// - Parameters:
    ///   - inboundCapacity: The most messages waiting for the consumer before reading stops.
    ///   - inboundByteLimit: The most bytes waiting for the consumer before reading stops
    ///     (at least one message is always let through); `nil` for
    ///     ``defaultInboundByteLimit(maximumFrameLength:)``.
    ///   - outboundByteLimit: The most bytes waiting to be written before senders wait. 1 MiB
    ///     by default: a pipe takes 64 KiB a write, so more only holds memory while a peer
    ///     does not read (measured: with 8 MiB, a `serve` whose client stopped reading peaked
    ///     about 30 MiB higher, since the queue and the chunk being written each keep their
    ///     grown capacity).
    ///   - engine: The event loop or threads of its own; `nil` for ``defaultEngine``.
    ///   - loop: The event loop to join; `nil` for the process's, made only when a transport
    ///     asks for the loop (tests give one of their own).
    ///   - threadStarter: Starts the reading and writing threads.
    /// - Throws: ``TransportError/invalidConfiguration(_:)`` for a bound that is not
    ///   positive; ``TransportError/ioFailure(_:)`` when the wake-up pipe or a thread cannot
    ///   be created. The descriptors are then left open.
    init(
        readingFrom input: Int32,
        writingTo output: Int32,
        closesInput: Bool,
        closesOutput: Bool,
        maximumFrameLength: Int,
        inboundCapacity: Int = 4096,
        inboundByteLimit: Int? = nil,
        outboundByteLimit: Int = 1 * 1024 * 1024,
        engine: EngineChoice? = nil,
        loop: EventLoop? = nil,
        threadStarter: ThreadStarter = { (name, body) throws(Errno) in try POSIX.startThread(named: name, body) }
    ) throws(TransportError) {
        let inboundByteLimit = inboundByteLimit ?? Self.defaultInboundByteLimit(maximumFrameLength: maximumFrameLength)
        let engine = engine ?? Self.defaultEngine
        for (name, value) in [
            ("maximumFrameLength", maximumFrameLength), ("inboundCapacity", inboundCapacity),
            ("inboundByteLimit", inboundByteLimit), ("outboundByteLimit", outboundByteLimit),
        ] where value <= 0 {
            throw TransportError.invalidConfiguration("\(name) must be positive, not \(value)")
        }
        POSIX.ignoreBrokenPipeSignal()
        let responseLimits = ResultLimits()
        let inputOwner: DescriptorOwner?
        let outputOwner: DescriptorOwner?
        if input == output, closesInput || closesOutput {
            // One descriptor in both roles: closed once, when both sides are done with it.
            let shared = DescriptorOwner(input, users: 2)
            (inputOwner, outputOwner) = (shared, shared)
        } else {
            inputOwner = closesInput ? DescriptorOwner(input, users: 1) : nil
            outputOwner = closesOutput ? DescriptorOwner(output, users: 1) : nil
        }
        let outbound = OutboundBuffer(byteLimit: outboundByteLimit, descriptor: output)

        // On the event loop when there is one and both descriptors can join it; otherwise
        // (a regular file, /dev/null, a system without the loop) threads of its own.
        if engine != .threads, let loop = loop ?? EventLoop.shared {
            let wake = LoopWake()
            let inbound = InboundBuffer(capacity: inboundCapacity, byteLimit: inboundByteLimit) { wake.wakeReader() }
            do throws(Errno) {
                let connection = try LoopConnection(
                    loop: loop, input: input, output: output, inputOwner: inputOwner, outputOwner: outputOwner,
                    inbound: inbound, outbound: outbound, maximumFrameLength: maximumFrameLength, responseLimits: responseLimits)
                wake.attach(connection)
                outbound.writeOnLoop(connection)
                self.maximumFrameLength = maximumFrameLength
                self.responseLimits = responseLimits
                self.engine = .loop(connection)
                self.inbound = inbound
                self.outbound = outbound
                messages = AsyncThrowingStream(unfolding: { try await inbound.next() })
                return
            } catch {
                if engine == .loop {
                    throw TransportError.ioFailure("the descriptors cannot join the event loop: \(error)")
                }
            }
        } else if engine == .loop {
            throw TransportError.ioFailure("this system has no event loop for descriptors (Linux and Darwin have one)")
        }

        let executor: ConnectionExecutor
        do {
            executor = try ConnectionExecutor()
        } catch {
            throw TransportError.ioFailure("cannot create the reading thread's wake-up pipe: \(error)")
        }
        let inbound = InboundBuffer(capacity: inboundCapacity, byteLimit: inboundByteLimit) { [weak executor] in
            executor?.wake()
        }
        // The writer first: if the reader then cannot start, the writer is told to end
        // (it has nothing to write) without closing the descriptor the caller still owns.
        do throws(Errno) {
            try threadStarter("MCP writer (fd \(output))") {
                outbound.write(to: output, owner: outputOwner)
            }
        } catch {
            executor.abandon()
            throw TransportError.ioFailure("cannot start the writing thread: \(error)")
        }
        do throws(Errno) {
            try threadStarter("MCP reader (fd \(input))") {
                executor.run(
                    reading: input, owner: inputOwner, into: inbound, flushing: outbound,
                    maximumFrameLength: maximumFrameLength, responseLimits: responseLimits)
            }
        } catch {
            outputOwner?.disown()
            outbound.close()
            executor.abandon()
            throw TransportError.ioFailure("cannot start the reading thread: \(error)")
        }

        self.maximumFrameLength = maximumFrameLength
        self.responseLimits = responseLimits
        self.engine = .threads(executor)
        self.inbound = inbound
        self.outbound = outbound
        // The stream pulls from the bounded buffer, so each element taken is a signal that
        // the reader may go on: this is what gives the reading thread back-pressure.
        messages = AsyncThrowingStream(unfolding: { try await inbound.next() })
    }

    /// Dropping the last reference closes the transport as ``close()`` does, without waiting:
    /// what was sent is still written, then the descriptors are closed by their threads.
    deinit {
        beginClose()
        if case .threads(let executor) = engine { executor.retire() }
    }

    /// Sends one message: compact JSON and a newline, queued for the writing thread.
    ///
    /// Returns once the message is queued, which is at once unless about 1 MiB is already
    /// waiting to be written; then the caller suspends until there is room. Messages sent
    /// one after another by one task go out in that order.
    ///
    /// - Throws: One of four distinct errors; only the first means the connection is gone:
    ///   - ``TransportError/closed`` after ``close()`` or once writing has failed (its
    ///     detail says why, for example a broken pipe);
    ///   - ``TransportError/frameTooLarge(_:)`` for a message longer than
    ///     ``maximumFrameLength`` (nothing is sent; the connection goes on);
    ///   - ``TransportError/encodingFailure(_:)`` for a message that cannot be encoded, such
    ///     as one holding a non-finite number (nothing is sent; the connection goes on);
    ///   - `CancellationError` when the task is cancelled while waiting for room (the
    ///     message is not sent).
    public nonisolated(nonsending) func send(_ message: JSONRPCMessage) async throws {
        var bytes: [UInt8]
        do {
            bytes = try message.encoded()
        } catch {
            throw TransportError.encodingFailure("the message cannot be encoded as JSON: \(error)")
        }
        try await enqueueLine(&bytes, answering: message.answersRequest)
    }

    /// Sends the answer to a request already written as one line of JSON text, without the
    /// newline (``MCPCore/JSONRPCMessage/encodedResponse(id:writingResult:)``); otherwise as
    /// ``send(_:)``.
    ///
    /// The line is consumed, so that ending it with the newline does not copy it.
    nonisolated(nonsending) func sendAnswer(encoded line: consuming [UInt8]) async throws {
        var bytes = line
        try await enqueueLine(&bytes, answering: true)
    }

    /// Checks a line's length, ends it and queues it for writing.
    private nonisolated(nonsending) func enqueueLine(_ bytes: inout [UInt8], answering: Bool) async throws {
        guard bytes.count <= maximumFrameLength else {
            throw TransportError.frameTooLarge(
                "a message of \(bytes.count) bytes is longer than the limit of \(maximumFrameLength) bytes")
        }
        bytes.append(0x0A)
        // Every answer is counted, whoever sends it (an answer made on the loop's thread is
        // deferred anyway, but it must still be taken off the count). Asked first: with
        // answers in flight it settles the question more cheaply than the thread check.
        let othersToCome = answering && waitsForOtherAnswers()
        try await outbound.enqueue(bytes, deferred: othersToCome || isOnConnectionThread)
    }

    /// Whether an answer to a request is sent while answers to others read before it are still
    /// to come, on the event loop: it is then queued for the loop to write after its current
    /// jobs, with whatever else is ready, instead of by its sender at once. With many requests
    /// in flight this turns one `write` and one wake-up of the peer per answer into one per
    /// batch (as for answers made on the loop's thread); an answer with nothing else in flight
    /// (the sequential case) is still written by its sender, with no hop.
    private func waitsForOtherAnswers() -> Bool {
        guard case .loop = engine else { return false }
        return inbound.noteAnswer()
    }

    /// The messages read from the input descriptor, in order.
    ///
    /// Iterate it from one task. It finishes at end of input or after ``close()``, and throws
    /// ``TransportError/ioFailure(_:)`` when reading fails. Cancelling the iterating task
    /// ends the stream and stops the reader.
    ///
    /// Each element is pulled from the bounded buffer through a nonisolated function, so an
    /// iterating task on the main actor hops off and back for every message; iterate from
    /// another actor or a plain task when throughput matters.
    public func receive() -> AsyncThrowingStream<InboundMessage, any Error> {
        messages
    }

    /// Closes the transport: sends fail from now on, the inbound stream finishes, and the
    /// call returns when everything already accepted by ``send(_:)`` has been written (or
    /// writing failed). Calling it again waits the same way and does nothing else.
    public func close() async {
        beginClose()
        await waitUntilWritten()
    }

    /// Stops accepting messages and finishes the inbound stream, without waiting.
    func beginClose() {
        outbound.close()
        inbound.close()
    }

    /// Waits until the reading thread has stopped reading and released the input descriptor
    /// (closed it, when the transport owns it): after ``close()`` or at end of input.
    func waitUntilInputReleased() async {
        switch engine {
        case .loop(let connection): _ = await connection.inputReleased.wait()
        case .threads(let executor): _ = await executor.inputReleased.wait()
        }
    }

    /// Waits until the writer has written everything and closed its descriptor, or failed.
    /// Returns early when the calling task is cancelled.
    func waitUntilWritten() async {
        _ = await outbound.finished.wait()
    }
}

/// The inbound buffer's wake-up for a ``LoopConnection``, which is made after the buffer.
///
/// It holds the connection weakly: the connection holds the buffer, and the loop holds the
/// connection for as long as its descriptors are registered, which is as long as a wake-up
/// can matter.
private final class LoopWake: Sendable {
    private struct Reference {
        weak var connection: LoopConnection?
    }

    private let reference = LockedValue(Reference())

    func attach(_ connection: LoopConnection) {
        reference.withLock { $0.connection = connection }
    }

    func wakeReader() {
        reference.withLock { $0.connection }?.wakeReader()
    }
}

extension JSONRPCMessage {
    /// Whether the message answers a request (a response, an error response, or a batch of
    /// them), as the count of unanswered requests sees it.
    fileprivate var answersRequest: Bool {
        switch self {
        case .response, .errorResponse, .batch: true
        case .request, .notification: false
        }
    }
}
