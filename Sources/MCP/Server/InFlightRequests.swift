internal import MCPCore
internal import MCPPlatform

/// The requests of one connection that are running: their tasks, so that a cancellation can
/// reach them, and the count of slots they hold against the connection's limit.
///
/// Each request runs in a task the connection's loop starts and owns: the request records its
/// task here as it begins (``begin(_:)``) and removes it as it finishes, and the loop cancels
/// it on `notifications/cancelled` (by the request's id), at the end of the grace period, or
/// when the loop itself is cancelled, and waits for every request before it returns. A request
/// cancelled before it begins never runs.
///
/// The bookkeeping is ``InFlightTable``, a state machine under one lock; this class adds the
/// waiting (for a free slot, for the last request to finish) and acts on what the table returns.
final class InFlightRequests: Sendable {
    private let state: LockedValue<InFlightTable>

    init(limit: Int) {
        state = LockedValue(InFlightTable(limit: limit))
    }

    var isEmpty: Bool { state.withLock { $0.isEmpty } }

    /// How many requests have finished on this connection.
    var finishedCount: Int { state.withLock { $0.finished } }

    /// Takes `weight` slots for a request with `id` and registers it; returns its ticket.
    /// Waits while the slots are taken (the loop is the only caller), and returns at once
    /// after ``cancelAll()``, so that a cancelled loop drains quickly.
    ///
    /// Runs on the caller's executor (the connection's loop): when slots are free, admitting a
    /// request costs one lock, not a hop to another executor and back.
    nonisolated(nonsending) func admit(_ id: RequestID?, weight: Int) async -> InFlightTicket {
        if let ticket = state.withLock({ $0.admit(id, weight: weight) }) { return ticket }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { $0.waitForSlots(weight, continuation) }
            if granted { continuation.resume() }
        }
        return state.withLock { $0.register(id, weight: weight) }
    }

    /// Admits the request if its slots are free now; `nil` when it would have to wait (then
    /// ``admit(_:weight:)`` it from the loop).
    func admitNow(_ id: RequestID?, weight: Int) -> InFlightTicket? {
        state.withLock { $0.admit(id, weight: weight) }
    }

    /// Called by a request as it begins, from its own task; returns `false` when the request
    /// was cancelled before it began (it must not run, only ``finish(_:)``).
    ///
    /// From then until it finishes, a cancellation reaches the task through this record, from
    /// the request's first instruction: a tool that computes and checks `Task.isCancelled`
    /// without suspending sees it. (A request started in place gets its task handle only
    /// when it first suspends, so the handle could not serve.)
    func begin(_ ticket: InFlightTicket) -> Bool {
        withUnsafeCurrentTask { current in
            guard let current else { return !isCancelled(ticket) }
            let task = InlineTask(current)
            return state.withLock { !$0.begin(ticket, inline: task) }
        }
    }

    /// Cancels the request with `id`, if it is running; its response will not be sent.
    func cancel(_ id: RequestID) {
        state.withLock { table in
            // Only under the lock: the request removes its record before it ends.
            table.cancel(id)?.cancel()
        }
    }

    /// Cancels every request, now and as they are registered, and frees the loop if it waits.
    func cancelAll() {
        let waiter = state.withLock { table in
            let (tasks, waiter) = table.cancelAll()
            // Only under the lock, as above.
            for task in tasks { task.cancel() }
            return waiter
        }
        waiter?.resume()
    }

    /// Whether the request was cancelled (its response must not be sent).
    func isCancelled(_ ticket: InFlightTicket) -> Bool {
        state.withLock { $0.isCancelled(ticket) }
    }

    /// Removes a finished request and frees its slots.
    func finish(_ ticket: InFlightTicket) {
        let (waiter, emptied) = state.withLock { $0.finish(ticket) }
        waiter?.resume()
        for continuation in emptied { continuation.resume() }
    }

    /// Returns once no request is running.
    func waitUntilEmpty() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let empty = state.withLock { $0.waitUntilEmpty(continuation) }
            if empty { continuation.resume() }
        }
    }
}

/// A running request's place in an ``InFlightTable``: its slot and the serial of its admission.
struct InFlightTicket: Hashable, Sendable {
    let slot: Int
    let serial: Int

    /// Its slot, if the request still runs under this ticket in a table whose slots hold
    /// `serials`; `nil` once it has finished (whether or not another request now uses the slot).
    ///
    /// Takes the one array it reads rather than the table: the table holds
    /// `CheckedContinuation`s, whose layout is resilient, and a non-mutating method of the table
    /// called from a mutating one made the compiler copy the whole table first (every array
    /// retained and released, through value witnesses: 2 % of a call's CPU).
    func slot(in serials: [Int]) -> Int? {
        guard slot >= 0, slot < serials.count, serials[slot] == serial else { return nil }
        return slot
    }
}

/// The bookkeeping of ``InFlightRequests``: which requests run, the slots they hold, who waits.
///
/// A request's ticket names its slot in a table that is reused as requests finish, so admitting
/// and finishing a request costs no hashing and, once the table has grown to the connection's
/// peak, no allocation. The ticket also carries the request's serial, so that a call made with
/// the ticket of a request that has finished never touches the request that reuses its slot.
/// Cancelling by request id scans the running requests (at most the connection's limit);
/// cancellations are rare.
///
/// The slots are kept as parallel arrays, one per field: the calls every request makes (begin,
/// is it cancelled, finish) touch a serial and a flag, and never copy the request's id.
struct InFlightTable {
    let limit: Int
    /// The serial of the request in each slot, 0 for a free slot. Serials start at 1.
    private var serials: [Int] = []
    private var ids: [RequestID?] = []
    private var weights: [Int] = []
    /// The request's own task, from when it begins until it finishes (cancelled only under the
    /// table's lock).
    private var inlineTasks: [InlineTask?] = []
    private var cancelledFlags: [Bool] = []
    private var freeSlots: [Int] = []
    private var serial = 0
    private(set) var running = 0
    private(set) var used = 0
    private(set) var finished = 0
    private(set) var allCancelled = false
    private var slotWaiter: (weight: Int, continuation: CheckedContinuation<Void, Never>)?
    private var emptyWaiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var isEmpty: Bool { running == 0 }

    /// Takes `weight` slots and registers the request, if the slots are free (or everything was
    /// cancelled, so that the loop drains); returns its ticket, or `nil` when it must wait.
    mutating func admit(_ id: RequestID?, weight: Int) -> InFlightTicket? {
        guard takeSlots(weight) else { return nil }
        return register(id, weight: weight)
    }

    /// Takes `weight` slots if they are free now (returns `true`), or records `continuation`
    /// to be resumed once they are taken for it.
    mutating func waitForSlots(_ weight: Int, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        if takeSlots(weight) { return true }
        slotWaiter = (min(weight, limit), continuation)
        return false
    }

    /// Registers a request whose slots were taken; returns its ticket.
    mutating func register(_ id: RequestID?, weight: Int) -> InFlightTicket {
        serial += 1
        running += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            ids[slot] = id
            weights[slot] = min(weight, limit)
            cancelledFlags[slot] = allCancelled
        } else {
            slot = serials.count
            serials.append(0)
            ids.append(id)
            weights.append(min(weight, limit))
            inlineTasks.append(nil)
            cancelledFlags.append(allCancelled)
        }
        serials[slot] = serial
        return InFlightTicket(slot: slot, serial: serial)
    }

    /// Records the task of a request that begins running; returns whether the request was
    /// cancelled already (it must not run then).
    mutating func begin(_ ticket: InFlightTicket, inline task: InlineTask) -> Bool {
        guard let slot = ticket.slot(in: serials) else { return false }
        inlineTasks[slot] = task
        return cancelledFlags[slot]
    }

    /// Marks the newest running request with `id` cancelled; returns what to cancel.
    mutating func cancel(_ id: RequestID) -> InlineTask? {
        var newest: (slot: Int, serial: Int)?
        for slot in serials.indices where serials[slot] != 0 && ids[slot] == id {
            if newest.map({ serials[slot] > $0.serial }) ?? true { newest = (slot, serials[slot]) }
        }
        guard let slot = newest?.slot else { return nil }
        cancelledFlags[slot] = true
        return inlineTasks[slot]
    }

    /// Marks every request cancelled, now and as they are registered; returns what to cancel
    /// and the loop's waiter, which now gets its slots (the loop drains).
    mutating func cancelAll() -> (tasks: [InlineTask], waiter: CheckedContinuation<Void, Never>?) {
        allCancelled = true
        var tasks: [InlineTask] = []
        for slot in serials.indices where serials[slot] != 0 {
            cancelledFlags[slot] = true
            if let task = inlineTasks[slot] { tasks.append(task) }
        }
        guard let waiter = slotWaiter else { return (tasks, nil) }
        slotWaiter = nil
        used += waiter.weight
        return (tasks, waiter.continuation)
    }

    /// Whether the request was cancelled (a finished or unknown ticket counts as cancelled).
    func isCancelled(_ ticket: InFlightTicket) -> Bool {
        guard let slot = ticket.slot(in: serials) else { return true }
        return cancelledFlags[slot]
    }

    /// Removes a finished request and frees its slots; returns the loop's waiter if it now
    /// gets its slots, and the waiters for an empty table if this was the last request.
    mutating func finish(
        _ ticket: InFlightTicket
    ) -> (waiter: CheckedContinuation<Void, Never>?, emptied: [CheckedContinuation<Void, Never>]) {
        guard let slot = ticket.slot(in: serials) else { return (nil, []) }
        serials[slot] = 0
        ids[slot] = nil
        inlineTasks[slot] = nil
        freeSlots.append(slot)
        running -= 1
        used -= weights[slot]
        finished += 1
        var waiter: CheckedContinuation<Void, Never>?
        if let weight = slotWaiter?.weight, used + weight <= limit {
            used += weight
            waiter = slotWaiter?.continuation
            slotWaiter = nil
        }
        guard running == 0, !emptyWaiters.isEmpty else { return (waiter, []) }
        let emptied = emptyWaiters
        emptyWaiters = []
        return (waiter, emptied)
    }

    /// Returns `true` when no request runs; otherwise records `continuation` for when none does.
    mutating func waitUntilEmpty(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        if running == 0 { return true }
        emptyWaiters.append(continuation)
        return false
    }

    /// Takes `weight` slots if they are free (or everything was cancelled); returns whether it did.
    private mutating func takeSlots(_ weight: Int) -> Bool {
        let weight = min(weight, limit)
        guard used + weight <= limit || allCancelled else { return false }
        used += weight
        return true
    }
}
