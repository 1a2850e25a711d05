import MCPCore
import Testing

@testable import MCP

/// ``ClientConnection`` driven step by step: no transport, no tasks, no clock. Waiters are
/// numbers and the watcher's wake-up a string, so each test reads which one an event hands back.
@Suite("Client connection state machine")
struct ClientConnectionTests {
    typealias Machine = ClientConnection<Int, String>

    private static let value: JSONValue = ["answer": 42]

    /// Registers a request for `method` at `now` and returns its id.
    private static func start(
        _ machine: inout Machine, _ method: String = "tools/call", timeout: Duration? = nil, now: Duration = .zero,
        progress: ProgressHandler? = nil
    ) throws -> RequestID {
        try machine.start(method, params: nil, timeout: timeout, progress: progress, now: now).id
    }

    @Test("a reply resumes the waiting caller with its result, once")
    func requestAndResponse() throws {
        var machine = Machine()
        let id = try Self.start(&machine)
        let waited = machine.wait(for: id, waiter: 7)
        #expect(waited == nil)
        let resumed = machine.deliver(.success(Self.value), to: id, unanswered: "unused")
        #expect(resumed == 7)
        #expect(machine.pendingCount == 0)
        // A second reply to the same id resumes nobody and is noted.
        let resumed2 = machine.deliver(.success(Self.value), to: id, unanswered: "a second reply")
        #expect(resumed2 == nil)
        #expect(machine.notesSummary == "; meanwhile the server sent a second reply")
    }

    @Test("a reply that comes before the caller waits is kept for the wait")
    func replyBeforeWait() throws {
        var machine = Machine()
        let id = try Self.start(&machine)
        let resumed = machine.deliver(.success(Self.value), to: id, unanswered: "unused")
        #expect(resumed == nil)
        let waited = machine.wait(for: id, waiter: 1)
        let outcome = try #require(waited)
        #expect(try outcome.get() == Self.value)
        #expect(machine.notesSummary == "")
    }

    @Test("ids are new for each request; a reply to an unknown id or to none is noted, not delivered")
    func unknownAndMissingIDs() throws {
        var machine = Machine()
        let first = try Self.start(&machine)
        let second = try Self.start(&machine)
        #expect(first != second)
        let resumed = machine.deliver(.success(Self.value), to: .int(99), unanswered: "a reply to 99")
        #expect(resumed == nil)
        let resumed2 = machine.deliver(.failure(MCPClientError.invalidResponse), to: nil, unanswered: "junk")
        #expect(resumed2 == nil)
        #expect(machine.notesSummary == "; meanwhile the server sent 2 messages that answer no request, the last: junk")
        #expect(machine.pendingCount == 2)
    }

    @Test("the newest three notes are kept, and all are counted")
    func notesAreBounded() {
        var machine = Machine()
        for index in 1...5 { machine.note("message \(index)") }
        #expect(machine.notesSummary == "; meanwhile the server sent 5 messages that answer no request, the last: message 5")
    }

    @Test("a deadline fails the waiting caller, says what the server sent, and asks to cancel; a late reply is ignored")
    func timeoutThenLateReply() throws {
        var machine = Machine()
        let id = try Self.start(&machine, "tools/call", timeout: .seconds(30))
        let waited = machine.wait(for: id, waiter: 3)
        #expect(waited == nil)
        machine.note("a line that is not valid JSON")
        let expired = machine.expire(now: .seconds(29))
        #expect(expired.due.isEmpty)
        let (due, next) = machine.expire(now: .seconds(30))
        #expect(next == nil)
        let expiry = try #require(due.first)
        #expect(due.count == 1)
        #expect(expiry.id == id)
        #expect(expiry.waiter == 3)
        #expect(expiry.error == .timedOut)
        #expect(expiry.error.description.contains("tools/call got no reply within 30.0 seconds"))
        #expect(expiry.error.description.contains("meanwhile the server sent a line that is not valid JSON"))
        #expect(expiry.cancellation.method == MCPMethod.cancelled)
        #expect(try CancelledNotification(params: expiry.cancellation.params).requestID == id)
        // The late reply resumes nobody.
        let resumed = machine.deliver(.success(Self.value), to: id, unanswered: "late")
        #expect(resumed == nil)
        #expect(machine.pendingCount == 0)
    }

    @Test("a request answered before its deadline does not expire")
    func answeredRequestDoesNotExpire() throws {
        var machine = Machine()
        let id = try Self.start(&machine, timeout: .seconds(1))
        let resumed = machine.deliver(.success(Self.value), to: id, unanswered: "unused")
        #expect(resumed == nil)
        machine.finish(id)
        let expired = machine.expire(now: .seconds(5))
        #expect(expired.due.isEmpty)
        #expect(machine.deadlineCount == 0)
    }

    @Test("a deadline before the caller waits is found by the wait")
    func timeoutBeforeWait() throws {
        var machine = Machine()
        let id = try Self.start(&machine, timeout: .seconds(1))
        let due = machine.expire(now: .seconds(1)).due
        #expect(due.map(\.id) == [id])
        #expect(due.first?.waiter == nil)
        let waited = machine.wait(for: id, waiter: 1)
        let outcome = try #require(waited)
        #expect(throws: MCPClientError.timedOut) { try outcome.get() }
    }

    @Test("requests expire in deadline order, whatever order they were added in; finished ones never")
    func expiryOrder() throws {
        var machine = Machine()
        let a = try Self.start(&machine, "a", timeout: .milliseconds(120))
        let b = try Self.start(&machine, "b", timeout: .milliseconds(20))
        let c = try Self.start(&machine, "c", timeout: .milliseconds(40))
        let d = try Self.start(&machine, "d", timeout: .milliseconds(60))
        let e = try Self.start(&machine, "e", timeout: .milliseconds(60))
        machine.finish(c)
        machine.finish(e)
        let first = machine.expire(now: .milliseconds(30))
        #expect(first.due.map(\.id) == [b])
        #expect(first.next == .milliseconds(60))
        let expired = machine.expire(now: .milliseconds(60))
        #expect(expired.due.map(\.id) == [d])
        let expired2 = machine.expire(now: .milliseconds(120))
        #expect(expired2.due.map(\.id) == [a])
        #expect(machine.deadlineCount == 0)
    }

    @Test("a request due before the parked watcher's target wakes it; a later one does not")
    func earlierDeadlineWakesTheWatcher() throws {
        var machine = Machine()
        _ = try Self.start(&machine, "long", timeout: .seconds(3600))
        let parked = machine.park("watcher", until: .seconds(3600))
        #expect(parked)
        let started = try machine.start("later", params: nil, timeout: .seconds(7200), progress: nil, now: .zero)
        #expect(started.wake == nil)
        let started2 = try machine.start("short", params: nil, timeout: .milliseconds(30), progress: nil, now: .zero)
        #expect(started2.wake == "watcher")
        // Taken: nothing is left to wake.
        let unparked = machine.unpark()
        #expect(unparked == nil)
        // With a request already due earlier, the watcher does not park.
        let parked2 = machine.park("watcher", until: .seconds(3600))
        #expect(!parked2)
    }

    @Test("an idle watcher is woken by the first request with a deadline")
    func idleWatcherWakes() throws {
        var machine = Machine()
        let parked = machine.park("idle", until: nil)
        #expect(parked)
        let started = try machine.start("untimed", params: nil, timeout: nil, progress: nil, now: .zero)
        #expect(started.wake == nil)
        let started2 = try machine.start("timed", params: nil, timeout: .seconds(1), progress: nil, now: .zero)
        #expect(started2.wake == "idle")
    }

    @Test("the end of the transport fails every request with its reason, and every later one")
    func transportEndFailsAll() throws {
        var machine = Machine()
        let waiting = try Self.start(&machine)
        let notYetWaiting = try Self.start(&machine)
        let waited = machine.wait(for: waiting, waiter: 1)
        #expect(waited == nil)
        let reason = MCPClientError.connectionClosed("the server process exited with status 3")
        let failedWaiters = machine.end(with: reason)
        #expect(failedWaiters == [1])
        let waitedLate = machine.wait(for: notYetWaiting, waiter: 2)
        let outcome = try #require(waitedLate)
        #expect(throws: MCPClientError.connectionClosed) { try outcome.get() }
        #expect(throws: MCPClientError.connectionClosed) { try Self.start(&machine) }
        // A second end keeps the first reason for later requests.
        _ = machine.end(with: MCPClientError.timedOut)
        #expect(throws: MCPClientError.connectionClosed) { try Self.start(&machine) }
    }

    @Test("a client that closed refuses new requests")
    func closedByClient() {
        var machine = Machine()
        machine.closeByClient()
        #expect(machine.isClosedByClient)
        #expect(throws: MCPClientError.connectionClosed) { try Self.start(&machine) }
    }

    @Test("a cancelled caller is handed back; a cancellation before the wait is kept; a reply after it is noted")
    func cancellation() throws {
        var machine = Machine()
        let waiting = try Self.start(&machine)
        let waited = machine.wait(for: waiting, waiter: 5)
        #expect(waited == nil)
        let handedBack = machine.cancel(waiting)
        #expect(handedBack == 5)
        let handedBack2 = machine.cancel(waiting)
        #expect(handedBack2 == nil)
        let early = try Self.start(&machine)
        let handedBack3 = machine.cancel(early)
        #expect(handedBack3 == nil)
        let resumed = machine.deliver(.success(Self.value), to: early, unanswered: "after the cancellation")
        #expect(resumed == nil)
        #expect(machine.notesSummary.contains("after the cancellation"))
        let waitedLate = machine.wait(for: early, waiter: 6)
        let outcome = try #require(waitedLate)
        #expect(throws: CancellationError.self) { try outcome.get() }
    }

    @Test("progress reaches the handler of its call, through the token in the request, until the call finishes")
    func progressRouting() throws {
        var machine = Machine()
        let started = try machine.start("tools/call", params: ["name": "slow"], timeout: nil, progress: { _ in }, now: .zero)
        let token = try #require(started.params?["_meta"]?[MCPMetaKey.progressToken])
        #expect(token == started.id.json)
        #expect(started.params?["name"] == "slow")
        #expect(machine.progressHandler(for: token) != nil)
        let other = try machine.start("tools/call", params: nil, timeout: nil, progress: nil, now: .zero)
        #expect(other.params == nil)
        #expect(machine.progressHandler(for: other.id.json) == nil)
        machine.finish(started.id)
        #expect(machine.progressHandler(for: token) == nil)
    }
}
