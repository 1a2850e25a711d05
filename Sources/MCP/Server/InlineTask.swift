/// The task of a request that was started in place and has not suspended yet, so that its
/// handle (returned by `Task.immediate` only then) is not attached yet: kept so that a
/// cancellation reaches it from its first instruction.
///
/// It holds the runtime's unretained reference, which is only safe while the task is alive.
/// ``InFlightRequests`` guarantees that: the request records it under the table's lock when it
/// begins, removes it under that lock when it finishes (its last step), and the table cancels
/// it only under that lock, so never after the task has ended.
struct InlineTask: @unchecked Sendable {
    private let task: UnsafeCurrentTask

    /// Wraps the calling task, as `withUnsafeCurrentTask` hands it over.
    init(_ task: UnsafeCurrentTask) {
        self.task = task
    }

    /// Cancels the task (only while its request is registered; see above).
    func cancel() {
        task.cancel()
    }

    /// Whether the task has been cancelled.
    var isCancelled: Bool { task.isCancelled }
}
