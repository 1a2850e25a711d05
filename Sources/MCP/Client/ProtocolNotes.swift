internal import MCPPlatform

/// What a server sent that could not be tied to a request: kept so that a later timeout
/// can say what went wrong instead of only that nothing came.
///
/// Holds a count and the last few descriptions, so a server that floods invalid output costs
/// bounded memory.
final class ProtocolNotes: @unchecked Sendable {
    /// How many descriptions are kept (the newest).
    static let kept = 3

    // Safety: `recent` and `count` are read and written with `lock` held.
    private let lock = Lock()
    private var recent: [String] = []
    private var count = 0

    /// Records one thing the server sent that no request could take.
    func record(_ description: String) {
        lock.withLock {
            count += 1
            recent.append(description)
            if recent.count > Self.kept { recent.removeFirst(recent.count - Self.kept) }
        }
    }

    /// A clause for an error message, such as "; meanwhile the server sent 2 messages that
    /// answer no request, the last: a line that is not valid JSON", or "" when there were none.
    var summary: String {
        lock.withLock {
            guard let last = recent.last else { return "" }
            if count == 1 { return "; meanwhile the server sent \(last)" }
            return "; meanwhile the server sent \(count) messages that answer no request, the last: \(last)"
        }
    }
}
