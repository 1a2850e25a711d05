import MCPCore
import MCPPlatform
import Testing

@testable import MCP

/// The bookkeeping of a connection's running requests, driven synchronously: slots, tickets
/// reused as requests finish, cancellation by id and of everything.
@Suite("In-flight table")
struct InFlightTableTests {
    /// Records the calling task as the request's (as the request itself does when it begins);
    /// returns whether the request was cancelled already. The record is never cancelled by these
    /// tests unless they run it in a task of its own.
    private static func begin(_ table: inout InFlightTable, _ ticket: InFlightTicket) -> Bool {
        withUnsafeCurrentTask { current in
            guard let current else { return false }
            return table.begin(ticket, inline: InlineTask(current))
        }
    }

    /// Admits a request that must get its slots at once; returns its ticket.
    private static func admitted(_ table: inout InFlightTable, _ id: RequestID?, weight: Int) throws -> InFlightTicket {
        let ticket = table.admit(id, weight: weight)
        return try #require(ticket)
    }

    /// Whether a request must wait for its slots.
    private static func refuses(_ table: inout InFlightTable, _ id: RequestID?, weight: Int) -> Bool {
        table.admit(id, weight: weight) == nil
    }

    @Test func requestsTakeSlotsUntilTheLimitAndFinishingFreesThem() throws {
        var table = InFlightTable(limit: 3)
        let first = try Self.admitted(&table, 1, weight: 1)
        let second = try Self.admitted(&table, 2, weight: 2)
        #expect(Self.refuses(&table, 3, weight: 1))
        #expect(table.used == 3)
        #expect(table.running == 2)
        _ = table.finish(second)
        #expect(table.used == 1)
        #expect(table.finished == 1)
        let third = try Self.admitted(&table, 3, weight: 2)
        #expect(third.slot == second.slot, "a finished request's slot is reused")
        #expect(third != second, "under a new serial")
        _ = table.finish(first)
        _ = table.finish(third)
        #expect(table.isEmpty)
        #expect(table.used == 0)
    }

    @Test func aWeightAboveTheLimitCountsAsTheLimit() throws {
        var table = InFlightTable(limit: 4)
        let batch = try Self.admitted(&table, nil, weight: 10_000)
        #expect(table.used == 4)
        #expect(Self.refuses(&table, 1, weight: 1))
        _ = table.finish(batch)
        #expect(table.used == 0)
    }

    @Test func cancellingByIDMarksTheNewestRequestWithThatID() throws {
        var table = InFlightTable(limit: 10)
        let older = try Self.admitted(&table, "same", weight: 1)
        let newer = try Self.admitted(&table, "same", weight: 1)
        let other = try Self.admitted(&table, 7, weight: 1)
        let cancelledAtOnce = Self.begin(&table, newer)
        #expect(cancelledAtOnce == false)
        let cancelled = table.cancel("same")
        #expect(cancelled != nil, "the newest request has begun: its task is what to cancel")
        #expect(table.isCancelled(newer))
        #expect(!table.isCancelled(older))
        #expect(!table.isCancelled(other))
        let unknown = table.cancel("missing")
        #expect(unknown == nil)
        _ = table.finish(newer)
        // With the newest gone, the older request with the id is the one a cancellation reaches.
        let olderTask = table.cancel("same")
        #expect(olderTask == nil, "the older request has not begun: it is only marked")
        #expect(table.isCancelled(older))
    }

    @Test func aRunningRequestIsCancelledThroughTheTaskItRecordedAsItBegan() async throws {
        // A request started with Task.immediate has no handle until it first suspends; what it
        // records as it begins is what a cancellation reaches, until it finishes.
        let table = LockedValue(InFlightTable(limit: 2))
        let ticket = try table.withLock { try Self.admitted(&$0, 9, weight: 1) }
        let began = OneShot<Void>()
        let release = OneShot<Void>()
        let request = Task {
            withUnsafeCurrentTask { current in
                guard let current else { return }
                let cancelAtOnce = table.withLock { $0.begin(ticket, inline: InlineTask(current)) }
                #expect(cancelAtOnce == false)
            }
            began.fulfill(())
            _ = await release.wait()
            let sawIt = Task.isCancelled
            _ = table.withLock { $0.finish(ticket) }
            return sawIt
        }
        _ = await began.wait()
        let cancelled = table.withLock { table in
            let task = table.cancel(9)
            task?.cancel()
            return task != nil
        }
        #expect(cancelled)
        release.fulfill(())
        #expect(await request.value, "the request's own task saw the cancellation")
    }

    @Test func aRequestCancelledBeforeItBeginsIsToldSo() throws {
        var table = InFlightTable(limit: 2)
        let ticket = try Self.admitted(&table, 4, weight: 1)
        let record = table.cancel(4)
        #expect(record == nil, "nothing to cancel yet: the request is only marked")
        let cancelAtOnce = Self.begin(&table, ticket)
        #expect(cancelAtOnce)
    }

    @Test func aRequestCancelledBeforeItBeginsDoesNotRun() async {
        let requests = InFlightRequests(limit: 2)
        let cancelled = await requests.admit(6, weight: 1)
        let running = await requests.admit(7, weight: 1)
        requests.cancel(6)
        let beginsCancelled = await Task { requests.begin(cancelled) }.value
        let beginsRunning = await Task { requests.begin(running) }.value
        #expect(beginsCancelled == false, "cancelled while it waited: it must not run")
        #expect(beginsRunning)
        requests.finish(cancelled)
        requests.finish(running)
        #expect(requests.isEmpty)
    }

    @Test func beginningAFinishedRequestRecordsNothing() throws {
        var table = InFlightTable(limit: 2)
        let ticket = try Self.admitted(&table, 5, weight: 1)
        _ = table.finish(ticket)
        let cancelledAtOnce = Self.begin(&table, ticket)
        #expect(cancelledAtOnce == false)
        #expect(table.isCancelled(ticket), "a finished ticket counts as cancelled")
        let emptied = table.finish(ticket).emptied
        #expect(emptied.isEmpty, "finishing twice changes nothing")
        #expect(table.finished == 1)
    }

    @Test func anOldTicketDoesNotTouchTheRequestThatReusesItsSlot() throws {
        var table = InFlightTable(limit: 1)
        let finished = try Self.admitted(&table, 1, weight: 1)
        _ = table.finish(finished)
        let reusing = try Self.admitted(&table, 2, weight: 1)
        #expect(reusing.slot == finished.slot)
        let stale = Self.begin(&table, finished)
        #expect(stale == false, "the old ticket finds another serial in the slot")
        #expect(table.cancel(2) == nil, "and recorded nothing against the running request")
        #expect(table.isCancelled(reusing))
        #expect(table.isCancelled(finished), "a finished ticket counts as cancelled")
        _ = table.finish(finished)
        #expect(table.running == 1, "finishing the old ticket again does not free the new request's slot")
    }

    @Test func cancellingEverythingCancelsRunningAndLaterRequestsAndLetsTheLoopDrain() throws {
        var table = InFlightTable(limit: 1)
        let running = try Self.admitted(&table, 1, weight: 1)
        _ = Self.begin(&table, running)
        #expect(Self.refuses(&table, 2, weight: 1))
        let (tasks, waiter) = table.cancelAll()
        #expect(tasks.count == 1, "the running request's task")
        #expect(waiter == nil)
        #expect(table.isCancelled(running))
        // Past the limit now: a cancelled connection admits everything, already cancelled.
        let later = try Self.admitted(&table, 2, weight: 1)
        #expect(table.isCancelled(later))
    }

    @Test func theLoopWaitingForASlotIsResumedWhenOneFrees() async throws {
        var table = InFlightTable(limit: 1)
        let running = try Self.admitted(&table, 1, weight: 1)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let grantedAtOnce = table.waitForSlots(1, continuation)
            #expect(grantedAtOnce == false)
            // The finish hands the slot to the waiter and returns its continuation to resume.
            let handed = table.finish(running).waiter
            #expect(handed != nil)
            handed?.resume()
        }
        #expect(table.used == 1, "the freed slot went to the waiting loop")
    }

    @Test func waitersForAnEmptyTableAreReturnedByTheLastFinish() async throws {
        var table = InFlightTable(limit: 4)
        let first = try Self.admitted(&table, 1, weight: 1)
        let second = try Self.admitted(&table, 2, weight: 1)
        var emptiedCount = -1
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let emptyNow = table.waitUntilEmpty(continuation)
            #expect(emptyNow == false)
            let emptiedByFirst = table.finish(first).emptied
            #expect(emptiedByFirst.isEmpty)
            let emptied = table.finish(second).emptied
            emptiedCount = emptied.count
            for waiter in emptied { waiter.resume() }
        }
        #expect(emptiedCount == 1)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let emptyAlready = table.waitUntilEmpty(continuation)
            #expect(emptyAlready)
            continuation.resume()
        }
    }
}
