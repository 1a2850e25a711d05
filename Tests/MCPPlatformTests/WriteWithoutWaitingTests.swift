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

/// Whether this system is expected to write pipes and sockets without waiting: Linux 6.5 and
/// later (`operatingSystemVersion` is the kernel's there). Elsewhere every write must answer
/// `.unsupported`, so that the caller polls instead.
let writesWithoutWaitingExpected: Bool = {
    #if os(Linux)
    let version = ProcessInfo.processInfo.operatingSystemVersion
    return version.majorVersion > 6 || (version.majorVersion == 6 && version.minorVersion >= 5)
    #else
    return false
    #endif
}()

@Suite("Writes that never wait, on descriptors that block", .timeLimit(.minutes(1)))
struct WriteWithoutWaitingTests {
    /// Runs `body` with a fresh pipe. A hang guard: if a write that must not wait blocks after
    /// all, the read end is drained after 20 s, so the write returns and the test fails
    /// instead of hanging. The guard ends before the descriptors are closed.
    private func withPipe(_ body: (_ read: Int32, _ write: Int32) throws -> Void) async throws {
        let (read, write) = try POSIX.makePipe()
        let drained = LockedValue(false)
        let guardTask = Task.detached {
            do { try await Task.sleep(for: .seconds(20)) } catch { return }
            drained.withLock { $0 = true }
            var sink = [UInt8](repeating: 0, count: 65_536)
            // Until the test closes the write end (end of file) or reading fails.
            while let count = try? sink.withUnsafeMutableBytes({ try POSIX.read(read, into: $0) }), count > 0 {}
        }
        var failure: (any Error)?
        do { try body(read, write) } catch { failure = error }
        guardTask.cancel()
        POSIX.close(write)
        await guardTask.value
        POSIX.close(read)
        #expect(!drained.withLock { $0 }, "a write that must not wait blocked until the pipe was drained")
        if let failure { throw failure }
    }

    private func readAvailable(_ descriptor: Int32, count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < count {
            let got = try buffer.withUnsafeMutableBytes { try POSIX.read(descriptor, into: $0) }
            if got == 0 { break }
            bytes += buffer[0..<got]
        }
        return bytes
    }

    @Test("A pipe with room takes more than PIPE_BUF bytes in one call, and stays blocking for everyone else")
    func pipeWithRoom() async throws {
        try await withPipe { read, write in
            let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
            let outcome = bytes.withUnsafeBytes { POSIX.writeWithoutWaiting(write, $0) }
            guard writesWithoutWaitingExpected else {
                #expect(outcome == .unsupported)
                return
            }
            #expect(outcome == .wrote(bytes.count))
            let received = try readAvailable(read, count: bytes.count)
            #expect(received == bytes)
            #expect(fcntl(write, F_GETFL) & O_NONBLOCK == 0)
        }
    }

    @Test("A full pipe takes what fits, then nothing, at once")
    func fullPipe() async throws {
        try await withPipe { _, write in
            let bytes = [UInt8](repeating: 0x61, count: 1 << 20)
            let first = bytes.withUnsafeBytes { POSIX.writeWithoutWaiting(write, $0) }
            guard writesWithoutWaitingExpected else {
                #expect(first == .unsupported)
                return
            }
            guard case .wrote(let taken) = first else {
                Issue.record("expected a partial write, got \(first)")
                return
            }
            #expect(taken > 0 && taken < bytes.count)
            // A write of at most PIPE_BUF bytes is all or nothing: nothing, into a full pipe.
            let small = [UInt8](repeating: 0x62, count: 16).withUnsafeBytes { POSIX.writeWithoutWaiting(write, $0) }
            #expect(small == .wrote(0))
            let second = bytes.withUnsafeBytes { POSIX.writeWithoutWaiting(write, $0) }
            #expect(second == .wrote(0))
        }
    }

    @Test("A pipe whose reader is gone fails with a broken pipe at once")
    func brokenPipe() throws {
        POSIX.ignoreBrokenPipeSignal()
        let (read, write) = try POSIX.makePipe()
        defer { POSIX.close(write) }
        POSIX.close(read)
        let outcome = [UInt8](repeating: 0x62, count: 16).withUnsafeBytes { POSIX.writeWithoutWaiting(write, $0) }
        guard writesWithoutWaitingExpected else {
            #expect(outcome == .unsupported)
            return
        }
        guard case .failed(let error) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(error.isBrokenPipe)
    }

    @Test("A Unix socket takes bytes without waiting")
    func socket() throws {
        var ends: [Int32] = [0, 0]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        try #require(socketpair(AF_UNIX, type, 0, &ends) == 0)
        defer {
            POSIX.close(ends[0])
            POSIX.close(ends[1])
        }
        let bytes = Array("{\"jsonrpc\":\"2.0\"}\n".utf8)
        let outcome = bytes.withUnsafeBytes { POSIX.writeWithoutWaiting(ends[0], $0) }
        guard writesWithoutWaitingExpected else {
            #expect(outcome == .unsupported)
            return
        }
        #expect(outcome == .wrote(bytes.count))
        let received = try readAvailable(ends[1], count: bytes.count)
        #expect(received == bytes)
    }

    @Test("Pipes and sockets are told apart from files, which are written after polling")
    func descriptorKinds() throws {
        let (read, write) = try POSIX.makePipe()
        defer {
            POSIX.close(read)
            POSIX.close(write)
        }
        #expect(POSIX.isPipeOrSocket(read) && POSIX.isPipeOrSocket(write))
        let file = open("/dev/null", O_WRONLY)
        try #require(file >= 0)
        defer { POSIX.close(file) }
        #expect(!POSIX.isPipeOrSocket(file))
        #expect(!POSIX.isPipeOrSocket(-1))
    }

    @Test("Nothing to write is written at once, on any descriptor")
    func emptyWrite() {
        #expect(POSIX.writeWithoutWaiting(-1, UnsafeRawBufferPointer(start: nil, count: 0)) == .wrote(0))
    }
}
