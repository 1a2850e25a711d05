package import MCPCore
internal import MCPPlatform

/// A conversation's watch over its tool calls: the one place its events go, and what keeps
/// tool output within what the turn has left of the context.
///
/// `MCPSessionProvider` and `MCPToolbox` make one per conversation and give it to every bridged
/// tool; they set each turn's room for tool output before the turn and the tools take from
/// it. An app that bridges tools itself makes one to receive every ``AgentEvent``: the calls
/// (started, finished, declined) and what the defences did (``AgentEvent/defence(_:)``).
public final class ToolCallMonitor: Sendable {
    /// What the monitor keeps between calls.
    private struct State {
        /// The characters tool output may still take in this turn; `nil`: no limit.
        var remaining: Int?
        /// What each call that ran in this turn gave the model, by tool and arguments.
        var ranThisTurn: [CallKey: ToolCallOutput] = [:]
        /// The turn ``setRoom(remainingCharacters:turn:)`` was last called for.
        var turn: String?
        /// Tools offered to the model whose definitions the data-flow guard has not recorded
        /// yet, by server and name (so that offers without calls do not pile up).
        var offered: [String: Offer] = [:]
    }

    /// A call as the repeat check sees it: the tool (by server and name) and its arguments.
    package struct CallKey: Hashable, Sendable {
        var server: String
        var tool: String
        var arguments: JSONObject

        package init(server: String, tool: String, arguments: JSONObject) {
            self.server = server
            self.tool = tool
            self.arguments = arguments
        }
    }

    /// A tool whose definition the model was offered, as the data-flow guard records it.
    package struct Offer: Sendable {
        /// The name the model knows the tool by.
        package var name: String
        /// The server's label.
        package var server: String
        /// Where the server runs.
        package var origin: ToolTrust.Origin
        /// The tool's definition as listed, when it was listed.
        package var definition: MCPCore.ToolDefinition?

        package init(name: String, server: String, origin: ToolTrust.Origin, definition: MCPCore.ToolDefinition?) {
            self.name = name
            self.server = server
            self.origin = origin
            self.definition = definition
        }
    }

    private let state = LockedValue(State())
    private let sink: @Sendable (AgentEvent) -> Void

    /// - Parameter report: Receives every event, on the task that caused it.
    public init(report: @escaping @Sendable (AgentEvent) -> Void) {
        sink = report
    }

    /// Passes `event` to the app.
    package func report(_ event: AgentEvent) {
        sink(event)
    }

    /// The characters the next output may take, if the turn set a limit.
    package var remainingCharacters: Int? {
        state.withLock { $0.remaining }
    }

    /// Sets the room for tool output in the turn about to start (`nil`: no limit beyond
    /// each tool's own).
    package func startTurn(remainingCharacters: Int?) {
        state.withLock { state in
            state.remaining = remainingCharacters.map { max(0, $0) }
            state.ranThisTurn = [:]
            state.turn = nil
        }
    }

    /// Sets the room for tool output before one request of the model (a turn makes one request
    /// per round of tool calls); a turn other than the last one named starts a new turn.
    package func setRoom(remainingCharacters: Int?, turn: String) {
        state.withLock { state in
            state.remaining = remainingCharacters.map { max(0, $0) }
            if state.turn != turn { state.ranThisTurn = [:] }
            state.turn = turn
        }
    }

    /// What the model got from the same call earlier in this turn, if it made one.
    package func earlierOutput(of call: CallKey) -> ToolCallOutput? {
        state.withLock { $0.ranThisTurn[call] }
    }

    /// Remembers what `call` gave the model, until the next turn starts.
    package func remember(_ output: ToolCallOutput, of call: CallKey) {
        state.withLock { $0.ranThisTurn[call] = output }
    }

    /// Notes that the model is offered `tools` (it reads their definitions), where the offer
    /// is made synchronously (a dynamic instructions body); the next call of a tool records
    /// them in its data-flow guard before it asks for approval.
    package func offer(_ tools: [Offer]) {
        guard !tools.isEmpty else { return }
        state.withLock { state in
            for tool in tools { state.offered["\(tool.server)\u{0}\(tool.name)"] = tool }
        }
    }

    /// Records the definitions offered since the last call in `dataFlowGuard`.
    package func recordOffers(in dataFlowGuard: DataFlowGuard) async {
        let tools = state.withLock { state in
            let tools = state.offered.sorted { $0.key < $1.key }.map(\.value)
            state.offered = [:]
            return tools
        }
        guard !tools.isEmpty else { return }
        await dataFlowGuard.recordDefinitions(of: tools)
    }

    /// Takes `characters` of the turn's room.
    package func consume(_ characters: Int) {
        state.withLock { state in state.remaining = state.remaining.map { max(0, $0 - characters) } }
    }
}
