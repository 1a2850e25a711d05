public import MCP

/// The state the bridge keeps for one conversation: what it has read, what a person allowed
/// and in which state, what left through tool arguments, and the frame its tool output uses.
///
/// *Private data + untrusted content + a way out = ask* (the "lethal trifecta"). The guard
/// tracks what the model has read:
/// - the output of tools marked ``ToolTrust/DataMarks/privateData`` or
///   ``ToolTrust/DataMarks/untrustedContent`` (everything from a server in another process
///   is untrusted);
/// - the user's prompt, when the app's ``PrivateDataClassifier`` finds it private
///   (``recordPrompt(marks:)``);
/// - the definitions of an untrusted server's tools, which the model reads with every
///   request (``recordDefinitions(server:revision:)``).
///
/// Then, before a call:
/// - a tool that writes, deletes or reaches the network goes to the policy's
///   ``ToolApprover`` with a ``DataFlowConcern`` once the session has read private data or
///   untrusted content (an untrusted server's own tool definitions do not count for its own
///   tools: it could do anything they order itself);
/// - a tool whose arguments leave the app (any tool of a server in another process, whatever
///   its annotations say) goes to the approver once the session has read private data.
///
/// Without an approver such a call is declined. The state lives in the bridge, not in the
/// model's context, so it holds whatever the model was told (the CaMeL principle: security
/// that does not depend on the model behaving).
///
/// A person's "allow for this session" covers later calls of the same ``ToolIdentity`` (the
/// same connection, server and definition) only while nothing new has been read: new private
/// data or untrusted content changes the guard's ``generation``, and the next call asks again.
///
/// A `MCPSessionProvider` keeps one guard per conversation; after
/// `MCPSessionProvider/reset(clearingDataFlow:)` the new guard carries what the old one read
/// unless the app says the new conversation starts clean. Tools bridged by hand share one by
/// passing the same guard to each `MCPBridgedTool`.
public actor DataFlowGuard {
    /// The frame around the session's tool output, with its random boundary.
    public nonisolated let frame: ToolOutputFrame
    /// What the session has read.
    public private(set) var sources: [DataFlowConcern.Source] = []
    /// The data-flow state: it changes whenever new private data or untrusted content is
    /// read, which ends every "allow for this session".
    public private(set) var generation = 0
    /// Permissions for the session, by tool, with the generation they were given in.
    private var grants: [ToolIdentity: Grant] = [:]
    /// The definitions of untrusted servers already recorded, by server, with their revision.
    private var definitionRevisions: [String: Int] = [:]
    /// Which characters of each configured secret left in the conversation's arguments.
    private var sentParts: [String: Set<Int>] = [:]
    /// Secrets of well-known shapes the user's prompts held: known values from then on, so
    /// their parts are found in arguments as a configured secret's are.
    public private(set) var learnedSecrets: [SecretRedactor.Secret] = []

    private struct Grant {
        var generation: Int
        /// Keeps the connection alive while the grant exists, so its identity is not reused.
        var client: MCPClient?
    }

    /// A guard with a fresh random frame.
    public init(frame: ToolOutputFrame = ToolOutputFrame()) {
        self.frame = frame
    }

    /// A guard for a new conversation that still counts what `earlier` sources read (their
    /// answers may be fed into it), with a fresh random frame.
    public init(
        carrying earlier: [DataFlowConcern.Source], secrets: [SecretRedactor.Secret] = [], frame: ToolOutputFrame = ToolOutputFrame()
    ) {
        self.frame = frame
        self.learnedSecrets = secrets
        self.sources = earlier.map { source in
            var carried = source
            if carried.kind != .toolDefinitions { carried.kind = .earlierConversation }
            return carried
        }
    }

    /// Records that the session read output of `tool` containing `marks`.
    public func recordRead(tool: String, marks: ToolTrust.DataMarks) {
        record(DataFlowConcern.Source(tool: tool, marks: marks))
    }

    /// Records that the session read output of `tool`, of the server labelled `server`,
    /// containing `marks`.
    public func recordRead(tool: String, server: String, marks: ToolTrust.DataMarks) {
        record(DataFlowConcern.Source(tool: tool, marks: marks, server: server))
    }

    /// Records a prompt of the user's that contains `marks` (``ToolTrust/DataMarks/privateData``
    /// when the app's classifier found private data in it).
    public func recordPrompt(marks: ToolTrust.DataMarks) {
        record(DataFlowConcern.Source(tool: "prompt", marks: marks, kind: .prompt))
    }

    /// Records the user's `prompt`, which contains `marks`, and learns the secrets of
    /// well-known shapes it holds (see ``learnedSecrets``).
    public func recordPrompt(_ prompt: String, marks: ToolTrust.DataMarks) {
        recordPrompt(marks: marks)
        for secret in SecretRedactor.shapedSecrets(in: prompt) where !learnedSecrets.contains(secret) {
            learnedSecrets.append(secret)
        }
    }

    /// `base` with the secrets this conversation learned added (when `base` finds the
    /// well-known shapes: they are what is learned).
    package func redactor(adding base: SecretRedactor) -> SecretRedactor {
        guard base.detectsWellKnownShapes, !learnedSecrets.isEmpty else { return base }
        var redactor = base
        redactor.secrets += learnedSecrets.filter { !redactor.secrets.contains($0) }
        return redactor
    }

    /// Records that the model reads the definitions of the untrusted server labelled `server`
    /// (untrusted content); `revision` tells one listing from the next, so a changed listing
    /// counts as new content.
    public func recordDefinitions(server: String, revision: Int) {
        guard definitionRevisions[server] != revision else { return }
        definitionRevisions[server] = revision
        record(DataFlowConcern.Source(tool: server, marks: .untrustedContent, kind: .toolDefinitions, server: server))
    }

    private func record(_ source: DataFlowConcern.Source) {
        guard !source.marks.isEmpty else { return }
        generation += 1
        if let index = sources.firstIndex(where: { $0.tool == source.tool && $0.kind == source.kind && $0.server == source.server }) {
            sources[index].marks.formUnion(source.marks)
        } else {
            sources.append(source)
        }
    }

    /// The concern a call of `tool` with `effects` raises now, if any (for a tool whose
    /// arguments stay in the app).
    public func concern(tool: String, effects: ToolEffects) -> DataFlowConcern? {
        concern(for: ToolCallRequest(toolNameOnServer: tool, modelName: tool, arguments: [:], effects: effects, origin: .inProcess))
    }

    /// The concern `request` raises now, if any.
    public func concern(for request: ToolCallRequest) -> DataFlowConcern? {
        // A server's own definitions cannot order its own tools to do what it could not do itself.
        let relevant = sources.filter { !($0.kind == .toolDefinitions && $0.server == request.server) }
        let raises: Bool
        if !request.effects.isEmpty {
            raises = !relevant.isEmpty
        } else if request.sendsArgumentsOut {
            // Its own definitions are untrusted content beside the private data: both count.
            raises = relevant.contains { $0.marks.contains(.privateData) }
        } else {
            raises = false
        }
        guard raises else { return nil }
        let shown = request.effects.isEmpty ? sources : relevant
        return DataFlowConcern(
            sources: shown, tool: request.modelName, effects: request.effects, sendsArgumentsOut: request.sendsArgumentsOut)
    }

    /// Whether the session has read anything the guard tracks.
    public var hasReadTrackedData: Bool { !sources.isEmpty }

    /// Whether the session has read private data (a private tool's output, a private prompt,
    /// or either in an earlier conversation carried over).
    public var hasReadPrivateData: Bool { sources.contains { $0.marks.contains(.privateData) } }

    /// The answer for `request`: the session's earlier "allow for this session", the
    /// policy, and the data-flow guard together.
    ///
    /// A call with no effects whose arguments stay in the app is allowed at once. A
    /// permission for the session covers `request` only when it was given for the same
    /// ``ToolCallRequest/tool`` in the current ``generation``.
    ///
    /// - Parameters:
    ///   - guardsDataFlow: Whether the guard applies (``Defences/guardsDataFlow``).
    /// - Returns: The answer, and the request as the approver saw it (with its concern).
    public func approval(
        for request: ToolCallRequest, policy: ToolPolicy, guardsDataFlow: Bool = true, client: MCPClient? = nil
    ) async -> (ToolApproval, ToolCallRequest) {
        var request = request
        if request.effects.isEmpty, !request.sendsArgumentsOut { return (.allow, request) }
        if guardsDataFlow { request.concern = concern(for: request) }
        if request.effects.isEmpty, request.concern == nil { return (.allow, request) }
        let askedAt = generation
        if let tool = request.tool, let grant = grants[tool], grant.generation == askedAt {
            return (.allow, request)
        }
        let answer: ToolApproval
        if let concern = request.concern {
            guard let approver = policy.approver else {
                return (
                    .deny(reason: "declined: \(concern); a person must approve this call and the app has not set up an approver"), request
                )
            }
            answer = await approver.ask(request)
        } else {
            answer = await policy.approval(for: request)
        }
        if answer.isForSession, let tool = request.tool {
            grants[tool] = Grant(generation: askedAt, client: client)
        }
        return (answer, request)
    }

    /// Whether `arguments`, with what the conversation already sent, carry enough of a secret
    /// `redactor` knows to rebuild it: its label when they do. Arguments that pass are
    /// recorded as sent.
    package func screenParts(of arguments: JSONObject, redactor: SecretRedactor) -> String? {
        let found = redactor.secretParts(in: arguments)
        guard !found.isEmpty else { return nil }
        var updated = sentParts
        for (label, parts) in found {
            let covered = updated[label.key, default: []].union(parts)
            if covered.count >= label.threshold { return label.label }
            updated[label.key] = covered
        }
        sentParts = updated
        return nil
    }
}
