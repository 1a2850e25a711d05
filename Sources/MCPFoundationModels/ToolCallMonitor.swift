internal import MCPPlatform

/// A conversation's watch over its tool calls: reports them, and keeps their output within
/// what the turn has left of the context.
///
/// ``MCPSessionProvider`` makes one per conversation and gives it to every bridged tool; it
/// sets each turn's room for tool output before the turn and the tools take from it. An app
/// that bridges tools itself can make one to receive ``SessionEvent``s.
public final class ToolCallMonitor: @unchecked Sendable {
    // Safety: `remaining` and `offered` are read and written with `lock` held; `sink` is
    // immutable.
    private let lock = Lock()
    private var remaining: Int?
    /// Tools offered to the model whose definitions the data-flow guard has not recorded yet,
    /// by server and name (so that offers without calls do not pile up).
    private var offered: [String: MCPBridgedTool] = [:]
    private let sink: @Sendable (SessionEvent) -> Void

    /// - Parameter report: Receives every tool-call event, on the task that made the call.
    public init(report: @escaping @Sendable (SessionEvent) -> Void) {
        sink = report
    }

    /// Passes `event` to the app.
    func report(_ event: SessionEvent) {
        sink(event)
    }

    /// The characters the next output may take, if the turn set a limit.
    var remainingCharacters: Int? {
        lock.withLock { remaining }
    }

    /// Sets the room for tool output in the turn about to start (`nil`: no limit beyond
    /// each tool's own).
    func startTurn(remainingCharacters: Int?) {
        lock.withLock { remaining = remainingCharacters.map { max(0, $0) } }
    }

    /// Notes that the model is offered `tools` (it reads their definitions), where the offer
    /// is made synchronously (a dynamic instructions body); the next call of a bridged tool
    /// records them in its data-flow guard before it asks for approval.
    func offer(_ tools: [MCPBridgedTool]) {
        guard !tools.isEmpty else { return }
        lock.withLock {
            for tool in tools { offered["\(tool.server)\u{0}\(tool.name)"] = tool }
        }
    }

    /// Records the definitions offered since the last call in `dataFlowGuard`.
    func recordOffers(in dataFlowGuard: DataFlowGuard) async {
        let tools = lock.withLock {
            let tools = offered.sorted { $0.key < $1.key }.map(\.value)
            offered = [:]
            return tools
        }
        guard !tools.isEmpty else { return }
        await dataFlowGuard.recordDefinitions(of: tools)
    }

    /// Takes `characters` of the turn's room.
    func consume(_ characters: Int) {
        lock.withLock { remaining = remaining.map { max(0, $0 - characters) } }
    }
}
