internal import MCPCore

extension MCPServer {
    /// Answers one message on a connection.
    nonisolated(nonsending) func handle(_ message: JSONRPCMessage, session: Int) async -> JSONRPCMessage? {
        switch message {
        case .request(let request):
            return await respond(to: request, session: session)
        case .notification(let notification):
            await receive(notification, session: session)
            return nil
        case .response, .errorResponse:
            // Replies to the server's own requests (roots/list); others answer nothing.
            receiveReply(message, session: session)
            return nil
        case .batch(let elements):
            return await handleBatch(elements, session: session)
        }
    }

    /// Answers a request with a response or an error response.
    ///
    /// A steady-state `tools/call` or `ping` is decided without the actor (`quickAnswer(for:session:)`);
    /// anything else, the actor decides. A tool's function then runs off the actor, and its
    /// result is finished here too, so a call costs at most one hop onto the actor.
    nonisolated(nonsending) func respond(to request: JSONRPCRequest, session: Int) async -> JSONRPCMessage {
        do {
            let decided: Answer
            if let quick = try quickAnswer(for: request, session: session) {
                decided = quick
            } else {
                decided = try await answer(for: request, session: session)
            }
            return await response(to: request, decided: decided)
        } catch {
            return .errorResponse(JSONRPCErrorResponse(id: request.id, error: error))
        }
    }

    /// The response to a request once decided: its result, or the result of its tool.
    private nonisolated(nonsending) func response(to request: JSONRPCRequest, decided: Answer) async -> JSONRPCMessage {
        switch decided {
        case .value(let value):
            return .response(JSONRPCResponse(id: request.id, result: value))
        case .toolCall(let call):
            let result = await call.run(stampingWith: call.modern ? Optional(infoJSON) : .none, failures: toolFailures)
            return .response(JSONRPCResponse(id: request.id, result: result))
        }
    }

    /// Answers a request as ``respond(to:session:)`` does, as the text of its line (without the
    /// newline); an answer that cannot be written as JSON (a non-finite number) becomes the
    /// error that says where (``encodedLine(_:)``).
    ///
    /// The answer to a steady-state `tools/call` of the handshake era is written straight to
    /// text, with no tree of the result. Every other request takes a function of its own, so
    /// that this one's frame, which the request's task holds while its tool runs, holds no
    /// more than the call needs (a request's frames come from its task's allocator, which takes
    /// a block from `malloc` whenever they outgrow the last one).
    ///
    /// For a connection whose transport sends such lines (`run(on:)` over stdio and pipes).
    nonisolated(nonsending) func respondWithLine(to request: JSONRPCRequest, session: Int) async -> [UInt8] {
        let start = lineStart(for: request, session: session)
        guard case .call(let call) = start else { return await encodedAnswer(to: request, from: start, session: session) }
        let result = await call.invoke(failures: toolFailures)
        return call.encodedAnswer(id: request.id, result: result)
    }

    /// How ``respondWithLine(to:session:)`` goes on with a request.
    enum LineStart {
        /// A steady-state call of the handshake era: its answer is written straight to text.
        case call(PreparedCall)
        /// Decided without the actor, otherwise.
        case decided(Answer)
        /// Answered with an error.
        case failed(JSONRPCError)
        /// For the actor to decide.
        case onActor
    }

    /// Decides, without the actor, how a request goes on.
    @inline(never)
    private nonisolated func lineStart(for request: JSONRPCRequest, session: Int) -> LineStart {
        do throws(JSONRPCError) {
            switch try quickAnswer(for: request, session: session) {
            case .toolCall(let call)? where !call.modern: return .call(call)
            case let decided?: return .decided(decided)
            case nil: return .onActor
            }
        } catch {
            return .failed(error)
        }
    }

    /// The answer to a request that is not a steady-state call of the handshake era, as text.
    @inline(never)
    private nonisolated(nonsending) func encodedAnswer(
        to request: JSONRPCRequest, from start: LineStart, session: Int
    ) async -> [UInt8] {
        let message: JSONRPCMessage
        switch start {
        case .call(let call): message = await response(to: request, decided: .toolCall(call))
        case .decided(let decided): message = await response(to: request, decided: decided)
        case .failed(let error): message = .errorResponse(JSONRPCErrorResponse(id: request.id, error: error))
        case .onActor: message = await respond(to: request, session: session)
        }
        return Self.encodedLine(message)
    }

    /// The text of an answer's line; an answer that cannot be written as JSON (a non-finite
    /// number) becomes the `-32603` error that says where, for the same id.
    static func encodedLine(_ answer: JSONRPCMessage) -> [UInt8] {
        do {
            return try answer.encoded()
        } catch {
            return (try? refusedAnswer(to: answer.id, because: error.description).encoded()) ?? []
        }
    }

    /// The error sent instead of an answer the connection cannot carry (it cannot be written as
    /// JSON, or its text is longer than the transport's frames), so that the client is not left
    /// waiting for it: `-32603`, for the same id, saying why.
    static func refusedAnswer(to id: RequestID?, because reason: String) -> JSONRPCMessage {
        .errorResponse(JSONRPCErrorResponse(id: id, error: .internalError("the answer could not be sent: \(reason)")))
    }

    /// The era of a connection (undecided for one that is gone).
    private func era(of session: Int) -> ServerSession.Era {
        sessions[session]?.era ?? .undecided
    }

    /// Handles a notification from the client.
    func receive(_ notification: JSONRPCNotification, session: Int) {
        switch notification.method {
        case MCPMethod.initialized:
            sessions[session]?.initialized = true
        default:
            // notifications/cancelled is acted on by the run loop, which owns the request tasks;
            // unknown notifications are ignored, as JSON-RPC requires.
            break
        }
    }

    /// Answers a JSON-RPC batch: processed under 2025-03-26, refused otherwise.
    ///
    /// Its elements run concurrently, at most `width` at a time (the slots the batch holds
    /// against the connection's limit), so a batch of 10,000 requests never means 10,000 tasks.
    nonisolated func handleBatch(
        _ elements: [JSONValue], session: Int, width: Int = MCPServer.maximumConcurrentRequests
    ) async -> JSONRPCMessage? {
        let era = await era(of: session)
        guard case .legacy(let negotiated) = era, negotiated.allowsBatches else {
            let uses: String
            switch era {
            case .legacy(let version): uses = "this connection uses \(version)"
            case .modern: uses = "this connection uses \(ProtocolVersion.v2026_07_28)"
            case .undecided: uses = "this connection has not negotiated it"
            }
            let error = JSONRPCError.invalidRequest("JSON-RPC batches are only allowed in protocol version 2025-03-26; \(uses)")
            return .errorResponse(JSONRPCErrorResponse(id: nil, error: error))
        }
        let width = max(1, width)
        let responses = await withTaskGroup(of: (Int, JSONRPCMessage?).self) { group in
            var collected: [(Int, JSONRPCMessage)] = []
            var running = 0
            for (position, element) in elements.enumerated() {
                if running >= width, let (done, response) = await group.next() {
                    running -= 1
                    if let response { collected.append((done, response)) }
                }
                running += 1
                group.addTask { () async -> (Int, JSONRPCMessage?) in
                    await self.answerBatchElement(element, session: session).map { (position, $0) } ?? (position, nil)
                }
            }
            for await (position, response) in group {
                if let response { collected.append((position, response)) }
            }
            return collected.sorted { $0.0 < $1.0 }.map(\.1.json)
        }
        return responses.isEmpty ? nil : .batch(responses)
    }

    /// The answer to one element of a batch, or `nil` for a notification.
    private nonisolated func answerBatchElement(_ element: JSONValue, session: Int) async -> JSONRPCMessage? {
        do throws(InvalidMessage) {
            let message = try JSONRPCMessage(element)
            switch message {
            case .request(let request) where request.method == MCPMethod.initialize:
                let error = JSONRPCError.invalidRequest("initialize must not be sent in a batch")
                return .errorResponse(JSONRPCErrorResponse(id: request.id, error: error))
            case .batch:
                let error = JSONRPCError.invalidRequest("a batch must not contain another batch")
                return .errorResponse(JSONRPCErrorResponse(id: nil, error: error))
            default:
                return await handle(message, session: session)
            }
        } catch {
            return error.response
        }
    }

    // MARK: Requests

    /// The answer to a steady-state `tools/call` or `ping`, decided without the actor from
    /// ``directory``; `nil` for every other request (the actor decides those).
    ///
    /// Only requests whose answer does not depend on anything but the connection's settled
    /// era and the tools take this path, and they get exactly the answer the actor would give.
    private nonisolated func quickAnswer(for request: JSONRPCRequest, session: Int) throws(JSONRPCError) -> Answer? {
        let isCall = request.method == MCPMethod.toolsCall
        guard isCall || request.method == MCPMethod.ping else { return nil }
        let params = CallParams(request.params)
        let name = isCall ? params.name?.stringValue : nil
        guard let (connection, tool) = directory.look(up: session, tool: name) else { return nil }
        let meta = params.meta
        let enveloped = meta?[MCPMetaKey.protocolVersion] != nil
        switch connection.era {
        case .legacy where !enveloped, .undecided where !enveloped:
            // As on the actor: ping answers {}, and a call before `initialize` is served as
            // the newest handshake version.
            guard isCall else { return .value(.object([:])) }
            return try Self.prepareCall(
                request, params: params, tool: tool, version: connection.era.handshakeVersion, clientInfo: connection.clientInfo,
                notify: connection.notifyNotification, modern: false, serverInfo: infoJSON, client: connection.handshakeClient)
        case .modern where enveloped && isCall:
            guard let meta else { return nil }
            let (version, envelope) = try Self.envelope(meta, era: .modern)
            return try Self.prepareCall(
                request, params: params, tool: tool, version: version, clientInfo: Self.clientInfo(in: envelope),
                notify: connection.notifyNotification, modern: true, serverInfo: infoJSON,
                client: .modern(envelope: envelope, params: request.params))
        default:
            return nil
        }
    }

    /// The answer to a request, or the JSON-RPC error that answers it.
    private func answer(for request: JSONRPCRequest, session: Int) async throws(JSONRPCError) -> Answer {
        guard let era = sessions[session]?.era else {
            throw .internalError("the connection is closed")
        }
        if request.method == MCPMethod.initialize {
            return .value(try initialize(request, session: session, era: era))
        }
        if let meta = request.params?["_meta"], meta[MCPMetaKey.protocolVersion] != nil {
            return try await modernAnswer(for: request, meta: meta, session: session, era: era)
        }
        if era == .modern {
            throw Self.missingEnvelope(request.params?["_meta"])
        }
        switch request.method {
        case MCPMethod.ping:
            return .value(.object([:]))
        case MCPMethod.toolsList:
            return .value(try listTools(request.params, modern: false))
        case MCPMethod.toolsCall:
            let client = ClientAccess.handshake(
                capabilities: sessions[session]?.clientCapabilities ?? ClientCapabilities(), session: session,
                send: sessions[session]?.notify, outgoing: outgoing)
            return try prepareCall(
                request, version: era.handshakeVersion, clientInfo: sessions[session]?.clientInfo,
                session: session, modern: false,
                client: client)
        case MCPMethod.serverDiscover, MCPMethod.subscriptionsListen:
            throw Self.missingEnvelope(request.params?["_meta"])
        default:
            throw .methodNotFound(request.method)
        }
    }

    /// Answers `initialize`: echo a supported handshake version, else offer the newest.
    private func initialize(_ request: JSONRPCRequest, session: Int, era: ServerSession.Era) throws(JSONRPCError) -> JSONValue {
        let requested = request.params?["protocolVersion"]
        if era == .modern {
            throw JSONRPCError(
                code: .unsupportedProtocolVersion,
                message: "this connection serves the 2026-07-28 protocol; the initialize handshake is not accepted",
                data: ["supported": .array(ProtocolVersion.modernVersions.map { .string($0.rawValue) }), "requested": requested ?? nil])
        }
        let params: InitializeParams
        do {
            params = try InitializeParams(json: request.params)
        } catch {
            throw .invalidParams(error.description)
        }
        let version = params.protocolVersion.usesHandshake ? params.protocolVersion : .latestHandshake
        sessions[session]?.era = .legacy(version)
        sessions[session]?.initialized = false
        sessions[session]?.clientInfo = SharedClientInfo(params.clientInfo)
        sessions[session]?.clientCapabilities = params.capabilities
        publish(session)
        let result = InitializeResult(
            protocolVersion: version, capabilities: .tools(listChanged: true), serverInfo: info, instructions: instructions)
        return result.json
    }

    /// Serves a request that carries the 2026-07-28 envelope.
    private func modernAnswer(
        for request: JSONRPCRequest, meta: JSONValue, session: Int, era: ServerSession.Era
    ) async throws(JSONRPCError) -> Answer {
        let (version, envelope) = try Self.envelope(meta, era: era)
        if era != .modern {
            sessions[session]?.era = .modern
            publish(session)
        }
        var result: JSONValue
        switch request.method {
        case MCPMethod.serverDiscover:
            result = discoverResult()
        case MCPMethod.toolsList:
            result = try listTools(request.params, modern: true)
        case MCPMethod.toolsCall:
            return try prepareCall(
                request, version: version, clientInfo: Self.clientInfo(in: envelope), session: session, modern: true,
                client: .modern(envelope: envelope, params: request.params))
        case MCPMethod.subscriptionsListen:
            result = try await listen(request, session: session)
        default:
            // ping, logging/setLevel and everything unknown: not methods of 2026-07-28.
            throw .methodNotFound(request.method)
        }
        return .value(Self.stamp(result, with: infoJSON))
    }

    /// The protocol version and the envelope of a request carrying the 2026-07-28 `_meta`
    /// envelope, or the error that answers it on a connection of `era`.
    static func envelope(_ meta: JSONValue, era: ServerSession.Era) throws(JSONRPCError) -> (ProtocolVersion, JSONObject) {
        if case .legacy = era {
            throw .invalidRequest(
                "this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope are not accepted on it")
        }
        guard case .object(let envelope) = meta, case .object? = envelope[MCPMetaKey.clientCapabilities],
            let askedValue = envelope[MCPMetaKey.protocolVersion]
        else {
            throw Self.missingEnvelope(meta)
        }
        guard case .string(let asked) = askedValue else {
            throw .invalidParams("params._meta[\"\(MCPMetaKey.protocolVersion)\"] must be a string")
        }
        let version = ProtocolVersion(rawValue: asked)
        guard version.isModern else {
            let supported = era == .modern ? ProtocolVersion.modernVersions : ProtocolVersion.known.reversed()
            throw JSONRPCError(
                code: .unsupportedProtocolVersion, message: "Unsupported protocol version",
                data: ["supported": .array(supported.map { .string($0.rawValue) }), "requested": .string(asked)])
        }
        return (version, envelope)
    }

    /// The client's name and version a 2026-07-28 envelope gives, if any.
    private static func clientInfo(in envelope: JSONObject) -> SharedClientInfo? {
        envelope[MCPMetaKey.clientInfo].map { SharedClientInfo(Implementation(json: $0)) }
    }

    /// A 2026-07-28 result: `resultType` and `_meta.serverInfo` added.
    static func stamp(_ result: JSONValue, with serverInfo: JSONValue) -> JSONValue {
        var result = result
        result["resultType"] = "complete"
        var resultMeta = result["_meta"]?.objectValue ?? JSONObject()
        resultMeta[MCPMetaKey.serverInfo] = serverInfo
        result["_meta"] = .object(resultMeta)
        return result
    }

    private static func missingEnvelope(_ meta: JSONValue?) -> JSONRPCError {
        guard let meta, case .object(let object) = meta else {
            return .invalidParams(
                "params._meta must be an object carrying the required '\(MCPMetaKey.protocolVersion)' and '\(MCPMetaKey.clientCapabilities)' envelope keys"
            )
        }
        let missing = [MCPMetaKey.protocolVersion, MCPMetaKey.clientCapabilities].filter { !object.contains(key: $0) }
        if missing.isEmpty {
            return .invalidParams("params._meta[\"\(MCPMetaKey.clientCapabilities)\"] must be an object")
        }
        return .invalidParams("params._meta is missing the required envelope key(s): \(missing.joined(separator: ", "))")
    }

    /// The `server/discover` result (before the era's stamps).
    private func discoverResult() -> JSONValue {
        DiscoverResult(
            supportedVersions: ProtocolVersion.known.reversed(), capabilities: .tools(listChanged: true),
            instructions: instructions, ttlMs: 0, cacheScope: "public"
        ).json
    }

    /// Serves `subscriptions/listen`: acknowledges, then stays open until cancelled.
    private func listen(_ request: JSONRPCRequest, session: Int) async throws(JSONRPCError) -> JSONValue {
        guard let notify = sessions[session]?.notify else {
            throw .invalidRequest("subscriptions/listen needs a connection that can carry notifications")
        }
        let wanted = request.params?["notifications"]?["toolsListChanged"]?.boolValue ?? false
        sessions[session]?.listens[request.id] = ServerSession.Listen(toolsListChanged: wanted)
        var agreed = JSONObject()
        if wanted { agreed["toolsListChanged"] = true }
        let acknowledgement: JSONValue = ["_meta": [MCPMetaKey.subscriptionID: request.id.json], "notifications": .object(agreed)]
        await notify(.notification(JSONRPCNotification(method: MCPMethod.subscriptionsAcknowledged, params: acknowledgement)))
        // The stream stays open until the client cancels the request (or the connection ends,
        // which cancels it too). AsyncStream's iteration ends on task cancellation.
        let (openUntilCancelled, holder) = AsyncStream<Never>.makeStream()
        for await _ in openUntilCancelled {}
        holder.finish()
        sessions[session]?.listens[request.id] = nil
        return ["_meta": [MCPMetaKey.subscriptionID: request.id.json]]
    }
}

/// What the actor decided about a request.
enum Answer: Sendable {
    /// The result is ready.
    case value(JSONValue)
    /// A tool must run (off the actor) to make the result.
    case toolCall(PreparedCall)
}
