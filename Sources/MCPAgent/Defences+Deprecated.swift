// The defences' own event callback, from before the one event stream.

extension Defences {
    /// Receives what the defences did, besides the conversation's event stream.
    @available(*, deprecated, message: "Read AgentEvent.defence on the event stream (MCPSessionProvider.events, or a ToolCallMonitor)")
    public var onEvent: (@Sendable (DefenceEvent) -> Void)? {
        get { legacyReceiver }
        set { legacyReceiver = newValue }
    }

    /// The defences with a callback for their events besides the event stream.
    @available(*, deprecated, message: "Read AgentEvent.defence on the event stream (MCPSessionProvider.events, or a ToolCallMonitor)")
    public init(
        trust: ToolTrust = ToolTrust(), secrets: SecretRedactor = SecretRedactor(), guardsDataFlow: Bool = true,
        cleansUntrustedText: Bool = true, promptClassifier: PrivateDataClassifier = .secretsAndPaymentCards,
        onEvent: (@Sendable (DefenceEvent) -> Void)?
    ) {
        self.init(
            trust: trust, secrets: secrets, guardsDataFlow: guardsDataFlow, cleansUntrustedText: cleansUntrustedText,
            promptClassifier: promptClassifier)
        legacyReceiver = onEvent
    }
}
