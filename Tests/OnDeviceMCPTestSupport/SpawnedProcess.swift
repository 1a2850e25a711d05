import Foundation
import MCPPlatform
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process with pipes on its standard input, output and error, whose exit status and
/// peak resident memory (`wait4`'s `ru_maxrss`) are collected when it ends.
///
/// The command runs under the `PeakRSS` trampoline (`Tests/PeakRSS`), which measures it:
/// `ru_maxrss` of a child this (large) process spawns directly would include this process's
/// own peak. The trampoline's few MiB count against the command, an over-estimate. Both run in
/// a process group of their own, which ``kill(_:)`` signals.
///
/// Not API: the process runner of the tests that measure a real `ondevice-mcp` (its memory,
/// its exit status, what it prints). Every blocking call (`read`, `write`, `wait4`) runs on a
/// thread of its own, never on a task.
public final class SpawnedProcess: @unchecked Sendable {
    /// What happens to the child's standard output.
    public enum OutputHandling: Sendable {
        /// Read at once, keeping the first `byteCount` bytes (and counting all of them).
        case collect(keepingFirst: Int)
        /// Left in the pipe until ``outputLines()`` is called: a child that writes a lot
        /// blocks until then.
        case lines
    }

    /// How the child ended.
    public enum Status: Hashable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        public var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// What the child did, once it has ended.
    public struct Outcome: Sendable {
        public let status: Status
        /// The first bytes of standard output (with ``OutputHandling/collect(keepingFirst:)``).
        public let standardOutput: [UInt8]
        /// How many bytes the child wrote to standard output in all.
        public let standardOutputByteCount: Int
        /// The last bytes of standard error, as text.
        public let standardErrorTail: String
        /// How many bytes the child wrote to standard error in all.
        public let standardErrorByteCount: Int
        /// The command's peak resident set size, in bytes; `nil` when it could not be measured
        /// (the trampoline failed).
        public let peakResidentBytes: Int?

        /// Standard output as text.
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// The peak resident set size in MiB, for messages.
        public var peakResidentMiB: Double { Double(peakResidentBytes ?? 0) / 1_048_576 }
    }

    /// The process id of the trampoline, which is also the process group of the command.
    public let processIdentifier: Int32
    public let command: String
    /// The write end of the child's standard input; see ``closeStandardInput()``.
    public let standardInput: Int32
    private let outputDescriptor: Int32
    private let outputHandling: OutputHandling
    private let exit = OneShot<(status: Status, peakResidentBytes: Int?)>()
    private let resultFile: String
    private let outputCollector: Collector?
    private let errorCollector: Collector
    // `lock` guards `inputClosed` and `linesStarted`.
    private let lock = NSLock()
    private var inputClosed = false
    private var linesStarted = false

    private init(
        pid: pid_t, command: String, resultFile: String, input: Int32, output: Int32, error: Int32,
        outputHandling: OutputHandling, standardErrorTail: Int
    ) {
        self.resultFile = resultFile
        processIdentifier = pid
        self.command = command
        standardInput = input
        outputDescriptor = output
        self.outputHandling = outputHandling
        if case .collect(let limit) = outputHandling {
            outputCollector = Collector(descriptor: output, keepingFirst: limit)
        } else {
            outputCollector = nil
        }
        errorCollector = Collector(descriptor: error, keepingLast: standardErrorTail)
    }

    /// Starts `path` with `arguments`.
    ///
    /// The child gets the default `SIGPIPE` disposition and sees only its three pipes.
    public static func launch(
        _ path: String, arguments: [String], environment: [String: String]? = nil,
        standardOutput: OutputHandling = .collect(keepingFirst: 64 << 20), standardErrorTail: Int = 64 * 1024
    ) throws -> SpawnedProcess {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var error: [Int32] = [-1, -1]
        guard makePipe(&input), makePipe(&output), makePipe(&error) else {
            throw SpawnFailure(command: path, detail: "pipe2: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, error[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let trampoline = try BuiltProducts.peakRSS()
        let resultFile = FileManager.default.temporaryDirectory.appendingPathComponent("peak-rss-\(UUID().uuidString)").path
        let argv = ([trampoline, resultFile, path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let environmentList = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in environmentList { free(entry) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, trampoline, &actions, &attributes, argv, environmentList)
        close(input[0])
        close(output[1])
        close(error[1])
        guard result == 0 else {
            close(input[1])
            close(output[0])
            close(error[0])
            throw SpawnFailure(command: path, detail: String(cString: strerror(result)))
        }
        let process = SpawnedProcess(
            pid: pid, command: ([path] + arguments).joined(separator: " "), resultFile: resultFile, input: input[1], output: output[0],
            error: error[0], outputHandling: standardOutput, standardErrorTail: standardErrorTail)
        process.start()
        return process
    }

    private func start() {
        outputCollector?.start()
        errorCollector.start()
        let pid = processIdentifier
        let exit = exit
        let resultFile = resultFile
        Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            // The trampoline wrote the command's wait status and peak; without the file (the
            // trampoline failed or was killed), its own status stands and the peak is unknown.
            var peak: Int?
            if let line = try? String(contentsOfFile: resultFile, encoding: .utf8) {
                let fields = line.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
                if fields.count == 2 {
                    status = Int32(truncatingIfNeeded: fields[0])
                    // ru_maxrss is in KiB on Linux (bytes on Darwin).
                    #if os(Linux)
                    peak = fields[1] * 1024
                    #else
                    peak = fields[1]
                    #endif
                }
                unlink(resultFile)
            }
            let signal = status & 0x7f
            let ended: Status = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
            exit.fulfill((ended, peak))
        }.start()
    }

    /// Writes all of `bytes` to the child's standard input, blocking while the pipe is full;
    /// returns false when the child no longer reads it. Call it from a thread (``onThread(_:)``).
    @discardableResult
    public func writeBlocking(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var base = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let written = posixWrite(standardInput, base, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            remaining -= written
            base += written
        }
        return true
    }

    /// Writes `byte` `count` times to standard input, one MiB at a time, on a thread; returns
    /// false when the child stopped reading first.
    public func writeRepeated(_ byte: UInt8, count: Int) async -> Bool {
        await onThread {
            let chunk = [UInt8](repeating: byte, count: min(count, 1 << 20))
            var remaining = count
            while remaining > 0 {
                let size = min(remaining, chunk.count)
                let written = chunk.withUnsafeBytes { self.writeBlocking(UnsafeRawBufferPointer(rebasing: $0[0..<size])) }
                guard written else { return false }
                remaining -= size
            }
            return true
        }
    }

    /// Writes `text` to standard input, on a thread.
    @discardableResult
    public func write(_ text: String) async -> Bool {
        await onThread { Array(text.utf8).withUnsafeBytes { self.writeBlocking($0) } }
    }

    /// Closes the child's standard input: its end of input.
    public func closeStandardInput() {
        lock.lock()
        defer { lock.unlock() }
        guard !inputClosed else { return }
        inputClosed = true
        close(standardInput)
    }

    /// The child's standard output, a line at a time (without newlines), until it ends.
    ///
    /// Only with ``OutputHandling/lines``; the first call starts reading.
    public func outputLines() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        lock.lock()
        let startable = !linesStarted
        linesStarted = true
        lock.unlock()
        guard case .lines = outputHandling, startable else {
            continuation.finish()
            return stream
        }
        let descriptor = outputDescriptor
        Thread {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                var start = 0
                for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                    pending.append(contentsOf: chunk[start..<index])
                    continuation.yield(pending)
                    pending.removeAll(keepingCapacity: true)
                    start = index + 1
                }
                pending.append(contentsOf: chunk[start..<count])
            }
            if !pending.isEmpty { continuation.yield(pending) }
            close(descriptor)
            continuation.finish()
        }.start()
        return stream
    }

    /// Kills the child with `SIGKILL` (if it has not been reaped yet).
    public func kill() {
        kill(SIGKILL)
    }

    /// Whether standard output was never handed to ``outputLines()``; from now on it will not be.
    private func claimUnreadOutput() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let unread = !linesStarted
        linesStarted = true
        return unread
    }

    /// Sends `signal` to the command and its trampoline (their process group), if they have
    /// not been reaped yet.
    public func kill(_ signal: Int32) {
        guard exit.current == nil else { return }
        _ = posixKill(-processIdentifier, signal)
    }

    /// Waits for the child to end and for its output and error to be read to the end.
    ///
    /// Closes the child's standard input first when `closingInput` is true.
    ///
    /// With ``OutputHandling/lines`` and no call to ``outputLines()``, standard output is
    /// closed unread, so that a child blocked writing it gets `EPIPE` rather than waiting for ever.
    public func finish(closingInput: Bool = true) async -> Outcome {
        if closingInput { closeStandardInput() }
        if case .lines = outputHandling, claimUnreadOutput() {
            close(outputDescriptor)
        }
        let ended = await exit.waitEvenIfCancelled()
        let output = await outputCollector?.ended.waitEvenIfCancelled()
        let error = await errorCollector.ended.waitEvenIfCancelled()
        closeStandardInput()
        return Outcome(
            status: ended.status, standardOutput: output?.kept ?? [], standardOutputByteCount: output?.total ?? 0,
            standardErrorTail: String(decoding: error.kept, as: UTF8.self), standardErrorByteCount: error.total,
            peakResidentBytes: ended.peakResidentBytes)
    }

    /// Waits for the child as ``finish(closingInput:)`` does, killing it (`SIGKILL`) and throwing
    /// ``Hung`` when it has not ended after `limit`, a generous hang guard.
    public func finish(closingInput: Bool = true, hangGuard limit: Duration) async throws -> Outcome {
        do {
            return try await withHangGuard(limit, command) { await self.finish(closingInput: closingInput) }
        } catch let hung as Hung {
            kill(SIGKILL)
            throw hung
        }
    }

    /// Runs `path` with `arguments` and standard input closed, and waits for it to end (at most
    /// `hangGuard`; then it is killed and ``Hung`` is thrown).
    public static func run(
        _ path: String, arguments: [String], hangGuard limit: Duration = .seconds(60)
    ) async throws -> Outcome {
        let process = try launch(path, arguments: arguments)
        return try await process.finish(hangGuard: limit)
    }
}

private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

/// `pipe2`, looked up at run time: Glibc's Swift module does not declare GNU extensions.
private let pipe2: Pipe2? = {
    guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "pipe2") else { return nil }
    return unsafeBitCast(symbol, to: Pipe2.self)
}()

/// Makes a pipe whose ends are close-on-exec from the start, so that no child another test
/// spawns at the same moment inherits them (which would keep them open).
private func makePipe(_ descriptors: inout [Int32]) -> Bool {
    if let pipe2 {
        return pipe2(&descriptors, O_CLOEXEC) == 0
    }
    guard pipe(&descriptors) == 0 else { return false }
    _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
    return true
}

// The C functions, under names the methods of `SpawnedProcess` do not shadow.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func posixKill(_ pid: pid_t, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}

/// A child process could not be started.
public struct SpawnFailure: Error, CustomStringConvertible {
    public let command: String
    public let detail: String
    public var description: String { "cannot start \(command): \(detail)" }
}

/// Reads a descriptor to its end on a thread of its own, keeping its first or its last bytes.
private final class Collector: Sendable {
    let descriptor: Int32
    let limit: Int
    let keepsLast: Bool
    let ended = OneShot<(kept: [UInt8], total: Int)>()

    init(descriptor: Int32, keepingFirst limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
        keepsLast = false
    }

    init(descriptor: Int32, keepingLast limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
        keepsLast = true
    }

    func start() {
        Thread { self.run() }.start()
    }

    private func run() {
        var kept: [UInt8] = []
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
            if keepsLast {
                kept.append(contentsOf: chunk[0..<count])
                // Trim now and then, not on every read: memory stays under twice the limit.
                if kept.count > 2 * limit { kept.removeFirst(kept.count - limit) }
            } else if kept.count < limit {
                kept.append(contentsOf: chunk[0..<min(count, limit - kept.count)])
            }
        }
        close(descriptor)
        if keepsLast, kept.count > limit { kept.removeFirst(kept.count - limit) }
        ended.fulfill((kept, total))
    }
}
