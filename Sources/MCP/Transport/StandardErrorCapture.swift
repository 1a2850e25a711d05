internal import MCPPlatform

// Processes can be started on macOS, Mac Catalyst and Linux only (MCP_CAN_SPAWN, Package.swift).
#if MCP_CAN_SPAWN

/// Reads a child's standard error, keeping the last bytes.
///
/// On the process's ``MCPPlatform/EventLoop`` when transports use it (the default on Linux; no thread per child), else
/// on a dedicated thread. Forwarding (to this process's standard error) never blocks the
/// loop: pieces are written while the descriptor takes them at once, and what it cannot take
/// then is not forwarded (it is still captured) — a child is never held up because this
/// process's own standard error is backed up.
final class StandardErrorCapture: Sendable {
    /// The last bytes read (up to twice the limit, trimmed to it when it grows beyond).
    private let tail = LockedValue<[UInt8]>([])
    private let limit: Int
    /// Fulfilled at end of file (or a read error) on the child's standard error.
    let ended = OneShot<Void>()

    /// Starts reading `descriptor` (closed when reading ends), keeping the last `limit` bytes
    /// and, with `forward`, writing everything read to that descriptor too.
    ///
    /// - Throws: ``MCPPlatform/Errno`` when the thread cannot be started (only without the
    ///   event loop); the descriptor is then left open.
    init(reading descriptor: Int32, keepingLast limit: Int, forwardingTo forward: Int32?) throws(Errno) {
        self.limit = limit
        if let loop = FileDescriptorTransport.defaultLoop {
            let reader = LoopReader(capture: self, descriptor: descriptor, forward: forward)
            do throws(Errno) {
                let registration = try loop.register(descriptor, interest: .readable, handler: reader)
                reader.state.withLock { $0.registration = registration }
                return
            } catch {
                // Not pollable: read on a thread as below.
            }
        }
        try POSIX.startThread(named: "MCP child stderr (fd \(descriptor))") { [self] in
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
            defer {
                chunk.deallocate()
                POSIX.close(descriptor)
                ended.fulfill(())
            }
            var forwarding = forward
            while let count = try? POSIX.read(descriptor, into: chunk), count > 0 {
                let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count])
                if let target = forwarding {
                    // A failed forward (our standard error is closed) stops forwarding, not capturing.
                    do throws(Errno) {
                        try POSIX.writeAll(target, bytes)
                    } catch {
                        forwarding = nil
                    }
                }
                keep(bytes)
            }
        }
    }

    /// Adds what was read to the tail.
    fileprivate func keep(_ bytes: UnsafeRawBufferPointer) {
        tail.withLock { tail in
            tail.append(contentsOf: bytes)
            if tail.count > 2 * limit { tail.removeFirst(tail.count - limit) }
        }
    }

    /// The captured bytes as text.
    var text: String {
        let bytes = tail.withLock { $0.suffix(limit) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The event loop's handler for a child's standard error.
private final class LoopReader: EventLoopHandler {
    struct State {
        var registration: EventLoopRegistration?
        var forward: Int32?
        var ended = false
    }

    let capture: StandardErrorCapture
    let descriptor: Int32
    let state: LockedValue<State>

    init(capture: StandardErrorCapture, descriptor: Int32, forward: Int32?) {
        self.capture = capture
        self.descriptor = descriptor
        state = LockedValue(State(forward: forward))
    }

    func ready(_ readiness: EventLoop.Readiness) {
        guard let registration = state.withLock({ $0.ended ? nil : $0.registration }) else { return }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = (try? chunk.withUnsafeMutableBytes { try POSIX.read(descriptor, into: $0) }) ?? 0
        guard count > 0 else {
            state.withLock { $0.ended = true }
            registration.cancel()
            return
        }
        chunk.withUnsafeBytes { buffer in
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if let target = state.withLock({ $0.forward }), !forwardWithoutBlocking(bytes, to: target) {
                state.withLock { $0.forward = nil }
            }
            capture.keep(bytes)
        }
    }

    /// Writes `bytes` in pieces while `target` takes them at once; `false` when a write failed.
    private func forwardWithoutBlocking(_ bytes: UnsafeRawBufferPointer, to target: Int32) -> Bool {
        var written = 0
        while written < bytes.count, POSIX.isWritable(target) {
            let piece = min(POSIX.atomicPipeWrite, bytes.count - written)
            do throws(Errno) {
                try POSIX.writeAll(target, UnsafeRawBufferPointer(rebasing: bytes[written..<(written + piece)]))
            } catch {
                return false
            }
            written += piece
        }
        return true
    }

    func deregistered() {
        POSIX.close(descriptor)
        capture.ended.fulfill(())
    }
}

#endif  // MCP_CAN_SPAWN
