// A chat loop over the provider's turns.

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension MCPSessionProvider {
    /// Runs a chat: reads each prompt from `input`, answers it with this provider's session
    /// for that turn, and passes the answer to `output`.
    ///
    /// ```swift
    /// try await provider.runChat(input: lines) { print($0) }
    /// ```
    ///
    /// When the server's tool list changes, the next turn gets the new tools and the same
    /// conversation, and this loop does not change. A turn that fails (a tool's transport
    /// failed, the model refused) writes `error: …` and the chat goes on; cancellation ends it.
    ///
    /// - Parameters:
    ///   - input: The prompts; blank ones are skipped; the chat ends when it ends.
    ///   - partial: When given, answers are streamed: it receives the answer so far as it grows,
    ///     and `output` still receives each whole answer.
    ///   - output: Receives each answer, or `error: …`.
    public func runChat<Input: AsyncSequence>(
        input: Input, isolation: isolated (any Actor)? = #isolation, partial: ((String) -> Void)? = nil, output: (String) -> Void
    ) async throws where Input.Element == String {
        for try await line in input {
            let prompt = String(line.trimmingWhitespace)
            guard !prompt.isEmpty else { continue }
            do {
                if let partial {
                    var answer = ""
                    for try await snapshot in streamResponse(to: prompt) {
                        answer = snapshot
                        partial(snapshot)
                    }
                    output(answer)
                } else {
                    output(try await respond(to: prompt))
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // What the app prints or logs carries no secret either.
                output("error: \(configuration.defences.secrets.redact(chatErrorDescription(error)).text)")
            }
        }
    }
}
