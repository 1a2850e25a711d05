/// A policy's or a person's answer: allow once, allow for this session, or deny with a reason.
public struct ToolApproval: Hashable, Sendable, CustomStringConvertible {
    enum Decision: Hashable, Sendable {
        case allowOnce
        case allowForSession
        case deny(String)
    }

    let decision: Decision

    /// Run this call.
    public static let allow = ToolApproval(decision: .allowOnce)
    /// Run this call (the same as ``allow``).
    public static let allowOnce = allow
    /// Run this call, and later calls of the same tool (the same connection, server and
    /// definition) in this session without asking again, until the session reads new private
    /// data or untrusted content (``DataFlowGuard/generation``).
    public static let allowForSession = ToolApproval(decision: .allowForSession)

    /// Don't run the call; the model reads `reason` as the tool's error.
    public static func deny(reason: String) -> ToolApproval {
        ToolApproval(decision: .deny(reason))
    }

    /// Whether the call may run.
    public var isAllowed: Bool {
        if case .deny = decision { false } else { true }
    }

    /// Why the call was denied; `nil` when it is allowed.
    public var denialReason: String? {
        if case .deny(let reason) = decision { reason } else { nil }
    }

    /// Whether the answer holds for the rest of the session.
    public var isForSession: Bool { decision == .allowForSession }

    public var description: String {
        switch decision {
        case .allowOnce: "allow once"
        case .allowForSession: "allow for this session"
        case .deny(let reason): "deny: \(reason)"
        }
    }
}
