#if !canImport(FoundationModels)
// A third-party 27 `LanguageModel` for the bridge's tests: its executor asks a closure what to
// do for each model request and records every request. Everything runs in process.
import Foundation
import PortableFoundationModels

/// What the model does for one request.
enum ModelReply: Sendable {
    case text(String)
    /// One tool call, its arguments written as JSON.
    case call(String, json: String)
}

/// A model that answers through its executor and records the requests it gets.
struct ThirdPartyModel: LanguageModel {
    typealias Executor = ThirdPartyExecutor

    let capabilities = LanguageModelCapabilities([.toolCalling, .guidedGeneration])
    let recorder = RequestRecorder()
    let reply: @Sendable (LanguageModelExecutorGenerationRequest) async throws -> ModelReply

    init(reply: @escaping @Sendable (LanguageModelExecutorGenerationRequest) async throws -> ModelReply) {
        self.reply = reply
    }

    /// A model that plays `replies` in order, one per request.
    init(_ replies: [ModelReply]) {
        let next = RequestRecorder.Counter()
        self.init { _ in
            let index = next.take()
            return index < replies.count ? replies[index] : .text("(the script has ended)")
        }
    }

    var executorConfiguration: ThirdPartyExecutor.Configuration { ThirdPartyExecutor.Configuration() }

    /// The requests the executor got, oldest first.
    var requests: [LanguageModelExecutorGenerationRequest] { recorder.requests }
}

struct ThirdPartyExecutor: LanguageModelExecutor {
    typealias Model = ThirdPartyModel

    struct Configuration: Hashable, Sendable {}

    init(configuration: Configuration) {}

    func respond(
        to request: LanguageModelExecutorGenerationRequest, model: ThirdPartyModel,
        streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        model.recorder.append(request)
        switch try await model.reply(request) {
        case .text(let text):
            await channel.send(.response(action: .appendText(text, tokenCount: 1)))
        case .call(let tool, let json):
            await channel.send(
                .toolCalls(action: .toolCall(id: UUID().uuidString, name: tool, action: .appendArguments(json, tokenCount: 1))))
        }
    }
}

/// The requests a model got.
final class RequestRecorder: @unchecked Sendable {
    // Safety: `recorded` is touched only with `lock` held.
    private let lock = NSLock()
    private var recorded: [LanguageModelExecutorGenerationRequest] = []

    func append(_ request: LanguageModelExecutorGenerationRequest) {
        lock.withLock { recorded.append(request) }
    }

    var requests: [LanguageModelExecutorGenerationRequest] { lock.withLock { recorded } }

    /// A counter shared by the requests of one model.
    final class Counter: @unchecked Sendable {
        // Safety: `value` is touched only with `lock` held.
        private let lock = NSLock()
        private var value = 0

        func take() -> Int {
            lock.withLock {
                defer { value += 1 }
                return value
            }
        }
    }
}

extension LanguageModelExecutorGenerationRequest {
    /// The names of the tools the request offers, sorted.
    var toolNames: [String] { enabledToolDefinitions.map(\.name).sorted() }

    /// The text of the latest prompt.
    var promptText: String {
        for entry in transcript.reversed() {
            if case .prompt(let prompt) = entry { return prompt.segments.map(\.description).joined() }
        }
        return ""
    }

    /// The text of the latest output of `tool` since the latest prompt, if any.
    func output(of tool: String) -> String? {
        for entry in transcript.reversed() {
            switch entry {
            case .prompt: return nil
            case .toolOutput(let output) where output.toolName == tool: return output.segments.map(\.description).joined()
            default: continue
            }
        }
        return nil
    }

    /// Whether a tool's output came after the latest prompt.
    var hasToolOutput: Bool {
        for entry in transcript.reversed() {
            if case .prompt = entry { return false }
            if case .toolOutput = entry { return true }
        }
        return false
    }
}
#endif
