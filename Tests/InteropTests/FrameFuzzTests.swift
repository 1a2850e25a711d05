import Foundation
import JSONCore
import OnDeviceMCPTestSupport
import Testing

/// `Tests/Interop/fuzz_frames.py` against `ondevice-mcp serve`: 50,000 mutated frames, and an
/// oracle of its own (Python's strict json module) for which ids were sent in well-formed
/// requests.
@Suite("A frame fuzzer, with its own oracle, against ondevice-mcp serve")
struct FrameFuzzTests {
    @Test(
        "No answer to 50,000 fuzzed frames names an id that was not sent in a well-formed request",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment), .timeLimit(.minutes(3)),
        arguments: [7, 11])
    func fuzz(seed: Int) async throws {
        let python = try PythonPeers.python()
        let directory = try TemporaryDirectory("frame-fuzz")
        defer { directory.remove() }
        let run = try await ProcessRun.run(
            python,
            [
                Package.interopScript("fuzz_frames.py"), "--frames", "50000", "--seed", "\(seed)", "--",
                try BuiltProducts.ondeviceMCP(), "serve", "--data-dir", directory.path,
            ])
        #expect(run.status == 0, "fuzz_frames.py: \(run.standardOutput)\n\(run.standardError)")
        let summary = try JSONValue(parsing: run.standardOutput)
        #expect(summary["unknownIDs"] == 0, "\(run.standardOutput)")
        #expect(summary["unreadableAnswers"] == 0)
        // The run was a real one: the server answered most lines, many of them with ids.
        #expect((summary["answers"]?.intValue ?? 0) > 30_000, "\(run.standardOutput)")
        #expect((summary["namedIDs"]?.intValue ?? 0) > 2_000, "\(run.standardOutput)")
    }
}
