// ChatCompletions: an OpenAI-compatible model behind PortableFoundationModels.
#if !canImport(FoundationModels)
public import Foundation
import JSONCore
import MCPHTTP
import MCPPlatform
public import PortableFoundationModels

/// A model served by an OpenAI-compatible chat-completions server — llama.cpp's
/// `llama-server`, Ollama, vLLM, LM Studio, or a hosted API — as the model behind a
/// FoundationModels session on platforms without Apple's.
///
/// ```swift
/// import ChatCompletions
/// import PortableFoundationModels
///
/// let backend = try await ChatCompletionsModel.connect(to: URL(string: "http://127.0.0.1:8080")!)
/// let session = LanguageModelSession(model: SystemLanguageModel(backend: backend), tools: tools)
/// let answer = try await session.respond(to: "What time is it in Lisbon?").content
/// ```
///
/// ``connect(to:model:configuration:)`` asks the server for its models (failing with
/// ``ChatCompletionsError/unknownModel`` for one it does not serve) and, where it tells them
/// (llama.cpp), for the context size and a tokenizer: ``contextSize`` and
/// ``tokenCount(for:)`` are then the model's own, so a session's context budget counts real
/// tokens. A request the server finds over the context fails with
/// `LanguageModelSession.GenerationError.exceededContextWindowSize`, as Apple's model does.
///
/// Tool calls use guided generation by default (``ChatCompletionsConfiguration/ToolCalling``):
/// each step is constrained to "answer" or "call one listed tool with arguments of its schema",
/// so even a very small model only ever names tools that exist, with arguments that match.
/// Answers stream over server-sent events; cancelling the task that waits for a turn closes the
/// request's connection, which stops the server generating.
public final class ChatCompletionsModel: LanguageModelBackend, @unchecked Sendable {
    // Safety: every stored property is immutable except `tokenCache` and `tokenizer`, which are
    // used with `lock` held.
    /// The API's base URL (ending in `/v1`).
    public let baseURL: URL
    /// The model every request names.
    public let model: String
    /// The most tokens the model's context holds: the server's figure, or the configuration's.
    public let contextSize: Int
    /// Whether ``tokenCount(for:)`` counts with the server's tokenizer (`false`: an estimate).
    public var countsWithServerTokenizer: Bool { lock.withLock { tokenizer != nil } }
    let configuration: ChatCompletionsConfiguration
    private let exchanger: any HTTPExchanging
    private let lock = Lock()
    private var tokenizer: URL?
    private var tokenCache: [String: Int] = [:]

    init(baseURL: URL, model: String, contextSize: Int, tokenizer: URL?, configuration: ChatCompletionsConfiguration, exchanger: any HTTPExchanging) {
        self.baseURL = baseURL
        self.model = model
        self.contextSize = contextSize
        self.tokenizer = tokenizer
        self.configuration = configuration
        self.exchanger = exchanger
    }

    deinit {
        exchanger.shutdown()
    }

    /// A `SystemLanguageModel` answered by this model.
    public var systemLanguageModel: SystemLanguageModel { SystemLanguageModel(backend: self) }

    // MARK: Connecting

    /// Connects to the chat-completions API at `url` and checks that it serves `model`.
    ///
    /// `url` is the API's base (`https://api.openai.com/v1`) or the server's root
    /// (`http://127.0.0.1:8080`, to which `/v1` is added). Without `model`, the server's
    /// first model is used (llama.cpp serves one).
    ///
    /// - Throws: ``ChatCompletionsError/unreachable`` when nothing answers,
    ///   ``ChatCompletionsError/unknownModel`` (naming the models it has) for a model it does not
    ///   serve, ``ChatCompletionsError/unauthorized`` for refused credentials,
    ///   ``ChatCompletionsError/insecureCredentials`` for an API key over plain `http://` to
    ///   another machine, ``ChatCompletionsError/invalidConfiguration`` for a URL that is not
    ///   `http` or `https`.
    public static func connect(
        to url: URL, model: String? = nil, configuration: ChatCompletionsConfiguration = ChatCompletionsConfiguration()
    ) async throws -> ChatCompletionsModel {
        let base = try apiBase(url, configuration: configuration)
        let exchanger = HTTPClientTransport.exchanger(for: base, configuration: HTTPTransportConfiguration(maximumMessageBytes: configuration.maximumResponseBytes))
        do {
            let probe = Probe(base: base, configuration: configuration, exchanger: exchanger)
            let (listed, problem) = try await probe.listing()
            let chosen: String
            if let model {
                if let listed, !listed.isEmpty, !listed.contains(model) {
                    throw ChatCompletionsError.make(
                        .unknownModel, "the server at \(base.absoluteString) has no model \(model); it has: \(listed.joined(separator: ", "))")
                }
                chosen = model
            } else if let first = listed?.first {
                chosen = first
            } else if let problem {
                // Not an OpenAI-compatible server at all, most likely (an MCP server's URL, say).
                throw ChatCompletionsError.make(
                    .unknownModel,
                    "the server at \(base.absoluteString) did not list its models (\(problem)); it may not be an OpenAI-compatible "
                        + "chat-completions server (an MCP server's URL is for --url, not --model-url); name a model to try it anyway")
            } else {
                throw ChatCompletionsError.make(.unknownModel, "the server at \(base.absoluteString) lists no model; name one")
            }
            let server = await probe.serverContext()
            return ChatCompletionsModel(
                baseURL: base, model: chosen, contextSize: configuration.contextSize ?? server.contextSize ?? 4096,
                tokenizer: server.tokenizer, configuration: configuration, exchanger: exchanger)
        } catch {
            exchanger.shutdown()
            throw error
        }
    }

    /// The API's base URL: `url`, or `url/v1` for a server's root.
    static func apiBase(_ url: URL, configuration: ChatCompletionsConfiguration) throws -> URL {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw ChatCompletionsError.make(.invalidConfiguration, "the model URL must be http:// or https:// with a host, not \(url.absoluteString)")
        }
        guard configuration.maximumToolRounds >= 0, configuration.maximumResponseBytes > 0, configuration.idleTimeout > .zero else {
            throw ChatCompletionsError.make(.invalidConfiguration, "the model configuration's limits must be positive")
        }
        if scheme == "http", configuration.apiKey != nil, !configuration.allowsInsecureCredentials, !isLoopback(host) {
            throw ChatCompletionsError.make(
                .insecureCredentials, "refusing to send an API key over plain http:// to \(host); use https://, or set allowsInsecureCredentials")
        }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        if url.path.isEmpty || url.path == "/" { text += "/v1" }
        guard let base = URL(string: text) else {
            throw ChatCompletionsError.make(.invalidConfiguration, "the model URL \(url.absoluteString) cannot be used")
        }
        return base
    }

    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    // MARK: Tokens

    /// The tokens the model's tokenizer makes of `text` (the server's `/tokenize`, where it
    /// has one; otherwise `TokenEstimator`'s estimate). Counts are cached: the same tool
    /// definitions are counted on every turn.
    public func tokenCount(for text: String) async throws -> Int {
        let (endpoint, cached) = lock.withLock { (tokenizer, tokenCache[text]) }
        if let cached { return cached }
        guard let endpoint else { return TokenEstimator.tokenCount(for: text) }
        let body: JSONObject = ["content": .string(text), "add_special": .bool(false)]
        let request = try await self.request("POST", endpoint, body: .object(body))
        let value: JSONValue
        do {
            value = try await json(of: request, what: "counting tokens")
        } catch let failure as ChatCompletionsError where failure == .httpStatus {
            // A server without the endpoint after all: estimate from now on.
            lock.withLock { tokenizer = nil }
            return TokenEstimator.tokenCount(for: text)
        }
        guard case .array(let tokens)? = value["tokens"] else {
            throw ChatCompletionsError.make(.invalidResponse, "the server's /tokenize answer has no tokens")
        }
        lock.withLock {
            if tokenCache.count > 4096 { tokenCache.removeAll(keepingCapacity: true) }
            tokenCache[text] = tokens.count
        }
        return tokens.count
    }

    // MARK: Responding

    /// One turn of the model for a session's request: text, structured content, or tool calls.
    ///
    /// - Throws: `LanguageModelSession.GenerationError.exceededContextWindowSize` when the
    ///   server finds the request over the model's context, `.refusal` when the model refuses,
    ///   `.rateLimited` for a `429`, `.decodingFailure` for an answer that cannot be read as the
    ///   request needs; ``ChatCompletionsError`` when the server cannot be reached or fails;
    ///   `CancellationError` when the task is cancelled (the request is then stopped).
    public func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
        try await respond(to: request, reporting: nil)
    }

    /// One turn of the model, reporting its answer as the server streams it.
    ///
    /// `partialAnswer` receives the answer so far after each event of the stream that adds to
    /// it: the text, or the structured content parsed so far. With guided tool calls it is the
    /// `answer` part of the step's JSON, once the model has chosen to answer; a tool call is
    /// never reported. With native function calling, text that comes before a call is reported
    /// (a server may stream text, then decide to call a tool). Errors are as for
    /// ``respond(to:)``.
    public func respond(
        to request: LanguageModelRequest, partialAnswer: @escaping @Sendable (GeneratedContent) -> Void
    ) async throws -> LanguageModelTurn {
        try await respond(to: request, reporting: partialAnswer)
    }

    private func respond(
        to request: LanguageModelRequest, reporting partialAnswer: (@Sendable (GeneratedContent) -> Void)?
    ) async throws -> LanguageModelTurn {
        let clock = ContinuousClock()
        let started = clock.now
        let built = try ChatRequestBuilder.build(request, model: model, configuration: configuration, stream: true)
        let http = try await self.request("POST", baseURL.appendingPathComponent("chat/completions"), body: built.body)
        let sent = clock.now
        let shape = built.shape
        let answer = try await completion(of: http, reporting: partialAnswer.map { report in
            { @Sendable (content: String, callsStarted: Bool) in
                if let partial = ChatRequestBuilder.partialAnswer(content: content, shape: shape, callsStarted: callsStarted) { report(partial) }
            }
        })
        let received = clock.now
        if let refusal = answer.refusal, !refusal.isEmpty {
            throw LanguageModelSession.GenerationError.refusal(
                LanguageModelSession.GenerationError.Refusal(transcriptEntries: [], explanation: refusal),
                LanguageModelSession.GenerationError.Context(debugDescription: "The model refused: \(refusal)"))
        }
        let turn: LanguageModelTurn
        do {
            turn = try ChatRequestBuilder.turn(content: answer.content, toolCalls: answer.toolCalls, shape: built.shape)
        } catch {
            let cut = answer.finishReason == "length" ? " (the answer was cut at the response token limit)" : ""
            throw LanguageModelSession.GenerationError.decodingFailure(.init(debugDescription: error.reason + cut))
        }
        if let report = configuration.requestMetrics {
            report(ChatCompletionsRequestMetrics(
                building: sent - started, timeToHeaders: (answer.headersReceived ?? received) - sent, exchange: received - sent,
                decoding: clock.now - received, requestBytes: http.body?.count ?? 0, server: answer.timings))
        }
        return turn
    }

    /// What a completion came to, streamed or not.
    struct Completion {
        var content = ""
        var refusal: String?
        var toolCalls: [(id: String?, name: String, arguments: String)] = []
        var finishReason: String?
        /// The server's timings, when it sent them.
        var timings: ChatCompletionsRequestMetrics.ServerTimings?
        /// When the response's headers arrived.
        var headersReceived: ContinuousClock.Instant?

        /// The completion, noting that its headers arrived at `instant`.
        func received(_ instant: ContinuousClock.Instant) -> Completion {
            var copy = self
            copy.headersReceived = instant
            return copy
        }
    }

    /// Sends a chat-completions request and reads its answer (an event stream, or JSON), noting
    /// when its headers arrived; `report`, when given, receives the content so far (and whether
    /// tool calls began) each time a streamed event adds to it.
    private func completion(
        of request: HTTPRequest, reporting report: (@Sendable (_ content: String, _ callsStarted: Bool) -> Void)? = nil
    ) async throws -> Completion {
        let limit = configuration.maximumResponseBytes
        let idle = configuration.idleTimeout
        let exchanger = exchanger
        return try await run(idle, "answering") { watch in
            let response = try await exchanger.exchange(request)
            defer { response.close() }
            let headersReceived = ContinuousClock.now
            watch.touch()
            guard (200..<300).contains(response.head.status) else {
                throw Self.failure(status: response.head.status, body: try await Self.prefix(of: response, limit: 64 << 10, watch: watch))
            }
            if response.head.mediaType == "text/event-stream" {
                var parser = SSEParser(maximumEventBytes: limit)
                var stream = StreamedCompletion()
                var total = 0
                // The content's length at the last report.
                var reported = 0
                for try await chunk in response.body {
                    watch.touch()
                    total += chunk.count
                    guard total <= limit else {
                        throw ChatCompletionsError.make(.invalidResponse, "the model's answer is larger than \(limit) bytes")
                    }
                    let events: [SSEEvent]
                    do {
                        events = try parser.feed(chunk)
                    } catch {
                        throw ChatCompletionsError.make(.invalidResponse, "an event of the answer is larger than \(limit) bytes")
                    }
                    for event in events where try stream.take(event.data) { return stream.completion.received(headersReceived) }
                    let length = stream.completion.content.utf8.count
                    if let report, Self.reportsPartial(length: length, reported: reported) {
                        report(stream.completion.content, stream.callsStarted)
                        reported = length
                    }
                }
                try Task.checkCancellation()
                // A server that ends the stream without [DONE] after a finish reason is done too.
                guard stream.completion.finishReason != nil else {
                    throw ChatCompletionsError.make(.invalidResponse, "the server ended the answer's stream before it finished")
                }
                return stream.completion.received(headersReceived)
            }
            let bytes = try await Self.prefix(of: response, limit: limit + 1, watch: watch)
            guard bytes.count <= limit else {
                throw ChatCompletionsError.make(.invalidResponse, "the model's answer is larger than \(limit) bytes")
            }
            return try StreamedCompletion.whole(bytes).received(headersReceived)
        }
    }

    /// Whether an answer whose content is now `length` bytes, and was `reported` bytes at the
    /// last report, is reported again. Each report parses (or copies) the whole answer so far:
    /// every change is reported up to 16 KiB, then only growth of an eighth or more, so a long
    /// answer streamed in tiny events costs linear work, not quadratic.
    static func reportsPartial(length: Int, reported: Int) -> Bool {
        guard length != reported else { return false }
        return length <= 16 << 10 || length - reported >= reported / 8
    }

    /// The request with the headers every request carries.
    private func request(_ method: String, _ url: URL, body: JSONValue?) async throws -> HTTPRequest {
        try await Self.request(method, url, body: body, configuration: configuration)
    }

    static func request(_ method: String, _ url: URL, body: JSONValue?, configuration: ChatCompletionsConfiguration) async throws -> HTTPRequest {
        var headers: [(name: String, value: String)] = [("Accept", "application/json, text/event-stream")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) where name.lowercased() != "authorization" || configuration.apiKey == nil {
            headers.append((name, value))
        }
        if let provider = configuration.apiKey {
            let key: String?
            do {
                key = try await provider()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw ChatCompletionsError.make(.apiKeyFailed, "the app's API key provider failed: \(error)")
            }
            if let key, !key.isEmpty { headers.append(("Authorization", "Bearer \(key)")) }
        }
        let bytes: [UInt8]?
        do {
            bytes = try body?.jsonBytes()
        } catch {
            throw ChatCompletionsError.make(.invalidConfiguration, "the request cannot be encoded: \(error)")
        }
        return HTTPRequest(method: method, url: url, headers: headers, body: bytes)
    }

    /// Sends `request` and reads its JSON answer.
    private func json(of request: HTTPRequest, what: String) async throws -> JSONValue {
        try await Self.json(of: request, what: what, exchanger: exchanger, configuration: configuration)
    }

    static func json(of request: HTTPRequest, what: String, exchanger: any HTTPExchanging, configuration: ChatCompletionsConfiguration) async throws -> JSONValue {
        let limit = configuration.maximumResponseBytes
        return try await run(configuration.idleTimeout, what) { watch in
            let response = try await exchanger.exchange(request)
            defer { response.close() }
            watch.touch()
            let bytes = try await prefix(of: response, limit: limit + 1, watch: watch)
            guard (200..<300).contains(response.head.status) else { throw failure(status: response.head.status, body: bytes) }
            guard bytes.count <= limit else { throw ChatCompletionsError.make(.invalidResponse, "the answer to \(what) is larger than \(limit) bytes") }
            do {
                return try JSONValue(parsing: bytes)
            } catch {
                throw ChatCompletionsError.make(.invalidResponse, "the answer to \(what) is not JSON: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
            }
        }
    }

    /// Runs `body` under the idle timeout; a network failure becomes ``ChatCompletionsError/unreachable``.
    static func run<T: Sendable>(_ idle: Duration, _ what: String, _ body: @escaping @Sendable (IdleWatch) async throws -> T) async throws -> T {
        do {
            return try await withIdleTimeout(
                idle, timeout: { ChatCompletionsError.make(.timedOut, "the model server sent nothing for \(idle) while \(what)") }, body)
        } catch let failure as HTTPTransportError where failure == .network {
            throw ChatCompletionsError.make(.unreachable, "the model server could not be reached: \(failure.detail)")
        } catch let failure as HTTPTransportError {
            throw ChatCompletionsError.make(.invalidResponse, failure.detail)
        }
    }

    private func run<T: Sendable>(_ idle: Duration, _ what: String, _ body: @escaping @Sendable (IdleWatch) async throws -> T) async throws -> T {
        try await Self.run(idle, what, body)
    }

    /// The first `limit` bytes of a body (all of it when shorter).
    static func prefix(of response: HTTPResponse, limit: Int, watch: IdleWatch) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in response.body {
            watch.touch()
            bytes.append(contentsOf: chunk.prefix(limit - bytes.count))
            if bytes.count >= limit { break }
        }
        try Task.checkCancellation()
        return bytes
    }

    /// The error for an error status: the model's overflow and rate limit as Apple's session
    /// reports them, the rest as ``ChatCompletionsError``.
    static func failure(status: Int, body: [UInt8]) -> any Error {
        let value = try? JSONValue(parsing: body)
        let error = value?["error"]
        let message = error?["message"]?.stringValue ?? error?.stringValue ?? String(decoding: body.prefix(300), as: UTF8.self)
        let type = error?["type"]?.stringValue ?? error?["code"]?.stringValue ?? ""
        let lowered = (message + " " + type).lowercased()
        if lowered.contains("exceed_context_size") || lowered.contains("context length") || lowered.contains("context size")
            || lowered.contains("context_length_exceeded") || lowered.contains("maximum context")
        {
            var detail = "The request exceeds the model's context: \(message)"
            if let prompt = error?["n_prompt_tokens"]?.intValue, let context = error?["n_ctx"]?.intValue {
                detail = "Content contains \(prompt) tokens, which exceeds the maximum allowed context size of \(context)."
            }
            return LanguageModelSession.GenerationError.exceededContextWindowSize(.init(debugDescription: detail))
        }
        switch status {
        case 401, 403:
            return ChatCompletionsError.make(.unauthorized, "the model server refused the credentials (HTTP \(status)): \(message)", status: status)
        case 404 where lowered.contains("model"):
            return ChatCompletionsError.make(.unknownModel, "the model server does not know the model (HTTP 404): \(message)", status: status)
        case 429:
            return LanguageModelSession.GenerationError.rateLimited(.init(debugDescription: "The model server is rate-limiting requests: \(message)"))
        default:
            return ChatCompletionsError.make(.httpStatus, "the model server answered HTTP \(status): \(message)", status: status)
        }
    }
}

/// What ``ChatCompletionsModel/connect(to:model:configuration:)`` asks the server.
private struct Probe {
    let base: URL
    let configuration: ChatCompletionsConfiguration
    let exchanger: any HTTPExchanging

    /// The server's root (the base without `/v1`), where llama.cpp has `/props` and `/tokenize`.
    var root: URL {
        base.lastPathComponent == "v1" ? base.deletingLastPathComponent() : base
    }

    /// The model ids of `GET /models`; `nil` when the server has no such list.
    func models() async throws -> [String]? {
        try await listing().names
    }

    /// The server's models (`GET models`), or why it did not list them.
    func listing() async throws -> (names: [String]?, problem: String?) {
        let url = base.appendingPathComponent("models")
        let request = try await ChatCompletionsModel.request("GET", url, body: nil, configuration: configuration)
        let value: JSONValue
        do {
            value = try await ChatCompletionsModel.json(of: request, what: "listing models", exchanger: exchanger, configuration: configuration)
        } catch let failure as ChatCompletionsError where failure == .httpStatus || failure == .invalidResponse || failure == .unknownModel {
            return (nil, "GET \(url.absoluteString) failed: \(failure)")
        }
        guard case .array(let entries)? = value["data"] else {
            return (nil, "GET \(url.absoluteString) answered JSON that is not a model list (no \"data\" array)")
        }
        return (entries.compactMap { $0["id"]?.stringValue }, nil)
    }

    /// The context size and tokenizer a llama.cpp server offers (nothing from other servers).
    func serverContext() async -> (contextSize: Int?, tokenizer: URL?) {
        guard let request = try? await ChatCompletionsModel.request("GET", root.appendingPathComponent("props"), body: nil, configuration: configuration),
            let props = try? await ChatCompletionsModel.json(of: request, what: "reading the server's properties", exchanger: exchanger, configuration: configuration)
        else { return (nil, nil) }
        let size = props["default_generation_settings"]?["n_ctx"]?.intValue ?? props["n_ctx"]?.intValue
        return (size, root.appendingPathComponent("tokenize"))
    }
}
#endif
