/// What the app says about a server's tools, over what the server's annotations claim.
///
/// Annotations (`readOnlyHint`, `destructiveHint`, `openWorldHint`) are the server's hints:
/// a server that calls a tool read-only is not believed when the app says otherwise. The app
/// can, per server (its `serverInfo.name`) and per tool (its name on the server):
/// - set the tool's ``ToolEffects`` (``setEffects(_:tool:server:)``);
/// - mark it as returning private data or untrusted content (``mark(_:tool:server:)``),
///   which the data-flow guard tracks.
///
/// A rule for a tool on a named server wins over a rule for that tool on any server.
///
/// ```swift
/// var trust = ToolTrust(origin: .inProcess)
/// trust.mark(.privateData, tool: "notes_read")
/// trust.mark(.untrustedContent, tool: "web_search")
/// trust.setEffects(.reachesOpenWorld, tool: "fetch", server: "Browser")
/// ```
public struct ToolTrust: Hashable, Sendable {
    /// Where a server runs, which decides whether its output is trusted by default.
    public enum Origin: Hashable, Sendable {
        /// The app's own server in the same process: its output is trusted unless a tool is
        /// marked ``DataMarks/untrustedContent``.
        case inProcess
        /// Any other server (another process, another machine): all its output is untrusted
        /// content, and secrets are redacted from the arguments it receives.
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

    /// Where the server runs; ``Origin/outOfProcess`` unless the app says otherwise (the
    /// safe assumption).
    public var origin: Origin
    private var effectOverrides: [Key: ToolEffects] = [:]
    private var dataMarks: [Key: DataMarks] = [:]

    /// Trust for a server at `origin`, with no overrides.
    public init(origin: Origin = .outOfProcess) {
        self.origin = origin
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
    /// in another process.
    public func marks(ofTool tool: String, server: String) -> DataMarks {
        var result = (dataMarks[Key(server: server, tool: tool)] ?? []).union(dataMarks[Key(server: nil, tool: tool)] ?? [])
        if origin == .outOfProcess { result.insert(.untrustedContent) }
        return result
    }
}
