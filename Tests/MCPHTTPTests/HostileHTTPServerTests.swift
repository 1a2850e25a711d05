import Foundation
import MCP
import MCPCore
import OnDeviceMCPTestSupport
import Testing

@testable import MCPHTTP

/// A hostile HTTP server ends each call with a clear error within its deadline, in bounded
/// memory; a slow one and an old-transport one are not broken and work.
@Suite("A hostile HTTP server", .enabled(if: HTTPPeer.enabled, "needs .venv/bin/python (scripts/bootstrap-python.sh)"))
struct HostileHTTPServerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let mode: String
        /// The error the connection fails with; `nil`: it works.
        let expected: HTTPTransportError?
        /// Also accepted (a timeout seen by the client before the transport's idle limit).
        var orTimeout = false
        /// Another error also accepted (a connection cut mid-body is a network error to URLSession).
        var or: HTTPTransportError? = nil
        var testDescription: String { "\(mode) → \(expected.map { "\($0)" } ?? "works")" }
    }

    static let cases: [Case] = [
        Case(mode: "hang-before-headers", expected: .idleTimeout, orTimeout: true),
        Case(mode: "hang-mid-stream", expected: .idleTimeout, orTimeout: true),
        Case(mode: "huge", expected: .messageTooLarge),
        Case(mode: "html-200", expected: .unexpectedContentType),
        Case(mode: "status-500", expected: .httpStatus),
        Case(mode: "close-mid-event", expected: .streamEnded, or: .network),
        Case(mode: "unauthorized", expected: .unauthorized),
        Case(mode: "slow-headers", expected: nil),
        Case(mode: "legacy-sse", expected: nil),
    ]

    /// Short limits, so a hang is seen in seconds: the transport's idle limit, the client's
    /// deadlines. Not too short: a loaded machine (the whole suite at once) must not turn a
    /// working peer into an idle one.
    static let transport = HTTPTransportConfiguration(idleTimeout: Sanitizers.stretched(.seconds(10)))
    static let client = MCPClient.Configuration(
        requestTimeout: Sanitizers.stretched(.seconds(30)), discoverTimeout: Sanitizers.stretched(.seconds(30)))

    @Test("Each hostile server ends the connection with a clear error within its deadline", arguments: cases)
    func hostile(_ test: Case) async throws {
        let outcome: Result<String, any Error> = try await HTTPPeer.with("hostile_http_server.py", ["--mode", test.mode]) { peer in
            let url = try peer.url(test.mode == "legacy-sse" ? "/sse" : "/mcp")
            return try await withHangGuard(Sanitizers.stretched(.seconds(90)), test.mode) {
                do {
                    // A slow server is given time; the broken ones, 10 s of silence.
                    let transport = test.mode == "slow-headers" ? HTTPTransportConfiguration(idleTimeout: .seconds(60)) : Self.transport
                    let client = try await MCPClient.connect(to: .http(url, configuration: transport), configuration: Self.client)
                    let tools = try await client.listTools()
                    let echo =
                        tools.contains { $0.name == "echo" } ? try await client.callTool(name: "echo", arguments: ["text": "hi"]).text : ""
                    await client.close()
                    return .success("\(tools.count) tools; echo \(echo)")
                } catch {
                    return .failure(error)
                }
            }
        }
        switch (outcome, test.expected) {
        case (.success(let text), nil):
            #expect(text.contains("echo hi"))
        case (.success(let text), let expected?):
            Issue.record("expected \(expected), but it worked: \(text)")
        case (.failure(let error), nil):
            Issue.record("expected it to work, but: \(error)")
        case (.failure(let error), let expected?):
            let timedOut = (error as? MCPClientError) == .timedOut
            #expect(
                (error as? HTTPTransportError) == expected || (error as? HTTPTransportError).map { $0 == test.or } == true
                    || (test.orTimeout && timedOut),
                "\(test.mode): got \(String(reflecting: error))")
            if test.mode == "unauthorized", let failure = error as? HTTPTransportError {
                #expect(failure.challenge?.contains("Bearer") == true)
                #expect(failure.resourceMetadata?.path == "/.well-known/oauth-protected-resource")
            }
        }
    }
}
