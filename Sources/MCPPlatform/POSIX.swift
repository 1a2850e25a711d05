// The package's calls into the C library, behind small Swift functions.
//
// Everything platform-specific lives in this module (`MCPPlatform`, not a product): reading
// and writing descriptors, pipes, `poll`, `dup`/`dup2`, `posix_spawn`, waiting for and
// signalling a child, `SIGPIPE`, error strings, threads, and locks. The transports and the
// command line above it contain no `#if` for the C library. (`PortableFoundationModels`
// does not depend on this module: it needs one lock, which it keeps in its own Lock.swift.)
// This file holds the errors, the lock and the descriptor calls; `POSIX+Spawn.swift`,
// `POSIX+Threads.swift` and the other `POSIX+` files the rest.

internal import CMCPPlatform

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("The stdio transports need a POSIX C library (Darwin, Glibc or Musl).")
#endif

// MARK: - Errors

/// An operating-system error number, with the operation that failed.
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value of `errno`.
    package var code: Int32
    /// The call that failed, such as `read`.
    package var operation: String

    /// Captures the current thread's `errno`.
    package static func current(_ operation: String) -> Errno {
        Errno(code: errno, operation: operation)
    }

    /// `strerror` text, e.g. "No such file or directory".
    package var message: String { POSIX.message(for: code) }

    package var description: String { "\(operation): \(message) (errno \(code))" }

    package var isBrokenPipe: Bool { code == EPIPE }
}

/// Why a child process could not be started.
package struct SpawnError: Error, Sendable, CustomStringConvertible {
    package var description: String
}

// MARK: - A mutex with a condition variable

/// A `pthread` mutex and condition variable, for state shared with dedicated threads.
///
/// `Synchronization.Mutex` needs macOS 15 and cannot wait; `NSCondition` would do, but
/// this keeps the blocking threads on the same primitive everywhere. The pthread objects
/// are heap-allocated so their addresses never move (a requirement of pthreads that
/// Swift stored properties do not guarantee).
@usableFromInline
package final class ConditionLock: @unchecked Sendable {
    // Safety: the pointers are written once in `init` and freed in `deinit`; the pthread
    // functions themselves are thread-safe.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        let mutexStatus = mcp_mutex_init(mutex)
        let conditionStatus = pthread_cond_init(condition, nil)
        precondition(mutexStatus == 0 && conditionStatus == 0, "pthread initialisation failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    @usableFromInline
    package func lock() { pthread_mutex_lock(mutex) }
    @usableFromInline
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Atomically unlocks, blocks until signalled, and locks again. Call with the lock held,
    /// in a loop that re-checks its predicate (wake-ups may be spurious).
    package func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

// MARK: - System calls

/// Thin, `EINTR`-safe wrappers over the system calls the stdio transports use.
package enum POSIX {
    package static let standardInput: Int32 = 0
    package static let standardOutput: Int32 = 1
    package static let standardError: Int32 = 2
    package static let terminateSignal: Int32 = SIGTERM
    package static let killSignal: Int32 = SIGKILL

    // MARK: SIGPIPE

    private static let brokenPipeSignalIgnored: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    /// Ignores `SIGPIPE` for the whole process, once, so that writing to a closed pipe fails
    /// with `EPIPE` instead of killing the process. Children get the default back (see
    /// ``spawn(path:arguments:environment:currentDirectory:standardInput:standardOutput:standardError:)``).
    /// `strerror` text for an error number, e.g. "No such file or directory".
    package static func message(for code: Int32) -> String {
        // glibc's and Darwin's strerror return static strings for known codes; glibc 2.32+
        // keeps per-thread storage for unknown ones, so this is safe from many threads.
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    package static func ignoreBrokenPipeSignal() {
        brokenPipeSignalIgnored
    }

    // MARK: Reading and writing

    /// `read(2)`: the C library's, whichever it is (the name alone is ambiguous with `POSIX.read`).
    static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(descriptor, buffer, count)
        #elseif canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Musl.read(descriptor, buffer, count)
        #endif
    }

    /// `write(2)`: the C library's.
    static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(descriptor, bytes, count)
        #elseif canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Musl.write(descriptor, bytes, count)
        #endif
    }

    /// Reads up to `buffer.count` bytes, retrying on `EINTR`. Returns 0 at end of file.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw Errno.current("read")
        }
    }

    /// Writes all of `bytes`, continuing after partial writes and `EINTR`.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let count = systemWrite(descriptor, next, remaining)
            if count < 0 {
                if errno == EINTR { continue }
                throw Errno.current("write")
            }
            next += count
            remaining -= count
        }
    }

    /// The largest write that a pipe performs atomically and, when ``isWritable(_:)`` says
    /// so, without blocking.
    package static let atomicPipeWrite = Int(PIPE_BUF)

    /// Whether `descriptor` can take a write of ``atomicPipeWrite`` bytes right now without
    /// blocking: a `poll` with a zero timeout, which never waits. With `orErrored`, a
    /// descriptor in error (a pipe whose reader is gone) counts too: a write to it fails at
    /// once with the reason instead of blocking.
    package static func isWritable(_ descriptor: Int32, orErrored: Bool = false) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&entry, 1, 0)
            if ready >= 0 {
                guard ready == 1, entry.revents & Int16(POLLNVAL) == 0 else { return false }
                let errored = entry.revents & Int16(POLLERR | POLLHUP) != 0
                return orErrored ? (errored || entry.revents & Int16(POLLOUT) != 0) : (!errored && entry.revents & Int16(POLLOUT) != 0)
            }
            if errno != EINTR { return false }
        }
    }

    /// What ``waitForInput(_:wake:timeout:)`` found ready.
    package struct Readiness {
        /// The input descriptor can be read without blocking (data, end of file or an error).
        package var input = false
        /// The wake-up pipe has bytes.
        package var wake = false
    }

    /// Blocks until `input` (when given) or the wake-up pipe is readable.
    ///
    /// `timeout` is in milliseconds: 0 returns at once, -1 waits as long as it takes. This is
    /// how a reading thread waits for its peer and for work from other threads at the same
    /// time without setting `O_NONBLOCK` on a descriptor it does not own.
    package static func waitForInput(_ input: Int32?, wake: Int32, timeout: Int32) -> Readiness {
        var entries = [
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            pollfd(fd: input ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        let count: nfds_t = input == nil ? 1 : 2
        while true {
            let ready = poll(&entries, count, timeout)
            if ready >= 0 { break }
            // EINTR: try again. Anything else (EINVAL, ENOMEM) is reported as input ready, so
            // the read that follows surfaces the error.
            if errno != EINTR { return Readiness(input: input != nil, wake: false) }
        }
        let readable = Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL)
        return Readiness(input: input != nil && entries[1].revents & readable != 0, wake: entries[0].revents & readable != 0)
    }

    /// A pipe for waking a thread blocked in ``waitForInput(_:wake:timeout:)``: both ends
    /// close-on-exec and non-blocking (they are the transport's own, never inherited).
    package static func makeWakePipe() throws(Errno) -> (read: Int32, write: Int32) {
        // Under the spawn lock, so that on Darwin (no pipe2) no child inherits the ends.
        let made: Result<(read: Int32, write: Int32), Errno> = spawnLock.withLock {
            do throws(Errno) {
                return .success(try makePipe())
            } catch {
                return .failure(error)
            }
        }
        let ends = try made.get()
        for descriptor in [ends.read, ends.write] {
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        }
        return ends
    }

    /// Writes one byte to a wake-up pipe; a full pipe already holds a wake-up, so that is not an error.
    package static func signalWakePipe(_ descriptor: Int32) {
        var byte: UInt8 = 1
        while true {
            let count = systemWrite(descriptor, &byte, 1)
            if count >= 0 || errno != EINTR { return }
        }
    }

    /// Empties a wake-up pipe without blocking.
    package static func drainWakePipe(_ descriptor: Int32) {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &bytes) { buffer in
            while true {
                let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
                if count == buffer.count || (count < 0 && errno == EINTR) { continue }
                return
            }
        }
    }

    /// Reads `descriptor` until end of file (a blocking read: for a thread of its own).
    package static func readToEnd(_ descriptor: Int32) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = try read(descriptor, into: chunk)
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The columns of the terminal `descriptor` writes to; `nil` when it is not a terminal or
    /// gives no width.
    package static func terminalColumns(_ descriptor: Int32) -> Int? {
        let columns = mcp_terminal_columns(descriptor)
        return columns > 0 ? Int(columns) : nil
    }

    /// Writes all of `bytes`; a convenience for tests and small writes.
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(Errno) {
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            do throws(Errno) {
                try writeAll(descriptor, raw)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// The index of the first `byte` in `buffer` (`memchr`, which is vectorised).
    package static func firstIndex(of byte: UInt8, in buffer: UnsafeRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress, buffer.count > 0,
            let found = memchr(base, Int32(byte), buffer.count)
        else { return nil }
        return UnsafeRawPointer(found) - base
    }

    // MARK: Descriptors

    /// Closes a descriptor. `EINTR` is not retried: on Linux and Darwin the descriptor is
    /// released even then, and retrying could close a descriptor another thread just opened.
    package static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(descriptor)
        #elseif canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Musl.close(descriptor)
        #endif
    }

    /// A new close-on-exec descriptor, numbered 3 or higher, for the same open file.
    package static func duplicate(_ descriptor: Int32) throws(Errno) -> Int32 {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { throw Errno.current("fcntl(F_DUPFD_CLOEXEC)") }
        return copy
    }

    /// Makes `target` refer to the same open file as `descriptor` (`dup2`).
    package static func duplicate(_ descriptor: Int32, onto target: Int32) throws(Errno) {
        while dup2(descriptor, target) < 0 {
            if errno == EINTR || errno == EBUSY { continue }
            throw Errno.current("dup2")
        }
    }

    private typealias Pipe2Function = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    /// `pipe2`, where the C library has it (Linux), looked up at run time because Glibc's
    /// Swift module does not declare GNU extensions.
    private static let pipe2Function: Pipe2Function? = {
        guard let symbol = lookUpSymbol("pipe2") else { return nil }
        return unsafeBitCast(symbol, to: Pipe2Function.self)
    }()

    /// A pipe whose two descriptors are close-on-exec and numbered 3 or higher (so that a
    /// child's `dup2` onto 0, 1 or 2 always makes a fresh, inheritable descriptor).
    package static func makePipe() throws(Errno) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        if let pipe2Function {
            guard pipe2Function(&descriptors, O_CLOEXEC) == 0 else { throw Errno.current("pipe2") }
        } else {
            // Darwin has no pipe2. Between pipe() and fcntl() a fork in another thread could
            // inherit these descriptors; our own spawns are serialised by `spawnLock`.
            guard pipe(&descriptors) == 0 else { throw Errno.current("pipe") }
            _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        }
        do throws(Errno) {
            for index in 0..<2 where descriptors[index] < 3 {
                let moved = try duplicate(descriptors[index])
                close(descriptors[index])
                descriptors[index] = moved
            }
        } catch {
            close(descriptors[0])
            close(descriptors[1])
            throw error
        }
        return (descriptors[0], descriptors[1])
    }

    // MARK: Protecting standard output

    private static let protectedStandardOutput: Result<Int32, Errno> = {
        do throws(Errno) {
            let wire = try duplicate(standardOutput)
            do throws(Errno) {
                try duplicate(standardError, onto: standardOutput)
            } catch {
                // No standard error to send stray output to: send it nowhere instead.
                let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
                guard null >= 0 else {
                    close(wire)
                    throw Errno.current("open(/dev/null)")
                }
                defer { close(null) }
                try duplicate(null, onto: standardOutput)
            }
            return .success(wire)
        } catch {
            return .failure(error)
        }
    }()

    /// Moves this process's standard output out of the way of the protocol, once per process,
    /// and returns a new descriptor (owned by the caller) for the original standard output.
    ///
    /// The first call `dup`s descriptor 1 to a private close-on-exec descriptor, then points
    /// descriptor 1 at standard error (`dup2(2, 1)`), so whatever the app or a library prints
    /// with `print` or `printf` lands on stderr instead of corrupting the JSON-RPC stream.
    /// The private descriptor stays open for the life of the process; every call returns its
    /// own duplicate of it.
    package static func protectStandardOutput() throws(Errno) -> Int32 {
        let wire = try protectedStandardOutput.get()
        return try duplicate(wire)
    }

    // MARK: Dynamic symbols

    static func lookUpSymbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        return dlsym(RTLD_DEFAULT, name)
        #else
        // dlopen(NULL) is the main program and everything it loaded, including libc.
        // (RTLD_DEFAULT needs _GNU_SOURCE, which Glibc's Swift module does not define.)
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        return dlsym(handle, name)
        #endif
    }

    // MARK: Files

    /// Whether `path` names a regular file this process may execute.
    package static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    /// Whether `path` names a directory.
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Serialises our own spawns with pipe creation where `pipe2` is missing.
    package static let spawnLock = ConditionLock()
}
