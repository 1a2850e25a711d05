/// One descriptor registered with the ``EventLoop``: its interest can change from any thread,
/// and ``cancel()`` ends it.
///
/// An empty interest removes the descriptor from the kernel's set (and a later non-empty one
/// adds it again): a hung-up descriptor is reported whatever the interest, so one whose
/// reading is paused (its consumer is behind) must not stay in the set, or the loop would
/// be woken for it again and again.
package final class EventLoopRegistration: Sendable {
    private struct State {
        var interest: EventLoop.Interest = []
        /// The descriptor is in the kernel's set.
        var added = false
        var cancelled = false
    }

    private let loop: EventLoop
    private let descriptor: Int32
    private let token: UInt64
    private let state = LockedValue(State())

    init(loop: EventLoop, descriptor: Int32, token: UInt64) {
        self.loop = loop
        self.descriptor = descriptor
        self.token = token
    }

    /// The interest now asked for.
    package var interest: EventLoop.Interest { state.withLock { $0.interest } }

    /// Asks for `interest` from now on (an empty set: no calls until asked again). Does
    /// nothing after ``cancel()``.
    package func update(_ interest: EventLoop.Interest) {
        // The kernel call is made under the registration's lock, so that two threads changing
        // the interest at once leave the kernel with the last one.
        state.withLock { state in
            guard !state.cancelled, state.interest != interest else { return }
            state.interest = interest
            let operation: Int32
            switch (state.added, interest.isEmpty) {
            case (false, true): return
            case (false, false): operation = 0
            case (true, true): operation = 2
            case (true, false): operation = 1
            }
            do throws(Errno) {
                try loop.control(operation, descriptor, interest, token: token)
                state.added = !interest.isEmpty
            } catch {
                // Only a descriptor closed behind the loop's back fails here; its owner learns
                // of it from its next read or write.
            }
        }
    }

    /// Adds `interest` to what is asked for.
    package func insert(_ interest: EventLoop.Interest) {
        update(self.interest.union(interest))
    }

    /// Takes `interest` out of what is asked for.
    package func remove(_ interest: EventLoop.Interest) {
        update(self.interest.subtracting(interest))
    }

    /// Ends the registration: the descriptor leaves the kernel's set now, the handler is
    /// called no more, and its `deregistered()` runs on the loop's thread (where the
    /// descriptor may be closed). Calling it again does nothing.
    package func cancel() {
        let proceed = state.withLock { state in
            guard !state.cancelled else { return false }
            state.cancelled = true
            if state.added {
                try? loop.control(2, descriptor, [], token: token)
                state.added = false
            }
            return true
        }
        if proceed { loop.remove(token: token) }
    }

    /// The first interest, made while registering: unlike ``update(_:)`` its failure is the
    /// caller's. The descriptor is added even for an empty interest (and taken out again at
    /// once), so that one the kernel cannot poll is refused now, not at its first use.
    func start(_ interest: EventLoop.Interest) throws(Errno) {
        let outcome: Result<Void, Errno> = state.withLock { state in
            state.interest = interest
            do throws(Errno) {
                try loop.control(0, descriptor, interest, token: token)
                if interest.isEmpty {
                    try loop.control(2, descriptor, [], token: token)
                } else {
                    state.added = true
                }
            } catch {
                return .failure(error)
            }
            return .success(())
        }
        try outcome.get()
    }

    /// Registering failed after the descriptor was added: takes it out again, without a
    /// `deregistered()` call (the handler was never told of the registration).
    func abandon() {
        state.withLock { state in
            state.cancelled = true
            if state.added { try? loop.control(2, descriptor, [], token: token) }
            state.added = false
        }
    }
}
