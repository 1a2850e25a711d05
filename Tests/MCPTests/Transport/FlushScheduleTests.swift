import Testing

@testable import MCP

@Suite("Flush schedule: which flushes wait to run on the loop")
struct FlushScheduleTests {
    @Test("Bytes from the loop's own jobs queue one flush behind them; more bytes meanwhile ask for nothing")
    func queuedFlushIsShared() {
        var schedule = FlushSchedule()
        #expect(schedule.request(beforeSleeping: false) == .queue)
        #expect(schedule.request(beforeSleeping: false) == .none)
        #expect(schedule.request(beforeSleeping: true) == .none, "a queued flush runs no later than one before sleeping")
        schedule.started(beforeSleeping: false)
        #expect(schedule.request(beforeSleeping: false) == .queue, "bytes after the flush started need another")
    }

    @Test("Answers that others will follow wait for one flush before the loop sleeps")
    func beforeSleepingIsShared() {
        var schedule = FlushSchedule()
        #expect(schedule.request(beforeSleeping: true) == .beforeSleeping)
        #expect(schedule.request(beforeSleeping: true) == .none)
        schedule.started(beforeSleeping: true)
        #expect(schedule.request(beforeSleeping: true) == .beforeSleeping)
    }

    @Test("Bytes that must not wait for the loop to idle queue a flush even while one waits for sleep")
    func queueOvertakesBeforeSleeping() {
        var schedule = FlushSchedule()
        #expect(schedule.request(beforeSleeping: true) == .beforeSleeping)
        #expect(schedule.request(beforeSleeping: false) == .queue)
        schedule.started(beforeSleeping: false)
        schedule.started(beforeSleeping: true)
        #expect(schedule == FlushSchedule())
    }

    @Test("A sleeping loop refuses: a queued flush (which wakes it) takes the place of the one before sleeping")
    func refusedBecomesQueued() {
        var schedule = FlushSchedule()
        #expect(schedule.request(beforeSleeping: true) == .beforeSleeping)
        // Another answer meanwhile relies on the flush being asked for.
        #expect(schedule.request(beforeSleeping: true) == .none)
        #expect(schedule.refused() == .queue)
        #expect(!schedule.waitsForSleep)
        #expect(schedule.request(beforeSleeping: true) == .none, "the queued flush writes these bytes too")
        schedule.started(beforeSleeping: false)
        #expect(schedule == FlushSchedule())
    }

    @Test("A refusal while a flush is already queued asks for nothing more")
    func refusedWhileQueued() {
        var schedule = FlushSchedule()
        #expect(schedule.request(beforeSleeping: true) == .beforeSleeping)
        #expect(schedule.request(beforeSleeping: false) == .queue)
        #expect(schedule.refused() == .none)
        schedule.started(beforeSleeping: false)
        #expect(schedule == FlushSchedule())
    }
}
