internal import JSONSchema
internal import MCPCore

extension MCPServer {
    /// Answers `tools/list`: one page of tools in name order, with a cursor to the next.
    func listTools(_ params: JSONValue?, modern: Bool) throws(JSONRPCError) -> JSONValue {
        var start = 0
        if let cursor = params?["cursor"], !cursor.isNull {
            guard case .string(let text) = cursor, let after = ToolCursor.decode(text) else {
                throw .invalidParams("the cursor is not one this server issued")
            }
            start = orderedNames.firstIndex { $0 > after } ?? orderedNames.endIndex
        }
        let end = min(orderedNames.count, start + pageSize)
        let listed = directory.tools(named: orderedNames[start..<end]).map(\.listing)
        var result: JSONObject = ["tools": .array(listed)]
        if end < orderedNames.count {
            result["nextCursor"] = .string(ToolCursor.encode(after: orderedNames[end - 1]))
        }
        if modern {
            result["ttlMs"] = 0
            result["cacheScope"] = "public"
        }
        return .object(result)
    }

    /// Prepares `tools/call` on the actor (see ``prepareCall(_:params:tool:version:clientInfo:notify:modern:serverInfo:client:)``).
    func prepareCall(
        _ request: JSONRPCRequest, version: ProtocolVersion, clientInfo: SharedClientInfo?, session: Int, modern: Bool,
        client: ClientAccess?
    ) throws(JSONRPCError) -> Answer {
        let params = CallParams(request.params)
        return try Self.prepareCall(
            request, params: params, tool: params.name?.stringValue.flatMap(directory.tool(named:)), version: version,
            clientInfo: clientInfo,
            notify: sessions[session]?.notify.map(CallDirectory.Connection.notifications(through:)), modern: modern,
            serverInfo: infoJSON, client: client)
    }

    /// Prepares `tools/call` by the error rule in ``MCPServer``'s documentation: protocol
    /// errors are thrown, invalid arguments are a tool error result, and a valid call comes
    /// back ready to run.
    ///
    /// - Parameters:
    ///   - params: The request's params, as ``CallParams`` read them.
    ///   - tool: The registered tool named by the request, if there is one.
    static func prepareCall(
        _ request: JSONRPCRequest, params call: CallParams, tool entry: RegisteredTool?, version: ProtocolVersion,
        clientInfo: SharedClientInfo?, notify: (@Sendable (JSONRPCNotification) async -> Void)?, modern: Bool,
        serverInfo: JSONValue, client: ClientAccess? = nil
    ) throws(JSONRPCError) -> Answer {
        guard let params = call.object else {
            throw .invalidParams("tools/call needs params with a \"name\"")
        }
        guard case .string(let name)? = call.name else {
            throw .invalidParams(call.name == nil ? "\"name\" is required" : "\"name\" must be a string")
        }
        var arguments = JSONObject()
        if let given = params["arguments"], !given.isNull {
            guard case .object(let object) = given else {
                throw .invalidParams("\"arguments\" must be an object, not \(given.typeName)")
            }
            arguments = object
        }
        guard let entry else {
            throw .invalidParams("Unknown tool: \(name)")
        }
        let validation = entry.validate(.object(arguments))
        guard validation.isValid else {
            let result = PreparedCall.encode(
                .error(Self.describeInvalidArguments(validation.errors.map(\.description), tool: name)), version: version, modern: modern)
            return .value(modern ? Self.stamp(result, with: serverInfo) : result)
        }
        let context = ToolContext(
            requestID: request.id, protocolVersion: version, clientInfo: clientInfo,
            progressToken: call.meta?[MCPMetaKey.progressToken],
            notify: notify,
            client: client)
        return .toolCall(PreparedCall(tool: entry, arguments: arguments, context: context, version: version, modern: modern))
    }

    private static func describeInvalidArguments(_ problems: [String], tool: String) -> String {
        let shown = problems.prefix(5).joined(separator: "; ")
        let more = problems.count > 5 ? " (and \(problems.count - 5) more)" : ""
        return "Invalid arguments for tool \(tool): \(shown)\(more)"
    }

}

/// The members of a request's params that deciding a `tools/call` reads more than once, each
/// looked up once.
struct CallParams {
    /// The params, when they are an object.
    let object: JSONObject?
    /// `name`, when present.
    let name: JSONValue?
    /// `_meta`, when present.
    let meta: JSONValue?

    init(_ params: JSONValue?) {
        guard case .object(let object)? = params else {
            (self.object, name, meta) = (nil, nil, nil)
            return
        }
        self.object = object
        name = object["name"]
        meta = object["_meta"]
    }
}

/// A validated `tools/call`, ready to run its tool off the server's actor.
///
/// A class, so that handing it from the actor to the caller moves one reference.
final class PreparedCall: Sendable {
    let tool: RegisteredTool
    let arguments: JSONObject
    let context: ToolContext
    let version: ProtocolVersion
    /// Whether the result carries the 2026-07-28 stamps.
    let modern: Bool

    init(tool: RegisteredTool, arguments: JSONObject, context: ToolContext, version: ProtocolVersion, modern: Bool) {
        self.tool = tool
        self.arguments = arguments
        self.context = context
        self.version = version
        self.modern = modern
    }

    /// Runs the tool and returns its result as the connection reads it.
    ///
    /// - Parameter failures: What a handler's error becomes.
    nonisolated(nonsending) func run(stampingWith serverInfo: JSONValue?, failures: ToolFailureHandling) async -> JSONValue {
        finish(await invoke(failures: failures), stampingWith: serverInfo)
    }

    /// Runs the tool (behind its gate, if it has one); a handler's error becomes a result.
    nonisolated(nonsending) func invoke(failures: ToolFailureHandling) async -> CallToolResult {
        do {
            return try await tool.run(arguments, context)
        } catch {
            return failed(error, failures: failures)
        }
    }

    /// What a handler's error becomes (apart, to keep the frame of the call's task small).
    @inline(never)
    private func failed(_ error: any Error, failures: ToolFailureHandling) -> CallToolResult {
        if error is CancellationError {
            // Under run(on:) a cancelled call gets no response at all; a direct caller sees this.
            return .error("The call to \(tool.tool.name) was cancelled.")
        }
        return failures.result(for: error, tool: tool.tool.name, requestID: context.requestID)
    }

    /// The answer to the call with `id`, a call of the handshake era, as the text of its line:
    /// `result` written straight to JSON text (no tree), the same text the tree and the
    /// transport make of it.
    ///
    /// A result that cannot be written as JSON (a non-finite number) is answered with the
    /// error that says where (``MCPServer/encodedLine(_:)``). 2026-07-28 results, which carry
    /// stamps and may ask for input, take the tree instead.
    @inline(never)
    func encodedAnswer(id: RequestID, result: CallToolResult) -> [UInt8] {
        assert(!modern, "a 2026-07-28 result takes the tree")
        let structured = Self.readsStructuredContent(version)
        do {
            return try JSONRPCMessage.encodedResponse(id: id) { (buffer: inout [UInt8]) throws(JSONWriteError) in
                try result.write(into: &buffer, includingStructuredContent: structured)
            }
        } catch {
            // Written again as a message, for the error that locates the number in the answer.
            let tree = JSONRPCResponse(id: id, result: Self.encode(result, version: version, modern: false))
            return MCPServer.encodedLine(.response(tree))
        }
    }

    /// The result as the connection reads it (stamped, or asking for input, in 2026-07-28).
    private func finish(_ result: CallToolResult, stampingWith serverInfo: JSONValue?) -> JSONValue {
        if modern, let requests = context.client?.pendingInputRequests {
            // 2026-07-28: the tool asked for input its request did not carry (the roots);
            // whatever it did with that, the client is asked and sends the call again.
            var asking: JSONValue = ["inputRequests": .object(requests)]
            asking = serverInfo.map { MCPServer.stamp(asking, with: $0) } ?? asking
            asking["resultType"] = "input_required"
            return asking
        }
        let encoded = Self.encode(result, version: version, modern: modern)
        return serverInfo.map { MCPServer.stamp(encoded, with: $0) } ?? encoded
    }

    /// A result in the form the connection's version reads.
    static func encode(_ result: CallToolResult, version: ProtocolVersion, modern: Bool) -> JSONValue {
        var result = result
        if !modern, !readsStructuredContent(version) {
            result.structuredContent = nil
        }
        return result.json
    }

    /// Whether a handshake-era connection of `version` reads `structuredContent`: it arrived in
    /// 2025-06-18, and older clients read the text mirror.
    static func readsStructuredContent(_ version: ProtocolVersion) -> Bool {
        version != .v2024_11_05 && version != .v2025_03_26
    }
}

/// The opaque `tools/list` cursor: the name of the last tool of the previous page, in hex.
///
/// A name cursor stays valid when tools are added or removed between pages.
enum ToolCursor {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(after name: String) -> String {
        var hex: [UInt8] = Array("n1".utf8)
        for byte in name.utf8 {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    static func decode(_ cursor: String) -> String? {
        let utf8 = Array(cursor.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "n"), utf8[1] == UInt8(ascii: "1"), utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 2
        while index < utf8.count {
            guard let high = digits.firstIndex(of: utf8[index]), let low = digits.firstIndex(of: utf8[index + 1]) else { return nil }
            bytes.append(UInt8(high << 4 | low))
            index += 2
        }
        let name = String(decoding: bytes, as: UTF8.self)
        return Array(name.utf8) == bytes ? name : nil
    }
}
