/// What a session has read that a tool with effects, or a tool whose arguments leave the
/// app, could carry out: told to the approver.
public struct DataFlowConcern: Hashable, Sendable, CustomStringConvertible {
    /// Something the session has read, and what it contained.
    public struct Source: Hashable, Sendable {
        /// Where text the model read came from. A struct with static members, so kinds can be
        /// added without breaking a `switch`.
        public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
            public let rawValue: String

            public init(rawValue: String) {
                self.rawValue = rawValue
            }

            /// A tool's output.
            public static let toolOutput = Kind(rawValue: "tool output")
            /// The user's prompt (private when the app's classifier says so).
            public static let prompt = Kind(rawValue: "prompt")
            /// The definitions (descriptions, schemas) of an untrusted server's tools, which the
            /// model reads with every request.
            public static let toolDefinitions = Kind(rawValue: "tool definitions")
            /// What an earlier conversation read, kept across `MCPSessionProvider/reset(clearingDataFlow:)`
            /// because its answers may be fed into the new one.
            public static let earlierConversation = Kind(rawValue: "earlier conversation")

            public var description: String { rawValue }
        }

        /// The tool's model name; for a prompt `prompt`, for definitions the server's label.
        public var tool: String
        public var marks: ToolTrust.DataMarks
        /// Where it came from.
        public var kind: Kind = .toolOutput
        /// The server whose text it is, when known.
        public var server: String?

        public init(tool: String, marks: ToolTrust.DataMarks, kind: Kind = .toolOutput, server: String? = nil) {
            self.tool = tool
            self.marks = marks
            self.kind = kind
            self.server = server
        }

        /// How the concern names it: `notes_read`, `the prompt`, `Docs's tool descriptions`.
        var name: String {
            switch kind {
            case .prompt: "the prompt"
            case .toolDefinitions: "\(tool)'s tool descriptions"
            case .earlierConversation: "\(tool), in an earlier conversation"
            default: tool
            }
        }
    }

    /// What the session has read, oldest first, one entry per tool (or prompt, or server).
    public var sources: [Source]
    /// The tool that would run, by its model name.
    public var tool: String
    /// What it may do.
    public var effects: ToolEffects
    /// Whether its arguments leave the app (a server in another process).
    public var sendsArgumentsOut: Bool = false

    public init(sources: [Source], tool: String, effects: ToolEffects, sendsArgumentsOut: Bool = false) {
        self.sources = sources
        self.tool = tool
        self.effects = effects
        self.sendsArgumentsOut = sendsArgumentsOut
    }

    /// `this session has read private data (notes_read) and untrusted content (web_search), and web_fetch reaches the network, so …`.
    public var description: String {
        var parts: [String] = []
        for mark in [ToolTrust.DataMarks.privateData, .untrustedContent] {
            let names = sources.filter { $0.marks.contains(mark) }.map(\.name)
            if !names.isEmpty { parts.append("\(mark) (\(names.joined(separator: ", ")))") }
        }
        var does: [String] = []
        if !effects.isEmpty { does.append(effects.description) }
        if sendsArgumentsOut { does.append("sends its arguments out of the app") }
        return "this session has read \(parts.joined(separator: " and ")), and \(tool) \(does.joined(separator: " and ")), "
            + "so it could carry that data out or act on injected instructions"
    }
}
