import Foundation
import MCPCore
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The mirror image of the hostile server: the test is a hostile client of a real
/// `ondevice-mcp serve`, writing raw lines to its standard input, and `wait4` measures the
/// server's peak memory when it exits.
@Suite("A hostile client of ondevice-mcp serve", .timeLimit(Sanitizers.threadSanitizerIsActive ? .minutes(15) : .minutes(3)))
struct HostileClientOfServeTests {
    static func initialize(id: Int = 0, version: String = "2025-11-25") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"initialize","params":{"protocolVersion":"\#(version)","capabilities":{},"clientInfo":{"name":"hostile-client","version":"1"}}}"#
            + "\n" + #"{"jsonrpc":"2.0","method":"notifications/initialized"}"# + "\n"
    }

    static func ping(id: Int) -> String {
        request(id: id, method: "ping")
    }

    static func request(id: Int, method: String, padding: Int = 0) -> String {
        guard padding > 0 else { return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"# }
        let pad = String(repeating: "p", count: padding)
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{"_meta":{"pad":"\#(pad)"}}}"#
    }

    /// Starts `serve` with a data directory of its own.
    static func launchServe(
        standardOutput: SpawnedProcess.OutputHandling = .collect(keepingFirst: 16 << 20)
    ) throws -> (SpawnedProcess, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = try SpawnedProcess.launch(
            try BuiltProducts.ondeviceMCP(), arguments: ["serve", "--data-dir", directory.path], standardOutput: standardOutput)
        return (process, directory)
    }

    /// The messages of `output`, one a line.
    static func messages(_ output: [UInt8]) throws -> [JSONValue] {
        try output.split(separator: UInt8(ascii: "\n")).map { try JSONValue(parsing: $0) }
    }

    @Test("A 64 MiB request line is answered with -32600 naming the limit; the next request is answered")
    func oversizedRequest() async throws {
        let (serve, directory) = try Self.launchServe()
        defer { try? FileManager.default.removeItem(at: directory) }
        await serve.write(Self.initialize())
        let prefix = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"clock_now","arguments":{"timezone":""#
        await serve.write(prefix)
        let wroteAll = await serve.writeRepeated(UInt8(ascii: "a"), count: 64 << 20)
        #expect(wroteAll, "serve stopped reading its input")
        await serve.write(#""}}}"# + "\n" + Self.ping(id: 2) + "\n")
        let run = try await serve.finish(hangGuard: Sanitizers.stretched(.seconds(60)))

        #expect(run.status == .exited(0), "\(run.standardErrorTail.suffix(2_000))")
        let replies = try Self.messages(run.standardOutput)
        let error = replies.first { $0["error"] != nil }
        #expect(error?["error"]?["code"] == -32600, "\(replies.map(\.description))")
        expect(error?["error"]?["message"]?.stringValue ?? "", mentions: .any("limit", "16777216"))
        #expect(replies.contains { $0["id"] == 2 && $0["result"] == [:] }, "the ping after it was not answered")
        expectPeakMemory(run, under: 160)
    }

    @Test("A line that never ends keeps serve bounded, and it exits 0 at end of input")
    func endlessLine() async throws {
        let (serve, directory) = try Self.launchServe()
        defer { try? FileManager.default.removeItem(at: directory) }
        await serve.write(Self.initialize())
        let wroteAll = await serve.writeRepeated(UInt8(ascii: "a"), count: 64 << 20)
        #expect(wroteAll, "serve stopped reading its input")
        let run = try await serve.finish(hangGuard: Sanitizers.stretched(.seconds(60)))
        #expect(run.status == .exited(0), "\(run.standardErrorTail.suffix(2_000))")
        expectPeakMemory(run, under: 64)
    }

    @Test("A batch of 10,000 requests (2025-03-26) gets one batch response with every id")
    func hugeBatch() async throws {
        let (serve, directory) = try Self.launchServe(standardOutput: .lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines = serve.outputLines().makeAsyncIterator()
        await serve.write(Self.initialize(version: "2025-03-26"))
        let initialized = try JSONValue(parsing: try #require(await lines.next(), "serve ended without answering initialize"))
        #expect(initialized["result"]?["protocolVersion"] == "2025-03-26")
        let batch = (1...10_000).map { Self.ping(id: $0) }.joined(separator: ",")
        await serve.write("[" + batch + "]\n")
        var reply: JSONValue?
        while let line = await lines.next() {
            reply = try JSONValue(parsing: line)
            if reply?.arrayValue != nil { break }
        }
        let answers = try #require(reply?.arrayValue, "no batch response")
        #expect(answers.count == 10_000)
        #expect(Set(answers.compactMap { $0["id"]?.intValue }) == Set(1...10_000))
        #expect(answers.allSatisfy { $0["result"] == [:] })
        let run = try await serve.finish(hangGuard: Sanitizers.stretched(.seconds(60)))
        #expect(run.status == .exited(0))
    }

    /// Requests written back to back, without reading any answer until all are written.
    struct Pipelined: Sendable, CustomTestStringConvertible {
        let method: String
        let count: Int
        /// Bytes of padding in each request's `params._meta`.
        var padding = 0
        /// Whether the answers add up to more than any bounded output buffer holds (tens of
        /// MiB), so that the server must stop reading before the writer is done.
        var answersOverflowAnyBuffer = false
        var testDescription: String { "\(count) × \(method)" + (padding > 0 ? " with \(padding / 1024) KiB of padding" : "") }

        static let all = [
            // The issue's case: many small answers (about 4 MB in all).
            Pipelined(method: "ping", count: 100_000),
            // Fewer, larger answers (about 4 KiB each, 43 MB in all): a server that buffers
            // its answers without bound cannot stay under 64 MiB here.
            Pipelined(method: "tools/list", count: 10_000, answersOverflowAnyBuffer: true),
            // Large requests (16 KiB each, 160 MiB in all): a server whose queue of requests
            // is bounded in messages, not bytes, cannot stay under 64 MiB here.
            Pipelined(method: "ping", count: 10_000, padding: 16 * 1024),
        ]
    }

    @Test(
        "Pipelined requests written before any answer is read are all answered, in bounded memory",
        arguments: Pipelined.all)
    func pipelinedWithoutReading(_ pipelined: Pipelined) async throws {
        let (serve, directory) = try Self.launchServe(standardOutput: .lines)
        defer { try? FileManager.default.removeItem(at: directory) }
        await serve.write(Self.initialize())
        let count = pipelined.count
        let method = pipelined.method
        let padding = pipelined.padding
        // The writer runs on its own thread and writes every ping without reading anything.
        // A server that buffers its answers without bound lets it finish (and its memory
        // grows); a server that stops reading while its output is backed up blocks it. The
        // reader therefore starts when the writer has finished OR has made no progress for
        // one second (a poll timeout on the full pipe): the second is a heuristic for "blocked",
        // not a timing assertion; either way every answer must arrive.
        let readerMayStart = OneShot<String>()
        let writer = Task {
            await onThread {
                let flags = fcntl(serve.standardInput, F_GETFL)
                _ = fcntl(serve.standardInput, F_SETFL, flags | O_NONBLOCK)
                var written = 0
                var pending = Array((Self.request(id: 1, method: method, padding: padding) + "\n").utf8)
                var offset = 0
                while written < count {
                    let result = pending[offset...].withUnsafeBytes { write(serve.standardInput, $0.baseAddress, $0.count) }
                    if result >= 0 {
                        offset += result
                        if offset == pending.count {
                            written += 1
                            pending = Array((Self.request(id: written + 1, method: method, padding: padding) + "\n").utf8)
                            offset = 0
                        }
                    } else if errno == EAGAIN {
                        var descriptor = pollfd(fd: serve.standardInput, events: Int16(POLLOUT), revents: 0)
                        if poll(&descriptor, 1, 1_000) == 0 {
                            readerMayStart.fulfill("the writer blocked after \(written) requests")
                        }
                    } else if errno != EINTR {
                        break
                    }
                }
                readerMayStart.fulfill("the writer wrote all \(written) requests")
                return written
            }
        }
        let why = await readerMayStart.waitEvenIfCancelled()
        var seen = Set<Int>()
        var duplicates = 0
        var lines = serve.outputLines().makeAsyncIterator()
        let written = await writer.value
        #expect(written == count, "\(why)")
        serve.closeStandardInput()
        while let line = await lines.next() {
            guard let id = try JSONValue(parsing: line)["id"]?.intValue, id > 0 else { continue }
            if !seen.insert(id).inserted { duplicates += 1 }
        }
        let run = try await serve.finish(hangGuard: Sanitizers.stretched(.seconds(120)))
        if pipelined.answersOverflowAnyBuffer {
            #expect(why.contains("blocked"), "serve read every request while nobody read its answers: \(why)")
        }
        #expect(seen.count == count, "\(why)")
        #expect(duplicates == 0)
        #expect(run.status == .exited(0))
        // 64 MiB: `ondevice-mcp serve` idles at about 34 MiB (one executable with URLSession
        // and the model client); the floods peak at 33–50 MiB. With an 8 MiB outbound buffer
        // the 10,000 `tools/list` answers peaked at 77–90 MiB.
        expectPeakMemory(run, under: 64, "(\(why))")
    }
}
