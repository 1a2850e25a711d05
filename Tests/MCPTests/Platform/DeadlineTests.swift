import MCPPlatform
import Testing

/// The one deadline primitive, on a manual clock: time moves only when a test says so.
@Suite("Deadlines", .timeLimit(.minutes(1)))
struct DeadlineTests {
    private struct Late: Error, Equatable {}

    @Test("an operation that answers before its deadline gives its result")
    func answersInTime() async throws {
        let clock = ManualClock()
        let answer = try await withDeadline(after: .seconds(5), clock: DeadlineClock(clock)) { 42 }
        #expect(answer == 42)
    }

    @Test("the deadline fires when the clock reaches it, even for an operation that ignores cancellation")
    func firesAtTheDeadline() async throws {
        let clock = ManualClock()
        let released = OneShot<Void>()
        let race = Task {
            try await withDeadline(after: .seconds(5), clock: DeadlineClock(clock), timeout: { Late() }) {
                // Ignores cancellation: only `released` ends it.
                await withTaskCancellationHandler {
                    _ = await released.wait()
                } onCancel: {
                }
            }
        }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(4))
        clock.advance(by: .seconds(1))
        await #expect(throws: Late.self) { try await race.value }
        released.fulfill(())
    }

    @Test("short of the deadline, the operation still has its time")
    func notBeforeTheDeadline() async throws {
        let clock = ManualClock()
        let go = OneShot<Int>()
        let race = Task { try await withDeadline(after: .seconds(5), clock: DeadlineClock(clock)) { await go.wait() ?? -1 } }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(4))
        go.fulfill(7)
        #expect(try await race.value == 7)
    }

    @Test("without a custom error the timeout is DeadlineExceeded with the duration")
    func defaultError() async throws {
        let clock = ManualClock()
        let race = Task {
            try await withDeadline(after: .seconds(2), clock: DeadlineClock(clock)) { try await clock.sleep(for: .seconds(60)) }
        }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        await #expect(throws: DeadlineExceeded(duration: .seconds(2))) { try await race.value }
    }

    @Test("cancelling the caller ends the race with CancellationError")
    func callerCancelled() async throws {
        let clock = ManualClock()
        let race = Task {
            try await withDeadline(after: .seconds(2), clock: DeadlineClock(clock)) { try await clock.sleep(for: .seconds(60)) }
        }
        await clock.waitForSleepers(2)
        race.cancel()
        await #expect(throws: CancellationError.self) { try await race.value }
    }

    @Test("OneShot.wait(within:) gives the value, or nil at the deadline", arguments: [true, false])
    func oneShotWithin(fulfilled: Bool) async {
        let clock = ManualClock()
        let shot = OneShot<String>()
        let waiter = Task { await shot.wait(within: .seconds(1), clock: DeadlineClock(clock)) }
        await clock.waitForSleepers()
        if fulfilled { shot.fulfill("set") } else { clock.advance(by: .seconds(1)) }
        #expect(await waiter.value == (fulfilled ? "set" : nil))
    }

    @Test("an idle timeout fires only after a quiet spell; progress starts the spell again")
    func idleTimeout() async throws {
        let clock = ManualClock()
        let progressed = OneShot<Void>()
        let touched = OneShot<Void>()
        let finish = OneShot<Void>()
        let run = Task {
            try await withIdleTimeout(.seconds(10), clock: DeadlineClock(clock), timeout: { Late() }) { watch in
                _ = await progressed.wait()
                watch.touch()
                touched.fulfill(())
                _ = await finish.wait()
                return "done"
            }
        }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(8))
        progressed.fulfill(())
        _ = await touched.wait()
        // The watch re-arms at 18 s once it wakes at 10 s and sees the progress at 8 s.
        clock.advance(by: .seconds(2))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(7))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        await #expect(throws: Late.self) { try await run.value }
        finish.fulfill(())
    }

    @Test("a held idle watch does not expire while held")
    func heldWatch() async throws {
        let clock = ManualClock()
        let watch = IdleWatch(limit: .seconds(1), clock: DeadlineClock(clock))
        watch.hold()
        let expiry = Task { try await watch.expiry() }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        await clock.waitForSleepers()
        #expect(clock.sleeperCount == 1)
        watch.release()
        clock.advance(by: .seconds(1))
        try await expiry.value
    }
}
