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
    /// Secrets removed from tool output, from arguments sent to servers in other processes,
    /// and from events.
    public var secrets: SecretRedactor
    /// Whether private data + untrusted content + a tool with effects needs a person's approval.
    public var guardsDataFlow: Bool
    /// Whether invisible characters are removed from tool descriptions and output and frame
    /// imitations neutralised.
    public var cleansUntrustedText: Bool
    /// Receives what the defences did (declined calls, redactions, failures), for logs.
    public var onEvent: (@Sendable (DefenceEvent) -> Void)?

    public init(
        trust: ToolTrust = ToolTrust(), secrets: SecretRedactor = SecretRedactor(), guardsDataFlow: Bool = true,
        cleansUntrustedText: Bool = true, onEvent: (@Sendable (DefenceEvent) -> Void)? = nil
    ) {
        self.trust = trust
        self.secrets = secrets
        self.guardsDataFlow = guardsDataFlow
        self.cleansUntrustedText = cleansUntrustedText
        self.onEvent = onEvent
    }

    /// Every defence off (trust marks kept): only for measuring what the defences do.
    public static func off(trust: ToolTrust = ToolTrust()) -> Defences {
        Defences(trust: trust, secrets: .none, guardsDataFlow: false, cleansUntrustedText: false)
    }

    /// Sends `event` to ``onEvent`` with secrets redacted from its message.
    func report(_ event: DefenceEvent) {
        guard let onEvent else { return }
        var event = event
        event.message = secrets.redact(event.message).text
        onEvent(event)
    }
}
