import MCPPlatform
import Testing

@testable import MCP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A descriptor whose writes fail on demand.
enum FailingOutput: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// `/dev/full`: every write fails with `ENOSPC`, while `poll` says it is writable.
    case fullDevice
    /// A pipe whose read end is closed: every write fails with `EPIPE`.
    case brokenPipe

    var testDescription: String { rawValue }

    /// Opens the descriptor to write to; the transport owns (and closes) it.
    func open() throws -> Int32 {
        switch self {
        case .fullDevice:
            let descriptor = openForWriting("/dev/full")
            guard descriptor >= 0 else { throw Errno.current("open /dev/full") }
            return descriptor
        case .brokenPipe:
            let pipe = try POSIX.makePipe()
            POSIX.close(pipe.read)
            return pipe.write
        }
    }
}

/// `open(2)` for writing, close-on-exec (a free function: inside `FailingOutput`, `open` is its own method).
private func openForWriting(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CLOEXEC)
}

/// Which side of the outbound buffer meets the failed write.
enum WritePath: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// A message of at most `PIPE_BUF` bytes with nothing queued: its sender writes it.
    case inline
    /// A larger message: the writing thread writes it.
    case writerThread

    var testDescription: String { rawValue }

    /// The padding that puts a test notification on this path.
    var padding: Int { self == .inline ? 10 : 3 * POSIX.atomicPipeWrite }
}

/// A transport writing to a pipe that nobody reads until the test says so.
final class UnreadOutput: Sendable {
    let transport: FileDescriptorTransport
    let output: Int32
    private let input: Int32

    init(outboundByteLimit: Int) throws {
        let inputPipe = try POSIX.makePipe()
        let outputPipe = try POSIX.makePipe()
        input = inputPipe.write
        output = outputPipe.read
        transport = try FileDescriptorTransport(
            readingFrom: inputPipe.read, writingTo: outputPipe.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength, outboundByteLimit: outboundByteLimit)
    }

    /// Starts a thread that reads the output to its end; the result arrives in the returned one-shot.
    func drain() throws -> OneShot<Int> {
        let done = OneShot<Int>()
        let output = output
        try POSIX.startThread(named: "test drain") {
            let bytes = (try? POSIX.readToEnd(output)) ?? []
            POSIX.close(output)
            done.fulfill(bytes.count)
        }
        return done
    }

    /// Ends the input and closes the transport (once the output has been drained or closed).
    func finish() async {
        POSIX.close(input)
        await transport.close()
    }
}
