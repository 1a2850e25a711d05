import MCPCore
import MCPPlatform
import Testing

@testable import MCP

@Suite("Request deadlines", .timeLimit(.minutes(1)))
struct RequestDeadlinesTests {
    /// A table on a manual clock, its watcher running, and the expirations it reports.
    private struct Watched {
        let clock = ManualClock()
        let deadlines: RequestDeadlines
        let expired: AsyncStream<RequestID>.AsyncIterator
        let watcher: Task<Void, Never>

        init() {
            deadlines = RequestDeadlines(clock: DeadlineClock(clock))
            let (stream, continuation) = AsyncStream<RequestID>.makeStream()
            expired = stream.makeAsyncIterator()
            watcher = Task { [deadlines] in await deadlines.watch { continuation.yield($0.id) } }
        }

        func stop() async {
            watcher.cancel()
            await watcher.value
        }
    }

    @Test("requests expire in deadline order, whatever order they were added in; removed ones never")
    func expiryOrder() async {
        let watched = Watched()
        var expired = watched.expired
        let deadlines = watched.deadlines
        deadlines.add(.int(1), method: "a", timeout: .milliseconds(120))
        deadlines.add(.int(2), method: "b", timeout: .milliseconds(20))
        deadlines.add(.string("gone"), method: "c", timeout: .milliseconds(40))
        deadlines.add(.int(3), method: "d", timeout: .milliseconds(60))
        deadlines.add(.int(4), method: "e", timeout: .milliseconds(60))
        deadlines.remove(.string("gone"))
        deadlines.remove(.int(4))
        watched.clock.advance(by: .milliseconds(30))
        #expect(await expired.next() == .int(2))
        watched.clock.advance(by: .milliseconds(30))
        #expect(await expired.next() == .int(3))
        watched.clock.advance(by: .milliseconds(60))
        #expect(await expired.next() == .int(1))
        await watched.stop()
    }

    @Test("a short deadline added while the watcher sleeps toward a long one still expires first")
    func earlierDeadlineWakesTheWatcher() async {
        let watched = Watched()
        var expired = watched.expired
        watched.deadlines.add(.int(1), method: "long", timeout: .seconds(3600))
        await watched.clock.waitForSleepers()
        // Without the early wake-up the watcher would go on sleeping toward the hour, the
        // short deadline would never be seen, and the suite's time limit would end the test.
        watched.deadlines.add(.int(2), method: "short", timeout: .milliseconds(30))
        watched.clock.advance(by: .milliseconds(30))
        #expect(await expired.next() == .int(2))
        await watched.stop()
    }

    @Test("the first request after an idle spell is watched (the watcher waits for work, then wakes)")
    func idleThenBusy() async {
        let watched = Watched()
        var expired = watched.expired
        for round in 0..<3 {
            watched.deadlines.add(.int(round), method: "m", timeout: .milliseconds(10))
            watched.clock.advance(by: .milliseconds(10))
            #expect(await expired.next() == .int(round))
        }
        await watched.stop()
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
