import MCPPlatform

/// A peer that follows a script on its own thread with blocking descriptor I/O, so that what
/// it waits for never depends on Swift's pool; every wait has a deadline.
final class ScriptedPeer: Sendable {
    /// The script could not go on: what it waited for did not come, or a descriptor failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let input: Int32
    private let output: Int32
    private let pending = LockedValue<[UInt8]>([])
    /// How long each wait may take before the script gives up.
    private let deadlineMilliseconds: Int32 = 20_000

    init(reading input: Int32, writing output: Int32) {
        self.input = input
        self.output = output
    }

    /// Writes `line` and a newline.
    func send(_ line: String) throws(Failure) {
        do throws(Errno) {
            try POSIX.writeAll(output, Array(line.utf8) + [0x0A])
        } catch {
            throw Failure(description: "writing to the server failed: \(error)")
        }
    }

    /// The next line from the server, without its newline.
    func line() throws(Failure) -> String {
        while true {
            let complete: [UInt8]? = pending.withLock { buffered in
                guard let end = buffered.firstIndex(of: 0x0A) else { return nil }
                defer { buffered.removeSubrange(...end) }
                return Array(buffered[..<end])
            }
            if let complete { return String(decoding: complete, as: UTF8.self) }
            let bytes = try read(from: input, what: "a line from the server")
            pending.withLock { $0.append(contentsOf: bytes) }
        }
    }

    /// Reads `count` bytes from `descriptor` (a signal pipe: one byte per event).
    func receive(byteCount count: Int, from descriptor: Int32) throws(Failure) {
        var received = 0
        while received < count {
            received += try read(from: descriptor, what: "\(count - received) more bytes on descriptor \(descriptor)").count
        }
    }

    private func read(from descriptor: Int32, what: String) throws(Failure) -> [UInt8] {
        // No wake-up descriptor (`poll` skips a negative one): only the input, or the deadline.
        guard POSIX.waitForInput(descriptor, wake: -1, timeout: deadlineMilliseconds).input else {
            throw Failure(description: "waited \(deadlineMilliseconds) ms for \(what)")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        let count: Int
        do throws(Errno) {
            count = try POSIX.read(descriptor, into: buffer)
        } catch {
            throw Failure(description: "reading \(what) failed: \(error)")
        }
        guard count > 0 else { throw Failure(description: "end of input while waiting for \(what)") }
        return Array(buffer[..<count])
    }
}
