import HostilePeerModes
import OnDeviceMCPTestSupport
import Testing

/// `ondevice-mcp call probe '{}' --timeout T -- HostilePeer MODE`, and what must come of it.
struct CommandLineCall: Sendable, CustomTestStringConvertible {
    let mode: HostileMode
    let timeoutSeconds: Int
    let status: Int32
    /// What standard error must say (nothing checked when `nil`).
    let mentions: ExpectedWords?
    /// The CLI process's peak resident set size must stay under this many MiB.
    let peakMiB: Int

    var testDescription: String {
        "\(mode.rawValue) → exit \(status)\(mentions.map { ", mentioning \($0)" } ?? ""), under \(peakMiB) MiB"
    }

    static let all: [CommandLineCall] = [
        CommandLineCall(mode: .silentInitialize, timeoutSeconds: 3, status: 3, mentions: .any("timed out"), peakMiB: 64),
        CommandLineCall(mode: .silentCall, timeoutSeconds: 3, status: 3, mentions: .any("timed out"), peakMiB: 64),
        CommandLineCall(mode: .crashMidCall, timeoutSeconds: 60, status: 3, mentions: .any("status 3"), peakMiB: 64),
        CommandLineCall(mode: .nonJSON, timeoutSeconds: 3, status: 3, mentions: .all("timed out", "JSON"), peakMiB: 64),
        CommandLineCall(mode: .wrongID, timeoutSeconds: 3, status: 3, mentions: .any("timed out"), peakMiB: 64),
        CommandLineCall(mode: .hugeResult, timeoutSeconds: 60, status: 3, mentions: .any("16777216", "limit"), peakMiB: 160),
        // Holds a whole 16 MiB frame before refusing it; the one executable idles 13 MiB higher
        // than the old lean CLI (URLSession and the model client are linked), so 80 MiB.
        CommandLineCall(mode: .endlessLine, timeoutSeconds: 60, status: 3, mentions: .any("16777216", "limit"), peakMiB: 80),
        CommandLineCall(mode: .deepResult, timeoutSeconds: 60, status: 3, mentions: .any("deep", "nest"), peakMiB: 64),
        CommandLineCall(mode: .floodNotifications, timeoutSeconds: 60, status: 0, mentions: nil, peakMiB: 64),
        CommandLineCall(mode: .floodStandardError, timeoutSeconds: 60, status: 0, mentions: nil, peakMiB: 64),
        CommandLineCall(mode: .drip, timeoutSeconds: 30, status: 0, mentions: nil, peakMiB: 64),
        CommandLineCall(mode: .clientRequests, timeoutSeconds: 10, status: 0, mentions: nil, peakMiB: 64),
        CommandLineCall(mode: .closeOutput, timeoutSeconds: 60, status: 3, mentions: .any("closed"), peakMiB: 64),
        CommandLineCall(mode: .listenNeverAcks, timeoutSeconds: 3, status: 0, mentions: nil, peakMiB: 64),
        CommandLineCall(mode: .wellBehaved, timeoutSeconds: 10, status: 0, mentions: nil, peakMiB: 64),
    ]
}

@Suite("A hostile server, through the ondevice-mcp CLI")
struct HostileServerCommandLineTests {
    @Test(
        "ondevice-mcp call against a hostile server: the right exit status and message, in bounded memory",
        arguments: CommandLineCall.all)
    func call(_ expected: CommandLineCall) async throws {
        // A call that must succeed gets more time under ThreadSanitizer, which is several times slower.
        let timeoutSeconds =
            expected.status == 0 && Sanitizers.threadSanitizerIsActive ? expected.timeoutSeconds * 5 : expected.timeoutSeconds
        let run = try await SpawnedProcess.run(
            try BuiltProducts.ondeviceMCP(),
            arguments: ["call", "probe", "{}", "--timeout", String(timeoutSeconds)] + BoxArguments.forThisBuild
                + ["--", try BuiltProducts.hostilePeer(), expected.mode.rawValue],
            // The CLI's own timeout plus a generous margin: beyond it, the CLI is stuck.
            hangGuard: Sanitizers.stretched(.seconds(timeoutSeconds + 15)))
        // The hostile peer's own lines ("hostile: ...") pass through; the CLI's are the rest.
        let ownErrors = run.standardErrorTail.split(separator: "\n").filter { !$0.hasPrefix("hostile: ") && !$0.allSatisfy { $0 == "e" } }
        #expect(run.status == .exited(expected.status), "stderr: \(run.standardErrorTail.suffix(2_000))")
        if let mentions = expected.mentions {
            expect(ownErrors.joined(separator: "\n"), mentions: mentions)
            #expect(ownErrors.count == 1, "one line of error, not: \(ownErrors)")
        }
        if expected.status == 0 {
            #expect(run.output.contains("ok"), "stdout: \(run.output.prefix(2_000))")
        }
        expectPeakMemory(run, under: expected.peakMiB)
    }

    @Test("ondevice-mcp tools lists 20,000 tools in bounded memory")
    func manyTools() async throws {
        let run = try await SpawnedProcess.run(
            try BuiltProducts.ondeviceMCP(),
            arguments: ["tools", "--timeout", "30"] + BoxArguments.forThisBuild + [
                "--", try BuiltProducts.hostilePeer(), HostileMode.manyTools.rawValue,
            ],
            hangGuard: Sanitizers.stretched(.seconds(75)))
        #expect(run.status == .exited(0), "stderr: \(run.standardErrorTail.suffix(2_000))")
        let names = run.output.split(separator: "\n").filter { $0.hasPrefix("tool_") }
        #expect(names.count == 20_000)
        #expect(Set(names).count == 20_000)
        expectPeakMemory(run, under: 64)
    }
}
