import Foundation
import MCP

/// `tools/call` of the echo tool in the same process: through `MCPClient.connect(to: server)`
/// and through `MCPServer.handle(_:)` with no client. Argument validation is included.
enum InProcessBenchmarks {
    static let warmUpCalls = 20_000
    static let latencyCalls = 200_000
    static let throughputCalls = 50_000
    static let throughputRounds = 5
    static let concurrentCallers = 64

    static func run() async throws {
        print(
            "## In-process tools/call (echo tool, inputSchema validated; up to \(latencyCalls / 1000)k calls timed one by one, throughput median of \(throughputRounds) rounds of up to \(throughputCalls / 1000)k calls)"
        )
        print("")
        let server = try await Echo.makeServer()
        let client = try await MCPClient.connect(to: server, configuration: MCPClient.Configuration(requestTimeout: nil))
        let timedClient = try await MCPClient.connect(
            to: server, configuration: MCPClient.Configuration(handshake: .version(.latestHandshake), requestTimeout: .seconds(60)))
        // The default in process: MCPClient.Configuration.inProcess (2025-11-25, no timeout).
        let legacyClient = try await MCPClient.connect(to: server)

        // Sanity: the call does what it should.
        let check = try await client.callTool(name: Echo.name, arguments: Echo.arguments)
        guard !check.isError else { throw BenchmarkFailure("echo failed: \(check)") }

        let viaClient: @Sendable () async throws -> Void = {
            blackHole(try await client.callTool(name: Echo.name, arguments: Echo.arguments))
        }
        let viaTimedClient: @Sendable () async throws -> Void = {
            blackHole(try await timedClient.callTool(name: Echo.name, arguments: Echo.arguments))
        }
        let viaLegacyClient: @Sendable () async throws -> Void = {
            blackHole(try await legacyClient.callTool(name: Echo.name, arguments: Echo.arguments))
        }
        let request = JSONRPCMessage.request(
            JSONRPCRequest(id: .int(1), method: "tools/call", params: ["name": "echo", "arguments": .object(Echo.arguments)]))
        let viaHandle: @Sendable () async throws -> Void = {
            guard case .response? = await server.handle(request) else { throw BenchmarkFailure("handle did not answer") }
        }

        print(Stats.row([("path", 44), ("median", 10), ("p99", 10), ("p99.9", 10), ("1 caller", 12), ("64 callers", 12)]))
        try await report("MCPClient, \(client.protocolVersion), no timeout", viaClient)
        try await report(
            "MCPClient, \(legacyClient.protocolVersion), no timeout (default)", viaLegacyClient, latencyCalls: latencyCalls / 2)
        try await report(
            "MCPClient, \(timedClient.protocolVersion), 60 s timeout", viaTimedClient, latencyCalls: latencyCalls / 4,
            throughputCalls: throughputCalls / 2)
        try await report("MCPServer.handle(_:), no envelope", viaHandle)
        let overhead = timerOverhead()
        print("")
        print(
            "(timing one call adds about \(Harness.format(nanoseconds: overhead)) of clock reads; target: ≤ 2 µs median through the client)"
        )
        print("")
        await client.close()
        await timedClient.close()
        await legacyClient.close()
    }

    private static func report(
        _ label: String, _ call: @escaping @Sendable () async throws -> Void,
        latencyCalls: Int = latencyCalls, throughputCalls: Int = throughputCalls
    ) async throws {
        for _ in 0..<warmUpCalls { try await call() }
        let clock = ContinuousClock()
        var samples = [Double](repeating: 0, count: latencyCalls)
        for index in 0..<latencyCalls {
            let start = clock.now
            try await call()
            samples[index] = (clock.now - start).nanoseconds
        }
        samples.sort()
        let single = try await Stats.medianRate(rounds: throughputRounds) {
            let start = clock.now
            for _ in 0..<throughputCalls { try await call() }
            return Stats.rate(throughputCalls, clock.now - start)
        }
        let concurrent = try await Stats.medianRate(rounds: throughputRounds) {
            let perCaller = throughputCalls / concurrentCallers
            let start = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrentCallers {
                    group.addTask { for _ in 0..<perCaller { try await call() } }
                }
                try await group.waitForAll()
            }
            return Stats.rate(perCaller * concurrentCallers, clock.now - start)
        }
        print(
            Stats.row([
                (label, 44),
                (Harness.format(nanoseconds: Stats.percentile(samples, 0.5)), 10),
                (Harness.format(nanoseconds: Stats.percentile(samples, 0.99)), 10),
                (Harness.format(nanoseconds: Stats.percentile(samples, 0.999)), 10),
                (Stats.formatRate(single.median), 12),
                (Stats.formatRate(concurrent.median), 12),
            ]))
    }

    /// The median cost of two clock reads, which every timed sample includes.
    private static func timerOverhead() -> Double {
        let clock = ContinuousClock()
        var samples = [Double](repeating: 0, count: 100_000)
        for index in samples.indices {
            let start = clock.now
            samples[index] = (clock.now - start).nanoseconds
        }
        return Stats.median(samples)
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
