public import MCPCore
internal import MCPPlatform

/// Limits on the size of the replies to particular requests, which a transport enforces while
/// it reads: a reply that passes its request's limit stops being accumulated at once, not after
/// it has arrived whole (see ``Transport/resultLimits``).
///
/// A client registers a limit before it sends the request (``register(_:for:)``) and removes it
/// when the request ends (``remove(_:)``). A transport reading a reply looks its id up
/// (``limit(for:)``) as soon as it knows it; a reply over its limit is then reported as an
/// ``InboundMessage/invalid(_:)`` whose `apparentID` is the request's id, and the transport
/// records that it cut it (``noteExceeded(_:limit:)``) so that the client can tell its caller
/// why (``takeExceeded(_:)``).
///
/// The stream transports find a growing line's id in its first 4 KiB (every MCP SDK writes it
/// before the result); a reply whose id comes later is held up to the connection's frame limit
/// and refused once it is complete. The HTTP transport knows the id of the request whose POST
/// it reads, and stops reading the body at the limit.
public final class ResultLimits: Sendable {
    private struct State {
        var limits: [RequestID: Int] = [:]
        var exceeded: [RequestID: Int] = [:]
    }

    private let state = LockedValue(State())

    /// An empty table.
    public init() {}

    /// Whether no limit is registered (a reader then does no lookups).
    public var isEmpty: Bool {
        state.withLock { $0.limits.isEmpty }
    }

    /// Limits the reply to `id` to `limit` bytes (at least 1).
    public func register(_ limit: Int, for id: RequestID) {
        state.withLock { $0.limits[id] = max(1, limit) }
    }

    /// Forgets the limit of `id`, and whether its reply was cut.
    public func remove(_ id: RequestID) {
        state.withLock { state in
            state.limits[id] = nil
            state.exceeded[id] = nil
        }
    }

    /// The limit on the reply to `id`, if one is registered.
    public func limit(for id: RequestID) -> Int? {
        state.withLock { $0.limits[id] }
    }

    /// Records that the reply to `id` passed its limit and was thrown away.
    public func noteExceeded(_ id: RequestID, limit: Int) {
        state.withLock { state in
            if state.limits[id] != nil { state.exceeded[id] = limit }
        }
    }

    /// The limit the reply to `id` passed, once, if it was cut.
    public func takeExceeded(_ id: RequestID) -> Int? {
        state.withLock { $0.exceeded.removeValue(forKey: id) }
    }
}
