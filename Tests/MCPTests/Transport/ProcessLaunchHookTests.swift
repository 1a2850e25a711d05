import Foundation
import MCP
import Synchronization
import Testing

/// `ProcessTransport.launch(…, launchHook:)`: the transport starts a server only through the
/// hook it is given, and cleans the hook's launch up once.
@Suite("Process launch hooks")
struct ProcessLaunchHookTests {
    /// What a hook saw: the requests it prepared, and how many launches it cleaned up.
    final class Record: Sendable {
        let requests = Mutex<[ProcessLaunchRequest]>([])
        let cleanUps = Mutex(0)
    }

    /// A hook that records, and prepares its launches with `inner` (or refuses them).
    struct RecordingHook: ProcessLaunchHook {
        let record: Record
        let inner: Sandbox?

        func prepareLaunch(_ request: ProcessLaunchRequest) throws(ProcessLaunchError) -> any PreparedProcessLaunch {
            record.requests.withLock { $0.append(request) }
            guard let inner else {
                throw ProcessLaunchError(.cannotLaunch, "cannot launch '\(request.executable)': refused by the test's hook")
            }
            return Recorded(inner: try inner.prepareLaunch(request), record: record)
        }
    }

    /// The inner launch, with its clean-up counted.
    struct Recorded: PreparedProcessLaunch {
        let inner: any PreparedProcessLaunch
        let record: Record

        var sandboxDataDirectory: String? { inner.sandboxDataDirectory }

        func spawn(standardInput: Int32, standardOutput: Int32, standardError: Int32?) throws(ProcessLaunchError) -> StartedProcess {
            try inner.spawn(standardInput: standardInput, standardOutput: standardOutput, standardError: standardError)
        }

        func explanation(ofStandardError text: String) -> String? { inner.explanation(ofStandardError: text) }

        func cleanUp() {
            record.cleanUps.withLock { $0 += 1 }
            inner.cleanUp()
        }
    }

    @Test("A hook's refusal is the launch's error, and nothing is started")
    func refusal() throws {
        let record = Record()
        let error = #expect(throws: TransportError.self) {
            try ProcessTransport.launch("/bin/cat", arguments: ["-u"], launchHook: RecordingHook(record: record, inner: nil))
        }
        #expect(error == .launchFailure("cannot launch '/bin/cat': refused by the test's hook"))
        let requests = record.requests.withLock { $0 }
        #expect(requests.map(\.path) == ["/bin/cat"])
        #expect(requests.map(\.arguments) == [["-u"]])
        #expect(record.cleanUps.withLock { $0 } == 0)
    }

    @Test("The box, through a wrapping hook: the server runs in it, and its launch is cleaned up once at close")
    func boxedThroughHook() async throws {
        let record = Record()
        let transport = try ProcessTransport.launch(
            "/bin/cat", standardError: .capture, launchHook: RecordingHook(record: record, inner: .standard))
        let directory = try #require(transport.sandboxDataDirectory)
        #expect(FileManager.default.fileExists(atPath: directory))
        #expect(transport.processIdentifier > 0)
        await transport.close()
        #expect(record.cleanUps.withLock { $0 } == 1)
        #expect(!FileManager.default.fileExists(atPath: directory))
    }
}
