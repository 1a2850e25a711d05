internal import MCPPlatform

/// Closes a descriptor when the last of its users (the reader, the writer) is done with it.
final class DescriptorOwner: Sendable {
    private struct State {
        var users: Int
        var disowned = false
    }

    private let state: LockedValue<State>
    let descriptor: Int32

    init(_ descriptor: Int32, users: Int) {
        self.descriptor = descriptor
        state = LockedValue(State(users: users))
    }

    /// One user is done; the last one closes the descriptor, unless it was disowned.
    func release() {
        let mustClose = state.withLock { state in
            state.users -= 1
            return state.users == 0 && !state.disowned
        }
        if mustClose { POSIX.close(descriptor) }
    }

    /// Gives the descriptor back to whoever passed it in: it is never closed here. Used when
    /// a transport fails to start, so that its caller still owns what it passed.
    func disown() {
        state.withLock { $0.disowned = true }
    }
}
