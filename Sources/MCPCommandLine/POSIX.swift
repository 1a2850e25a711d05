// MCPCommandLine's calls into the C library for standard input and output and for
// threads; FoundationEssentials has neither `FileHandle` nor `Thread`.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("MCPCommandLine needs a POSIX C library (Darwin, Glibc or Musl).")
#endif

/// Reading, writing and threads, directly on file descriptors and pthreads.
enum POSIX {
    /// A failed system call: its name and `errno`.
    struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The call that failed, such as `read`.
        let operation: String
        /// The value of `errno`.
        let code: Int32

        /// `strerror` text, such as `Bad file descriptor`.
        var message: String { POSIX.message(for: code) }

        /// `operation: strerror text (errno N)`.
        var description: String { "\(operation): \(message) (errno \(code))" }
    }

    /// The text `strerror` gives for `code`.
    static func message(for code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// Writes all of `bytes` to `descriptor`, retrying after interrupts and short writes.
    ///
    /// - Throws: ``Failure`` when `write` fails, for example with `EPIPE` once a pipe's
    ///   reader has gone.
    static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) throws(Failure) {
        let failure: Failure? = bytes.withContiguousStorageIfAvailable { buffer in
            writeAll(buffer, to: descriptor)
        } ?? Array(bytes).withUnsafeBufferPointer { buffer in
            writeAll(buffer, to: descriptor)
        }
        if let failure { throw failure }
    }

    private static func writeAll(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Failure? {
        guard var next = buffer.baseAddress else { return nil }
        var remaining = buffer.count
        while remaining > 0 {
            let written = write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return Failure(operation: "write", code: errno)
            }
            next += written
            remaining -= written
        }
        return nil
    }

    /// Reads `descriptor` to its end.
    ///
    /// - Throws: ``Failure`` when `read` fails.
    static func readToEnd(_ descriptor: Int32) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunkSize = 64 * 1024
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunkSize))
            let count = bytes.withUnsafeMutableBufferPointer { buffer in
                read(descriptor, buffer.baseAddress.map { $0 + start }, chunkSize)
            }
            if count < 0 {
                let code = errno
                bytes.removeSubrange(start...)
                if code == EINTR { continue }
                throw Failure(operation: "read", code: code)
            }
            bytes.removeSubrange((start + count)...)
            if count == 0 { return bytes }
        }
    }

    /// Runs `body` on a new detached thread, outside Swift's concurrency pool.
    static func startThread(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, &attributes, { context in
            #if !canImport(Darwin)
            guard let context else { return nil }
            #endif
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        // A process that cannot start one more thread cannot go on usefully.
        precondition(status == 0, "pthread_create failed: \(message(for: status))")
    }
}

/// What a new thread runs, passed through `pthread_create`'s context pointer.
private final class ThreadBody {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
