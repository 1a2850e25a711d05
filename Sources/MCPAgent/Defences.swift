/// The defences against prompt attacks and leaks, and what the app tells them.
///
/// All are on by default; see the security model in MCPFoundationModels' documentation for
/// what each covers and what it does not. A tool call goes through ``interceptors``, whose
/// default chain is the defences in their order (see ``ToolCallChain``); what they did is
/// reported as ``AgentEvent/defence(_:)`` on the conversation's one event stream.
///
/// ```swift
/// var defences = Defences(trust: ToolTrust(origin: .inProcess), secrets: SecretRedactor(secrets: [.init(token, label: "account token")]))
/// defences.trust.mark(.privateData, tool: "notes_read")
/// let provider = MCPSessionProvider(client: client, configuration: .init(defences: defences))
/// for await event in provider.events { log.notice("\(event)") }
/// ```
public struct Defences: Sendable {
    /// What the app says about the server and its tools, over their annotations.
    public var trust: ToolTrust
    /// Secrets removed from tool output, from the arguments every server receives (and the
    /// approver sees), and from events; encoded and split forms of them are found too.
    public var secrets: SecretRedactor
    /// Whether private data + untrusted content + a way out (a tool with effects, or whose
    /// arguments leave the app) needs a person's approval.
    public var guardsDataFlow: Bool
    /// Whether invisible characters are removed from tool definitions and output, frame and
    /// role imitations neutralised, and an untrusted server's definitions screened for text
    /// that reads as orders to the model.
    public var cleansUntrustedText: Bool
    /// Which of the user's prompts carry private data (by default secrets and payment card
    /// numbers); the app's configured ``secrets`` count too.
    public var promptClassifier: PrivateDataClassifier
    /// The steps every tool call goes through, in order; by default the defences
    /// (``ToolCallChain/standard``). Insert an interceptor of the app's own to see or change
    /// calls (see ``ToolCallInterceptor``).
    public var interceptors: ToolCallChain
    /// A receiver of defence events besides the event stream, from before there was one.
    var legacyReceiver: (@Sendable (DefenceEvent) -> Void)?

    public init(
        trust: ToolTrust = ToolTrust(), secrets: SecretRedactor = SecretRedactor(), guardsDataFlow: Bool = true,
        cleansUntrustedText: Bool = true, promptClassifier: PrivateDataClassifier = .secretsAndPaymentCards,
        interceptors: ToolCallChain = .standard
    ) {
        self.trust = trust
        self.secrets = secrets
        self.guardsDataFlow = guardsDataFlow
        self.cleansUntrustedText = cleansUntrustedText
        self.promptClassifier = promptClassifier
        self.interceptors = interceptors
    }

    /// Every defence off (trust marks kept): only for measuring what the defences do.
    public static func off(trust: ToolTrust = ToolTrust()) -> Defences {
        Defences(trust: trust, secrets: .none, guardsDataFlow: false, cleansUntrustedText: false, promptClassifier: .nothing)
    }

    /// What a prompt of the user's contains, for the data-flow guard: private data when the
    /// classifier or a configured secret finds it.
    package func marks(ofPrompt prompt: String) -> ToolTrust.DataMarks {
        guard guardsDataFlow else { return [] }
        return promptClassifier.isPrivate(prompt) || secrets.redact(prompt).redactedAnything ? .privateData : []
    }

    /// Sends `event`, with secrets redacted from its message, to `monitor` (the conversation's
    /// event stream) as ``AgentEvent/defence(_:)``.
    package func report(_ event: DefenceEvent, to monitor: ToolCallMonitor?) {
        guard monitor != nil || legacyReceiver != nil else { return }
        var event = event
        event.message = secrets.redact(event.message).text
        monitor?.report(.defence(event))
        legacyReceiver?(event)
    }
}
