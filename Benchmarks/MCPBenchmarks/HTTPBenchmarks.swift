import Foundation
import MCP
import MCPHTTP

/// `tools/call` round trips over loopback Streamable HTTP against the official Python SDK's
/// server (`Tests/Interop/http/streamable_server.py`): our client and the SDK's own client
/// (`python_http_client.py`) on the same server, in one run.
enum HTTPBenchmarks {
    static let calls = 2_000

    static func run() async throws {
        print("## Streamable HTTP tools/call over loopback (Python SDK mcp 2.3.0 server; \(calls) calls after a warm-up)")
        print("")
        guard FileManager.default.isExecutableFile(atPath: Paths.python) else {
            print("(skipped: no \(Paths.python); run scripts/bootstrap-python.sh)")
            print("")
            return
        }
        let script = Paths.packageRoot + "/Tests/Interop/http/streamable_server.py"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Paths.python)
        server.arguments = [script]
        let input = Pipe()
        let output = Pipe()
        server.standardInput = input
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            try? input.fileHandleForWriting.close()
            server.terminate()
            server.waitUntilExit()
        }
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)), let url = URL(string: "http://127.0.0.1:\(port)/mcp") else {
            print("(skipped: the server did not start: \(text))")
            return
        }
        print("client                                     era          sequential   16 in flight")
        for (era, handshake, mode) in [
            ("2026-07-28", MCPClient.Handshake.auto, "auto"), ("2025-11-25", .version(.v2025_11_25), "legacy"),
        ] {
            let ours = try await measureOurs(url: url, handshake: handshake)
            print(
                "OnDeviceMCP MCPClient + MCPHTTP         \(Harness.pad(era, 12)) \(Harness.padLeft(Stats.formatRate(ours.sequential), 12)) \(Harness.padLeft(Stats.formatRate(ours.concurrent), 14))"
            )
            let theirs = try measurePython(url: url, mode: mode)
            print(
                "Python SDK streamable HTTP client          \(Harness.pad(era, 12)) \(Harness.padLeft(Stats.formatRate(theirs.sequential), 12)) \(Harness.padLeft(Stats.formatRate(theirs.concurrent), 14))"
            )
        }
        print("")
    }

    static func measureOurs(url: URL, handshake: MCPClient.Handshake) async throws -> (sequential: Double, concurrent: Double) {
        let client = try await MCPClient.connect(
            to: .http(url), configuration: MCPClient.Configuration(handshake: handshake, requestTimeout: .seconds(60)))
        for _ in 0..<20 { _ = try await client.callTool(name: "echo", arguments: ["text": "hello"]) }
        let clock = ContinuousClock()
        var start = clock.now
        for _ in 0..<calls { _ = try await client.callTool(name: "echo", arguments: ["text": "hello"]) }
        let sequential = Stats.rate(calls, clock.now - start)
        start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<16 {
                group.addTask {
                    for _ in stride(from: lane, to: calls, by: 16) {
                        _ = try await client.callTool(name: "echo", arguments: ["text": "hello"])
                    }
                }
            }
            try await group.waitForAll()
        }
        let concurrent = Stats.rate(calls, clock.now - start)
        await client.close()
        return (sequential, concurrent)
    }

    static func measurePython(url: URL, mode: String) throws -> (sequential: Double, concurrent: Double) {
        func run(_ inFlight: Int) throws -> Double {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.python)
            process.arguments = [
                Paths.packageRoot + "/Tests/Interop/http/python_http_client.py", "--url", url.absoluteString, "--calls", "\(calls)",
                "--in-flight", "\(inFlight)", "--mode", mode,
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let report = try JSONValue(parsing: data)
            return report["perSecond"]?.doubleValue ?? 0
        }
        return (try run(1), try run(16))
    }
}
