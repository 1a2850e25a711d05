/// What the app says about its servers and their tools, over what the servers claim.
///
/// Annotations (`readOnlyHint`, `destructiveHint`, `openWorldHint`) are the server's hints:
/// they decide what the policy is asked about, and they never make a tool more trusted than
/// where it runs allows. The app can, per server (its label: by default its
/// `serverInfo.name`) and per tool (its name on the server):
/// - say where a server runs (``setOrigin(_:server:)``): a server reached over a transport is
///   out of process unless the app names it in process;
/// - set a tool's ``ToolEffects`` (``setEffects(_:tool:server:)``);
/// - mark a tool as returning private data or untrusted content (``mark(_:tool:server:)``),
///   which the data-flow guard tracks;
/// - say that a server in another process keeps what it is sent
///   (``markContained(tool:server:)``), so its tools are not ways out by their origin alone.
///
/// A rule for a tool on a named server wins over a rule for that tool on any server.
///
/// ## In process and out of process
///
/// An *in-process* server is the app's own ``MCP/MCPServer``, reached directly
/// (``MCP/MCPClient/isInProcess``): its tools are the app's code, its output is trusted
/// unless marked, and its arguments stay in the app. Every other server — a child process,
/// an HTTP server, even an in-process transport pair — is *out of process*: its tool
/// definitions and output are untrusted content, secrets are redacted from what it is sent,
/// and each of its tools is a way out for the data-flow guard, whatever its annotations say.
///
/// ```swift
/// var trust = ToolTrust()   // the app's own server, connected directly, is in process
/// trust.setOrigin(.outOfProcess, server: "Vendor")   // an MCPServer the app did not write
/// trust.mark(.privateData, tool: "notes_read")
/// trust.mark(.untrustedContent, tool: "web_search")
/// trust.setEffects(.reachesOpenWorld, tool: "fetch", server: "Browser")
/// ```
public struct ToolTrust: Hashable, Sendable {
    /// Where a server runs, which decides whether its text is trusted by default.
    public enum Origin: Hashable, Sendable {
        /// The app's own server in the same process: its output is trusted unless a tool is
        /// marked ``DataMarks/untrustedContent``, and its arguments stay in the app.
        case inProcess
        /// Any other server (another process, another machine): its definitions and output
        /// are untrusted content, and every one of its tools is a way out.
        case outOfProcess
    }

    /// What a tool's output contains, for the data-flow guard.
    public struct DataMarks: OptionSet, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The user's private data (notes, messages, contacts, health, files).
        public static let privateData = DataMarks(rawValue: 1 << 0)
        /// Text that someone other than the user or the app could have written (web pages,
        /// e-mail, anything from a server in another process).
        public static let untrustedContent = DataMarks(rawValue: 1 << 1)

        public var description: String {
            var names: [String] = []
            if contains(.privateData) { names.append("private data") }
            if contains(.untrustedContent) { names.append("untrusted content") }
            return names.isEmpty ? "trusted data" : names.joined(separator: " and ")
        }
    }

    struct Key: Hashable, Sendable {
        var server: String?
        var tool: String
    }

    /// The origin of a server connected in process (``MCP/MCPClient/isInProcess``) that the
    /// app has not named with ``setOrigin(_:server:)``: ``Origin/inProcess`` by default — an
    /// ``MCP/MCPServer`` the app connects to directly is the app's own code. A server reached
    /// over a transport is out of process unless named: this default never makes one trusted.
    /// Set it to ``Origin/outOfProcess`` for an app that connects directly to servers it did
    /// not write.
    public var origin: Origin
    private var serverOrigins: [String: Origin] = [:]
    private var effectOverrides: [Key: ToolEffects] = [:]
    private var dataMarks: [Key: DataMarks] = [:]
    private var containedServers: Set<String> = []
    private var containedTools: Set<Key> = []

    /// Trust with `origin` for servers connected in process, and no overrides.
    public init(origin: Origin = .inProcess) {
        self.origin = origin
    }

    /// Says where the server labelled `server` runs, whatever its connection suggests.
    ///
    /// Name a server ``Origin/inProcess`` only when it is the app's own code (for instance
    /// an ``MCP/MCPServer`` the app serves over an in-process transport pair).
    public mutating func setOrigin(_ origin: Origin, server: String) {
        serverOrigins[server] = origin
    }

    /// Where the server labelled `server` runs: the app's word for it, else ``origin`` for a
    /// server connected in process, else ``Origin/outOfProcess``.
    public func origin(ofServer server: String, connectedInProcess: Bool) -> Origin {
        if let named = serverOrigins[server] { return named }
        return connectedInProcess ? origin : .outOfProcess
    }

    /// Says that a server in another process keeps what its tool (every tool, when `tool` is
    /// `nil`) is sent: the app knows it passes nothing on (a boxed server without network,
    /// say). Such a tool is a way out only by its effects.
    public mutating func markContained(tool: String? = nil, server: String) {
        if let tool {
            containedTools.insert(Key(server: server, tool: tool))
        } else {
            containedServers.insert(server)
        }
    }

    /// Whether the arguments of `tool` leave the app: a tool of a server out of process,
    /// unless the app marked it contained.
    public func sendsArgumentsOut(tool: String, server: String, origin: Origin) -> Bool {
        origin == .outOfProcess && !containedServers.contains(server) && !containedTools.contains(Key(server: server, tool: tool))
    }

    /// Says what `tool` may do, whatever its annotations claim.
    ///
    /// - Parameters:
    ///   - server: The server's `serverInfo.name`; `nil` for the tool on any server.
    public mutating func setEffects(_ effects: ToolEffects, tool: String, server: String? = nil) {
        effectOverrides[Key(server: server, tool: tool)] = effects
    }

    /// Says what `tool`'s output contains (added to what is already marked).
    public mutating func mark(_ marks: DataMarks, tool: String, server: String? = nil) {
        dataMarks[Key(server: server, tool: tool), default: []].formUnion(marks)
    }

    /// The effects the bridge acts on: the app's override, else the annotations' `declared` effects.
    public func effects(ofTool tool: String, server: String, declared: ToolEffects) -> ToolEffects {
        effectOverrides[Key(server: server, tool: tool)] ?? effectOverrides[Key(server: nil, tool: tool)] ?? declared
    }

    /// What the tool's output contains: the app's marks, plus untrusted content for a server
    /// the app has not named in process (see ``origin(ofServer:connectedInProcess:)``).
    public func marks(ofTool tool: String, server: String) -> DataMarks {
        marks(ofTool: tool, server: server, origin: serverOrigins[server] ?? .outOfProcess)
    }

    /// What the tool's output contains: the app's marks, plus untrusted content for a server
    /// at `origin` out of process.
    public func marks(ofTool tool: String, server: String, origin: Origin) -> DataMarks {
        var result = (dataMarks[Key(server: server, tool: tool)] ?? []).union(dataMarks[Key(server: nil, tool: tool)] ?? [])
        if origin == .outOfProcess { result.insert(.untrustedContent) }
        return result
    }
}
