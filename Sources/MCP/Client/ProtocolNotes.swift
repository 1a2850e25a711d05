internal import MCPPlatform

/// What a server sent that could not be tied to a request: kept so that a later timeout
/// can say what went wrong instead of only that nothing came.
///
/// Holds a count and the last few descriptions, so a server that floods invalid output costs
/// bounded memory.
final class ProtocolNotes: Sendable {
    /// How many descriptions are kept (the newest).
    static let kept = 3

    private struct State {
        var recent: [String] = []
        var count = 0
    }

    private let state = LockedValue(State())

    /// Records one thing the server sent that no request could take.
    func record(_ description: String) {
        state.withLock { state in
            state.count += 1
            state.recent.append(description)
            if state.recent.count > Self.kept { state.recent.removeFirst(state.recent.count - Self.kept) }
        }
    }

    /// A clause for an error message, such as "; meanwhile the server sent 2 messages that
    /// answer no request, the last: a line that is not valid JSON", or "" when there were none.
    var summary: String {
        state.withLock { state in
            guard let last = state.recent.last else { return "" }
            let count = state.count
            if count == 1 { return "; meanwhile the server sent \(last)" }
            return "; meanwhile the server sent \(count) messages that answer no request, the last: \(last)"
        }
    }
}
