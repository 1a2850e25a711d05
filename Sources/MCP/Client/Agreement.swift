internal import MCPCore

/// What a client and a server agreed on when they connected.
struct Agreement: Sendable {
    var version: ProtocolVersion
    var serverInfo: Implementation
    var capabilities: ServerCapabilities
    var instructions: String?

    /// The 2026-07-28 envelope a request carries in `params._meta`.
    static func envelope(version: ProtocolVersion, configuration: MCPClient.Configuration) -> JSONObject {
        [
            MCPMetaKey.protocolVersion: .string(version.rawValue),
            MCPMetaKey.clientCapabilities: .object(configuration.declaredCapabilities(modern: true).json),
            MCPMetaKey.clientInfo: configuration.clientInfo.json,
        ]
    }

    /// Agrees on a version as the configuration says.
    static func reach(over channel: any ClientChannel, configuration: MCPClient.Configuration) async throws -> Agreement {
        switch configuration.handshake.mode {
        case .version(let version) where version.isModern:
            return try await discover(version, over: channel, configuration: configuration, timeout: configuration.requestTimeout)
        case .version(let version):
            return try await initialize(version, over: channel, configuration: configuration)
        case .auto:
            return try await probe(over: channel, configuration: configuration)
        }
    }

    /// The spec's stdio probe: `server/discover` first; a modern answer (or a modern error
    /// naming a version we share) means 2026-07-28; any other error, or no answer in time,
    /// means a handshake-era server. Failures of the connection itself are not verdicts.
    private static func probe(over channel: any ClientChannel, configuration: MCPClient.Configuration) async throws -> Agreement {
        var version = ProtocolVersion.latest
        var discoverTimedOut = false
        for _ in 0..<2 {
            do {
                return try await discover(version, over: channel, configuration: configuration, timeout: configuration.discoverTimeout)
            } catch let error as JSONRPCError where error.code == .unsupportedProtocolVersion {
                let supported = (error.data?["supported"]?.arrayValue ?? []).compactMap(\.stringValue).map(ProtocolVersion.init(rawValue:))
                if let mutual = ProtocolVersion.modernVersions.last(where: supported.contains), mutual != version {
                    version = mutual
                    continue
                }
                if !supported.contains(where: \.usesHandshake) && !supported.isEmpty {
                    throw MCPClientError.handshakeFailed(
                        "the server supports only \(supported.map(\.rawValue).joined(separator: ", ")), none of which this client speaks")
                }
                break
            } catch is JSONRPCError {
                break
            } catch MCPClientError.timedOut {
                discoverTimedOut = true
                break
            } catch MCPClientError.invalidResponse {
                break
            } catch let legacy as LegacyDiscoverAnswer {
                _ = legacy
                break
            }
        }
        do {
            return try await initialize(.latestHandshake, over: channel, configuration: configuration)
        } catch let error as JSONRPCError where discoverTimedOut && error.code == .unsupportedProtocolVersion {
            // The discover probe timed out here, but the server did answer it (late) and has
            // settled on 2026-07-28, so it refuses initialize: speak the modern era after all,
            // this time with the full request timeout.
            let supported = (error.data?["supported"]?.arrayValue ?? []).compactMap(\.stringValue).map(ProtocolVersion.init(rawValue:))
            guard let mutual = ProtocolVersion.modernVersions.last(where: supported.contains) else { throw error }
            return try await discover(mutual, over: channel, configuration: configuration, timeout: configuration.requestTimeout)
        }
    }

    /// A `server/discover` result that lists no modern version: the server wants the handshake.
    private struct LegacyDiscoverAnswer: Error {}

    private static func discover(
        _ version: ProtocolVersion, over channel: any ClientChannel, configuration: MCPClient.Configuration, timeout: Duration?
    ) async throws -> Agreement {
        let params: JSONValue = ["_meta": .object(envelope(version: version, configuration: configuration))]
        let result = try await channel.request(MCPMethod.serverDiscover, params: params, progress: nil, timeout: timeout)
        let discovered: DiscoverResult
        do {
            discovered = try DiscoverResult(json: result)
        } catch {
            throw MCPClientError.invalidResponse("the server/discover result is not valid: \(error)")
        }
        let supported = discovered.supportedVersions
        guard supported.contains(version) else {
            if let other = ProtocolVersion.modernVersions.last(where: supported.contains) {
                return try await discover(other, over: channel, configuration: configuration, timeout: timeout)
            }
            throw LegacyDiscoverAnswer()
        }
        if let type = result["resultType"]?.stringValue, type != "complete" {
            throw MCPClientError.invalidResponse("server/discover answered with resultType \"\(type)\"")
        }
        return Agreement(
            version: version, serverInfo: discovered.serverInfo ?? Implementation(json: [:]),
            capabilities: discovered.capabilities, instructions: discovered.instructions)
    }

    private static func initialize(
        _ version: ProtocolVersion, over channel: any ClientChannel, configuration: MCPClient.Configuration
    ) async throws -> Agreement {
        let params = InitializeParams(
            protocolVersion: version, capabilities: configuration.declaredCapabilities(modern: false), clientInfo: configuration.clientInfo
        ).json
        let result = try await channel.request(
            MCPMethod.initialize, params: params, progress: nil, timeout: configuration.requestTimeout)
        let answer: InitializeResult
        do {
            answer = try InitializeResult(json: result)
        } catch {
            throw MCPClientError.invalidResponse("the initialize result is not valid: \(error)")
        }
        guard answer.protocolVersion.usesHandshake else {
            throw MCPClientError.handshakeFailed(
                "the server answered initialize with version \(answer.protocolVersion), which this client does not speak")
        }
        try await channel.notify(JSONRPCNotification(method: MCPMethod.initialized))
        return Agreement(
            version: answer.protocolVersion, serverInfo: answer.serverInfo, capabilities: answer.capabilities,
            instructions: answer.instructions)
    }
}
