package import MCPPlatform

extension OneShot {
    /// Waits for the value, whether or not the calling task is cancelled.
    ///
    /// For the waits that must see their event whatever happens to the caller (a child's exit
    /// once it is killed, the end of its output): the wait runs in a task of its own, which the
    /// caller's cancellation does not reach, so it returns only with the value.
    package func waitEvenIfCancelled() async -> Value {
        while true {
            if let value = await Task(operation: { await self.wait() }).value { return value }
        }
    }
}
