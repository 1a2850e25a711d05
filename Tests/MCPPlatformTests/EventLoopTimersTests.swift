import MCPPlatform
import Testing

/// The event loop's timers as a state machine: plain durations stand for the clock.
@Suite("Event loop timers")
struct EventLoopTimersTests {
    @Test func timersFallDueInDeadlineOrderAndEqualDeadlinesInTheOrderTheyWereSet() {
        var timers = EventLoopTimers<String>()
        _ = timers.add("c", at: .milliseconds(30))
        _ = timers.add("a", at: .milliseconds(10))
        _ = timers.add("b1", at: .milliseconds(20))
        _ = timers.add("b2", at: .milliseconds(20))
        #expect(timers.nextDeadline == .milliseconds(10))
        let none = timers.takeDue(at: .milliseconds(9))
        let early = timers.takeDue(at: .milliseconds(20))
        #expect(none.isEmpty)
        #expect(early == ["a", "b1", "b2"])
        #expect(timers.count == 1)
        let late = timers.takeDue(at: .seconds(1))
        #expect(late == ["c"])
        #expect(timers.isEmpty && timers.nextDeadline == nil)
    }

    @Test func onlyATimerThatFallsDueFirstAsksToWakeTheLoop() {
        var timers = EventLoopTimers<Int>()
        let first = timers.add(1, at: .milliseconds(10)).isEarliest
        let later = timers.add(2, at: .milliseconds(15)).isEarliest
        let equal = timers.add(3, at: .milliseconds(10)).isEarliest
        let earlier = timers.add(4, at: .milliseconds(5)).isEarliest
        #expect(first, "the loop knew of no deadline")
        #expect(!later, "the loop wakes for the earlier one anyway")
        #expect(!equal, "due with the earliest, after it")
        #expect(earlier)
    }

    @Test func aCancelledTimerNeverFallsDue() {
        var timers = EventLoopTimers<Int>()
        let first = timers.add(1, at: .milliseconds(10)).id
        _ = timers.add(2, at: .milliseconds(20))
        let cancelled = timers.cancel(first)
        let again = timers.cancel(first)
        #expect(cancelled)
        #expect(!again, "cancelled once")
        #expect(timers.nextDeadline == .milliseconds(20))
        let due = timers.takeDue(at: .seconds(1))
        #expect(due == [2])
    }

    @Test(
        "the wait lasts until the first deadline, rounded up to whole milliseconds",
        arguments: [
            (Duration.zero, Duration.milliseconds(10), Int32(10)),
            (.milliseconds(9), .milliseconds(10), 1),
            (.microseconds(9_001), .milliseconds(10), 1),
            (.microseconds(8_999), .milliseconds(10), 2),
            (.nanoseconds(1), .milliseconds(1), 1),
            (.milliseconds(10), .milliseconds(10), 0),
            (.milliseconds(11), .milliseconds(10), 0),
            (.zero, .seconds(10_000_000), Int32.max),
        ])
    func waitMilliseconds(now: Duration, deadline: Duration, expected: Int32) {
        var timers = EventLoopTimers<Int>()
        #expect(timers.waitMilliseconds(at: now) == nil, "no timer: wait for events alone")
        _ = timers.add(0, at: deadline)
        #expect(timers.waitMilliseconds(at: now) == expected)
    }
}
