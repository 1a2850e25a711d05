import Foundation
import MCP

/// `tools/call` over stdio pipes to a child process, driven by our `MCPClient` over
/// `ProcessTransport` (no request timeout), against our server and the Python SDK's; and the
/// pipe's own limit, measured with a responder that answers lines without reading them.
enum StdioBenchmarks {
    struct Load {
        let sequentialCalls: Int
        let concurrentCalls: Int
        let rounds: Int
    }

    static let ours = Load(sequentialCalls: 20_000, concurrentCalls: 64_000, rounds: 5)
    static let python = Load(sequentialCalls: 600, concurrentCalls: 1_280, rounds: 3)
    static let inFlight = 64
    static let rawSequentialCalls = 20_000
    static let rawPipelinedLines = 256_000
    static let rawRounds = 5

    /// One line of the table and what the summary needs.
    struct Figures {
        var sequential: Double = .nan
        var concurrent: Double = .nan
        var note = ""
    }

    static func run() async throws {
        print("## stdio tools/call (child process over pipes; calls/s, median of rounds; 2 cores shared by both processes)")
        print("")
        print("### Servers, driven by the wire driver (one thread, blocking pipe I/O, every response parsed and checked)")
        print("")
        print(Stats.row([("server", 40), ("sequential", 12), ("µs/call", 9), ("64 in flight", 13), ("notes", 0)]))
        let pipe = try rawPipe()
        printRow("pipe limit (raw responder, no JSON)", pipe)
        var summary: [String] = []
        for era in [WireDriver.Era.modern, .legacy] {
            let ourFigures = try wire(executable: Paths.benchmarkBinary, arguments: ["--serve-echo"], era: era, load: ours)
            printRow("OnDeviceMCP server, \(era.rawValue)", ourFigures)
            let sharedFigures = try wire(executable: Paths.benchmarkBinary, arguments: ["--serve-echo-shared"], era: era, load: ours)
            printRow("OnDeviceMCP, \(era.rawValue), default options", sharedFigures)
            var pythonFigures = Figures()
            if FileManager.default.isExecutableFile(atPath: Paths.python) {
                pythonFigures = try wire(executable: Paths.python, arguments: [Paths.pythonEchoServer], era: era, load: python)
            } else {
                pythonFigures.note = "skipped: no \(Paths.python) (run scripts/bootstrap-python.sh)"
            }
            printRow("Python SDK mcp 2.3.0 MCPServer, \(era.rawValue)", pythonFigures)
            let speedUp = ourFigures.concurrent / pythonFigures.concurrent
            summary.append(
                "\(era.rawValue): ours sequential / pipe limit \(Stats.formatPercent(ourFigures.sequential / pipe.sequential)) (target ≥ 70 %); "
                    + "ours / Python at 64 in flight \(speedUp.isFinite ? String(format: "%.0f×", speedUp) : "n/a") (target ≥ 100×); "
                    + "sequential \(String(format: "%.0f×", ourFigures.sequential / pythonFigures.sequential))")
        }
        print("")
        for line in summary { print(line) }
        print("")

        // The library's own client, end to end: what an app calling tools over stdio gets.
        print("### Through MCPClient (ProcessTransport; no request timeout unless said) against our server")
        print("")
        print(Stats.row([("client", 40), ("sequential", 12), ("µs/call", 9), ("64 in flight", 13), ("notes", 0)]))
        for handshake in [MCPClient.Handshake.auto, .version(.v2025_11_25)] {
            let era = handshake == .auto ? "2026-07-28" : "2025-11-25"
            let anywhere = try await client(
                label: "OnDeviceMCP server (--serve-echo)", executable: Paths.benchmarkBinary, arguments: ["--serve-echo"],
                load: ours, handshake: handshake, onConnectionThread: false)
            printRow("MCPClient, \(era), callers anywhere", anywhere)
            let onThread = try await client(
                label: "OnDeviceMCP server (--serve-echo)", executable: Paths.benchmarkBinary, arguments: ["--serve-echo"],
                load: ours, handshake: handshake, onConnectionThread: true)
            printRow("MCPClient, \(era), on the connection thread", onThread)
        }
        // The default configuration: every request has the 60 s timeout.
        let timed = try await client(
            label: "OnDeviceMCP server (--serve-echo)", executable: Paths.benchmarkBinary, arguments: ["--serve-echo"],
            load: ours, handshake: .auto, onConnectionThread: false, requestTimeout: .seconds(60))
        printRow("MCPClient, 2026-07-28, 60 s timeout (default)", timed)
        print("")
    }

    /// Our server or Python's, measured with the wire driver.
    private static func wire(executable: String, arguments: [String], era: WireDriver.Era, load: Load) throws -> Figures {
        let driver = try WireDriver(executable: executable, arguments: arguments, era: era)
        let pid = driver.processIdentifier
        // Warm-up: a tenth of a round of each kind.
        _ = try driver.sequential(max(50, load.sequentialCalls / 10))
        _ = try driver.pipelined(max(inFlight * 4, load.concurrentCalls / 10), window: inFlight)
        var figures = Figures()
        figures.sequential = Stats.median(try (0..<load.rounds).map { _ in try driver.sequential(load.sequentialCalls) })
        let clock = ContinuousClock()
        let selfBefore = CPUTime.ticks(of: getpid())
        let childBefore = CPUTime.ticks(of: pid)
        let wallStart = clock.now
        figures.concurrent = Stats.median(
            try (0..<load.rounds).map { _ in try driver.pipelined(load.concurrentCalls, window: inFlight) })
        let wall = (clock.now - wallStart).nanoseconds / 1e9
        figures.note = "protocol \(era.rawValue)"
        if let selfBefore, let childBefore, let selfAfter = CPUTime.ticks(of: getpid()), let childAfter = CPUTime.ticks(of: pid) {
            let calls = Double(load.concurrentCalls * load.rounds)
            let driverSeconds = Double(selfAfter - selfBefore) / CPUTime.ticksPerSecond
            let serverSeconds = Double(childAfter - childBefore) / CPUTime.ticksPerSecond
            figures.note += String(
                format: "; at 64 in flight CPU: driver %.0f %%, server %.0f %% of 200 %% (%.1f / %.1f µs per call)",
                driverSeconds / wall * 100, serverSeconds / wall * 100, driverSeconds / calls * 1e6, serverSeconds / calls * 1e6)
        }
        return figures
    }

    private static func printRow(_ label: String, _ figures: Figures) {
        print(
            Stats.row([
                (label, 40),
                (Stats.formatRate(figures.sequential), 12),
                (figures.sequential.isFinite ? String(format: "%.1f", 1e6 / figures.sequential) : "n/a", 9),
                (Stats.formatRate(figures.concurrent), 13),
                (figures.note, 0),
            ]))
        fflush(nil)
    }

    // MARK: Our client against a server process

    private static func client(
        label: String, executable: String, arguments: [String], load: Load, handshake: MCPClient.Handshake,
        onConnectionThread: Bool, requestTimeout: Duration? = nil
    ) async throws -> Figures {
        let transport = try ProcessTransport.launch(executable, arguments: arguments, standardError: .discard)
        let pid = transport.processIdentifier
        let client = try await MCPClient.connect(
            over: transport, configuration: MCPClient.Configuration(handshake: handshake, requestTimeout: requestTimeout))
        let tools = try await client.listTools()
        guard tools.contains(where: { $0.name == Echo.name }) else { throw BenchmarkFailure("\(label) has no echo tool") }
        let check = try await client.callTool(name: Echo.name, arguments: Echo.arguments)
        guard !check.isError else { throw BenchmarkFailure("\(label): echo failed: \(check)") }
        let call: @Sendable () async throws -> Void = {
            blackHole(try await client.callTool(name: Echo.name, arguments: Echo.arguments))
        }
        // With `onConnectionThread`, the calling loops run on the transport's reading thread
        // (`MCPClient.withConnectionThread`), so a reply resumes its caller without a thread switch.
        func placed<T>(_ body: () async throws -> T) async throws -> T {
            onConnectionThread ? try await client.withConnectionThread(body) : try await body()
        }
        let clock = ContinuousClock()
        // Warm-up: a tenth of a round of each kind.
        try await placed {
            for _ in 0..<max(50, load.sequentialCalls / 10) { try await call() }
            try await concurrently(max(inFlight * 4, load.concurrentCalls / 10), call)
        }

        var figures = Figures()
        figures.sequential = try await Stats.medianRate(rounds: load.rounds) {
            try await placed {
                let start = clock.now
                for _ in 0..<load.sequentialCalls { try await call() }
                return Stats.rate(load.sequentialCalls, clock.now - start)
            }
        }.median
        let selfBefore = CPUTime.ticks(of: getpid())
        let childBefore = CPUTime.ticks(of: pid)
        let wallStart = clock.now
        figures.concurrent = try await Stats.medianRate(rounds: load.rounds) {
            try await placed {
                let start = clock.now
                try await concurrently(load.concurrentCalls, call)
                return Stats.rate(load.concurrentCalls, clock.now - start)
            }
        }.median
        let wall = (clock.now - wallStart).nanoseconds / 1e9
        if let selfBefore, let childBefore, let selfAfter = CPUTime.ticks(of: getpid()), let childAfter = CPUTime.ticks(of: pid) {
            let clientShare = Double(selfAfter - selfBefore) / CPUTime.ticksPerSecond / wall
            let serverShare = Double(childAfter - childBefore) / CPUTime.ticksPerSecond / wall
            let calls = Double(load.concurrentCalls * load.rounds)
            let clientMicros = Double(selfAfter - selfBefore) / CPUTime.ticksPerSecond / calls * 1e6
            let serverMicros = Double(childAfter - childBefore) / CPUTime.ticksPerSecond / calls * 1e6
            figures.note = String(
                format: "protocol %@; at 64 in flight CPU: client %.0f %%, server %.0f %% of 200 %% (%.1f / %.1f µs per call)",
                client.protocolVersion.rawValue, clientShare * 100, serverShare * 100, clientMicros, serverMicros)
        } else {
            figures.note = "protocol \(client.protocolVersion)"
        }
        await client.close()
        return figures
    }

    /// `calls` calls made by `inFlight` concurrent loops.
    private static func concurrently(_ calls: Int, _ call: @escaping @Sendable () async throws -> Void) async throws {
        let perCaller = calls / inFlight
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<inFlight {
                group.addTask { for _ in 0..<perCaller { try await call() } }
            }
            try await group.waitForAll()
        }
    }

    // MARK: The pipe limit

    /// Round trips to `--raw-responder` with plain blocking reads and writes.
    private static func rawPipe() throws -> Figures {
        let child = try RawChild(Paths.benchmarkBinary, ["--raw-responder"])
        defer { child.finish() }
        let line =
            Array(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}"#.utf8) + [0x0A]
        let clock = ContinuousClock()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)

        func roundTrip() throws {
            guard RawResponder.writeAll(child.input, line) else { throw BenchmarkFailure("raw responder write failed") }
            try child.readLines(1, into: &buffer)
        }
        for _ in 0..<2_000 { try roundTrip() }
        var figures = Figures()
        func sequentialRates() throws -> [Double] {
            try (0..<rawRounds).map { _ in
                let start = clock.now
                for _ in 0..<rawSequentialCalls { try roundTrip() }
                return Stats.rate(rawSequentialCalls, clock.now - start)
            }
        }
        let free = try sequentialRates()
        figures.sequential = Stats.median(free)
        // The same with both ends pinned to one CPU: no cross-CPU wake-up in the round trip.
        var pinnedNote = ""
        if let restore = Affinity.pin(thread: 0, toCPU: 0), Affinity.pin(thread: child.process.processIdentifier, toCPU: 0) != nil {
            for _ in 0..<2_000 { try roundTrip() }
            let pinned = Stats.median(try sequentialRates())
            Affinity.set(thread: 0, restore)
            pinnedNote = "; both pinned to one CPU: \(Stats.formatRate(pinned)) sequential"
        }
        let spread = "sequential rounds \(Stats.formatRate(free.min() ?? .nan))–\(Stats.formatRate(free.max() ?? .nan))"

        // Pipelined: a writer thread sends every line (in 512-line writes) while this thread reads.
        let block = [[UInt8]](repeating: line, count: 512).flatMap { $0 }
        func pipelined(_ lines: Int) throws -> Double {
            let start = clock.now
            let input = child.input
            let writer = Thread {
                var left = lines
                while left > 0 {
                    let count = min(512, left)
                    let chunk = count == 512 ? block : Array(block[0..<(count * line.count)])
                    guard RawResponder.writeAll(input, chunk) else { return }
                    left -= count
                }
            }
            writer.start()
            try child.readLines(lines, into: &buffer)
            return Stats.rate(lines, clock.now - start)
        }
        _ = try pipelined(rawPipelinedLines / 10)
        let pipelinedRate = try Stats.median((0..<rawRounds).map { _ in try pipelined(rawPipelinedLines) })
        figures.concurrent = .nan
        figures.note = "\(spread)\(pinnedNote); pipelined (write N, read N): \(Stats.formatRate(pipelinedRate))"
        return figures
    }
}

/// A child process with its standard input and output as raw pipe descriptors.
final class RawChild: @unchecked Sendable {
    let process = Process()
    let input: Int32
    let output: Int32
    private let inPipe = Pipe()
    private let outPipe = Pipe()

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = inPipe
        process.standardOutput = outPipe
        try process.run()
        input = inPipe.fileHandleForWriting.fileDescriptor
        output = outPipe.fileHandleForReading.fileDescriptor
    }

    /// Reads until `count` newlines have arrived (the responder answers whole lines only).
    func readLines(_ count: Int, into buffer: inout [UInt8]) throws {
        var seen = 0
        while seen < count {
            let got = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw BenchmarkFailure("raw responder ended") }
            buffer.withUnsafeBytes { bytes in
                for index in 0..<got where bytes[index] == 0x0A { seen += 1 }
            }
        }
    }

    func finish() {
        try? inPipe.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// CPU time of a process (user + system, all threads) from `/proc/<pid>/stat`.
enum CPUTime {
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    static func ticks(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}

/// CPU affinity through `sched_setaffinity` (looked up at run time: Glibc's module map
/// hides the GNU declarations), for the pinned pipe figure.
enum Affinity {
    typealias Mask = [UInt64]
    private typealias Call = @convention(c) (Int32, Int, UnsafeMutableRawPointer) -> Int32
    nonisolated(unsafe) private static let handle = dlopen(nil, RTLD_NOW)
    private static let getCall = dlsym(handle, "sched_getaffinity").map { unsafeBitCast($0, to: Call.self) }
    private static let setCall = dlsym(handle, "sched_setaffinity").map { unsafeBitCast($0, to: Call.self) }

    /// Pins a thread (0: the calling one) to one CPU; returns its previous mask, `nil` on failure.
    static func pin(thread: Int32, toCPU cpu: Int) -> Mask? {
        guard let getCall else { return nil }
        var previous = Mask(repeating: 0, count: 16)
        guard previous.withUnsafeMutableBytes({ getCall(thread, $0.count, $0.baseAddress!) }) == 0 else { return nil }
        var mask = Mask(repeating: 0, count: 16)
        mask[cpu / 64] = 1 << UInt64(cpu % 64)
        guard set(thread: thread, mask) else { return nil }
        return previous
    }

    @discardableResult
    static func set(thread: Int32, _ mask: Mask) -> Bool {
        guard let setCall else { return false }
        var mask = mask
        return mask.withUnsafeMutableBytes { setCall(thread, $0.count, $0.baseAddress!) } == 0
    }
}
