public import MCPCore

/// What a tool may do beyond reading, as its MCP annotations declare (with the spec's
/// defaults when they are absent: a tool may write, destroy and reach the network; the app's
/// own in-process tools without annotations declare none, see ``init(annotations:origin:)``).
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

    /// The effects the annotations of a tool at `origin` declare: for the app's own tool (in
    /// process) without annotations, none — the app wrote it, and declares the effects it
    /// wants the policy to ask about; otherwise those of ``init(annotations:)``.
    public init(annotations: ToolAnnotations?, origin: ToolTrust.Origin) {
        if origin == .inProcess && annotations == nil {
            self = []
        } else {
            self.init(annotations: annotations)
        }
    }

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

/// Decides whether a tool that writes, deletes or reaches the network may run.
///
/// A policy has up to two parts: a *rule* that answers at once (``allowAll``, ``readOnly``,
/// ``allowing(_:approver:)``), and an *approver*, a person the app asks (``ToolApprover``).
/// The bridge consults it before every call of a tool with effects; read-only tools that
/// stay in a closed world run without asking. A denied call never reaches the server: the
/// model reads a tool error with the reason, and can answer without the tool.
///
/// With no policy supplied the bridge uses ``readOnly``: tools with effects are declined
/// with a reason the model reads ("declined: the app has not approved tools that …").
///
/// ```swift
/// let policy = ToolPolicy { request in
///     await confirm("Allow \(request.modelName)? It \(request.effects).") ? .allowForSession : .deny(reason: "the user declined")
/// }
/// ```
///
/// When the session has read private data or untrusted content, a call of a tool that
/// writes or reaches the network goes to the approver even when the rule would allow it
/// (``ToolCallRequest/concern`` says why); so does, once private data was read, a call of
/// any tool whose arguments leave the app (a server in another process), whatever its
/// annotations say. Without an approver such a call is declined. See ``DataFlowGuard``.
///
/// Annotations come from the server and are hints: they decide what the rule is asked
/// about, never whether the guard applies; override them with ``ToolTrust``.
public struct ToolPolicy: Sendable {
    /// The immediate answer for a call with effects; `nil` asks the approver.
    let rule: @Sendable (ToolCallRequest) -> ToolApproval?
    /// Who is asked when the rule does not answer, or when the data-flow guard requires it.
    public let approver: ToolApprover?

    /// A policy that asks `decide` (a person, through the app's interface) about every call
    /// with effects; calls reach it one at a time.
    public init(_ decide: @escaping @Sendable (ToolCallRequest) async -> ToolApproval) {
        self.rule = { _ in nil }
        self.approver = ToolApprover(decide)
    }

    init(approver: ToolApprover?, rule: @escaping @Sendable (ToolCallRequest) -> ToolApproval?) {
        self.rule = rule
        self.approver = approver
    }

    /// Allows tools whose effects are all in `effects` without asking; asks `approver` about
    /// the others (declines them without one).
    public static func allowing(_ effects: ToolEffects, approver: ToolApprover? = nil) -> ToolPolicy {
        ToolPolicy(approver: approver) { request in
            if effects.isSuperset(of: request.effects) { return .allow }
            return approver == nil ? .deny(reason: ToolPolicy.declined(request)) : nil
        }
    }

    /// Allows every call, by name: no person is asked, except by the data-flow guard, which
    /// then declines (there is no one to ask).
    public static let allowAll = ToolPolicy(approver: nil) { _ in .allow }

    /// The default: allows only tools without effects (read-only, closed-world) and declines
    /// the others with a reason the model reads.
    public static let readOnly = ToolPolicy(approver: nil) { request in .deny(reason: ToolPolicy.declined(request)) }

    /// `declined: the app has not approved tools that write, delete data or reach the network (notes_delete may delete data)`.
    static func declined(_ request: ToolCallRequest) -> String {
        "declined: the app has not approved tools that \(request.effects.verbs) (\(request.modelName) \(request.effects))"
    }

    /// The rule's answer for `request` (`.allow` without asking when the tool has no
    /// effects), else the approver's, else a denial. The bridge adds session memory and
    /// the data-flow guard on top (``DataFlowGuard``).
    public func approval(for request: ToolCallRequest) async -> ToolApproval {
        if request.effects.isEmpty { return .allow }
        if let answer = rule(request) { return answer }
        guard let approver else { return .deny(reason: Self.declined(request)) }
        return await approver.ask(request)
    }
}

extension ToolEffects {
    /// `write`, `write, delete data or reach the network`: what tools with these effects do, as verbs.
    var verbs: String {
        var names: [String] = []
        if contains(.writes) { names.append("write") }
        if contains(.destroys) { names.append("delete data") }
        if contains(.reachesOpenWorld) { names.append("reach the network") }
        switch names.count {
        case 0: return "have effects"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        }
    }
}
