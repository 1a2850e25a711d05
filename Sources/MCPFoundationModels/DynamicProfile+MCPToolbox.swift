#if canImport(FoundationModels)
public import FoundationModels
#else
public import PortableFoundationModels
#endif

@available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
@available(tvOS, unavailable)
extension LanguageModelSession.DynamicProfile {
    /// Keeps a profile whose instructions hold ``MCPTools`` within the model's context and
    /// its tools current.
    ///
    /// - The history the model sees is fitted into what the instructions, the chosen tools
    ///   and the room for the answer leave (``MCPToolbox/fit(_:)``, the configuration's
    ///   ``HistoryPolicy``), through `historyTransform`: the session's transcript keeps every
    ///   entry.
    /// - Between the requests of a response (after each tool output), a tool list change is
    ///   listed before the next request; each prompt and tool output is counted with the
    ///   model's counter.
    /// - A failed response leaves the transcript as it was before the prompt
    ///   (`.revertTranscript`), so a turn that overflowed can be retried after
    ///   ``MCPToolbox/contextDidOverflow(_:)``.
    public func mcpToolbox(_ toolbox: MCPToolbox) -> some LanguageModelSession.DynamicProfile {
        modifier(MCPToolboxModifier(toolbox: toolbox))
    }

    /// Shortens the history the model sees with `policy` so that it takes at most `limit`
    /// tokens, counted by `tokens` (by default ``MCPAgent/ContextBudget/tokens(for:)`` of the
    /// entry's text).
    ///
    /// Evaluated before every request, on the whole history; the session's transcript keeps
    /// every entry. For MCP tools use ``mcpToolbox(_:)``, which fits the history to what the
    /// chosen tools leave and keeps the shortened start stable from one request to the next.
    public func historyPolicy(
        _ policy: some HistoryPolicy, toFit limit: Int,
        tokens: @escaping @Sendable (Transcript.Entry) -> Int = { ContextBudget.onDevice.tokens(for: $0.description) }
    ) -> some LanguageModelSession.DynamicProfile {
        modifier(HistoryPolicyModifier(policy: policy, limit: limit, tokens: tokens))
    }
}

/// The modifier behind ``LanguageModelSession/DynamicProfile/mcpToolbox(_:)``.
@available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
@available(tvOS, unavailable)
struct MCPToolboxModifier: LanguageModelSession.DynamicProfileModifier {
    let toolbox: MCPToolbox

    func body(content: Content) -> some LanguageModelSession.DynamicProfile {
        let toolbox = self.toolbox
        content
            .historyTransform { toolbox.fit($0) }
            .transcriptErrorHandlingPolicy(.revertTranscript)
            .onPrompt { prompt in
                await toolbox.count([.prompt(prompt)])
            }
            .onToolOutput { _, output in
                // A change heard while the tool ran reaches the follow-up request. A failed
                // listing keeps the tools listed before; the next refresh reports it.
                _ = try? await toolbox.relistIfChanged()
                await toolbox.count([.toolOutput(output)])
            }
            .onResponse { response in
                await toolbox.count([.response(response)])
            }
    }
}

/// The modifier behind ``LanguageModelSession/DynamicProfile/historyPolicy(_:toFit:tokens:)``.
@available(iOS 27.0, macOS 27.0, visionOS 27.0, *)
@available(tvOS, unavailable)
struct HistoryPolicyModifier<Policy: HistoryPolicy>: LanguageModelSession.DynamicProfileModifier {
    let policy: Policy
    let limit: Int
    let tokens: @Sendable (Transcript.Entry) -> Int

    func body(content: Content) -> some LanguageModelSession.DynamicProfile {
        let policy = self.policy
        let limit = self.limit
        let tokens = self.tokens
        content.historyTransform { entries in
            entries.reduce(0) { $0 + tokens($1) } > limit ? policy.shorten(entries, toFit: limit, tokens: tokens) : entries
        }
    }
}
