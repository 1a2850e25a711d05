import Foundation
import MCP

/// Resident memory of idle stdio servers: started, answered `initialize` and `tools/list`,
/// then waiting for input. Read from `/proc/<pid>/status` (VmRSS, and VmHWM for the peak).
enum MemoryBenchmarks {
    static func run() async throws {
        print("## Idle stdio server memory (after initialize + tools/list; /proc/<pid>/status)")
        print("")
        print(Stats.row([("server", 44), ("VmRSS", 10), ("VmHWM", 10), ("tools", 6), ("notes", 0)]))
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }

        let release = "swift build -c release --scratch-path .build-bench --product"
        try await measureIfBuilt(
            "ondevice-mcp-serve (release, serve alone)", Paths.leanServer, ["--data-dir", dataDirectory],
            target: "target ≤ 15 MiB", build: "\(release) ondevice-mcp-serve")
        try await measureIfBuilt(
            "ondevice-mcp serve (release CLI)", Paths.cli, ["serve", "--data-dir", dataDirectory],
            target: "every command linked, FoundationNetworking and ICU with them", build: "\(release) ondevice-mcp")
        try await measureIfBuilt(
            "ondevice-mcp-serve (--static-swift-stdlib)", Paths.staticServer, ["--data-dir", dataDirectory],
            target: "target ≤ 15 MiB",
            build: "swift build -c release --static-swift-stdlib --scratch-path .build-static --product ondevice-mcp-serve")
        try await measure("MCPBenchmarks --serve-echo", Paths.benchmarkBinary, ["--serve-echo"])
        if FileManager.default.isExecutableFile(atPath: Paths.python) {
            try await measure("Python SDK mcp 2.3.0 MCPServer", Paths.python, [Paths.pythonEchoServer])
        }
        print("")
    }

    /// Measures `executable` as ``measure(_:_:_:target:)`` does, or prints the command that
    /// builds it.
    private static func measureIfBuilt(
        _ label: String, _ executable: String, _ arguments: [String], target: String, build: String
    ) async throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            print(Stats.row([(label, 44), ("n/a", 10), ("", 10), ("", 6), ("not built: " + build, 0)]))
            return
        }
        try await measure(label, executable, arguments, target: target)
    }

    private static func measure(_ label: String, _ executable: String, _ arguments: [String], target: String = "") async throws {
        let transport = try ProcessTransport.launch(executable, arguments: arguments, standardError: .discard)
        let configuration = MCPClient.Configuration(handshake: .version(.latestHandshake), requestTimeout: .seconds(30))
        let client = try await MCPClient.connect(over: transport, configuration: configuration)
        let tools = try await client.listTools()
        // The reply to tools/list is out; the server now waits for input.
        let memory = ProcessMemory.read(transport.processIdentifier)
        await client.close()
        func mebibytes(_ kibibytes: Int?) -> String {
            kibibytes.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "n/a"
        }
        print(
            Stats.row([
                (label, 44), (mebibytes(memory?.rss), 10), (mebibytes(memory?.peak), 10), (String(tools.count), 6),
                ("protocol \(client.protocolVersion)" + (target.isEmpty ? "" : "; \(target)"), 0),
            ]))
    }
}
