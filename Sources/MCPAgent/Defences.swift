/// The bridge's defences against prompt attacks and leaks, and what the app tells them.
///
/// All are on by default; see <doc:SecurityModel> for what each covers and what it does not.
///
/// ```swift
/// var defences = Defences(trust: ToolTrust(origin: .inProcess), secrets: SecretRedactor(secrets: [.init(token, label: "account token")]))
/// defences.trust.mark(.privateData, tool: "notes_read")
/// defences.onEvent = { event in log.notice("\(event)") }
/// let provider = MCPSessionProvider(client: client, configuration: .init(defences: defences))
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
    /// Receives what the defences did (declined calls, redactions, failures), for logs.
    public var onEvent: (@Sendable (DefenceEvent) -> Void)?

    public init(
        trust: ToolTrust = ToolTrust(), secrets: SecretRedactor = SecretRedactor(), guardsDataFlow: Bool = true,
        cleansUntrustedText: Bool = true, promptClassifier: PrivateDataClassifier = .secretsAndPaymentCards,
        onEvent: (@Sendable (DefenceEvent) -> Void)? = nil
    ) {
        self.trust = trust
        self.secrets = secrets
        self.guardsDataFlow = guardsDataFlow
        self.cleansUntrustedText = cleansUntrustedText
        self.promptClassifier = promptClassifier
        self.onEvent = onEvent
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

    /// Sends `event` to ``onEvent`` with secrets redacted from its message.
    package func report(_ event: DefenceEvent) {
        guard let onEvent else { return }
        var event = event
        event.message = secrets.redact(event.message).text
        onEvent(event)
    }
}
