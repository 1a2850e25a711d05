import Foundation
import MCP
import MCPCore
import OnDeviceMCPTestSupport
import Testing

@testable import MCPHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The package's root directory, found from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath)  // Tests/MCPHTTPTests/PythonHTTPServerTests.swift
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The Python with the official `mcp` SDK: `ONDEVICE_MCP_PYTHON`, else `<package>/.venv/bin/python`.
private enum PythonWithSDK {
    static let path: String? = {
        let candidate: String
        if let override = ProcessInfo.processInfo.environment["ONDEVICE_MCP_PYTHON"], !override.isEmpty {
            candidate = override
        } else {
            candidate = packageRoot.appendingPathComponent(".venv/bin/python").path
        }
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }()

    /// Whether the tests run: when there is a Python, and always under CI (where its absence fails them).
    static var enabled: Bool {
        if path != nil { return true }
        guard let ci = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !ci.isEmpty && ci != "0" && ci.lowercased() != "false"
    }
}

/// `Tests/MCPHTTPTests/Peers/streamable_server.py`, running on a free loopback port.
private final class PythonHTTPServer: @unchecked Sendable {
    // Safety: `process` and `input` are only used by `stop()`, once.
    private let process: Process
    private let input: Pipe
    /// Fulfilled by the process's termination handler: the exit, as an event.
    private let exited: OneShot<Void>
    let port: Int

    private init(process: Process, input: Pipe, exited: OneShot<Void>, port: Int) {
        self.process = process
        self.input = input
        self.exited = exited
        self.port = port
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Starts the server in `mode` and waits for its port.
    static func start(_ mode: String) async throws -> PythonHTTPServer {
        guard let python = PythonWithSDK.path else {
            throw ServerError("no Python with the mcp SDK (run scripts/bootstrap-python.sh, or set ONDEVICE_MCP_PYTHON)")
        }
        let script = packageRoot.appendingPathComponent("Tests/MCPHTTPTests/Peers/streamable_server.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, mode]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = OneShot<Void>()
        process.terminationHandler = { _ in _ = exited.set(()) }
        try process.run()
        // The first line is the port; read on a thread of its own (a blocking read).
        let handle = output.fileHandleForReading
        let line: String = await onThread {
            var bytes: [UInt8] = []
            while true {
                let byte = handle.readData(ofLength: 1)
                guard let first = byte.first, first != 0x0A else { break }
                bytes.append(first)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let port = Int(line.trimmingCharacters(in: .whitespaces)) else {
            process.terminate()
            throw ServerError("the Python server did not print its port (got \"\(line)\")")
        }
        return PythonHTTPServer(process: process, input: input, exited: exited, port: port)
    }

    /// Stops the server: closes its input (it exits), and if it has not exited within 10 s
    /// (a hang guard), kills it; returns once it is gone.
    func stop() async {
        try? input.fileHandleForWriting.close()
        let exited = exited
        if (try? await withHangGuard(.seconds(10), "the Python server exiting", { await exited.wait() })) == nil {
            kill(process.processIdentifier, SIGKILL)
            await exited.wait()
        }
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Runs `body` with a server in `mode`, stopping it afterwards.
private func withServer<T: Sendable>(_ mode: String, _ body: (PythonHTTPServer) async throws -> T) async throws -> T {
    let server = try await PythonHTTPServer.start(mode)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

private let hangLimit = Sanitizers.stretched(.seconds(120))

/// The handshakes the SDK speaks, and the version each ends on.
private let handshakes: [(MCPClient.Handshake, ProtocolVersion)] = [
    (.auto, .v2026_07_28), (.version(.v2025_11_25), .v2025_11_25), (.version(.v2025_06_18), .v2025_06_18),
    (.version(.v2025_03_26), .v2025_03_26), (.version(.v2024_11_05), .v2024_11_05),
]

@Suite("HTTP transport against the Python SDK's server", .enabled(if: PythonWithSDK.enabled), .serialized)
struct PythonHTTPServerTests {
    @Test(
        "Streamable HTTP in every era the SDK speaks: tools/list, tools/call, mirrored arguments, progress, calls at once",
        arguments: ["streamable", "streamable-json"])
    func everyEra(mode: String) async throws {
        try await withServer(mode) { server in
            try await withHangGuard(hangLimit, "the \(mode) server's eras") {
                for (handshake, version) in handshakes {
                    let configuration = MCPClient.Configuration(handshake: handshake, requestTimeout: .seconds(60), discoverTimeout: .seconds(60))
                    let client = try await MCPClient.connect(to: .http(server.url("/mcp")), configuration: configuration)
                    #expect(client.protocolVersion == version, "handshake \(handshake)")
                    #expect(client.serverInfo.name == "ondevice-http-peer")

                    // Before any tools/list: in 2026-07-28 the server refuses the call without its
                    // Mcp-Param-Region header (-32020); the transport learns it and sends it again.
                    let first = try await client.callTool(name: "locate", arguments: ["region": "Zürich "])
                    #expect(first.content.first?.text == "region Zürich ", "handshake \(handshake)")

                    let tools = try await client.listTools().map(\.name).sorted()
                    #expect(tools == ["add", "hold", "locate", "release", "slow"], "handshake \(handshake)")
                    let sum = try await client.callTool(name: "add", arguments: ["a": 2, "b": 3])
                    #expect(sum.content.first?.text == "5", "handshake \(handshake)")
                    let located = try await client.callTool(name: "locate", arguments: ["region": "eu-west"])
                    #expect(located.content.first?.text == "region eu-west", "handshake \(handshake)")
                    let unknown = try await client.callTool(name: "nope")
                    #expect(unknown.isError == true)

                    let reports = Recorded<Double>()
                    let slow = try await client.callTool(name: "slow", arguments: ["steps": 3]) { reports.append($0.progress) }
                    #expect(slow.content.first?.text == "done", "handshake \(handshake)")
                    if mode == "streamable" {
                        // Progress comes on the call's event stream, before its result.
                        #expect(reports.values == [1, 2, 3], "handshake \(handshake)")
                        // And it comes while the call runs: this call ends only after release(),
                        // which is called from its first progress report.
                        let releases = Recorded<Task<CallToolResult, any Error>>()
                        let held = try await client.callTool(name: "hold") { _ in
                            releases.append(Task { try await client.callTool(name: "release") })
                        }
                        #expect(held.content.first?.text == "released", "handshake \(handshake)")
                        let release = try #require(releases.values.first)
                        #expect(try await release.value.content.first?.text == "ok")
                    }

                    // Calls in flight at once over one connection.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<8 {
                            group.addTask {
                                let result = try await client.callTool(name: "add", arguments: ["a": .int(index), "b": 100])
                                #expect(result.content.first?.text == "\(index + 100)")
                            }
                        }
                        try await group.waitForAll()
                    }
                    await client.close()
                }
            }
        }
    }

    @Test("the 2024-11-05 HTTP+SSE transport, found by the fallback")
    func legacySSE() async throws {
        try await withServer("sse") { server in
            try await withHangGuard(hangLimit, "HTTP+SSE") {
                for handshake in [MCPClient.Handshake.auto, .version(.v2024_11_05)] {
                    let client = try await MCPClient.connect(
                        to: .http(server.url("/sse")), configuration: MCPClient.Configuration(handshake: handshake, requestTimeout: .seconds(60), discoverTimeout: .seconds(60)))
                    #expect(try await client.listTools().map(\.name).sorted() == ["add", "hold", "locate", "release", "slow"])
                    let sum = try await client.callTool(name: "add", arguments: ["a": 20, "b": 22])
                    #expect(sum.content.first?.text == "42")
                    let reports = Recorded<Double>()
                    _ = try await client.callTool(name: "slow", arguments: ["steps": 2]) { reports.append($0.progress) }
                    #expect(reports.values == [1, 2])
                    await client.close()
                }
            }
        }
    }

    @Test("a session the server ended is renewed: the next call redoes the handshake and succeeds")
    func sessionRenewal() async throws {
        try await withServer("streamable") { server in
            try await withHangGuard(hangLimit, "session renewal") {
                let transport = try HTTPClientTransport(url: server.url("/mcp"))
                let client = try await MCPClient.connect(
                    over: transport, configuration: MCPClient.Configuration(handshake: .version(.v2025_11_25), requestTimeout: .seconds(60)))
                let first = try #require(transport.core.sessionID)
                // End the session behind the client's back.
                var request = URLRequest(url: server.url("/mcp"))
                request.httpMethod = "DELETE"
                request.setValue(first, forHTTPHeaderField: "Mcp-Session-Id")
                request.setValue("2025-11-25", forHTTPHeaderField: "MCP-Protocol-Version")
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                let sum = try await client.callTool(name: "add", arguments: ["a": 1, "b": 1])
                #expect(sum.content.first?.text == "2")
                let second = try #require(transport.core.sessionID)
                #expect(second != first)
                await client.close()
            }
        }
    }

}

@Suite("HTTP transport over URLSession")
struct URLSessionTransportTests {
    @Test("nothing listening: connect fails at once with a network error")
    func nothingListening() async throws {
        // Port 1 on this machine: nothing listens there.
        let url = try #require(URL(string: "http://127.0.0.1:1/mcp"))
        let error = await #expect(throws: HTTPTransportError.network) {
            try await MCPClient.connect(to: .http(url), configuration: MCPClient.Configuration(requestTimeout: .seconds(60)))
        }
        #expect(error?.detail.contains("127.0.0.1") == true || error?.detail.contains("connect") == true)
    }
}
