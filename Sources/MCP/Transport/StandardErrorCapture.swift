internal import MCPPlatform

// Processes cannot be started on watchOS and tvOS (no posix_spawn).
#if !os(watchOS) && !os(tvOS)

/// Reads a child's standard error on a dedicated thread, keeping the last bytes.
final class StandardErrorCapture: Sendable {
    /// The last bytes read (up to twice the limit, trimmed to it when it grows beyond).
    private let tail = LockedValue<[UInt8]>([])
    private let limit: Int
    /// Fulfilled at end of file (or a read error) on the child's standard error.
    let ended = OneShot<Void>()

    /// Starts reading `descriptor` (which the thread closes at its end), keeping the last
    /// `limit` bytes and, with `forward`, writing everything read to that descriptor too
    /// (this process's standard error).
    ///
    /// - Throws: ``Errno`` when the thread cannot be started; the descriptor is then left open.
    init(reading descriptor: Int32, keepingLast limit: Int, forwardingTo forward: Int32?) throws(Errno) {
        self.limit = limit
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
                tail.withLock { tail in
                    tail.append(contentsOf: bytes)
                    if tail.count > 2 * limit { tail.removeFirst(tail.count - limit) }
                }
            }
        }
    }

    /// The captured bytes as text.
    var text: String {
        let bytes = tail.withLock { $0.suffix(limit) }
        return String(decoding: bytes, as: UTF8.self)
    }

}

#endif  // !os(watchOS) && !os(tvOS)
