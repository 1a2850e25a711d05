internal import MCPPlatform
public import Testing

/// A hang guard expired: the operation gave no result within its (generous) bound.
public struct Hung: Error, CustomStringConvertible {
    public let what: String
    public let limit: Duration
    public var description: String { "hung: \(what) gave no result within \(limit)" }
}

/// Runs `body`; when it has not finished after `limit`, records an issue and throws ``Hung``.
///
/// The hang guard of every test target: a bound, not a timing assertion. `limit` is generous,
/// and expiring it means the operation is stuck. It does not wait for `body` to react to its
/// cancellation: the caller gets ``Hung`` at the deadline, and `body` is cancelled. The issue is
/// recorded where the guard is called even when the caller drops the error (`try?`), so a hang
/// never passes unseen.
@discardableResult
public func withHangGuard<T: Sendable>(
    _ limit: Duration = .seconds(20), _ what: String = "the operation", sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withDeadline(
        after: limit,
        timeout: {
            let hung = Hung(what: what, limit: limit)
            Issue.record("\(hung)", sourceLocation: sourceLocation)
            return hung
        }, body)
}
