/// The task of a running request, as the request records it when it begins: what a
/// cancellation reaches, from the request's first instruction (a task started in place with
/// `Task.immediate` has no handle until it first suspends, so no handle is kept at all).
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
