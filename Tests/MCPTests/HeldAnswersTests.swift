import MCPCore
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import MCP

extension PoolHoldingTests {
    /// Answers that the request runners leave queued to write together (``AnswerBatch``) are never
    /// stranded behind tools that compute without suspending: the loop's timer writes them.
    ///
    /// Serialized, and the client is plain threads: the test occupies every thread of Swift's
    /// shared pool with computing tools, so nothing it checks may need that pool meanwhile.
    @Suite("Held answers", .serialized)
    struct HeldAnswersTests {
        /// Released when the client has read the quick call's answer.
        private final class Release: Sendable {
            private let released = LockedValue(false)
            var isReleased: Bool { released.withLock { $0 } }
            func release() { released.withLock { $0 = true } }
        }

        @Test("one request at a time sets no timer on the loop", .timeLimit(.minutes(1)))
        func sequentialCallsSetNoTimer() async throws {
            // With one request in flight no answer is ever held, so the loop's wait keeps no
            // deadline (a kernel timer armed for every wait is what a sequential call would pay).
            let loop = try #require(EventLoop.makeLoop())
            let server = MCPServer(name: "sequential", version: "1")
            try await server.register(name: "quick", description: "Answers at once") { _, _ in .text("quick") }
            // The client's end shares the loop; a client starts no request runners, so sets no timer.
            let (clientEnd, serverEnd) = try makePipeConnectedPair(loop: loop)
            let serving = Task { try await server.run(on: serverEnd) }
            var answers = clientEnd.receive().makeAsyncIterator()
            for id in 1...20 {
                try await clientEnd.send(
                    JSONRPCMessage(["jsonrpc": "2.0", "id": .int(id), "method": "tools/call", "params": ["name": "quick"]]))
                guard case .message(.response(let response))? = try await answers.next() else {
                    Issue.record("call \(id) got no result")
                    break
                }
                #expect(response.id == RequestID(.int(id)))
                #expect(loop.timersSetCount == 0, "call \(id) set a timer")
            }
            await clientEnd.close()
            try await serving.value
        }

        @Test("an answer held by a runner goes out while every runner computes", .timeLimit(.minutes(1)))
        func heldAnswerIsWrittenWhileEveryRunnerComputes() async throws {
            let release = Release()
            let server = MCPServer(name: "held", version: "1")
            try await server.register(name: "quick", description: "Answers at once") { _, _ in .text("quick") }
            try await server.register(name: "spin", description: "Computes until released") { _, _ in
                // Never suspends; the give-up is a hang guard that makes the test fail, not wait.
                let giveUp = ContinuousClock.now + .seconds(20)
                while !release.isReleased, ContinuousClock.now < giveUp {}
                return .text(release.isReleased ? "released" : "gave up")
            }
            let toServer = try POSIX.makePipe()
            let fromServer = try POSIX.makePipe()
            let transport = try FileDescriptorTransport(
                readingFrom: toServer.read, writingTo: fromServer.write, closesInput: true, closesOutput: true,
                maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength, engine: .loop)
            let serving = Task { try await server.run(on: transport) }

            // One spinner per runner (the runners are as many as the processors), after a quick
            // call: whichever runner answers the quick call leaves its answer queued (others are
            // still to come) and takes a spinner next, so no runner is left to write it.
            let spinners = POSIX.processorCount
            var lines = [#"{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"quick"}}"#]
            for id in 1...spinners {
                lines.append(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"spin"}}"#)
            }
            let answers = OneShot<[String]>()
            // The client reads on a thread of its own and releases the spinners once it has the
            // quick call's answer.
            try POSIX.startThread(named: "held answers client") {
                var read: [String] = []
                var pending: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                while read.count < spinners + 1 {
                    let count = (try? chunk.withUnsafeMutableBytes { try POSIX.read(fromServer.read, into: $0) }) ?? 0
                    guard count > 0 else { break }
                    pending += chunk[0..<count]
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = String(decoding: pending[..<newline], as: UTF8.self)
                        pending.removeSubrange(...newline)
                        read.append(line)
                        if line.contains(#""id":0"#) { release.release() }
                    }
                }
                answers.fulfill(read)
            }
            try POSIX.writeAll(toServer.write, Array((lines.joined(separator: "\n") + "\n").utf8))

            let read = try #require(await answers.wait(within: .seconds(50)))
            #expect(read.count == spinners + 1)
            #expect(read.first?.contains(#""id":0"#) == true, "the quick call was answered first")
            #expect(read.dropFirst().allSatisfy { $0.contains("released") }, "every spinner was released by that answer: \(read)")
            POSIX.close(toServer.write)
            try await serving.value
            POSIX.close(fromServer.read)
        }
    }
}
