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
/// **Reading.** One dedicated thread waits with `poll` (no timeout) on the input and on a
/// private wake-up pipe, reads up to 64 KiB at a time, splits the bytes into lines with a
/// bounded framer and parses each line into a ``JSONRPCMessage`` on that thread. A line
/// that is not a message arrives as ``InboundMessage/invalid(_:)``: `-32700` when it is not
/// JSON, `-32600` when it is JSON but not JSON-RPC or longer than ``maximumFrameLength``.
/// At most about 4,096 messages (plus those of one read) wait for the consumer; beyond that
/// the thread stops reading until the consumer catches up, so a flooding peer is slowed
/// down by the pipe, not buffered without bound. End of input finishes the stream of
/// ``receive()``; a read error fails it with ``TransportError/ioFailure(_:)``.
///
/// **The connection's thread.** The reading thread is also a `TaskExecutor`. On systems that
/// have task executors (Linux; macOS 15, iOS 18 and later), ``MCPServer/run(on:)`` runs its
/// loop, every request's task and the server actor's work there, and ``MCPClient`` reads its
/// replies there: a request is read, handled and answered without waking another thread,
/// which is most of the cost of a stdio round trip. (``MCPClient/withConnectionThread(isolation:_:)``
/// puts a caller there too.) Work on it shares the thread with reading, so a tool that runs
/// long synchronous code delays the connection's other requests until it returns or
/// suspends; such a tool should move that work off (for example into `Task.detached`).
///
/// **Writing.** ``send(_:)`` encodes the message in the caller's task. On the connection's
/// thread, messages are queued and written after the current batch of work (or as soon as a
/// pipe-atomic write's worth is queued): many replies, one `write(2)`. Elsewhere a small
/// message is written by the sender itself when the pipe can take it at once; everything
/// else goes to one dedicated writing thread, which empties the buffer with as few `write`
/// calls as possible. Writes that could block are always left to that thread. At most
/// about 8 MiB wait to be written; beyond that senders suspend (they never block a thread)
/// until the writer has drained the buffer. Once writing fails (for example `EPIPE`: the
/// peer is gone; `SIGPIPE` is ignored process-wide) or the transport is closed, waiting and
/// later sends throw ``TransportError/closed``.
///
/// **Closing.** ``close()`` stops accepting messages, finishes the inbound stream (messages
/// already received can still be read from it), stops reading, and returns once everything
/// accepted has been written or writing has failed. Each thread closes its own descriptor
/// when it is done with it (if the transport owns it), so no descriptor is closed while a
/// thread may still use it.
///
/// The transport never sets `O_NONBLOCK` on the descriptors it is given, and never polls
/// with a timeout: every wait is for an event.
public final class FileDescriptorTransport: Transport {
    /// The default limit on the size of one message, in bytes: 16 MiB.
    public static let defaultMaximumFrameLength = LineFramer.defaultMaximumFrameLength

    /// The largest message accepted in either direction, in bytes, not counting the newline.
    public let maximumFrameLength: Int

    private let inbound: InboundBuffer
    private let outbound: OutboundBuffer
    private let messages: AsyncThrowingStream<InboundMessage, any Error>
    /// The reading thread, which also runs tasks that prefer it.
    let executor: ConnectionExecutor

    /// Starts reading from one descriptor and writing to another (which may be the same one).
    ///
    /// - Parameters:
    ///   - input: The descriptor to read messages from. Left in blocking mode.
    ///   - output: The descriptor to write messages to. Left in blocking mode.
    ///   - closesDescriptors: Whether the transport closes the descriptors when it is done
    ///     with them (a descriptor passed for both roles is closed once).
    ///   - maximumFrameLength: The largest message accepted, in bytes; longer inbound lines
    ///     are reported as invalid and skipped, longer outbound messages are refused.
    /// - Throws: ``TransportError/ioFailure(_:)`` when the process is out of descriptors for
    ///   the reading thread's wake-up pipe.
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

    /// The designated initialiser, with the buffer bounds tests may shrink.
    init(
        readingFrom input: Int32,
        writingTo output: Int32,
        closesInput: Bool,
        closesOutput: Bool,
        maximumFrameLength: Int,
        inboundCapacity: Int = 4096,
        outboundByteLimit: Int = 8 * 1024 * 1024
    ) throws(TransportError) {
        POSIX.ignoreBrokenPipeSignal()
        self.maximumFrameLength = maximumFrameLength
        let executor: ConnectionExecutor
        do {
            executor = try ConnectionExecutor()
        } catch {
            throw TransportError.ioFailure("cannot create the reading thread's wake-up pipe: \(error)")
        }
        self.executor = executor
        let inbound = InboundBuffer(capacity: inboundCapacity) { [weak executor] in executor?.wake() }
        let outbound = OutboundBuffer(byteLimit: outboundByteLimit, descriptor: output)
        self.inbound = inbound
        self.outbound = outbound
        // The stream pulls from the bounded buffer, so each element taken is a signal that
        // the reader may go on: this is what gives the reading thread back-pressure.
        messages = AsyncThrowingStream(unfolding: { try await inbound.next() })

        let inputOwner: DescriptorOwner?
        let outputOwner: DescriptorOwner?
        if input == output, closesInput || closesOutput {
            // One descriptor in both roles: closed once, when both threads are done with it.
            let shared = DescriptorOwner(input, users: 2)
            (inputOwner, outputOwner) = (shared, shared)
        } else {
            inputOwner = closesInput ? DescriptorOwner(input, users: 1) : nil
            outputOwner = closesOutput ? DescriptorOwner(output, users: 1) : nil
        }
        let limit = maximumFrameLength
        POSIX.startThread(named: "MCP reader (fd \(input))") {
            executor.run(reading: input, owner: inputOwner, into: inbound, flushing: outbound, maximumFrameLength: limit)
        }
        POSIX.startThread(named: "MCP writer (fd \(output))") {
            outbound.write(to: output, owner: outputOwner)
        }
    }

    /// Dropping the last reference closes the transport as ``close()`` does, without waiting:
    /// what was sent is still written, then the descriptors are closed by their threads.
    deinit {
        beginClose()
        executor.retire()
    }

    /// Sends one message: compact JSON and a newline, queued for the writing thread.
    ///
    /// Returns once the message is queued, which is at once unless about 8 MiB are already
    /// waiting to be written; then the caller suspends until there is room. Messages sent
    /// one after another by one task go out in that order.
    ///
    /// - Throws: ``TransportError/closed`` after ``close()`` or once writing has failed;
    ///   ``TransportError/frameTooLarge(_:)`` for a message longer than
    ///   ``maximumFrameLength``; `JSONWriteError` for a message holding a non-finite number;
    ///   `CancellationError` when the task is cancelled while waiting for room.
    public func send(_ message: JSONRPCMessage) async throws {
        var bytes = try message.encoded()
        guard bytes.count <= maximumFrameLength else {
            throw TransportError.frameTooLarge(
                "a message of \(bytes.count) bytes is longer than the limit of \(maximumFrameLength) bytes")
        }
        bytes.append(0x0A)
        try await outbound.enqueue(bytes, deferred: executor.isCurrentThread)
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
        _ = await executor.inputReleased.wait()
    }

    /// Waits until the writer has written everything and closed its descriptor, or failed.
    /// Returns early when the calling task is cancelled.
    func waitUntilWritten() async {
        _ = await outbound.finished.wait()
    }
}

// MARK: - Inbound buffer

/// The bounded queue between the reading thread and the task iterating the inbound stream.
///
/// The reading thread never blocks here (it also runs tasks): once `capacity` messages are
/// waiting it stops reading (``admitsMore()``), and the consumer wakes it through
/// `wakeReader` when the queue has drained to half of that, or when the stream stops.
final class InboundBuffer: @unchecked Sendable {
    // Safety: every stored property below is read and written with `lock` held.
    private let lock = Lock()
    private let wakeReader: @Sendable () -> Void
    private var items: [InboundMessage] = []
    private var head = 0
    private var end: End?
    private var consumer: CheckedContinuation<InboundMessage?, any Error>?
    private var stopped = false
    private var readerWaiting = false
    private let capacity: Int

    private enum End {
        case finished
        case failed(any Error)
    }

    init(capacity: Int, wakeReader: @escaping @Sendable () -> Void) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.wakeReader = wakeReader
    }

    private var countLocked: Int { items.count - head }

    /// Whether the consumer is gone or the transport closed: the reader should stop.
    var isStopped: Bool { lock.withLock { stopped } }

    /// The number of messages waiting for the consumer.
    var bufferedCount: Int { lock.withLock { countLocked } }

    /// Called on the reading thread before it reads: whether there is room for more messages.
    /// When there is not, the consumer wakes the reader once there is.
    func admitsMore() -> Bool {
        lock.withLock {
            if countLocked >= capacity && !stopped {
                readerWaiting = true
                return false
            }
            return true
        }
    }

    /// Called on the reading thread: hands over `batch` (and empties it). Returns `false`
    /// when reading should stop.
    func push(_ batch: inout [InboundMessage]) -> Bool {
        lock.lock()
        if stopped || end != nil {
            lock.unlock()
            return false
        }
        let waiter = consumer
        consumer = nil
        let first = waiter == nil ? 0 : 1
        if first < batch.count { items.append(contentsOf: batch[first...]) }
        lock.unlock()
        waiter?.resume(returning: batch[0])
        batch.removeAll(keepingCapacity: true)
        return true
    }

    /// Called on the reading thread at end of input (`nil`) or on a read error.
    func finish(throwing error: (any Error)?) {
        lock.lock()
        guard end == nil else {
            lock.unlock()
            return
        }
        end = error.map { .failed($0) } ?? .finished
        let waiter = consumer
        consumer = nil
        let outcome = waiter == nil ? nil : takeLocked()
        lock.unlock()
        if let waiter, let outcome { waiter.resume(with: outcome) }
    }

    /// Stops the reader and finishes the stream after what is already buffered.
    func close() {
        lock.lock()
        let waiter = stopLocked()
        lock.unlock()
        waiter?.resume(returning: nil)
    }

    /// Called from the inbound stream: the next message, `nil` at the end.
    nonisolated(nonsending) func next() async throws -> InboundMessage? {
        lock.lock()
        if let outcome = takeLocked() {
            lock.unlock()
            return try outcome.get()
        }
        lock.unlock()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<InboundMessage?, any Error>) in
                lock.lock()
                if let outcome = takeLocked() {
                    lock.unlock()
                    continuation.resume(with: outcome)
                } else if Task.isCancelled {
                    _ = stopLocked()
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    consumer = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let waiter = stopLocked()
            lock.unlock()
            waiter?.resume(returning: nil)
        }
    }

    /// A buffered message, the end of the stream, or `nil` when the consumer must wait.
    private func takeLocked() -> Result<InboundMessage?, any Error>? {
        if head < items.count {
            let item = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= items.count {
                items.removeSubrange(0..<head)
                head = 0
            }
            if readerWaiting, countLocked <= capacity / 2 {
                readerWaiting = false
                wakeReader()
            }
            return .success(item)
        }
        switch end {
        case .failed(let error):
            end = .finished
            return .failure(error)
        case .finished:
            return .success(nil)
        case nil:
            return nil
        }
    }

    /// Marks the stream ended and wakes the reader; returns a waiting consumer to resume with `nil`.
    private func stopLocked() -> CheckedContinuation<InboundMessage?, any Error>? {
        stopped = true
        if end == nil { end = .finished }
        wakeReader()
        let waiter = consumer
        consumer = nil
        return waiter
    }
}

// MARK: - Outbound buffer

/// The bounded byte buffer between senders and the writing thread.
///
/// Senders append encoded lines; the writer swaps the whole buffer out and writes it with
/// one `write(2)` (more only for partial writes). When the buffer holds `byteLimit` bytes,
/// senders wait in line (FIFO) as continuations; the writer admits them as it drains.
final class OutboundBuffer: @unchecked Sendable {
    // Safety: every stored property below is read and written with `lock` held; `finished`
    // is itself thread-safe.
    private let lock = ConditionLock()
    private var pending: [UInt8] = []
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0
    private var state: State = .open
    private var writerIdle = false
    /// A sender or the connection thread is writing queued bytes itself (see ``flush()``);
    /// the writing thread waits, so bytes never interleave.
    private var senderWriting = false
    private let byteLimit: Int
    private let descriptor: Int32

    /// Fulfilled when the writing thread has ended and released its descriptor.
    let finished = OneShot<Void>()

    private struct Waiter {
        var id: UInt64
        var bytes: [UInt8]
        var continuation: CheckedContinuation<Void, any Error>
    }

    private enum State {
        case open
        case closing
        case failed(TransportError)
    }

    init(byteLimit: Int, descriptor: Int32) {
        self.byteLimit = byteLimit
        self.descriptor = descriptor
    }

    /// Queues `bytes` for writing, suspending while the buffer is full.
    ///
    /// When nothing is queued and the writing thread is idle, a small message is written
    /// by the sender itself: a pipe that `poll` reports writable takes up to `PIPE_BUF`
    /// bytes without blocking, and skipping the hand-off to the writing thread saves a
    /// thread wake-up per message (most of the cost of a request/response round trip).
    nonisolated(nonsending) func enqueue(_ bytes: [UInt8], deferred: Bool = false) async throws {
        lock.lock()
        if let refusal = refusalLocked() {
            lock.unlock()
            throw refusal
        }
        if deferred, waiters.isEmpty, pending.isEmpty || pending.count + bytes.count <= byteLimit {
            // On the connection thread: written by `flush()` once the batch of jobs is done,
            // together with the other replies of the batch, or as soon as a pipe's atomic
            // write is full, so that the peer can start on those while we go on.
            pending.append(contentsOf: bytes)
            let full = pending.count >= POSIX.atomicPipeWrite
            lock.unlock()
            if full { flush() }
            return
        }
        if writerIdle, !senderWriting, pending.isEmpty, waiters.isEmpty, bytes.count <= POSIX.atomicPipeWrite {
            // A small message with nothing before it: this sender writes it (see `flush()`).
            pending = bytes
            lock.unlock()
            if let failure = flush() { throw failure }
            return
        }
        if appendIfRoomLocked(bytes) {
            lock.unlock()
            return
        }
        let id = nextWaiterID
        nextWaiterID += 1
        lock.unlock()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if let refusal = refusalLocked() {
                    lock.unlock()
                    continuation.resume(throwing: refusal)
                } else if appendIfRoomLocked(bytes) {
                    lock.unlock()
                    continuation.resume()
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            let index = waiters.firstIndex { $0.id == id }
            let waiter = index.map { waiters.remove(at: $0) }
            lock.unlock()
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Writes what is queued on the calling thread, in pieces of at most
    /// ``POSIX/atomicPipeWrite`` bytes while `poll` says the descriptor takes them without
    /// blocking; what the pipe does not take goes to the writing thread. Messages queued
    /// meanwhile are written too, so a busy connection wakes no thread at all. Does nothing
    /// while the writing thread or another sender is writing (they take these bytes next).
    ///
    /// Called by a sender for its own small message, and by the connection thread after each
    /// batch of jobs. Neither may block in `write`: the connection thread also reads, and a
    /// peer that is itself blocked writing to us would never drain the pipe.
    ///
    /// - Returns: The error that ended writing, if a write failed (the buffer has failed too).
    @discardableResult
    func flush() -> TransportError? {
        lock.lock()
        guard !pending.isEmpty, writerIdle, !senderWriting else {
            lock.unlock()
            return nil
        }
        senderWriting = true
        var chunk: [UInt8] = []
        var failure: Errno?
        repeat {
            swap(&pending, &chunk)
            lock.unlock()
            let written = Self.writeWithoutBlocking(chunk, to: descriptor, failure: &failure)
            lock.lock()
            if failure == nil, written < chunk.count {
                // What the pipe did not take goes first, before anything queued meanwhile.
                pending.insert(contentsOf: chunk[written...], at: 0)
                break
            }
            chunk.removeAll(keepingCapacity: true)
        } while failure == nil && !pending.isEmpty
        senderWriting = false
        let admitted = admitWaitersLocked()
        // The writing thread takes over whatever is still queued (or finishes closing). When
        // nothing is, it would only wake to wait again: a wasted thread switch per message.
        if !pending.isEmpty || !isOpenLocked() { lock.signal() }
        lock.unlock()
        for continuation in admitted { continuation.resume() }
        guard let failure else { return nil }
        let error = closedError(after: failure)
        fail(error)
        return error
    }

    /// Writes `bytes` in pieces of at most ``POSIX/atomicPipeWrite`` while the descriptor
    /// can take them without blocking; returns how many bytes were written.
    private static func writeWithoutBlocking(_ bytes: [UInt8], to descriptor: Int32, failure: inout Errno?) -> Int {
        var written = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count, POSIX.isWritable(descriptor) {
                let piece = min(POSIX.atomicPipeWrite, buffer.count - written)
                do throws(Errno) {
                    try POSIX.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: buffer[written..<(written + piece)]))
                } catch {
                    failure = error
                    return
                }
                written += piece
            }
        }
        return written
    }

    /// The error that closes the buffer after a failed write.
    private func closedError(after error: any Error) -> TransportError {
        (error as? Errno)?.isBrokenPipe == true
            ? TransportError.closed("the peer closed the connection (broken pipe)")
            : TransportError.closed("writing to descriptor \(descriptor) failed: \(error)")
    }

    /// Lets waiting senders into the buffer, in order, while they fit; returns them to resume.
    private func admitWaitersLocked() -> [CheckedContinuation<Void, any Error>] {
        var admitted: [CheckedContinuation<Void, any Error>] = []
        while let waiter = waiters.first, pending.isEmpty || pending.count + waiter.bytes.count <= byteLimit {
            waiters.removeFirst()
            pending.append(contentsOf: waiter.bytes)
            admitted.append(waiter.continuation)
        }
        return admitted
    }

    /// Stops accepting bytes; what is buffered is still written. Waiting senders fail.
    func close() {
        lock.lock()
        guard case .open = state else {
            lock.unlock()
            return
        }
        state = .closing
        let refused = waiters
        waiters = []
        lock.signal()
        lock.unlock()
        for waiter in refused { waiter.continuation.resume(throwing: TransportError.closed) }
    }

    private func isOpenLocked() -> Bool {
        if case .open = state { return true }
        return false
    }

    private func refusalLocked() -> TransportError? {
        switch state {
        case .open: nil
        case .closing: TransportError.closed
        case .failed(let error): error
        }
    }

    private func appendIfRoomLocked(_ bytes: [UInt8]) -> Bool {
        guard waiters.isEmpty, pending.isEmpty || pending.count + bytes.count <= byteLimit else { return false }
        pending.append(contentsOf: bytes)
        // A sender writing inline picks these bytes up, or signals the writer when it is done.
        if writerIdle && !senderWriting { lock.signal() }
        return true
    }

    /// The writing thread's loop: runs until closed and drained, or until a write fails.
    func write(to descriptor: Int32, owner: DescriptorOwner?) {
        var chunk: [UInt8] = []
        lock.lock()
        while true {
            while pending.isEmpty && isOpenLocked() || senderWriting {
                writerIdle = true
                lock.wait()
                writerIdle = false
            }
            if pending.isEmpty { break }
            swap(&pending, &chunk)
            // Let waiting senders into the emptied buffer.
            let admitted = admitWaitersLocked()
            lock.unlock()
            for continuation in admitted { continuation.resume() }
            do {
                try chunk.withUnsafeBytes { try POSIX.writeAll(descriptor, $0) }
            } catch {
                fail(closedError(after: error))
                lock.lock()
                break
            }
            if chunk.capacity > 2 * byteLimit {
                chunk = []
            } else {
                chunk.removeAll(keepingCapacity: true)
            }
            lock.lock()
        }
        lock.unlock()
        owner?.release()
        finished.fulfill(())
    }

    private func fail(_ error: TransportError) {
        lock.lock()
        state = .failed(error)
        pending = []
        let refused = waiters
        waiters = []
        lock.unlock()
        for waiter in refused { waiter.continuation.resume(throwing: error) }
    }
}

// MARK: - Small synchronisation helpers

/// Closes a descriptor when the last of its users (the reader, the writer) is done with it.
final class DescriptorOwner: @unchecked Sendable {
    // Safety: `users` is read and written with `lock` held.
    private let lock = ConditionLock()
    private var users: Int
    let descriptor: Int32

    init(_ descriptor: Int32, users: Int) {
        self.descriptor = descriptor
        self.users = users
    }

    func release() {
        let last = lock.withLock {
            users -= 1
            return users == 0
        }
        if last { POSIX.close(descriptor) }
    }
}

/// A value set once, which any number of tasks can wait for.
final class OneShot<Value: Sendable>: @unchecked Sendable {
    // Safety: every stored property below is read and written with `lock` held.
    private let lock = ConditionLock()
    private var value: Value?
    private var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
    private var nextID: UInt64 = 0

    /// The value, if it has been set.
    var current: Value? { lock.withLock { value } }

    /// Sets the value and wakes every waiter; later calls do nothing.
    func fulfill(_ newValue: Value) {
        lock.lock()
        guard value == nil else {
            lock.unlock()
            return
        }
        value = newValue
        let woken = waiters.values
        waiters = [:]
        lock.unlock()
        for waiter in woken { waiter.resume(returning: newValue) }
    }

    /// Waits for the value; returns `nil` if the calling task is cancelled first.
    func wait() async -> Value? {
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                lock.lock()
                if let value {
                    lock.unlock()
                    continuation.resume(returning: value)
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    waiters[id] = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            let waiter = lock.withLock { waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
