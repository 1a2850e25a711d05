import HostilePeerModes
import MCP
import OnDeviceMCPTestSupport
import Testing

/// The hang guard of every hostile test: far beyond any timeout the tests configure, so it
/// fires only when something is stuck.
let hangGuard: Duration = Sanitizers.stretched(.seconds(60))

/// Starts the hostile peer in `mode`, its standard error captured (the last 64 KiB).
func launchHostile(_ mode: HostileMode) throws -> ProcessTransport {
    try ProcessTransport.launch(try BuiltProducts.hostilePeer(), arguments: [mode.rawValue], standardError: .capture)
}

/// Starts the hostile peer in `mode` and connects to it (at most ``hangGuard``); when that
/// fails, the peer is shut down before the error is thrown.
func connectHostile(_ mode: HostileMode, _ configuration: MCPClient.Configuration) async throws -> (MCPClient, ProcessTransport) {
    let transport = try launchHostile(mode)
    do {
        let client = try await withHangGuard(hangGuard, "connecting to \(mode.rawValue)") {
            try await MCPClient.connect(over: transport, configuration: configuration)
        }
        return (client, transport)
    } catch {
        await transport.close()
        throw error
    }
}

/// A client configuration with short timeouts, for faults where a timeout is the outcome.
func configuration(requestTimeout: Duration = .seconds(3), discoverTimeout: Duration = .seconds(2)) -> MCPClient.Configuration {
    MCPClient.Configuration(requestTimeout: requestTimeout, discoverTimeout: discoverTimeout)
}

/// What an error message must say: every group must match, each by one of its alternatives
/// (case-insensitively).
struct ExpectedWords: Sendable, CustomStringConvertible {
    let groups: [[String]]

    /// One of `alternatives` must appear.
    static func any(_ alternatives: String...) -> ExpectedWords { ExpectedWords(groups: [alternatives]) }
    /// Each of `words` must appear.
    static func all(_ words: String...) -> ExpectedWords { ExpectedWords(groups: words.map { [$0] }) }

    func missing(in text: String) -> [[String]] {
        let text = text.lowercased()
        return groups.filter { group in !group.contains { text.contains($0.lowercased()) } }
    }

    var description: String {
        groups.map { $0.map { "\"\($0)\"" }.joined(separator: " or ") }.joined(separator: " and ")
    }
}

/// Checks that `text` says what `words` requires.
func expect(_ text: String, mentions words: ExpectedWords, sourceLocation: SourceLocation = #_sourceLocation) {
    let missing = words.missing(in: text)
    #expect(missing.isEmpty, "\"\(text)\" should mention \(words)", sourceLocation: sourceLocation)
}

/// Proves a client works: `probe` answers `ok`.
func expectWorking(_ client: MCPClient, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let result = try await client.callTool(name: "probe")
    #expect(!result.isError, sourceLocation: sourceLocation)
    #expect(result.text == "ok", sourceLocation: sourceLocation)
}

/// Proves this process can still connect and call after a fault: a fresh connection to the
/// well-behaved peer, through ``ServerEndpoint/process(_:arguments:environment:currentDirectory:standardError:)``,
/// answers.
func expectFreshClientWorks(sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let endpoint = ServerEndpoint.process(
        try BuiltProducts.hostilePeer(), arguments: [HostileMode.wellBehaved.rawValue], standardError: .discard,
        sandbox: Sandboxes.defaultForThisBuild)
    let client = try await withHangGuard(hangGuard, "connecting to well-behaved") {
        try await MCPClient.connect(to: endpoint, configuration: configuration())
    }
    do {
        try await withHangGuard(hangGuard, "calling well-behaved") { try await expectWorking(client, sourceLocation: sourceLocation) }
    } catch {
        await client.close()
        throw error
    }
    await client.close()
}

/// Checks a child's peak resident memory; not under ThreadSanitizer, whose shadow memory
/// multiplies it.
func expectPeakMemory(
    _ outcome: SpawnedProcess.Outcome, under mebibytes: Int, _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    guard !Sanitizers.threadSanitizerIsActive else { return }
    guard let peak = outcome.peakResidentBytes else {
        Issue.record("the peak memory was not measured \(context)", sourceLocation: sourceLocation)
        return
    }
    #expect(peak < mebibytes << 20, "peak RSS \(outcome.peakResidentMiB) MiB \(context)", sourceLocation: sourceLocation)
}

/// Boxes for servers built like the tests.
enum Sandboxes {
    /// ``Sandbox/standard``, without its memory limit under ThreadSanitizer (whose shadow
    /// memory no address-space limit allows; see `BoxArguments`).
    static var defaultForThisBuild: Sandbox {
        var box = Sandbox.standard
        if Sanitizers.threadSanitizerIsActive { box.memoryLimit = nil }
        return box
    }
}
