/// A person who approves tool calls, through the app's interface.
///
/// The bridge asks the approver about a call with effects that the policy's rule does not
/// answer, and about any call the data-flow guard holds (``ToolCallRequest/concern`` says
/// why). The approver sees the tool's model and server names, where the server runs, its
/// effects and exactly the arguments the tool will receive (secrets redacted, for every
/// server), and answers ``ToolApproval/allowOnce``, ``ToolApproval/allowForSession`` (which
/// holds for this ``ToolIdentity`` until the conversation reads something new) or
/// ``ToolApproval/deny(reason:)``.
///
/// Requests reach `decide` one at a time, in the order they arrived, even when the model
/// calls several tools at once: a person answers one question before seeing the next. All
/// copies of an approver share that line.
public struct ToolApprover: Sendable {
    private let decide: @Sendable (ToolCallRequest) async -> ToolApproval
    private let line = ApprovalLine()

    /// An approver that asks `decide`.
    public init(_ decide: @escaping @Sendable (ToolCallRequest) async -> ToolApproval) {
        self.decide = decide
    }

    /// The approver's answer for `request`, after the requests before it have been answered.
    public func ask(_ request: ToolCallRequest) async -> ToolApproval {
        await line.enter()
        let answer = await decide(request)
        await line.leave()
        return answer
    }
}

/// One request at a time: a FIFO of waiting callers.
actor ApprovalLine {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Returns when the caller's turn has come.
    func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Ends the caller's turn and starts the next one's.
    func leave() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
