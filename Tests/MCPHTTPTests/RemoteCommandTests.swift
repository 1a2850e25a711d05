import Foundation
import MCP
import OnDeviceMCPTestSupport
import Testing

/// `ondevice-mcp … --url` as a user runs it: ondevice-mcp talks to the Python SDK's Streamable
/// HTTP server in its own process.
@Suite(
    "ondevice-mcp --url", .serialized,
    .enabled(if: HTTPPeer.enabled, "needs .venv/bin/python (scripts/bootstrap-python.sh)"))
struct RemoteCommandTests {
    static func run(_ arguments: [String]) async throws -> (status: SpawnedProcess.Status, output: String, errors: String) {
        let outcome = try await SpawnedProcess.run(
            try BuiltProducts.ondeviceMCP(), arguments: arguments, hangGuard: Sanitizers.stretched(.seconds(90)))
        return (outcome.status, String(decoding: outcome.standardOutput, as: UTF8.self), outcome.standardErrorTail)
    }

    @Test("tools, call with a header, and tools --for-prompt --json over --url; exit 0")
    func commands() async throws {
        try await HTTPPeer.with("streamable_server.py") { peer in
            let url = try peer.url().absoluteString
            let tools = try await Self.run(["tools", "--url", url])
            #expect(tools.status == .exited(0), "\(tools.errors)")
            #expect(tools.output.contains("echo") && tools.output.contains("add_tool"))
            let call = try await Self.run(["call", "echo", #"{"text":"over http"}"#, "--url", url, "--header", "X-Test: 1"])
            #expect(call.status == .exited(0), "\(call.errors)")
            #expect(call.output == "over http\n")
            let choice = try await Self.run(["tools", "--for-prompt", "echo this text back", "--json", "--url", url])
            #expect(choice.status == .exited(0), "\(choice.errors)")
            let report = try JSONValue(parsing: Data(choice.output.utf8))
            #expect(report["selected"]?[0] == "echo")
        }
    }

    @Test("An unreachable server exits 3 with the reason; a bad --url is a usage error (2)")
    func failures() async throws {
        let unreachable = try await Self.run(["call", "echo", "--url", "http://127.0.0.1:1/mcp"])
        #expect(unreachable.status == .exited(3))
        #expect(unreachable.errors.contains("127.0.0.1:1"))
        let usage = try await Self.run(["tools", "--url", "ftp://example.com"])
        #expect(usage.status == .exited(2))
    }

    @Test("A --config file with a remote entry and a local command: both servers' tools")
    func mixedConfiguration() async throws {
        try await HTTPPeer.with("streamable_server.py") { peer in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ondevice-mcp-remote-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let ondevice = try BuiltProducts.ondeviceMCP()
            let file = directory.appendingPathComponent("servers.json")
            let configuration: JSONValue = [
                "mcpServers": [
                    "remote": ["url": .string(try peer.url().absoluteString)],
                    "local": ["command": .string(ondevice), "args": ["serve", "--data-dir", .string(directory.path)]],
                ]
            ]
            try Data(configuration.description.utf8).write(to: file)
            let listed = try await Self.run(["tools", "--config", file.path, "--allow-write", directory.path] + BoxArguments.forThisBuild)
            #expect(listed.status == .exited(0), "\(listed.errors)")
            #expect(listed.output.contains("== remote: 7 tools =="))
            #expect(listed.output.contains("== local:"))
        }
    }

    /// A hostile HTTP server, as `ondevice-mcp call --url` meets it.
    struct HostileCase: Sendable, CustomTestStringConvertible {
        let mode: String
        /// Words the error message must have (any one of them).
        let mentions: [String]
        /// More arguments for the server.
        var options: [String] = []
        var testDescription: String {
            "\(([mode] + options).joined(separator: " ")) → exit 3, mentioning \(mentions.joined(separator: " or "))"
        }
    }

    static let hostileCases: [HostileCase] = [
        HostileCase(mode: "huge", mentions: ["larger than", "limit"]),
        HostileCase(mode: "huge", mentions: ["larger than", "limit"], options: ["--no-content-length"]),
        HostileCase(mode: "html-200", mentions: ["content type", "text/html"]),
        HostileCase(mode: "status-500", mentions: ["500"]),
        HostileCase(mode: "hang-before-headers", mentions: ["timed out", "nothing for"]),
        HostileCase(mode: "unauthorized", mentions: ["401"]),
    ]

    @Test("ondevice-mcp call --url against a hostile server: exit 3 with a clear message, in bounded memory", arguments: hostileCases)
    func hostile(_ test: HostileCase) async throws {
        try await HTTPPeer.with("hostile_http_server.py", ["--mode", test.mode] + test.options) { peer in
            let outcome = try await SpawnedProcess.run(
                try BuiltProducts.ondeviceMCP(), arguments: ["call", "echo", "--timeout", "5", "--url", try peer.url().absoluteString],
                hangGuard: Sanitizers.stretched(.seconds(90)))
            #expect(outcome.status == .exited(3), "\(outcome.standardErrorTail)")
            #expect(test.mentions.contains { outcome.standardErrorTail.contains($0) }, "\(outcome.standardErrorTail)")
            // Memory stays bounded, the 64 MiB floods included: over plain http:// the transport
            // reads a body only as fast as it parses it, and stops at the message limit.
            if !Sanitizers.threadSanitizerIsActive, let peak = outcome.peakResidentBytes {
                #expect(peak < 64 << 20, "peak RSS \(outcome.peakResidentMiB) MiB")
            }
        }
    }
}
