#if canImport(FoundationModels)
internal import FoundationModels
#else
internal import PortableFoundationModels
#endif
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// Runs a chat: reads each prompt from `input`, answers it with the provider's session for
/// that turn, and passes the answer to `output`.
///
/// Written once against ``MCPSessionProvider``: when the server's tool list changes, the
/// next turn gets a session with the new tools and the same conversation, and this loop
/// does not change. A turn that fails (a tool's transport failed, the model refused)
/// writes `error: …` and the chat goes on; cancellation ends it.
///
/// - Parameters:
///   - provider: Sessions for each turn.
///   - input: The prompts; blank ones are skipped; the chat ends when it ends.
///   - partial: When given, answers are streamed: it receives the answer so far as it grows,
///     and `output` still receives each whole answer.
///   - output: Receives each answer, or `error: …`.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
public func runChat<Input: AsyncSequence>(
    provider: MCPSessionProvider, input: Input, isolation: isolated (any Actor)? = #isolation,
    partial: ((String) -> Void)? = nil, output: (String) -> Void
) async throws where Input.Element == String {
    for try await line in input {
        let prompt = String(line.trimmingWhitespace)
        guard !prompt.isEmpty else { continue }
        do {
            if let partial {
                var answer = ""
                for try await snapshot in provider.streamResponse(to: prompt) {
                    answer = snapshot
                    partial(snapshot)
                }
                output(answer)
            } else {
                output(try await provider.respond(to: prompt))
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // What the app prints or logs carries no secret either.
            output("error: \(provider.configuration.defences.secrets.redact(chatErrorDescription(error)).text)")
        }
    }
}

/// A one-line description of why a turn failed.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
func chatErrorDescription(_ error: any Error) -> String {
    if let toolError = error as? LanguageModelSession.ToolCallError {
        return "the tool \(toolError.tool.name) failed: \(toolError.underlyingError)"
    }
    return String(describing: error)
}
