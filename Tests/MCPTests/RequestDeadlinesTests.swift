import MCPCore
import Testing

@testable import MCP

@Suite("Request deadlines", .timeLimit(.minutes(1)))
struct RequestDeadlinesTests {
    /// Runs a watcher, collects the first `count` expirations, then stops it.
    private func expirations(
        of deadlines: RequestDeadlines, count: Int, after setUp: () -> Void
    ) async -> [RequestID] {
        let (stream, continuation) = AsyncStream<RequestID>.makeStream()
        let watcher = Task { await deadlines.watch { continuation.yield($0.id) } }
        setUp()
        var seen: [RequestID] = []
        for await id in stream {
            seen.append(id)
            if seen.count == count { break }
        }
        watcher.cancel()
        await watcher.value
        return seen
    }

    @Test("requests expire in deadline order, whatever order they were added in; removed ones never")
    func expiryOrder() async {
        let deadlines = RequestDeadlines()
        let seen = await expirations(of: deadlines, count: 3) {
            deadlines.add(.int(1), method: "a", timeout: .milliseconds(120))
            deadlines.add(.int(2), method: "b", timeout: .milliseconds(20))
            deadlines.add(.string("gone"), method: "c", timeout: .milliseconds(40))
            deadlines.add(.int(3), method: "d", timeout: .milliseconds(60))
            deadlines.add(.int(4), method: "e", timeout: .milliseconds(60))
            deadlines.remove(.string("gone"))
            deadlines.remove(.int(4))
        }
        #expect(seen == [.int(2), .int(3), .int(1)])
    }

    @Test("a short deadline added while the watcher sleeps toward a long one still expires first")
    func earlierDeadlineWakesTheWatcher() async {
        let deadlines = RequestDeadlines()
        // Without the early wake-up the watcher would sleep for an hour and the time limit
        // of the suite would end the test.
        let seen = await expirations(of: deadlines, count: 1) {
            deadlines.add(.int(1), method: "long", timeout: .seconds(3600))
            deadlines.add(.int(2), method: "short", timeout: .milliseconds(30))
        }
        #expect(seen == [.int(2)])
    }

    @Test("the first request after an idle spell is watched (the watcher waits for work, then wakes)")
    func idleThenBusy() async {
        let deadlines = RequestDeadlines()
        let (stream, continuation) = AsyncStream<RequestID>.makeStream()
        let watcher = Task { await deadlines.watch { continuation.yield($0.id) } }
        var iterator = stream.makeAsyncIterator()
        for round in 0..<3 {
            deadlines.add(.int(round), method: "m", timeout: .milliseconds(10))
            #expect(await iterator.next() == .int(round))
        }
        watcher.cancel()
        await watcher.value
    }

    @Test("over a transport, a call with a short timeout times out while a longer one waits")
    func mixedTimeoutsOverTransport() async throws {
        let server = try await TestServers.make()
        try await Route.inProcessTransport.with(server) { client in
            let long = Task { try await client.callTool(name: "slow", timeout: .seconds(3600)) }
            let error = await #expect(throws: MCPClientError.self) {
                try await client.callTool(name: "slow", timeout: .milliseconds(40))
            }
            #expect(error == .timedOut)
            long.cancel()
            await #expect(throws: CancellationError.self) { try await long.value }
            let after = try await client.callTool(name: "echo", arguments: ["text": "still here"])
            #expect(after == .text("still here"))
        }
    }
}
