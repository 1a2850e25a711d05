/// The state the bridge keeps for one conversation: what it has read, what a person allowed
/// for the session, and the frame its tool output uses.
///
/// *Private data + untrusted content + a way out = ask* (the "lethal trifecta"). Once the
/// session has read the output of a tool marked ``ToolTrust/DataMarks/privateData`` or
/// ``ToolTrust/DataMarks/untrustedContent`` (everything from a server in another process
/// is untrusted), a call to a tool that writes, deletes or reaches the network goes to the
/// policy's ``ToolApprover`` with a ``DataFlowConcern``, even when the policy's rule would
/// allow it; without an approver it is declined. The state lives in the bridge, not in the
/// model's context, so it holds whatever the model was told (the CaMeL principle: security
/// that does not depend on the model behaving).
///
/// A ``MCPSessionProvider`` keeps one guard per conversation (a new one after
/// ``MCPSessionProvider/reset()``); tools bridged by hand share one by passing the same
/// guard to each ``MCPBridgedTool``.
public actor DataFlowGuard {
    /// The frame around the session's tool output, with its random boundary.
    public nonisolated let frame: ToolOutputFrame
    /// What the session has read.
    public private(set) var sources: [DataFlowConcern.Source] = []
    /// Tools a person allowed for the session, and whether the permission was given while
    /// a ``DataFlowConcern`` was shown (only then does it cover guarded calls).
    private var grants: [String: Bool] = [:]

    /// A guard with a fresh random frame.
    public init(frame: ToolOutputFrame = ToolOutputFrame()) {
        self.frame = frame
    }

    /// Records that the session read output of `tool` containing `marks`.
    public func recordRead(tool: String, marks: ToolTrust.DataMarks) {
        guard !marks.isEmpty else { return }
        if let index = sources.firstIndex(where: { $0.tool == tool }) {
            sources[index].marks.formUnion(marks)
        } else {
            sources.append(DataFlowConcern.Source(tool: tool, marks: marks))
        }
    }

    /// The concern a call of `tool` with `effects` raises now, if any.
    public func concern(tool: String, effects: ToolEffects) -> DataFlowConcern? {
        guard !effects.isEmpty, !sources.isEmpty else { return nil }
        return DataFlowConcern(sources: sources, tool: tool, effects: effects)
    }

    /// Whether the session has read anything the guard tracks.
    public var hasReadTrackedData: Bool { !sources.isEmpty }

    /// The answer for `request`: the session's earlier "allow for this session", the
    /// policy, and the data-flow guard together.
    ///
    /// - Parameters:
    ///   - guardsDataFlow: Whether the guard applies (``Defences/guardsDataFlow``).
    /// - Returns: The answer, and the request as the approver saw it (with its concern).
    public func approval(
        for request: ToolCallRequest, policy: ToolPolicy, guardsDataFlow: Bool = true
    ) async -> (ToolApproval, ToolCallRequest) {
        var request = request
        if request.effects.isEmpty { return (.allow, request) }
        if guardsDataFlow { request.concern = concern(tool: request.modelName, effects: request.effects) }
        if let coversConcern = grants[request.modelName], coversConcern || request.concern == nil {
            return (.allow, request)
        }
        let answer: ToolApproval
        if let concern = request.concern {
            guard let approver = policy.approver else {
                return (.deny(reason: "declined: \(concern); a person must approve this call and the app has not set up an approver"), request)
            }
            answer = await approver.ask(request)
        } else {
            answer = await policy.approval(for: request)
        }
        if answer.isForSession {
            grants[request.modelName] = (grants[request.modelName] ?? false) || request.concern != nil
        }
        return (answer, request)
    }
}
