import Foundation
import MCP

/// Hidden modes that run one path in a loop, for `perf record`:
///
///     MCPBenchmarks --loop inprocess-client 2000000
///     MCPBenchmarks --loop inprocess-handle 2000000
///     MCPBenchmarks --loop inprocess-timeout 500000   (default 60 s request timeout)
///     MCPBenchmarks --loop inprocess-legacy 2000000   (2025-11-25 handshake, no envelope)
///     MCPBenchmarks --loop stdio-sequential 200000
///     MCPBenchmarks --loop stdio-64 1000000         (also stdio-sequential-thread, stdio-64-thread:
///                                                  the callers on the connection thread)
///     MCPBenchmarks --loop wire-64-modern 2000000   (the wire driver against --serve-echo;
///                                                  also wire-64-legacy, wire-sequential-modern)
enum ProfileLoops {
    static func run(_ arguments: [String]) async throws {
        let mode = arguments.first ?? ""
        let calls = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
        let clock = ContinuousClock()
        let start: ContinuousClock.Instant
        switch mode {
        case "inprocess-client", "inprocess-handle", "inprocess-timeout", "inprocess-legacy":
            let server = try await Echo.makeServer()
            var configuration = MCPClient.Configuration(requestTimeout: mode == "inprocess-timeout" ? .seconds(60) : nil)
            if mode == "inprocess-legacy" { configuration.handshake = .version(.latestHandshake) }
            let client = try await MCPClient.connect(to: server, configuration: configuration)
            let request = JSONRPCMessage.request(
                JSONRPCRequest(id: .int(1), method: "tools/call", params: ["name": "echo", "arguments": .object(Echo.arguments)]))
            start = clock.now
            if mode != "inprocess-handle" {
                for _ in 0..<calls { blackHole(try await client.callTool(name: Echo.name, arguments: Echo.arguments)) }
            } else {
                for _ in 0..<calls { blackHole(await server.handle(request)) }
            }
        case "stdio-sequential", "stdio-64", "stdio-sequential-thread", "stdio-64-thread":
            let transport = try ProcessTransport.launch(Paths.benchmarkBinary, arguments: ["--serve-echo"], standardError: .inherit)
            print("server pid \(transport.processIdentifier)")
            fflush(nil)
            let client = try await MCPClient.connect(over: transport, configuration: MCPClient.Configuration(requestTimeout: nil))
            start = clock.now
            let callers = mode.hasPrefix("stdio-64") ? 64 : 1
            let loops = {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<callers {
                        group.addTask {
                            for _ in 0..<(calls / callers) {
                                blackHole(try await client.callTool(name: Echo.name, arguments: Echo.arguments))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            if mode.hasSuffix("-thread") {
                try await client.withConnectionThread(loops)
            } else {
                try await loops()
            }
        case "wire-64-modern", "wire-64-legacy", "wire-sequential-modern":
            let driver = try WireDriver(
                executable: Paths.benchmarkBinary, arguments: ["--serve-echo"], era: mode.hasSuffix("legacy") ? .legacy : .modern)
            print("server pid \(driver.processIdentifier)")
            fflush(nil)
            start = clock.now
            if mode.hasPrefix("wire-64") {
                _ = try driver.pipelined(calls, window: 64)
            } else {
                _ = try driver.sequential(calls)
            }
        default:
            print("unknown loop \(mode)")
            return
        }
        let elapsed = clock.now - start
        print(
            "\(mode): \(calls) calls, \(Harness.format(nanoseconds: elapsed.nanoseconds / Double(calls))) per call, \(Stats.formatRate(Stats.rate(calls, elapsed)))"
        )
    }
}
