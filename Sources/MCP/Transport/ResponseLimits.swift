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
final class ResponseLimits: @unchecked Sendable {
    // Safety: every stored property is read and written with `lock` held.
    private let lock = Lock()
    private var limits: [RequestID: Int] = [:]
    private var exceeded: [RequestID: Int] = [:]

    /// Whether no limit is registered (the reader then does no lookups).
    var isEmpty: Bool {
        lock.withLock { limits.isEmpty }
    }

    /// Limits the reply to `id` to `limit` bytes.
    func register(_ limit: Int, for id: RequestID) {
        lock.withLock { limits[id] = max(1, limit) }
    }

    /// Forgets the limit of `id`, and whether its reply was cut.
    func remove(_ id: RequestID) {
        lock.withLock {
            limits[id] = nil
            exceeded[id] = nil
        }
    }

    /// The limit on the reply to `id`, if one is registered.
    func limit(for id: RequestID) -> Int? {
        lock.withLock { limits[id] }
    }

    /// Records that the reply to `id` passed its limit and was thrown away.
    func noteExceeded(_ id: RequestID, limit: Int) {
        lock.withLock {
            if limits[id] != nil { exceeded[id] = limit }
        }
    }

    /// The limit the reply to `id` passed, once, if it was cut.
    func takeExceeded(_ id: RequestID) -> Int? {
        lock.withLock { exceeded.removeValue(forKey: id) }
    }
}

/// A transport whose reading thread enforces per-request reply limits.
protocol ResponseLimiting: Sendable {
    /// The table the reading thread consults.
    var responseLimits: ResponseLimits { get }
}
