import Foundation
import MCP

/// Our stdio server against the ceiling: a do-nothing C server (`mcp-ceiling-server`) on the
/// same pipes, driven by the same C driver (`mcp-wire-driver`), in one run.
///
/// Rows: the ceiling (`ping`, sequential and 64 in flight); the echo server with the default
/// options (on the event loop, and on threads of its own, `ONDEVICE_MCP_TRANSPORT_LOOP=0`) and
/// with requests on the connection's thread; `ondevice-mcp serve` (its `clock_now`
/// tool), and the same server as `ondevice-mcp-serve` (serve alone, without the commands that
/// link FoundationNetworking), each with its idle memory. Every figure is the median of ``rounds`` runs of the driver
/// (``pairedRounds`` for a server's call and ping at 64 in flight, run in pairs, whose ratio is
/// the median of the pairs' ratios, their range beside it); the latencies are the driver's
/// per-request p50 and p99 of the median run; the server's context switches a request (a count,
/// steadier than any time on a busy host) are the median of the paired runs. Goals (issue #22):
/// sequential `tools/call` at least 50 % of the ceiling's sequential rate, and at 64 in flight
/// `tools/call` at least 50 % of our own `ping`, both with the default options.
///
/// `MCP_BENCH_BASELINE_DIR` names a directory with another build's `MCPBenchmarks` and
/// `ondevice-mcp` (for example a release build of the commit before a change): its rows are
/// measured in the same run, interleaved with ours.
enum CeilingBenchmarks {
    static let rounds = 3
    /// The call and ping runs at 64 in flight, measured in pairs (``measurePaired``).
    static let pairedRounds = 5

    struct Figures {
        var rate: Double
        var p50: Double
        var p99: Double
        var idleRSS: Int?
        /// The server's CPU time (all threads, user and system) per measured request, in µs.
        var serverCPU: Double?
        /// The server's context switches (every thread, the whole run) per request sent.
        var serverSwitches: Double?
    }

    static func run() throws {
        let directory = URL(fileURLWithPath: Paths.benchmarkBinary).deletingLastPathComponent().path
        let driver = directory + "/mcp-wire-driver"
        let ceiling = directory + "/mcp-ceiling-server"
        guard FileManager.default.isExecutableFile(atPath: driver), FileManager.default.isExecutableFile(atPath: ceiling) else {
            print("## stdio against the ceiling: not built (swift build -c release --scratch-path .build-bench --product mcp-wire-driver")
            print("   and --product mcp-ceiling-server)")
            print("")
            return
        }
        print("## stdio against the ceiling (C driver; median of \(rounds) runs; load \(loadAverage()))")
        print("")
        print(
            Stats.row([
                ("server", 46), ("request", 10), ("in flight", 10), ("calls/s", 12), ("p50", 10), ("p99", 10),
                ("server CPU", 12), ("notes", 0),
            ]))
        let ceilingSequential = try measure(driver, ["-m", "ping", "--no-handshake", "-n", "100000", "-W", "10000"], [ceiling])
        let ceilingPipelined = try measure(
            driver, ["-m", "ping", "--no-handshake", "-w", "64", "-n", "400000", "-W", "20000"], [ceiling])
        printRow("ceiling: C do-nothing server", "ping", 1, ceilingSequential)
        printRow("ceiling: C do-nothing server", "ping", 64, ceilingPipelined)

        var builds: [(label: String, directory: String)] = [("", directory)]
        if let baseline = ProcessInfo.processInfo.environment["MCP_BENCH_BASELINE_DIR"] {
            builds.insert(("baseline: ", baseline), at: 0)
        }
        for (label, directory) in builds {
            let bench = directory + "/MCPBenchmarks"
            let cli = directory + "/ondevice-mcp"
            let threads = ["ONDEVICE_MCP_TRANSPORT_LOOP": "0"]
            var servers: [(String, [String], String, String, [String: String])] = [
                ("echo, default options", [bench, "--serve-echo-shared"], "echo", #"{"text":"hello"}"#, [:]),
                ("echo, requests on the connection thread", [bench, "--serve-echo"], "echo", #"{"text":"hello"}"#, [:]),
                ("ondevice-mcp serve", [cli, "serve", "--data-dir", temporaryDirectory()], "clock_now", "{}", [:]),
                (
                    "ondevice-mcp-serve (serve alone)", [directory + "/ondevice-mcp-serve", "--data-dir", temporaryDirectory()],
                    "clock_now", "{}", [:]
                ),
            ]
            if label.isEmpty {
                servers.insert(
                    ("echo, default options, threads", [bench, "--serve-echo-shared"], "echo", #"{"text":"hello"}"#, threads), at: 1)
            }
            for (name, command, tool, arguments, environment) in servers where FileManager.default.isExecutableFile(atPath: command[0]) {
                let sequential = try measure(
                    driver, ["-t", tool, "-a", arguments, "-n", "50000", "-W", "5000", "-r"], command, environment)
                let pair = try measurePaired(
                    driver, call: ["-t", tool, "-a", arguments, "-w", "64", "-n", "200000", "-W", "10000"],
                    ping: ["-m", "ping", "-w", "64", "-n", "400000", "-W", "20000"], command, environment)
                let (pipelined, ping) = (pair.call, pair.ping)
                let row = label + name
                printRow(
                    row, "call", 1, sequential,
                    note: "\(Stats.formatPercent(sequential.rate / ceilingSequential.rate)) of the ceiling"
                        + (sequential.idleRSS.map { String(format: "; idle RSS %.1f MiB", Double($0) / 1024) } ?? ""))
                var cost = ""
                if let call = pipelined.serverCPU, let pong = ping.serverCPU, pong > 0 {
                    cost = String(format: "; its CPU %.1f× a ping's", call / pong)
                }
                if let switches = pair.switches {
                    cost += String(format: "; %.3f context switches a call, %.3f a ping", switches.call, switches.ping)
                }
                let spread = "pairs \(Stats.formatPercent(pair.ratios[0]))–\(Stats.formatPercent(pair.ratios[pair.ratios.count - 1]))"
                printRow(
                    row, "call", 64, pipelined,
                    note: "\(Stats.formatPercent(pair.ratio)) of our ping (\(spread))" + cost)
                printRow(row, "ping", 64, ping, note: "\(Stats.formatPercent(ping.rate / ceilingPipelined.rate)) of the ceiling")
            }
        }
        print("")
    }

    /// The threads of this process with `count` child servers connected through `MCPClient`
    /// over ``ProcessTransport``, against the threads before (OS threads from `/proc/self/task`).
    static func threads(servers count: Int) async throws {
        func threadCount() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
        }
        let before = threadCount()
        var clients: [MCPClient] = []
        for _ in 0..<count {
            let transport = try ProcessTransport.launch(Paths.benchmarkBinary, arguments: ["--serve-echo-shared"], standardError: .discard)
            clients.append(try await MCPClient.connect(over: transport))
        }
        for client in clients { _ = try await client.callTool(name: "echo", arguments: ["text": "hello"]) }
        let during = threadCount()
        for client in clients { await client.close() }
        print("threads of this process: \(before) before, \(during) with \(count) stdio servers connected (\(during - before) more)")
        print("")
    }

    private static func printRow(_ server: String, _ request: String, _ window: Int, _ figures: Figures, note: String = "") {
        print(
            Stats.row([
                (server, 46), (request, 10), (String(window), 10), (Stats.formatRate(figures.rate), 12),
                (String(format: "%.1f µs", figures.p50), 10), (String(format: "%.1f µs", figures.p99), 10),
                (figures.serverCPU.map { String(format: "%.2f µs", $0) } ?? "n/a", 12), (note, 0),
            ]))
    }

    /// Runs the driver `rounds` times against `server` and returns the run with the median rate.
    private static func measure(
        _ driver: String, _ options: [String], _ server: [String], _ environment: [String: String] = [:]
    ) throws -> Figures {
        var runs: [Figures] = []
        for _ in 0..<rounds {
            runs.append(try drive(driver, options + ["--"] + server, environment))
        }
        runs.sort { $0.rate < $1.rate }
        return runs[runs.count / 2]
    }

    /// Runs the driver ``pairedRounds`` times against `server` for a call run and a ping run
    /// right after it, and returns the median run of each and the median of the pairs'
    /// call/ping ratios (with all the ratios, sorted).
    ///
    /// Paired because the host's speed drifts: with all the call runs first and all the ping
    /// runs after, a slow stretch that took one block and not the other moved the ratio by
    /// ten points; each pair's two runs see about the same machine.
    private static func measurePaired(
        _ driver: String, call: [String], ping: [String], _ server: [String], _ environment: [String: String]
    ) throws -> (call: Figures, ping: Figures, ratio: Double, ratios: [Double], switches: (call: Double, ping: Double)?) {
        var calls: [Figures] = []
        var pings: [Figures] = []
        for _ in 0..<pairedRounds {
            calls.append(try drive(driver, call + ["--"] + server, environment))
            pings.append(try drive(driver, ping + ["--"] + server, environment))
        }
        let ratios = zip(calls, pings).map { $0.rate / $1.rate }.sorted()
        // Counts, unlike rates, hardly move with the host's speed: the median of every run.
        let callSwitches = calls.compactMap(\.serverSwitches).sorted()
        let pingSwitches = pings.compactMap(\.serverSwitches).sorted()
        let switches =
            callSwitches.count == calls.count && pingSwitches.count == pings.count
            ? (call: callSwitches[callSwitches.count / 2], ping: pingSwitches[pingSwitches.count / 2]) : nil
        calls.sort { $0.rate < $1.rate }
        pings.sort { $0.rate < $1.rate }
        return (calls[calls.count / 2], pings[pings.count / 2], ratios[ratios.count / 2], ratios, switches)
    }

    private static func drive(_ driver: String, _ arguments: [String], _ environment: [String: String]) throws -> Figures {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: driver)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure("mcp-wire-driver \(arguments.joined(separator: " ")) failed: \(text)")
        }
        var values: [String: String] = [:]
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let rate = values["rate"].flatMap(Double.init), let p50 = values["p50_us"].flatMap(Double.init),
            let p99 = values["p99_us"].flatMap(Double.init)
        else {
            throw BenchmarkFailure("mcp-wire-driver printed no figures: \(text)")
        }
        return Figures(
            rate: rate, p50: p50, p99: p99, idleRSS: values["idle_rss_kib"].flatMap(Int.init),
            serverCPU: values["server_cpu_us"].flatMap(Double.init).flatMap { $0 >= 0 ? $0 : nil },
            serverSwitches: values["server_switches"].flatMap(Double.init).flatMap { $0 >= 0 ? $0 : nil })
    }

    private static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-ceiling-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "n/a"
    }
}
