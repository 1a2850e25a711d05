import Foundation
import MCP

/// The echo tool every runtime benchmark calls, and the hidden peer modes of this executable.
enum Echo {
    static let name = "echo"
    static let inputSchema: JSONValue = [
        "type": "object", "properties": ["text": ["type": "string"]], "required": ["text"],
    ]
    static let arguments: JSONObject = ["text": "hello"]

    /// A server with the one-line echo tool.
    static func makeServer() async throws -> MCPServer {
        let server = MCPServer(name: "bench-echo", version: "1.0")
        try await server.register(name: name, description: "Repeats the text it is given", inputSchema: inputSchema) { arguments, _ in
            .text(arguments["text"]?.stringValue ?? "")
        }
        return server
    }

    /// `--serve-echo`: the echo server on standard input and output, until end of input, with
    /// its requests on the connection's reading thread (the opt-in fast path);
    /// `--serve-echo-shared`: the same with the default options (requests on Swift's shared
    /// executor).
    static func serve(onConnectionThread: Bool = true) async throws {
        let server = try await makeServer()
        let options = MCPServer.ConnectionOptions(requestExecution: onConnectionThread ? .connectionThread : .shared)
        try await server.run(on: StdioTransport(), options: options)
    }
}

/// `--raw-responder`: answers every input line with one canned line, without parsing it.
///
/// Plain blocking `read`/`write` on descriptors 0 and 1: the pipe's own cost, with
/// nothing of Swift concurrency or JSON in the way.
enum RawResponder {
    static let cannedLine =
        Array(#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}],"isError":false}}"#.utf8) + [0x0A]

    static func run() -> Never {
        let size = 64 * 1024
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        var output: [UInt8] = []
        output.reserveCapacity(size * 2)
        while true {
            let count = read(0, input, size)
            if count <= 0 { exit(0) }
            output.removeAll(keepingCapacity: true)
            for index in 0..<count where input[index] == 0x0A {
                output.append(contentsOf: cannedLine)
            }
            if !output.isEmpty, !writeAll(1, output) { exit(0) }
        }
    }

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}

/// Where the files these benchmarks need are.
enum Paths {
    /// This executable, which doubles as the peer servers.
    static var benchmarkBinary: String {
        let path = CommandLine.arguments[0]
        if path.hasPrefix("/") { return path }
        if path.contains("/") { return FileManager.default.currentDirectoryPath + "/" + path }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? path
    }

    /// The package's root directory, from this source file's place in it.
    static let packageRoot: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }()

    static var python: String {
        ProcessInfo.processInfo.environment["MCP_BENCH_PYTHON"] ?? packageRoot + "/.venv/bin/python"
    }

    static var pythonEchoServer: String { packageRoot + "/Benchmarks/peers/python_echo_server.py" }

    /// The `ondevice-mcp` CLI built next to this executable.
    static var cli: String {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? benchmarkBinary)
            .deletingLastPathComponent().appendingPathComponent("ondevice-mcp").path
    }

    /// `ondevice-mcp-serve`, the server alone (without the commands that link FoundationNetworking),
    /// built next to this executable.
    static var leanServer: String {
        URL(fileURLWithPath: cli).deletingLastPathComponent().appendingPathComponent("ondevice-mcp-serve").path
    }

    /// `ondevice-mcp-serve` built with `--static-swift-stdlib` into `.build-static`, a binary that
    /// needs no Swift runtime installed (README, "A self-contained binary").
    static var staticServer: String {
        ProcessInfo.processInfo.environment["MCP_BENCH_STATIC_SERVER"] ?? packageRoot + "/.build-static/release/ondevice-mcp-serve"
    }
}

/// Resident memory of a process, from `/proc/<pid>/status`.
enum ProcessMemory {
    /// `VmRSS` and `VmHWM` in KiB.
    static func read(_ pid: Int32) -> (rss: Int, peak: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        var rss: Int?
        var peak: Int?
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2 else { continue }
            if fields[0] == "VmRSS:" { rss = Int(fields[1]) }
            if fields[0] == "VmHWM:" { peak = Int(fields[1]) }
        }
        guard let rss, let peak else { return nil }
        return (rss, peak)
    }
}
