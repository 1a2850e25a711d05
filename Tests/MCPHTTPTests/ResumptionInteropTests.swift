import Foundation
import MCP
import MCPCore
import MCPPlatform
import OnDeviceMCPTestSupport
import Testing

@testable import HTTPClientCore
@testable import MCPHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streams cut in the middle and resumed with `Last-Event-ID`, against the official Python
/// SDK's server with an event store (`Tests/Interop/http/streamable_server.py --event-store`):
/// its `interrupted` and `announce_interrupted` tools cut their stream right after a marked
/// event, either cleanly (`close`: the body ends) or by dropping the connection (`sever`: no
/// final chunk), and the SDK replays what came after the id the client resumes from.
@Suite(
    "Resumed streams against the Python SDK's server", .serialized,
    .enabled(if: HTTPPeer.enabled, "needs .venv/bin/python (scripts/bootstrap-python.sh)"))
struct ResumptionInteropTests {
    /// One way to cut a stream, in one era.
    struct Case: Sendable, CustomTestStringConvertible {
        let cut: String
        let version: ProtocolVersion
        var testDescription: String { "\(cut), \(version)" }
    }

    /// Every handshake-era version (only they resume; the 2026-07-28 era has no GET stream),
    /// with each way of cutting.
    static let cases: [Case] = ["close", "sever"].flatMap { cut in
        [ProtocolVersion.v2025_11_25, .v2025_06_18, .v2025_03_26].map { Case(cut: cut, version: $0) }
    }

    /// What the peer saw: the streams it cut (and the id of the last event written before
    /// each cut), and the `Last-Event-ID` of every GET that sent one.
    struct Resumptions: Decodable, Equatable {
        struct Cut: Decodable, Equatable {
            let kind: String
            let lastEventId: String?
        }

        let cuts: [Cut]
        let resumptions: [String]
    }

    /// The transport reopens a stream 20 ms after it drops (its own delay, when the server
    /// sent no `retry`).
    static var transport: HTTPTransportConfiguration {
        var transport = HTTPTransportConfiguration()
        transport.reconnectionDelay = .milliseconds(20)
        return transport
    }

    /// Runs `body` with a client of a fresh server with an event store, which asks clients to
    /// reconnect after 20 ms (`retry` on its priming events).
    static func withServer(
        _ version: ProtocolVersion, _ body: @escaping @Sendable (MCPClient, HTTPPeer) async throws -> Void
    ) async throws {
        try await HTTPPeer.with("streamable_server.py", ["--event-store", "--retry-interval", "20"]) { peer in
            let url = try peer.url()
            let transport = Self.transport
            let configuration = MCPClient.Configuration(handshake: .version(version), requestTimeout: Sanitizers.stretched(.seconds(30)))
            try await withHangGuard(Sanitizers.stretched(.seconds(90)), "streamable_server --event-store, \(version)") {
                let client = try await MCPClient.connect(to: .http(url, configuration: transport), configuration: configuration)
                do {
                    try await body(client, peer)
                } catch {
                    await client.close()
                    throw error
                }
                await client.close()
            }
        }
    }

    static func resumptions(_ peer: HTTPPeer) async throws -> Resumptions {
        let (data, response) = try await URLSession.shared.data(from: try peer.url("/admin/resumptions"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        return try JSONDecoder().decode(Resumptions.self, from: data)
    }

    @Test(
        "A POST stream cut before its response is resumed with GET and Last-Event-ID: each report once, in order, then the result",
        arguments: cases)
    func postStream(_ test: Case) async throws {
        try await Self.withServer(test.version) { client, peer in
            let progress = Recorder<Double>()
            let result = try await client.callTool(
                name: "interrupted", arguments: ["before": 2, "after": 3, "cut": .string(test.cut)]
            ) { report in
                progress.append(report.progress)
            }
            #expect(result.text == "interrupted after 2 of 5")
            #expect(progress.values == [1, 2, 3, 4, 5])
            // One cut, and one resumption, from the last event the client got before it.
            let seen = try await Self.resumptions(peer)
            let cut = try #require(seen.cuts.first)
            #expect(seen.cuts == [Resumptions.Cut(kind: test.cut, lastEventId: cut.lastEventId)])
            #expect(cut.lastEventId != nil)
            #expect(seen.resumptions == [cut.lastEventId].compactMap { $0 })
            // The connection goes on.
            let after = try await client.callTool(name: "echo", arguments: ["text": "after"])
            #expect(after.text == "after")
        }
    }

    @Test(
        "A flood nobody reads stays bounded: reading stops at the queue's bound, the stream URLSession then cuts is resumed from the last message read, and every report arrives once, then the result"
    )
    func flood() async throws {
        let count = 3000
        try await HTTPPeer.with("streamable_server.py", ["--event-store"]) { peer in
            var configuration = Self.transport
            configuration.maximumQueuedMessages = 16
            configuration.maximumMessageBytes = 64 << 10
            configuration.maximumEventBytes = 64 << 10
            // URLSession, whatever the transport's default exchanger: it receives what the server
            // sends while nobody reads, and cuts a response that outruns its reader by this much.
            let exchanger = URLSessionExchanger(maximumWaitingBytes: (64 << 10) + (1 << 20))
            let transport = try HTTPClientTransport(url: try peer.url(), configuration: configuration, exchanger: exchanger)
            let flooded = try peer.url("/admin/flooded")
            let outcome = try await withHangGuard(Sanitizers.stretched(.seconds(90)), "a flood of \(count) reports") {
                var messages = transport.receive().makeAsyncIterator()
                let initialize = JSONRPCRequest(
                    id: 1, method: "initialize",
                    params: ["protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "flood-test", "version": "1"]])
                try await transport.send(.request(initialize))
                _ = try await messages.next()
                try await transport.send(.notification(JSONRPCNotification(method: "notifications/initialized")))
                let arguments: JSONValue = ["count": .int(count), "size": 2000]
                let call = JSONRPCRequest(
                    id: 2, method: "tools/call", params: ["name": "flood", "arguments": arguments, "_meta": ["progressToken": "flood"]])
                let sending = Task { try await transport.send(.request(call)) }
                // Nobody reads: the reader stops at the bound, and the server sends the rest of its flood.
                await transport.core.inboundQueue.producerWaited.wait()
                let (done, _) = try await URLSession.shared.data(from: flooded)
                #expect(String(decoding: done, as: UTF8.self).contains("true"))
                var progress: [Int] = []
                var result: String?
                while result == nil, let next = try await messages.next() {
                    switch next {
                    case .message(.notification(let notification)) where notification.method == "notifications/progress":
                        progress.append(notification.params?["progress"]?.intValue ?? -1)
                    case .message(.response(let response)) where response.id == 2:
                        result = response.result["content"]?[0]?["text"]?.stringValue
                    default:
                        continue
                    }
                }
                try await sending.value
                return (progress, result)
            }
            #expect(outcome.0 == Array(1...count))
            #expect(outcome.1 == "flooded \(count)")
            let peak = transport.core.inboundQueue.peak
            #expect(peak.count <= 16)
            // URLSession cut the stream that outran its reader; it was resumed from the last message read.
            let seen = try await Self.resumptions(peer)
            #expect(!seen.resumptions.isEmpty)
            await transport.close()
        }
    }

    @Test("The GET stream cut in the middle reopens with Last-Event-ID: every notification once, in order", arguments: cases)
    func standaloneStream(_ test: Case) async throws {
        try await Self.withServer(test.version) { client, peer in
            let notifications = client.notifications
            let result = try await client.callTool(
                name: "announce_interrupted", arguments: ["before": 2, "after": 3, "cut": .string(test.cut)])
            #expect(result.text == "announced 5")
            var uris: [String] = []
            for await notification in notifications {
                guard case .other(let other) = notification, other.method == "notifications/resources/updated",
                    let uri = other.params?["uri"]?.stringValue
                else { continue }
                uris.append(uri)
                if uri.hasPrefix("test://announced/5") { break }
            }
            #expect(uris == ["test://announced/1", "test://announced/2#[cut:\(test.cut)]"] + (3...5).map { "test://announced/\($0)" })
            let seen = try await Self.resumptions(peer)
            let cut = try #require(seen.cuts.first)
            #expect(seen.cuts == [Resumptions.Cut(kind: test.cut, lastEventId: cut.lastEventId)])
            #expect(cut.lastEventId != nil)
            #expect(seen.resumptions == [cut.lastEventId].compactMap { $0 })
        }
    }
}
