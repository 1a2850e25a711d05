/// Something a conversation's session, its tool calls or its defences did, for an app to show
/// or log: the one event stream (`MCPSessionProvider/events`, `MCPToolbox/events`, a
/// ``ToolCallMonitor``'s receiver).
///
/// Arguments and messages in events are redacted (``SecretRedactor``) as they are for
/// servers. Switch over events with a `default:` case: new kinds of event may be added.
public enum AgentEvent: Hashable, Sendable {
    /// A server said its tool list changed; the next turn lists its tools again.
    case toolListChanged(server: String)
    /// A session was built for the next turn (see ``SessionBuild``): the 26 way of giving the
    /// model a changed tool list or a shortened history.
    case sessionBuilt(SessionBuild)
    /// What the model sees changed from one request to the next, in the same session (see
    /// ``ContextChange``): the 27 way, with dynamic instructions and a history transform.
    case contextChanged(ContextChange)
    /// A tool call is about to reach its server.
    case toolCallStarted(ToolCallStart)
    /// A tool call ended (with a result, an error result or a failure).
    case toolCallFinished(ToolCallFinish)
    /// A tool call was declined by the policy, a person or the data-flow guard.
    case toolCallDeclined(ToolCallDecline)
    /// A defence acted: declined or approved a call, redacted secrets, cleaned or withheld a
    /// server's text (see ``DefenceEvent``).
    case defence(DefenceEvent)
    /// A turn (`MCPSessionProvider/respond(to:)` or `MCPSessionProvider/streamResponse(to:)`)
    /// ended; every event of the turn came before this one.
    case turnEnded(TurnEnd)
}

/// The events' former name.
@available(*, deprecated, renamed: "AgentEvent")
public typealias SessionEvent = AgentEvent

/// The end of a turn.
public struct TurnEnd: Hashable, Sendable {
    /// The characters of the answer; 0 when the turn failed.
    public var answerCharacters: Int
    /// Why the turn failed, in a sentence, secrets redacted; `nil` when it answered.
    public var error: String?
    /// The values of tools the model's answer garbled (letters or digits glued onto a copy),
    /// each restored in the answer as the tool returned it (see ``GarbledCopies``).
    public var garbledCopies: [GarbledCopy]

    public init(answerCharacters: Int, error: String? = nil, garbledCopies: [GarbledCopy] = []) {
        self.answerCharacters = answerCharacters
        self.error = error
        self.garbledCopies = garbledCopies
    }
}

/// Why a session was built, and what it holds.
public struct SessionBuild: Hashable, Sendable {
    /// Why a session was built. A struct with static members, so new reasons can be added.
    public struct Reason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The conversation's first turn (or the first after `MCPSessionProvider/reset()`).
        public static let firstTurn = Reason(rawValue: "first turn")
        /// A server's tool list changed.
        public static let toolsChanged = Reason(rawValue: "tools changed")
        /// This turn's prompt chose a different set of tools.
        public static let toolSetChanged = Reason(rawValue: "tool set changed")
        /// The history was shortened before the turn so that it fits the context.
        public static let trimmed = Reason(rawValue: "trimmed")
        /// The model reported an overflow; the history was shortened and the turn retried.
        public static let overflowRecovered = Reason(rawValue: "overflow recovered")

        public var description: String { rawValue }
    }

    /// Why, most important first.
    public var reasons: [Reason]
    /// The session's tools, by the names the model calls them, in the order it got them.
    public var tools: [String]
    /// Whether the session continues an earlier session's conversation.
    public var carriesTranscript: Bool
    /// The tokens the turn would have taken with the previous session's history (the
    /// instructions, tools, history, prompt and the room kept for the answer).
    public var tokensBefore: Int
    /// The same, for the session built.
    public var tokensAfter: Int
    /// The model's context size.
    public var contextSize: Int
    /// Listed tools the session does not get, each with the reason.
    public var excluded: [ToolSelection.Exclusion]

    public init(
        reasons: [Reason], tools: [String], carriesTranscript: Bool, tokensBefore: Int, tokensAfter: Int, contextSize: Int,
        excluded: [ToolSelection.Exclusion]
    ) {
        self.reasons = reasons
        self.tools = tools
        self.carriesTranscript = carriesTranscript
        self.tokensBefore = tokensBefore
        self.tokensAfter = tokensAfter
        self.contextSize = contextSize
        self.excluded = excluded
    }
}

/// What the model sees changed for a request, in a session that stays the same (27: the
/// tools `MCPTools` chose, or the history the `MCPToolbox`'s transform fits).
public struct ContextChange: Hashable, Sendable {
    /// Why, most important first: ``SessionBuild/Reason/firstTurn`` (the first request),
    /// ``SessionBuild/Reason/toolsChanged``, ``SessionBuild/Reason/toolSetChanged``,
    /// ``SessionBuild/Reason/trimmed`` or ``SessionBuild/Reason/overflowRecovered``.
    public var reasons: [SessionBuild.Reason]
    /// The tools the request offers, by the names the model calls them.
    public var tools: [String]
    /// Listed tools the request does not offer, each with the reason.
    public var excluded: [ToolSelection.Exclusion]
    /// The entries of the history the session holds, and those the model sees.
    public var historyEntries: Int
    public var visibleEntries: Int
    /// The request's tokens as the bridge counts them: instructions, tools, the history the
    /// model sees and the room kept for the answer.
    public var tokens: Int
    /// The model's context size.
    public var contextSize: Int

    public init(
        reasons: [SessionBuild.Reason], tools: [String], excluded: [ToolSelection.Exclusion], historyEntries: Int, visibleEntries: Int,
        tokens: Int, contextSize: Int
    ) {
        self.reasons = reasons
        self.tools = tools
        self.excluded = excluded
        self.historyEntries = historyEntries
        self.visibleEntries = visibleEntries
        self.tokens = tokens
        self.contextSize = contextSize
    }
}

/// A tool call about to reach its server.
public struct ToolCallStart: Hashable, Sendable {
    /// The name the model called.
    public var tool: String
    /// The server's label.
    public var server: String
    /// The tool's name on its server.
    public var toolNameOnServer: String
    /// The arguments as compact JSON, secrets redacted.
    public var arguments: String

    public init(tool: String, server: String, toolNameOnServer: String, arguments: String) {
        self.tool = tool
        self.server = server
        self.toolNameOnServer = toolNameOnServer
        self.arguments = arguments
    }
}

/// A tool call that ended.
public struct ToolCallFinish: Hashable, Sendable {
    public var tool: String
    /// How long the call took, from the request to the rendered output.
    public var duration: Duration
    /// Whether the model read an error (an `isError` result, a rejection, a result too large).
    public var isError: Bool
    /// The characters the model reads, frame included.
    public var outputCharacters: Int
    /// Whether the output was cut to fit (its size limit or what was left of the context).
    public var wasCut: Bool
    /// What went wrong, when ``isError``: the start of the tool's error text, the server's
    /// JSON-RPC error or the failure of the call, secrets redacted.
    public var error: String?

    public init(tool: String, duration: Duration, isError: Bool, outputCharacters: Int, wasCut: Bool, error: String? = nil) {
        self.tool = tool
        self.duration = duration
        self.isError = isError
        self.outputCharacters = outputCharacters
        self.wasCut = wasCut
        self.error = error
    }
}

/// A tool call that was declined.
public struct ToolCallDecline: Hashable, Sendable {
    public var tool: String
    /// The reason the model read.
    public var reason: String

    public init(tool: String, reason: String) {
        self.tool = tool
        self.reason = reason
    }
}
