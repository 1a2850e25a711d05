/// The parameters of `initialize`, the handshake of protocol versions up to 2025-11-25.
public struct InitializeParams: Hashable, Sendable {
    /// The version the client asks for (its newest).
    public var protocolVersion: ProtocolVersion
    /// What the client offers.
    public var capabilities: ClientCapabilities
    /// The client's name and version.
    public var clientInfo: Implementation

    public init(protocolVersion: ProtocolVersion, capabilities: ClientCapabilities = ClientCapabilities(), clientInfo: Implementation) {
        self.protocolVersion = protocolVersion
        self.capabilities = capabilities
        self.clientInfo = clientInfo
    }

    /// Reads the parameters; `protocolVersion` must be a string.
    public init(json: JSONValue?) throws(PayloadError) {
        guard case .object(let object)? = json else {
            throw PayloadError(at: JSONPointer(), "initialize needs params with protocolVersion, capabilities and clientInfo")
        }
        guard case .string(let version)? = object["protocolVersion"] else {
            throw .expected("a string", at: "protocolVersion", found: object["protocolVersion"])
        }
        self.init(
            protocolVersion: ProtocolVersion(rawValue: version),
            capabilities: ClientCapabilities(json: object["capabilities"] ?? [:]),
            clientInfo: Implementation(json: object["clientInfo"] ?? [:]))
    }

    public var json: JSONValue {
        [
            "protocolVersion": .string(protocolVersion.rawValue),
            "capabilities": .object(capabilities.json),
            "clientInfo": clientInfo.json,
        ]
    }
}

/// The result of `initialize`: the agreed version and what the server offers.
public struct InitializeResult: Hashable, Sendable {
    public var protocolVersion: ProtocolVersion
    public var capabilities: ServerCapabilities
    public var serverInfo: Implementation
    public var instructions: String?

    public init(protocolVersion: ProtocolVersion, capabilities: ServerCapabilities, serverInfo: Implementation, instructions: String? = nil)
    {
        self.protocolVersion = protocolVersion
        self.capabilities = capabilities
        self.serverInfo = serverInfo
        self.instructions = instructions
    }

    /// Reads the result; `protocolVersion` must be a string.
    public init(json: JSONValue) throws(PayloadError) {
        guard case .string(let version)? = json["protocolVersion"] else {
            throw .expected("a string", at: "protocolVersion", found: json["protocolVersion"])
        }
        self.init(
            protocolVersion: ProtocolVersion(rawValue: version),
            capabilities: ServerCapabilities(json: json["capabilities"] ?? [:]),
            serverInfo: Implementation(json: json["serverInfo"] ?? [:]),
            instructions: json["instructions"]?.stringValue)
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "protocolVersion": .string(protocolVersion.rawValue),
            "capabilities": .object(capabilities.json),
            "serverInfo": serverInfo.json,
        ]
        if let instructions { object["instructions"] = .string(instructions) }
        return .object(object)
    }
}

/// The result of `server/discover` (2026-07-28): the versions and capabilities a server offers.
public struct DiscoverResult: Hashable, Sendable {
    public var supportedVersions: [ProtocolVersion]
    public var capabilities: ServerCapabilities
    public var serverInfo: Implementation?
    public var instructions: String?
    /// How long the result may be cached, in milliseconds (0: do not reuse).
    public var ttlMs: Int
    /// `"public"` or `"private"`.
    public var cacheScope: String

    public init(
        supportedVersions: [ProtocolVersion], capabilities: ServerCapabilities, serverInfo: Implementation? = nil,
        instructions: String? = nil, ttlMs: Int = 0, cacheScope: String = "public"
    ) {
        self.supportedVersions = supportedVersions
        self.capabilities = capabilities
        self.serverInfo = serverInfo
        self.instructions = instructions
        self.ttlMs = ttlMs
        self.cacheScope = cacheScope
    }

    /// Reads the result; `supportedVersions` must be an array.
    public init(json: JSONValue) throws(PayloadError) {
        guard case .array(let versions)? = json["supportedVersions"] else {
            throw .expected("an array", at: "supportedVersions", found: json["supportedVersions"])
        }
        self.init(
            supportedVersions: versions.compactMap(\.stringValue).map(ProtocolVersion.init(rawValue:)),
            capabilities: ServerCapabilities(json: json["capabilities"] ?? [:]),
            serverInfo: json["_meta"]?[MCPMetaKey.serverInfo].map(Implementation.init(json:)),
            instructions: json["instructions"]?.stringValue,
            ttlMs: max(0, json["ttlMs"]?.intValue ?? 0),
            cacheScope: json["cacheScope"]?.stringValue ?? "private")
    }

    /// The result without the era's stamps (`resultType`, `_meta`), which the server adds.
    public var json: JSONValue {
        var object: JSONObject = [
            "supportedVersions": .array(supportedVersions.map { .string($0.rawValue) }),
            "capabilities": .object(capabilities.json),
        ]
        if let instructions { object["instructions"] = .string(instructions) }
        object["ttlMs"] = .int(ttlMs)
        object["cacheScope"] = .string(cacheScope)
        return .object(object)
    }
}

/// One page of `tools/list`.
public struct ListToolsResult: Hashable, Sendable {
    public var tools: [ToolDefinition]
    /// The cursor of the next page; `nil` after the last page (an empty string is a cursor).
    public var nextCursor: String?
    /// The entries of the page that were not valid tools, left out of ``tools`` (read only;
    /// not part of ``json``).
    public var skipped: [SkippedTool]

    public init(tools: [ToolDefinition], nextCursor: String? = nil, skipped: [SkippedTool] = []) {
        self.tools = tools
        self.nextCursor = nextCursor
        self.skipped = skipped
    }

    /// Reads a page. An entry that is not a valid tool (for example one whose `inputSchema`
    /// is `null`) does not spoil the page: it is left out and described in ``skipped``.
    ///
    /// - Throws: ``PayloadError`` when `tools` is not an array.
    public init(json: JSONValue) throws(PayloadError) {
        guard case .array(let listed)? = json["tools"] else {
            throw .expected("an array", at: "tools", found: json["tools"])
        }
        var tools: [ToolDefinition] = []
        var skipped: [SkippedTool] = []
        tools.reserveCapacity(listed.count)
        for (position, entry) in listed.enumerated() {
            do {
                tools.append(try ToolDefinition(json: entry))
            } catch {
                let located = PayloadError(at: JSONPointer(tokens: ["tools", String(position)] + error.location.tokens), error.detail)
                skipped.append(SkippedTool(position: position, name: entry["name"]?.stringValue, reason: located.description))
            }
        }
        self.init(tools: tools, nextCursor: json["nextCursor"]?.stringValue, skipped: skipped)
    }

    public var json: JSONValue {
        var object: JSONObject = ["tools": .array(tools.map(\.json))]
        if let nextCursor { object["nextCursor"] = .string(nextCursor) }
        return .object(object)
    }
}

/// A `tools/list` entry that is not a valid tool, and was left out of the listing.
public struct SkippedTool: Hashable, Sendable, CustomStringConvertible {
    /// The entry's position in its page.
    public var position: Int
    /// The entry's `name`, when it has a string one.
    public var name: String?
    /// What is wrong with it, with its location in the page.
    public var reason: String

    public init(position: Int, name: String?, reason: String) {
        self.position = position
        self.name = name
        self.reason = reason
    }

    /// "tool \"name\" (entry 3) was skipped: …".
    public var description: String {
        let label = name.map { "tool \"\($0)\" (entry \(position))" } ?? "entry \(position)"
        return "\(label) was skipped: \(reason)"
    }
}

/// `notifications/progress`: how far a request has come.
public struct ProgressNotification: Hashable, Sendable {
    /// The `progressToken` of the request it is about.
    public var progressToken: JSONValue
    public var progress: Double
    public var total: Double?
    public var message: String?

    public init(progressToken: JSONValue, progress: Double, total: Double? = nil, message: String? = nil) {
        self.progressToken = progressToken
        self.progress = progress
        self.total = total
        self.message = message
    }

    /// Reads the parameters; `progressToken` and a numeric `progress` are required.
    public init(params: JSONValue?) throws(PayloadError) {
        guard let token = params?["progressToken"] else { throw .expected("a string or an integer", at: "progressToken", found: nil) }
        guard let progress = params?["progress"]?.doubleValue else {
            throw .expected("a number", at: "progress", found: params?["progress"])
        }
        self.init(progressToken: token, progress: progress, total: params?["total"]?.doubleValue, message: params?["message"]?.stringValue)
    }

    /// The notification's parameters; `message` is left out for 2024-11-05, which lacks it.
    public func params(for version: ProtocolVersion = .latest) -> JSONValue {
        var object: JSONObject = ["progressToken": progressToken, "progress": Self.number(progress)]
        if let total { object["total"] = Self.number(total) }
        if let message, version != .v2024_11_05 { object["message"] = .string(message) }
        return .object(object)
    }

    private static func number(_ value: Double) -> JSONValue {
        if let integer = Int(exactly: value) { return .int(integer) }
        return value.isFinite ? .double(value) : .int(0)
    }
}

/// `notifications/cancelled`: the sender no longer wants the answer to a request.
public struct CancelledNotification: Hashable, Sendable {
    public var requestID: RequestID
    public var reason: String?

    public init(requestID: RequestID, reason: String? = nil) {
        self.requestID = requestID
        self.reason = reason
    }

    /// Reads the parameters; `requestId` must be a string or an integer.
    public init(params: JSONValue?) throws(PayloadError) {
        guard let raw = params?["requestId"], let id = RequestID(raw) else {
            throw .expected("a string or an integer", at: "requestId", found: params?["requestId"])
        }
        self.init(requestID: id, reason: params?["reason"]?.stringValue)
    }

    public var params: JSONValue {
        var object: JSONObject = ["requestId": requestID.json]
        if let reason { object["reason"] = .string(reason) }
        return .object(object)
    }
}
