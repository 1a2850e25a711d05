// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.
public import Foundation
import HTTPClientCore
import JSONCore
import MCPPlatform

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// A model served by an OpenAI-compatible chat-completions server — llama.cpp's
/// `llama-server`, Ollama, vLLM, LM Studio, or a hosted API — as a FoundationModels
/// `LanguageModel`.
///
/// ```swift
/// import ChatCompletions
/// import PortableFoundationModels // or FoundationModels, on Apple's 27 systems
///
/// let model = try await ChatCompletionsModel.connect(to: URL(string: "http://127.0.0.1:8080")!)
/// let session = LanguageModelSession(model: model, tools: tools)
/// let answer = try await session.respond(to: "What time is it in Lisbon?").content
/// ```
///
/// The model's executor (``Executor``) streams each answer into the session as the server
/// sends it: text, reasoning (`reasoning_content`), tool calls and the server's usage, and it
/// reports failures as `LanguageModelError` (an over-long request is `.contextSizeExceeded`, a
/// `429` is `.rateLimited` with the server's `Retry-After`). See the module's documentation
/// for how each option and event is mapped.
///
/// ``connect(to:model:configuration:)`` asks the server for its models (failing with
/// ``ChatCompletionsError/unknownModel`` for one it does not serve) and, where it tells them
/// (llama.cpp), for the context size and a tokenizer: ``contextSize`` and
/// ``tokenCount(for:)`` are then the model's own.
///
/// Tool calls use guided generation by default (``ChatCompletionsConfiguration/ToolCalling``):
/// each step is constrained to "answer" or "call one listed tool with arguments of its schema",
/// so even a very small model only ever names tools that exist, with arguments that match.
/// Cancelling the task that waits for a turn closes the request's connection, which stops the
/// server generating.
///
/// A model that falls into a loop is stopped the same way as soon as the loop shows: the turn
/// fails with ``ChatCompletionsError/degenerateOutput`` rather than returning the loop as its
/// answer (``ChatCompletionsConfiguration/detectsDegenerateOutput``), and every request to
/// llama.cpp carries settings that make loops rarer (``ChatCompletionsConfiguration/repetitionControls``).
///
/// Where FoundationModels is missing, the model is also the 26 `LanguageModelBackend` it has
/// always been (`systemLanguageModel`, `SystemLanguageModel(backend:)`); both ways run the
/// same request and stream code.
#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
public final class ChatCompletionsModel: Sendable {
    /// The API's base URL (ending in `/v1`).
    public let baseURL: URL
    /// The model every request names.
    public let model: String
    /// The most tokens the model's context holds: the server's figure, or the configuration's.
    public let contextSize: Int
    /// Whether ``tokenCount(for:)`` counts with the server's tokenizer (`false`: an estimate).
    public var countsWithServerTokenizer: Bool { tokens.withLock { $0.tokenizer != nil } }
    let configuration: ChatCompletionsConfiguration
    /// The kind of server, as connecting found out (llama.cpp's own fields go only to it).
    let server: ChatRequestBuilder.Server
    let exchanger: any HTTPExchanging
    /// The server's tokenizer (`nil` once it failed, or when there is none) and the counts it gave.
    private let tokens: LockedValue<(tokenizer: URL?, cache: [String: Int])>

    init(
        baseURL: URL, model: String, contextSize: Int, tokenizer: URL?, configuration: ChatCompletionsConfiguration,
        server: ChatRequestBuilder.Server = .other, exchanger: any HTTPExchanging
    ) {
        self.baseURL = baseURL
        self.server = server
        self.model = model
        self.contextSize = contextSize
        tokens = LockedValue((tokenizer: tokenizer, cache: [:]))
        self.configuration = configuration
        self.exchanger = exchanger
    }

    deinit {
        exchanger.shutdown()
    }

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
        // What may wait unread: one answer or event at its limit, and a margin.
        let exchanger = HTTPEngine.exchanger(for: base, maximumWaitingBytes: max(configuration.maximumResponseBytes, 4 << 20) + (1 << 20))
        do {
            let probe = Probe(base: base, configuration: configuration, exchanger: exchanger)
            let (listed, problem) = try await probe.listing()
            let chosen: String
            if let model {
                if let listed, !listed.isEmpty, !listed.contains(model) {
                    throw ChatCompletionsError.make(
                        .unknownModel,
                        "the server at \(base.absoluteString) has no model \(model); it has: \(listed.joined(separator: ", "))")
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
                tokenizer: server.tokenizer, configuration: configuration, server: server.isLlamaCpp ? .llamaCpp : .other,
                exchanger: exchanger)
        } catch {
            exchanger.shutdown()
            throw Self.reported(error)
        }
    }

    /// The API's base URL: `url`, or `url/v1` for a server's root.
    static func apiBase(_ url: URL, configuration: ChatCompletionsConfiguration) throws -> URL {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw ChatCompletionsError.make(
                .invalidConfiguration, "the model URL must be http:// or https:// with a host, not \(url.absoluteString)")
        }
        guard configuration.maximumToolRounds >= 0, configuration.maximumResponseBytes > 0, configuration.idleTimeout > .zero,
            (configuration.maximumGuidedAnswerLength ?? 1) > 0
        else {
            throw ChatCompletionsError.make(.invalidConfiguration, "the model configuration's limits must be positive")
        }
        if scheme == "http", configuration.apiKey != nil, !configuration.allowsInsecureCredentials, !HTTPEngine.isLoopback(host: host) {
            throw ChatCompletionsError.make(
                .insecureCredentials,
                "refusing to send an API key over plain http:// to \(host); use https://, or set allowsInsecureCredentials")
        }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        if url.path.isEmpty || url.path == "/" { text += "/v1" }
        guard let base = URL(string: text) else {
            throw ChatCompletionsError.make(.invalidConfiguration, "the model URL \(url.absoluteString) cannot be used")
        }
        return base
    }

    // MARK: Tokens

    /// The tokens the model's tokenizer makes of `text` (the server's `/tokenize`, where it
    /// has one; otherwise an estimate: the portable module's `TokenEstimator` where
    /// FoundationModels is missing, a quarter of the UTF-8 bytes on Apple's systems). Counts are
    /// cached: the same tool definitions are counted on every turn.
    public func tokenCount(for text: String) async throws -> Int {
        let (endpoint, cached) = tokens.withLock { ($0.tokenizer, $0.cache[text]) }
        if let cached { return cached }
        guard let endpoint else { return Self.estimatedTokenCount(for: text) }
        let body: JSONObject = ["content": .string(text), "add_special": .bool(false)]
        let request = try await self.request("POST", endpoint, body: .object(body))
        let value: JSONValue
        do {
            value = try await json(of: request, what: "counting tokens")
        } catch let failure as ChatCompletionsError where failure == .httpStatus {
            // A server without the endpoint after all: estimate from now on.
            tokens.withLock { $0.tokenizer = nil }
            return Self.estimatedTokenCount(for: text)
        } catch {
            throw Self.reported(error)
        }
        guard case .array(let counted)? = value["tokens"] else {
            throw ChatCompletionsError.make(.invalidResponse, "the server's /tokenize answer has no tokens")
        }
        tokens.withLock { tokens in
            if tokens.cache.count > 4096 { tokens.cache.removeAll(keepingCapacity: true) }
            tokens.cache[text] = counted.count
        }
        return counted.count
    }

    /// An estimate of the tokens of `text`, without the server's tokenizer.
    static func estimatedTokenCount(for text: String) -> Int {
        #if canImport(FoundationModels)
        (text.utf8.count + 3) / 4
        #else
        TokenEstimator.tokenCount(for: text)
        #endif
    }

    // MARK: HTTP

    /// The request with the headers every request carries.
    func request(_ method: String, _ url: URL, body: JSONValue?) async throws -> HTTPRequest {
        try await Self.request(method, url, body: body, configuration: configuration)
    }

    static func request(
        _ method: String, _ url: URL, body: JSONValue?, configuration: ChatCompletionsConfiguration
    ) async throws -> HTTPRequest {
        var headers: [(name: String, value: String)] = [("Accept", "application/json, text/event-stream")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key })
        where name.lowercased() != "authorization" || configuration.apiKey == nil {
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
    func json(of request: HTTPRequest, what: String) async throws -> JSONValue {
        try await Self.json(of: request, what: what, exchanger: exchanger, configuration: configuration)
    }

    static func json(
        of request: HTTPRequest, what: String, exchanger: any HTTPExchanging, configuration: ChatCompletionsConfiguration
    ) async throws -> JSONValue {
        let limit = configuration.maximumResponseBytes
        return try await run(configuration.idleTimeout, what) { watch in
            let response = try await exchanger.exchange(request)
            defer { response.close() }
            watch.touch()
            let bytes = try await prefix(of: response, limit: limit + 1, watch: watch)
            guard (200..<300).contains(response.head.status) else {
                throw ServerFailure.classify(status: response.head.status, body: bytes, headers: response.head.headers)
            }
            guard bytes.count <= limit else {
                throw ChatCompletionsError.make(.invalidResponse, "the answer to \(what) is larger than \(limit) bytes")
            }
            do {
                return try JSONValue(parsing: bytes)
            } catch {
                throw ChatCompletionsError.make(
                    .invalidResponse, "the answer to \(what) is not JSON: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
            }
        }
    }

    /// Runs `body` under the idle timeout; a network failure becomes ``ChatCompletionsError/unreachable``.
    static func run<T: Sendable>(
        _ idle: Duration, _ what: String, _ body: @escaping @Sendable (IdleWatch) async throws -> T
    ) async throws -> T {
        do {
            return try await withIdleTimeout(
                idle, timeout: { ChatCompletionsError.make(.timedOut, "the model server sent nothing for \(idle) while \(what)") }, body)
        } catch let failure as HTTPClientError where failure.kind == .network {
            throw ChatCompletionsError.make(.unreachable, "the model server could not be reached: \(failure.detail)")
        } catch let failure as HTTPClientError {
            throw ChatCompletionsError.make(.invalidResponse, failure.detail)
        }
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
}

/// What ``ChatCompletionsModel/connect(to:model:configuration:)`` asks the server.
#if canImport(FoundationModels)
@available(iOS 27.0, macOS 27.0, macCatalyst 27.0, visionOS 27.0, watchOS 27.0, *)
@available(tvOS, unavailable)
#endif
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
            value = try await ChatCompletionsModel.json(
                of: request, what: "listing models", exchanger: exchanger, configuration: configuration)
        } catch let failure as ChatCompletionsError where failure == .httpStatus || failure == .invalidResponse || failure == .unknownModel
        {
            return (nil, "GET \(url.absoluteString) failed: \(failure)")
        }
        guard case .array(let entries)? = value["data"] else {
            return (nil, "GET \(url.absoluteString) answered JSON that is not a model list (no \"data\" array)")
        }
        return (entries.compactMap { $0["id"]?.stringValue }, nil)
    }

    /// The context size and tokenizer a llama.cpp server offers (nothing from other servers),
    /// and whether the server is llama.cpp: its `/props` holds its `default_generation_settings`.
    func serverContext() async -> (contextSize: Int?, tokenizer: URL?, isLlamaCpp: Bool) {
        guard
            let request = try? await ChatCompletionsModel.request(
                "GET", root.appendingPathComponent("props"), body: nil, configuration: configuration),
            let props = try? await ChatCompletionsModel.json(
                of: request, what: "reading the server's properties", exchanger: exchanger, configuration: configuration)
        else { return (nil, nil, false) }
        let settings = props["default_generation_settings"]
        let size = settings?["n_ctx"]?.intValue ?? props["n_ctx"]?.intValue
        return (size, root.appendingPathComponent("tokenize"), settings?.objectValue != nil)
    }
}
