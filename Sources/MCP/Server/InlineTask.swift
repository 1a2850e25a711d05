/// The task of a running request, as the request records it when it begins: what a
/// cancellation reaches, from the request's first instruction (a task started in place with
/// `Task.immediate` has no handle until it first suspends, so no handle is kept at all).
///
/// It holds the runtime's task as a bare address, not a counted reference: recording it,
/// clearing it and copying the table that holds it then cost no reference counting and no
/// generic value operations (a counted reference cost about 3 % of a call's CPU at 64 in
/// flight). That is only safe while the task is alive. ``InFlightRequests`` guarantees it: the
/// request records it under the table's lock when it begins, removes it under that lock when
/// it finishes (its last step), and the table cancels it only under that lock, so never after
/// the task has ended.
struct InlineTask: @unchecked Sendable {
    private let address: UnsafeRawPointer

    /// Wraps the calling task, as `withUnsafeCurrentTask` hands it over.
    init(_ task: UnsafeCurrentTask) {
        // `UnsafeCurrentTask` is one reference to the runtime's task; `unsafeBitCast` checks
        // the sizes match.
        address = unsafeBitCast(task, to: UnsafeRawPointer.self)
    }

    /// The task, valid only while its request is registered (see above).
    private var task: UnsafeCurrentTask {
        unsafeBitCast(address, to: UnsafeCurrentTask.self)
    }

    /// Cancels the task (only while its request is registered; see above).
    func cancel() {
        task.cancel()
    }

    /// Whether the task has been cancelled.
    var isCancelled: Bool { task.isCancelled }
}
