public import MCPCore

/// What a tool may do beyond reading, as its MCP annotations declare (with the spec's
/// defaults when they are absent: a tool may write, destroy and reach the network).
public struct ToolEffects: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// It changes its environment (`readOnlyHint` is not `true`).
    public static let writes = ToolEffects(rawValue: 1 << 0)
    /// It may destroy data (`destructiveHint`, which defaults to `true` for a tool that writes).
    public static let destroys = ToolEffects(rawValue: 1 << 1)
    /// It reaches beyond a closed set of things, such as the network (`openWorldHint`, default `true`).
    public static let reachesOpenWorld = ToolEffects(rawValue: 1 << 2)

    /// The effects `annotations` declare.
    public init(annotations: ToolAnnotations?) {
        let hints = annotations ?? ToolAnnotations()
        var effects: ToolEffects = []
        if !hints.isReadOnly { effects.insert(.writes) }
        if hints.mayDestroy { effects.insert(.destroys) }
        if hints.reachesOpenWorld { effects.insert(.reachesOpenWorld) }
        self = effects
    }

    public var description: String {
        var names: [String] = []
        if contains(.writes) { names.append("writes") }
        if contains(.destroys) { names.append("may delete data") }
        if contains(.reachesOpenWorld) { names.append("reaches the network") }
        return names.isEmpty ? "read-only" : names.joined(separator: ", ")
    }
}

/// A call the model wants to make, for a ``ToolPolicy`` to approve.
public struct ToolCallRequest: Hashable, Sendable {
    /// The tool's name on the server.
    public var serverName: String
    /// The name the model called it by.
    public var modelName: String
    /// The arguments, already validated against the tool's input schema.
    public var arguments: JSONObject
    /// What the tool may do, from its annotations.
    public var effects: ToolEffects

    public init(serverName: String, modelName: String, arguments: JSONObject, effects: ToolEffects) {
        self.serverName = serverName
        self.modelName = modelName
        self.arguments = arguments
        self.effects = effects
    }
}

/// A policy's answer.
public enum ToolApproval: Hashable, Sendable {
    /// Run the call.
    case allow
    /// Don't; the model is told the reason as the tool's error.
    case deny(reason: String)
}

/// Decides whether a tool that writes, deletes or reaches the network may run.
///
/// The app supplies it; the bridge asks it before every such call (read-only tools that
/// stay in a closed world run without asking). A denied call never reaches the server:
/// the model reads a tool error with the reason, and can answer without the tool.
///
/// ```swift
/// let policy = ToolPolicy { request in
///     await confirm("Allow \(request.serverName)? It \(request.effects).") ? .allow : .deny(reason: "the user declined")
/// }
/// ```
///
/// Annotations come from the server and are hints: a server that marks a destructive tool
/// read-only is not stopped by this policy.
public struct ToolPolicy: Sendable {
    private let decide: @Sendable (ToolCallRequest) async -> ToolApproval

    /// A policy that asks `decide` about every call with effects.
    public init(_ decide: @escaping @Sendable (ToolCallRequest) async -> ToolApproval) {
        self.decide = decide
    }

    /// Allows every call.
    public static let allowAll = ToolPolicy { _ in .allow }

    /// Allows only tools without effects: read-only, closed-world tools.
    public static let readOnly = ToolPolicy { request in
        .deny(reason: "\(request.serverName) \(request.effects), and this app only runs read-only tools")
    }

    /// The answer for `request`: `.allow` without asking when the tool has no effects.
    public func approval(for request: ToolCallRequest) async -> ToolApproval {
        request.effects.isEmpty ? .allow : await decide(request)
    }
}
