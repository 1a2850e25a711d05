internal import MCPCore
internal import MCPPlatform

/// Limits on the size of the replies to particular requests, which a transport's reading
/// thread enforces while it reads: a reply that passes its request's limit stops being
/// accumulated at once, not after it has arrived whole.
///
/// A client registers a limit before it sends the request (``register(_:for:)``) and
/// removes it when the request ends (``remove(_:)``). The reading thread looks a growing
/// frame's id up as soon as its first bytes hold one (``FrameIDScanner``); a frame over its
/// limit is then reported as an invalid message carrying that id, and the reader records
/// that it cut it (``takeExceeded(_:)``) so that the client can tell its caller why.
///
/// The id must be in the frame's first 4 KiB (every MCP SDK writes it before the result);
/// a reply whose id comes later is held up to the connection's frame limit and refused once
/// it is complete.
final class ResponseLimits: Sendable {
    private struct State {
        var limits: [RequestID: Int] = [:]
        var exceeded: [RequestID: Int] = [:]
    }

    private let state = LockedValue(State())

    /// Whether no limit is registered (the reader then does no lookups).
    var isEmpty: Bool {
        state.withLock { $0.limits.isEmpty }
    }

    /// Limits the reply to `id` to `limit` bytes.
    func register(_ limit: Int, for id: RequestID) {
        state.withLock { $0.limits[id] = max(1, limit) }
    }

    /// Forgets the limit of `id`, and whether its reply was cut.
    func remove(_ id: RequestID) {
        state.withLock { state in
            state.limits[id] = nil
            state.exceeded[id] = nil
        }
    }

    /// The limit on the reply to `id`, if one is registered.
    func limit(for id: RequestID) -> Int? {
        state.withLock { $0.limits[id] }
    }

    /// Records that the reply to `id` passed its limit and was thrown away.
    func noteExceeded(_ id: RequestID, limit: Int) {
        state.withLock { state in
            if state.limits[id] != nil { state.exceeded[id] = limit }
        }
    }

    /// The limit the reply to `id` passed, once, if it was cut.
    func takeExceeded(_ id: RequestID) -> Int? {
        state.withLock { $0.exceeded.removeValue(forKey: id) }
    }
}

/// A transport whose reading thread enforces per-request reply limits.
protocol ResponseLimiting: Sendable {
    /// The table the reading thread consults.
    var responseLimits: ResponseLimits { get }
}
