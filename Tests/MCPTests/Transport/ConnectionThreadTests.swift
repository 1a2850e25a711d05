import MCPPlatform
import Synchronization
import Testing

@testable import MCP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Helpers

/// A client configuration whose timeout turns a lost reply into an error well before the
/// suite's time limit turns it into a hang.
private let pipeClientConfiguration = MCPClient.Configuration(requestTimeout: .seconds(30))

/// Runs `server` on one end of a pipe pair and `body` with a client connected over the other
/// end; closes the client afterwards and waits for `run(on:)` to return. `prepare` sees both
/// transports before the server runs (to register tools that look at the server's thread).
private func withPipeClient<T: Sendable>(
    _ server: MCPServer,
    options: MCPServer.ConnectionOptions = MCPServer.ConnectionOptions(requestExecution: .connectionThread),
    prepare: (_ clientEnd: FileDescriptorTransport, _ serverEnd: FileDescriptorTransport) async throws -> Void = { _, _ in },
    _ body: (_ client: MCPClient, _ clientEnd: FileDescriptorTransport) async throws -> T
) async throws -> T {
    let (clientEnd, serverEnd) = try makePipeConnectedPair()
    try await prepare(clientEnd, serverEnd)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run(on: serverEnd, options: options) }
        let client: MCPClient
        do {
            client = try await MCPClient.connect(over: clientEnd, configuration: pipeClientConfiguration)
        } catch {
            await clientEnd.close()
            throw error
        }
        let result: T
        do {
            result = try await body(client, clientEnd)
        } catch {
            await client.close()
            throw error
        }
        await client.close()
        // The client's close ends the server's input: run(on:) returns.
        try await group.waitForAll()
        return result
    }
}

/// One line of JSON-RPC: a `test/n` notification carrying `index`, padded to about `padding` bytes.
private func notificationLine(_ index: Int, padding: Int = 0) throws -> [UInt8] {
    var bytes = try notification(index, padding: padding).encoded()
    bytes.append(0x0A)
    return bytes
}

/// A connected pair of stream sockets: unlike a pipe, each end can see whether the other is
/// still open after its own side stopped writing.
private func makeSocketPair() throws -> (Int32, Int32) {
    var ends: [Int32] = [-1, -1]
    #if os(Linux)
    let type = Int32(SOCK_STREAM.rawValue)
    #else
    let type = SOCK_STREAM
    #endif
    guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw Errno.current("socketpair") }
    return (ends[0], ends[1])
}

/// A distinct text of `length` bytes for call `index`: its number, then filler that differs by call.
private func largeText(_ index: Int, length: Int) -> String {
    let head = "call \(index):"
    let filler = Character(Unicode.Scalar(UInt8(97 + index % 26)))
    return head + String(repeating: filler, count: length - head.utf8.count)
}

/// How a tool handler's task comes back from work done elsewhere.
enum Resumption: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// It awaits the value of a detached task (which runs on the global executor).
    case detachedTask
    /// It awaits a continuation resumed by a thread of its own, outside Swift's pools.
    case foreignThread

    var testDescription: String { rawValue }

    func echo(_ text: String) async -> String {
        switch self {
        case .detachedTask:
            return await Task.detached { text }.value
        case .foreignThread:
            return await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                do {
                    try POSIX.startThread(named: "test resumer") { continuation.resume(returning: text) }
                } catch {
                    continuation.resume(returning: "no thread: \(error)")
                }
            }
        }
    }
}

/// What the reading thread is doing when the transport is closed.
enum ReaderState: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// Waiting in `poll` for input that never comes.
    case waitingForInput
    /// Not polling input at all: the inbound buffer is full and the consumer reads nothing.
    case inboundBufferFull

    var testDescription: String { rawValue }
}

/// Lets a test thread start the moment a job on the connection thread says so.
@available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *)
final class StartSignal: Sendable {
    private let fired = Atomic<Bool>(false)
    private let sink = Atomic<Int>(0)

    func fire() { fired.store(true, ordering: .releasing) }

    /// Spins until ``fire()`` (a few microseconds: the job that fires is already queued).
    func spinUntilFired() {
        while !fired.load(ordering: .acquiring) {}
    }

    /// Takes and releases `executor`'s lock `count` times: a delay that also makes the
    /// reading thread wait for that lock now and then.
    func contend(_ executor: ConnectionExecutor, count: Int) {
        for _ in 0..<count where executor.isCurrentThread { sink.add(1, ordering: .relaxed) }
    }
}

// MARK: - Tests

@Suite("Connection thread", .timeLimit(.minutes(3)))
struct ConnectionThreadTests {
    // MARK: Releasing the input

    @Test("close() releases the input descriptor without waiting for the peer", arguments: ReaderState.allCases)
    func closeReleasesInput(state: ReaderState) async throws {
        let input = try POSIX.makePipe()
        let output = try POSIX.makePipe()
        defer {
            POSIX.close(input.write)
            POSIX.close(output.read)
        }
        let transport = try FileDescriptorTransport(
            readingFrom: input.read, writingTo: output.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength, inboundCapacity: 4)
        if state == .inboundBufferFull {
            // 50 lines in one write of less than PIPE_BUF: atomic, so the read that delivers the
            // first message delivers all 50. 49 then wait for a consumer with room for 4, and
            // the reader no longer polls the input.
            var lines: [UInt8] = []
            for index in 0..<50 { lines += try notificationLine(index) }
            #expect(lines.count < POSIX.atomicPipeWrite)
            try POSIX.writeAll(input.write, lines)
            var messages = transport.receive().makeAsyncIterator()
            let first = try #require(try await messages.next())
            #expect(index(of: first) == 0)
        }
        // The peer keeps its end open and writes nothing more.
        await transport.close()
        await transport.waitUntilInputReleased()
        let error = #expect(throws: Errno.self) {
            try POSIX.writeAll(input.write, Array("{}\n".utf8))
        }
        #expect(error?.isBrokenPipe == true, "writing to the released pipe failed with \(String(describing: error))")
    }

    @Test("End of input releases (closes) the input descriptor without close()")
    func endOfInputReleasesInput() async throws {
        let (transportSide, peerSide) = try makeSocketPair()
        let output = try POSIX.makePipe()
        defer {
            POSIX.close(peerSide)
            POSIX.close(output.read)
        }
        let transport = try FileDescriptorTransport(
            readingFrom: transportSide, writingTo: output.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength)
        try POSIX.writeAll(peerSide, try notificationLine(7))
        #expect(shutdown(peerSide, Int32(SHUT_WR)) == 0)
        #expect(try await collect(transport.receive()).map(index(of:)) == [7])
        await transport.waitUntilInputReleased()
        // The transport's socket is closed: the peer sees end of file at once (while it was
        // open, with nothing written to it, the peer's read would block).
        let readiness = POSIX.waitForInput(peerSide, wake: output.read, timeout: 0)
        #expect(readiness.input, "the peer's socket is not readable: the transport still holds its end")
        if readiness.input {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
            defer { buffer.deallocate() }
            #expect(try POSIX.read(peerSide, into: buffer) == 0)
        }
        await transport.close()
    }

    /// The reading thread checks whether the transport is closed, then marks itself asleep and
    /// polls; a close() that lands between the two must still wake it. A thread that starts
    /// right after the last job on the connection thread, delayed by a varying number of
    /// takes of the executor's lock (which also stretches that gap), closes the transport.
    @Test("close() racing the reading thread's return to poll still releases the input")
    func closeRacingReturnToPoll() async throws {
        guard #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) else { return }
        for iteration in 0..<4000 {
            let input = try POSIX.makePipe()
            let output = try POSIX.makePipe()
            let transport = try FileDescriptorTransport(
                readingFrom: input.read, writingTo: output.write, closesInput: true, closesOutput: true,
                maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength, engine: .threads)
            guard case .threads(let executor) = transport.engine else {
                Issue.record("asked for threads, got the event loop")
                return
            }
            let start = StartSignal()
            let delay = iteration % 400
            try POSIX.startThread(named: "test closer") {
                start.spinUntilFired()
                start.contend(executor, count: delay)
                transport.beginClose()
            }
            // The last job the thread runs: nothing else wakes it after this.
            await Task(executorPreference: executor) { start.fire() }.value
            await transport.waitUntilInputReleased()
            if Task.isCancelled {
                // The time limit ended the wait: the reading thread missed the close.
                Issue.record("iteration \(iteration) (delay \(delay)): close() never released the input descriptor")
                return
            }
            await transport.close()
            POSIX.close(input.write)
            POSIX.close(output.read)
        }
    }

    // MARK: Replies from tasks that resumed elsewhere

    @Test(
        "A tool that resumes on another thread still gets its reply out, for 64 concurrent calls",
        arguments: Resumption.allCases)
    func resumedElsewhere(resumption: Resumption) async throws {
        let server = MCPServer(name: "resumer", version: "1")
        try await confirmation("each handler is back on the connection thread after resuming", expectedCount: 64) { backHome in
            let results = try await withPipeClient(server) { _, serverEnd in
                try await server.register(
                    name: "later", description: "Echoes after a detour through another thread",
                    inputSchema: ["type": "object", "properties": ["text": ["type": "string"]], "required": ["text"]]
                ) { arguments, _ in
                    let echoed = await resumption.echo(arguments["text"]?.stringValue ?? "")
                    // The server's tasks prefer its connection thread: the resumption reached it
                    // through the executor's queue (and its wake-up pipe).
                    if serverEnd.isOnConnectionThread { backHome() }
                    return .text(echoed)
                }
            } _: { client, _ in
                try await withThrowingTaskGroup(of: (Int, String).self) { group in
                    for index in 0..<64 {
                        group.addTask {
                            let result = try await client.callTool(name: "later", arguments: ["text": .string("call \(index)")])
                            #expect(result.isError == false)
                            return (index, result.text)
                        }
                    }
                    var results: [Int: String] = [:]
                    for try await (index, text) in group { results[index] = text }
                    return results
                }
            }
            #expect(results.count == 64)
            for index in 0..<64 {
                #expect(results[index] == "call \(index)")
            }
        }
    }

    @Test("With the default options a tool never runs on the connection thread, alone or 16 at a time")
    func defaultRequestsRunOffTheConnectionThread() async throws {
        let server = MCPServer(name: "placement", version: "1")
        try await confirmation("each call ran off the connection thread", expectedCount: 17) { offThread in
            try await withPipeClient(server, options: MCPServer.ConnectionOptions()) { _, serverEnd in
                try await server.register(name: "where", description: "Says where it ran") { _, _ in
                    if !serverEnd.isOnConnectionThread { offThread() }
                    return .text("ran")
                }
            } _: { client, _ in
                _ = try await client.callTool(name: "where")
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<16 {
                        group.addTask { _ = try await client.callTool(name: "where") }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }

    @Test("On the connection thread, a tool that waits for a later request starts at once and does not block reading it")
    func connectionThreadToolWaitsForALaterRequest() async throws {
        let server = MCPServer(name: "waiting", version: "1")
        let (opened, opener) = AsyncStream<Void>.makeStream()
        let (started, starter) = AsyncStream<Void>.makeStream()
        try await confirmation("each tool started on the connection thread", expectedCount: 2) { onThread in
            try await withPipeClient(server) { _, serverEnd in
                try await server.register(name: "wait", description: "Returns once 'open' was called") { _, _ in
                    if serverEnd.isOnConnectionThread { onThread() }
                    starter.yield()
                    for await _ in opened { break }
                    return .text("opened")
                }
                try await server.register(name: "open", description: "Lets 'wait' return") { _, _ in
                    if serverEnd.isOnConnectionThread { onThread() }
                    opener.yield()
                    return .text("done")
                }
            } _: { client, _ in
                let waiting = Task { try await client.callTool(name: "wait") }
                // 'open' goes out only once 'wait' runs and is suspended on the reading thread.
                for await _ in started { break }
                let open = try await client.callTool(name: "open")
                #expect(open.text == "done")
                #expect(try await waiting.value.text == "opened")
            }
        }
    }

    @Test("With the default options, answers made while a slow call is in flight go out without waiting for it")
    func answersDoNotWaitForASlowCall() async throws {
        let server = try await TestServers.make()
        try await withPipeClient(server, options: MCPServer.ConnectionOptions()) { client, _ in
            let slow = Task { try await client.callTool(name: "slow") }
            // Each answer is made while another request (the slow one) is unanswered, so its
            // sender leaves it for the loop to write with whatever else is ready: it must still
            // go out now, not when the slow call ends.
            for index in 0..<20 {
                let result = try await client.callTool(name: "echo", arguments: ["text": .string("e\(index)")])
                #expect(result.content.first?.text == "e\(index)")
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for caller in 0..<8 {
                        group.addTask {
                            let echo = try await client.callTool(name: "echo", arguments: ["text": .string("c\(caller)")])
                            #expect(echo.content.first?.text == "c\(caller)")
                        }
                    }
                    try await group.waitForAll()
                }
            }
            slow.cancel()
            _ = await slow.result
        }
    }

    // MARK: withConnectionThread

    @Test("withConnectionThread: 64 callers × 50 calls over pipes all get their own answers")
    func connectionThreadOverPipes() async throws {
        let server = try await TestServers.make()
        let returned = try await withPipeClient(server) { client, clientEnd in
            try await client.withConnectionThread {
                #expect(clientEnd.isOnConnectionThread, "the closure does not run on the connection thread")
                return try await withThrowingTaskGroup(of: Int.self) { group in
                    for caller in 0..<64 {
                        group.addTask {
                            var correct = 0
                            var offThread = 0
                            for call in 0..<50 {
                                let a = caller * 1000 + call
                                let result = try await client.callTool(name: "add", arguments: ["a": .int(a), "b": 7])
                                if result.structuredContent == ["sum": .int(a + 7)] {
                                    correct += 1
                                } else {
                                    Issue.record("caller \(caller), call \(call): expected \(a + 7), got \(result)")
                                }
                                if !clientEnd.isOnConnectionThread { offThread += 1 }
                            }
                            #expect(offThread == 0, "caller \(caller) resumed off the connection thread \(offThread) times")
                            return correct
                        }
                    }
                    var total = 0
                    for try await correct in group { total += correct }
                    return total
                }
            }
        }
        #expect(returned == 64 * 50)
    }

    @Test("withConnectionThread on an in-process client runs the closure, and calls work")
    func connectionThreadInProcess() async throws {
        let server = try await TestServers.make()
        let client = try await MCPClient.connect(to: server)
        let returned = try await client.withConnectionThread {
            try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await client.callTool(name: "echo", arguments: ["text": .string("in process \(index)")]).text
                    }
                }
                var texts: [String] = []
                for try await text in group { texts.append(text) }
                return texts.sorted()
            }
        }
        #expect(returned == (0..<8).map { "in process \($0)" }.sorted())
        await client.close()
    }

    // MARK: Large replies

    @Test(
        "100 concurrent echoes of 20 KB each arrive whole and matched",
        arguments: [false, true])
    func largeReplies(callersOnConnectionThread: Bool) async throws {
        let server = try await TestServers.make()
        let length = 20_000
        #expect(length > POSIX.atomicPipeWrite)
        try await withPipeClient(server) { client, _ in
            let calls = {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<100 {
                        group.addTask {
                            let text = largeText(index, length: length)
                            let result = try await client.callTool(name: "echo", arguments: ["text": .string(text)])
                            #expect(result.isError == false)
                            #expect(result.text.utf8.count == length, "call \(index): \(result.text.utf8.count) bytes came back")
                            #expect(result.text == text, "call \(index) got another text back")
                        }
                    }
                    try await group.waitForAll()
                }
            }
            if callersOnConnectionThread {
                try await client.withConnectionThread { try await calls() }
            } else {
                try await calls()
            }
        }
    }

    // MARK: Back-pressure

    @Test("5,000 messages written before the consumer reads any all arrive, in order, through a buffer of 8")
    func floodBeforeReading() async throws {
        let input = try POSIX.makePipe()
        let output = try POSIX.makePipe()
        defer { POSIX.close(output.read) }
        let transport = try FileDescriptorTransport(
            readingFrom: input.read, writingTo: output.write, closesInput: true, closesOutput: true,
            maximumFrameLength: FileDescriptorTransport.defaultMaximumFrameLength, inboundCapacity: 8)
        let count = 5_000
        var flood: [UInt8] = []
        for index in 0..<count { flood += try notificationLine(index, padding: 200) }
        // About 1 MB: far more than the pipe (64 KiB), one read (64 KiB) and 8 messages hold,
        // so the peer can only finish once the consumer reads.
        #expect(flood.count > 1_000_000)
        let peerDone = OneShot<Result<Void, Errno>>()
        let peerInput = input.write
        let bytes = flood
        try POSIX.startThread(named: "test flooding peer") {
            do throws(Errno) {
                try POSIX.writeAll(peerInput, bytes)
                POSIX.close(peerInput)
                peerDone.fulfill(.success(()))
            } catch {
                POSIX.close(peerInput)
                peerDone.fulfill(.failure(error))
            }
        }
        // With the consumer reading nothing, the reading thread still runs tasks: it does not
        // block on the full buffer.
        if #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) {
            let ranOnConnectionThread = await withTaskExecutorPreference(transport.connectionExecutor) {
                transport.isOnConnectionThread
            }
            #expect(ranOnConnectionThread)
        }
        #expect(peerDone.current == nil, "the peer wrote everything before anything was consumed: the reader buffered it all")
        let indices = try await collect(transport.receive()).map(index(of:))
        #expect(indices.count == count)
        #expect(indices == (0..<count).map(Optional.some))
        let peerResult = try #require(await peerDone.wait())
        #expect(throws: Never.self) { try peerResult.get() }
        await transport.close()
    }

    // MARK: Stress

    @Test("30 rounds of serve, connect, 200 calls from 16 callers on the connection thread, close: none hangs")
    func repeatedSessions() async throws {
        for round in 0..<30 {
            let server = try await TestServers.make()
            let correct = try await withPipeClient(server) { client, _ in
                try await client.withConnectionThread {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for caller in 0..<16 {
                            group.addTask {
                                var correct = 0
                                for call in stride(from: caller, to: 200, by: 16) {
                                    let result = try await client.callTool(name: "add", arguments: ["a": .int(round), "b": .int(call)])
                                    if result.structuredContent == ["sum": .int(round + call)] { correct += 1 }
                                }
                                return correct
                            }
                        }
                        var total = 0
                        for try await count in group { total += count }
                        return total
                    }
                }
            }
            #expect(correct == 200, "round \(round): \(correct) of 200 calls answered correctly")
        }
    }
}
