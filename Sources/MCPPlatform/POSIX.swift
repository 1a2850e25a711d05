// The package's calls into the C library, behind small Swift functions.
//
// Everything platform-specific lives in this module (`MCPPlatform`, not a product): reading
// and writing descriptors, pipes, `poll`, `dup`/`dup2`, `posix_spawn`, waiting for and
// signalling a child, `SIGPIPE`, error strings, threads, and locks. The transports and the
// command line above it contain no `#if` for the C library. (`PortableFoundationModels`
// does not depend on this module: it needs one lock, which it keeps in its own Lock.swift.)

// The C target brings `pthread_attr_t`'s zero initialiser into scope.
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
        let mutexStatus = pthread_mutex_init(mutex, nil)
        let conditionStatus = pthread_cond_init(condition, nil)
        precondition(mutexStatus == 0 && conditionStatus == 0, "pthread initialisation failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
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
    /// blocking: a `poll` with a zero timeout, which never waits.
    package static func isWritable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&entry, 1, 0)
            if ready >= 0 {
                return ready == 1 && entry.revents & Int16(POLLOUT) != 0 && entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) == 0
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

    private static func lookUpSymbol(_ name: String) -> UnsafeMutableRawPointer? {
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

    // MARK: Spawning

    // posix_spawn and the wait family are unavailable on watchOS and tvOS, where no process
    // can start another: ProcessTransport is compiled out there too.
    #if !os(watchOS) && !os(tvOS)

    /// What a child's standard error is connected to.
    package enum ChildStandardError: Sendable {
        case inherit
        case null
        case descriptor(Int32)
    }

    /// `posix_spawn_file_actions_addchdir` (POSIX 2024: Darwin 26) or its `_np` forerunner
    /// (glibc 2.29, musl 1.1.24, macOS 10.15), looked up at run time: Glibc's Swift module
    /// hides the `_np` name, and the macOS 26 SDK deprecates it.
    private typealias AddChdirFunction = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32
    private static let addChdirFunction: AddChdirFunction? = {
        guard
            let symbol = lookUpSymbol("posix_spawn_file_actions_addchdir")
                ?? lookUpSymbol("posix_spawn_file_actions_addchdir_np")
        else { return nil }
        return unsafeBitCast(symbol, to: AddChdirFunction.self)
    }()

    #if canImport(Darwin)
    private typealias FileActions = posix_spawn_file_actions_t?
    private typealias SpawnAttributes = posix_spawnattr_t?
    private static func makeFileActions() -> FileActions { nil }
    private static func makeSpawnAttributes() -> SpawnAttributes { nil }
    #else
    private typealias FileActions = posix_spawn_file_actions_t
    private typealias SpawnAttributes = posix_spawnattr_t
    private static func makeFileActions() -> FileActions { posix_spawn_file_actions_t() }
    private static func makeSpawnAttributes() -> SpawnAttributes { posix_spawnattr_t() }
    #endif

    /// Starts `path` (an absolute or relative path, not looked up in `PATH`) with
    /// `posix_spawn`, its standard input and output on the given descriptors.
    ///
    /// The child gets the default disposition of `SIGPIPE` (which this process ignores) and
    /// an empty signal mask. Every other descriptor of ours is close-on-exec.
    ///
    /// - Returns: The child's process id.
    package static func spawn(
        path: String,
        arguments: [String],
        environment: [String: String],
        currentDirectory: String?,
        standardInput childInput: Int32,
        standardOutput childOutput: Int32,
        standardError childError: ChildStandardError
    ) throws(SpawnError) -> Int32 {
        var actions = makeFileActions()
        guard posix_spawn_file_actions_init(&actions) == 0 else {
            throw SpawnError(description: "posix_spawn_file_actions_init failed")
        }
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = makeSpawnAttributes()
        guard posix_spawnattr_init(&attributes) == 0 else {
            throw SpawnError(description: "posix_spawnattr_init failed")
        }
        defer { posix_spawnattr_destroy(&attributes) }

        var status = posix_spawn_file_actions_adddup2(&actions, childInput, standardInput)
        if status == 0 { status = posix_spawn_file_actions_adddup2(&actions, childOutput, standardOutput) }
        switch childError {
        case .inherit:
            break
        case .null:
            if status == 0 {
                status = posix_spawn_file_actions_addopen(&actions, standardError, "/dev/null", O_WRONLY, 0)
            }
        case .descriptor(let descriptor):
            if status == 0 { status = posix_spawn_file_actions_adddup2(&actions, descriptor, standardError) }
        }
        if status == 0, let currentDirectory {
            guard let addChdirFunction else {
                throw SpawnError(
                    description: "this C library cannot set a child's working directory "
                        + "(posix_spawn_file_actions_addchdir_np is missing; glibc 2.29 or later has it)")
            }
            status = withUnsafeMutablePointer(to: &actions) { pointer in
                addChdirFunction(UnsafeMutableRawPointer(pointer), currentDirectory)
            }
        }
        guard status == 0 else {
            throw SpawnError(description: Errno(code: status, operation: "posix_spawn_file_actions").description)
        }

        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        status = posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        if status == 0 { status = posix_spawnattr_setsigmask(&attributes, &emptyMask) }
        if status == 0 {
            status = posix_spawnattr_setflags(
                &attributes, Int16(truncatingIfNeeded: POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        }
        guard status == 0 else {
            throw SpawnError(description: Errno(code: status, operation: "posix_spawnattr").description)
        }

        let argv = CStringArray([path] + arguments)
        let envp = CStringArray(environment.map { "\($0.key)=\($0.value)" })
        defer {
            argv.deallocate()
            envp.deallocate()
        }
        var pid: pid_t = 0
        status = spawnLock.withLock {
            posix_spawn(&pid, path, &actions, &attributes, argv.pointers, envp.pointers)
        }
        guard status == 0 else {
            throw SpawnError(description: Errno(code: status, operation: "posix_spawn").message)
        }
        return pid
    }

    /// A NULL-terminated array of C strings, as `posix_spawn` takes them.
    private struct CStringArray {
        var pointers: [UnsafeMutablePointer<CChar>?]

        init(_ strings: [String]) {
            pointers = strings.map { strdup($0) }
            pointers.append(nil)
        }

        func deallocate() {
            for pointer in pointers { free(pointer) }
        }
    }

    // MARK: Child processes

    /// How a reaped child ended, decoded from a `wait` status.
    package enum ChildExit: Hashable, Sendable {
        case exited(Int32)
        case signaled(Int32)
        /// Someone else reaped the child (for example a `SIGCHLD` handler reaping all children).
        case unavailable
    }

    /// Blocks until `pid` has ended, without reaping it (`waitid` with `WNOWAIT`), so that
    /// signals can still be sent to it safely until ``reap(_:)``.
    ///
    /// - Returns: `false` when the child cannot be waited for (already reaped elsewhere).
    package static func waitUntilEnded(_ pid: Int32) -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            if errno == EINTR { continue }
            return false
        }
        return true
    }

    /// Collects an ended child's status, freeing its process table entry.
    package static func reap(_ pid: Int32) -> ChildExit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno == EINTR { continue }
            return .unavailable
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros, so decode by hand (same layout on
        // Linux and Darwin): the low 7 bits are the signal, 0 when the child exited.
        let signal = status & 0x7F
        if signal == 0 { return .exited((status >> 8) & 0xFF) }
        return .signaled(signal)
    }

    /// Sends `signal` to `pid`; errors (the child is gone) are ignored.
    package static func send(signal: Int32, to pid: Int32) {
        _ = kill(pid, signal)
    }

    #endif  // !os(watchOS) && !os(tvOS)

    // MARK: Threads

    /// The identity of a thread, for asking "am I on that thread?".
    package struct ThreadID: Equatable, Sendable {
        #if canImport(Darwin)
        // Safety: a pthread_t is an opaque handle, only compared with pthread_equal.
        nonisolated(unsafe) private let thread: pthread_t
        #else
        private let thread: pthread_t
        #endif

        /// The calling thread.
        package static var current: ThreadID { ThreadID(thread: pthread_self()) }

        package static func == (lhs: ThreadID, rhs: ThreadID) -> Bool {
            pthread_equal(lhs.thread, rhs.thread) != 0
        }
    }

    /// Starts a dedicated, detached thread for blocking work.
    ///
    /// On Darwin the name shows in debuggers and crash reports.
    ///
    /// - Throws: ``Errno`` naming `pthread_create`'s error (for example `EAGAIN` when the
    ///   process or the system is out of threads); `body` is then never run.
    package static func startThread(named name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        let start = Unmanaged.passRetained(ThreadStart(name: name, body: body))
        let context = start.toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread, &attributes,
            { context in
                #if canImport(Darwin)
                let start = Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue()
                #else
                guard let context else { return nil }
                let start = Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue()
                #endif
                start.run()
                return nil
            }, context)
        guard status == 0 else {
            // The thread never ran, so it never took the context back.
            start.release()
            throw Errno(code: status, operation: "pthread_create")
        }
    }
}

/// What a new thread runs: its name and body, passed through `pthread_create`'s context pointer.
private final class ThreadStart {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    func run() {
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #endif
        // Glibc's module map does not export pthread_setname_np (it is a GNU extension), so
        // threads stay unnamed on Linux.
        body()
    }
}
