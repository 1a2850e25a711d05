internal import MCPPlatform

/// Closes a descriptor when the last of its users (the reader, the writer) is done with it.
final class DescriptorOwner: @unchecked Sendable {
    // Safety: `users` and `disowned` are read and written with `lock` held.
    private let lock = Lock()
    private var users: Int
    private var disowned = false
    let descriptor: Int32

    init(_ descriptor: Int32, users: Int) {
        self.descriptor = descriptor
        self.users = users
    }

    /// One user is done; the last one closes the descriptor, unless it was disowned.
    func release() {
        let mustClose = lock.withLock {
            users -= 1
            return users == 0 && !disowned
        }
        if mustClose { POSIX.close(descriptor) }
    }

    /// Gives the descriptor back to whoever passed it in: it is never closed here. Used when
    /// a transport fails to start, so that its caller still owns what it passed.
    func disown() {
        lock.withLock { disowned = true }
    }
}
