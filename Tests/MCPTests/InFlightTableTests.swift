import MCPCore
import MCPPlatform
import Testing

@testable import MCP

/// The bookkeeping of a connection's running requests, driven synchronously: slots, tickets
/// reused as requests finish, cancellation by id and of everything.
@Suite("In-flight table")
struct InFlightTableTests {
    /// A task that does nothing, to attach and cancel.
    private static func idleTask() -> Task<Void, Never> {
        Task {}
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
        let task = Self.idleTask()
        let cancelOnAttach = table.attach(task, to: newer)
        #expect(cancelOnAttach == false)
        let cancelled = table.cancel("same")
        #expect(cancelled.tasks == [task])
        #expect(table.isCancelled(newer))
        #expect(!table.isCancelled(older))
        #expect(!table.isCancelled(other))
        let unknown = table.cancel("missing")
        #expect(unknown.tasks.isEmpty && unknown.inline.isEmpty)
        _ = table.finish(newer)
        // With the newest gone, the older request with the id is the one a cancellation reaches.
        let olderTask = table.cancel("same")
        #expect(olderTask.tasks.isEmpty, "the older request has no task attached")
        #expect(table.isCancelled(older))
    }

    @Test func aRequestCancelledBeforeItsTaskIsAttachedIsCancelledOnAttach() throws {
        var table = InFlightTable(limit: 2)
        let ticket = try Self.admitted(&table, 5, weight: 1)
        let notYetAttached = table.cancel(5)
        #expect(notYetAttached.tasks.isEmpty && notYetAttached.inline.isEmpty)
        let cancelOnAttach = table.attach(Self.idleTask(), to: ticket)
        #expect(cancelOnAttach)
    }

    @Test func aRequestRunningInPlaceIsCancelledThroughItsOwnTaskUntilItsHandleIsAttached() async throws {
        // A request started with Task.immediate has no handle until it first suspends; what it
        // records as it begins is what a cancellation reaches meanwhile.
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
            let cancellation = table.cancel(9)
            for task in cancellation.inline { task.cancel() }
            return cancellation
        }
        #expect(cancelled.inline.count == 1 && cancelled.tasks.isEmpty)
        release.fulfill(())
        #expect(await request.value, "the request's own task saw the cancellation")
    }

    @Test func aRequestThatBeginsAfterItsHandleIsAttachedRecordsNothing() throws {
        var table = InFlightTable(limit: 2)
        let ticket = try Self.admitted(&table, 3, weight: 1)
        let task = Self.idleTask()
        _ = table.attach(task, to: ticket)
        withUnsafeCurrentTask { current in
            if let current { _ = table.begin(ticket, inline: InlineTask(current)) }
        }
        let cancellation = table.cancel(3)
        #expect(cancellation.tasks == [task])
        #expect(cancellation.inline.isEmpty, "the handle, which keeps the task alive, is what is cancelled")
        task.cancel()
    }

    @Test func aRequestCancelledBeforeItBeginsIsToldSo() throws {
        var table = InFlightTable(limit: 2)
        let ticket = try Self.admitted(&table, 4, weight: 1)
        _ = table.cancel(4)
        var cancelAtOnce = false
        withUnsafeCurrentTask { current in
            if let current { cancelAtOnce = table.begin(ticket, inline: InlineTask(current)) }
        }
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

    @Test func attachingToAFinishedRequestDoesNothing() throws {
        var table = InFlightTable(limit: 2)
        let ticket = try Self.admitted(&table, 5, weight: 1)
        _ = table.finish(ticket)
        let cancelOnAttach = table.attach(Self.idleTask(), to: ticket)
        #expect(cancelOnAttach == false)
        #expect(table.isCancelled(ticket), "a finished ticket counts as cancelled: nothing is sent for it")
        let emptied = table.finish(ticket).emptied
        #expect(emptied.isEmpty, "finishing twice changes nothing")
        #expect(table.finished == 1)
    }

    @Test func aLateTaskIsNotRecordedAgainstTheRequestThatReusesItsSlot() throws {
        // A request started in place can finish before its task handle is attached; by then
        // the loop may have admitted another request into the same slot.
        var table = InFlightTable(limit: 1)
        let finished = try Self.admitted(&table, 1, weight: 1)
        _ = table.finish(finished)
        let reusing = try Self.admitted(&table, 2, weight: 1)
        #expect(reusing.slot == finished.slot)
        let own = Self.idleTask()
        #expect(table.attach(own, to: reusing) == false)
        #expect(table.attach(Self.idleTask(), to: finished) == false, "the late task finds another serial in the slot")
        #expect(table.cancel(2).tasks == [own], "the slot still holds the running request's own task")
        #expect(table.isCancelled(reusing))
        #expect(table.isCancelled(finished), "a finished ticket counts as cancelled")
        _ = table.finish(finished)
        #expect(table.running == 1, "finishing the old ticket again does not free the new request's slot")
        own.cancel()
    }

    @Test func cancellingEverythingCancelsRunningAndLaterRequestsAndLetsTheLoopDrain() throws {
        var table = InFlightTable(limit: 1)
        let running = try Self.admitted(&table, 1, weight: 1)
        let task = Self.idleTask()
        _ = table.attach(task, to: running)
        #expect(Self.refuses(&table, 2, weight: 1))
        let (cancellation, waiter) = table.cancelAll()
        #expect(cancellation.tasks == [task])
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
