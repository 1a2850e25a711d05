/// When a ``BoundedQueueState`` queues a message, and when it lets waiting producers go on.
@usableFromInline
package enum BoundedQueueAdmission: Sendable {
    /// A message is queued while the queue is under both bounds, so the last one may pass
    /// them (the queue holds fewer than the byte bound plus one message); waiting producers
    /// are admitted, and room waiters woken, once the consumer has drained the queue to half
    /// of both bounds. Under a steady flood this wakes producers once per half queue, not
    /// once per message: for readers of streams and pipes.
    case underBounds
    /// A message is queued when it fits within both bounds (or the queue is empty, so one
    /// message larger than the byte bound still passes alone); waiting producers are
    /// admitted as soon as theirs fits, and room waiters woken as soon as the queue is
    /// under both bounds. The queue never holds more than the byte bound but for one
    /// message alone: for messages handed over in memory.
    case whenFits
}
