import Foundation
import MCP
import MCPCommandLine
import OnDeviceMCPExamples
import OnDeviceMCPTestSupport
import Testing

/// What `Tests/Interop/python_client.py` prints: what the official Python SDK client saw
/// while driving `ondevice-mcp serve`.
struct PythonClientSummary: Decodable {
    struct Identity: Decodable {
        let name: String
        let version: String?
    }

    struct Discover: Decodable {
        let supportedVersions: [String]?
        let serverInfo: Identity?
    }

    struct Result<Structured: Decodable>: Decodable {
        let isError: Bool
        let text: String
        let structuredContent: Structured?
    }

    struct Clock: Decodable {
        let iso8601: String
        let timezone: String
        let utcOffsetSeconds: Int
        let weekday: String
    }

    struct Note: Decodable {
        let id: String
        let title: String
        let body: String
        let createdAt: String
    }

    struct Listing: Decodable {
        let notes: [Note]
        let total: Int
    }

    struct Deletion: Decodable {
        let deleted: Note
    }

    struct Nothing: Decodable {}

    struct Failure: Decodable {
        let kind: String
        let code: Int?
        let message: String?
    }

    let mode: String
    let protocolVersion: String
    let serverInfo: Identity?
    let discover: Discover?
    let toolsCapability: Bool
    let tools: [String]
    let outputSchemas: [String]
    let clock: Result<Clock>
    let clockUTC: Result<Clock>
    let invalidTimezone: Result<Nothing>
    let notesAdd: Result<Note>
    let notesSearch: Result<Listing>
    let notesList: Result<Listing>
    let notesDelete: Result<Deletion>
    let notesSearchAfterDelete: Result<Listing>
    let notesDeleteAgain: Result<Nothing>
    let unknownTool: Failure
}

@Suite("The official Python SDK client against ondevice-mcp serve", .serialized, .timeLimit(.minutes(2)))
struct PythonClientTests {
    /// The SDK's connection modes, and the version each must end up with.
    static let modes: [(mode: String, version: String)] = [
        ("legacy", "2025-11-25"),  // initialize, offering 2025-11-25
        ("2026-07-28", "2026-07-28"),  // the modern era adopted directly: every request carries the envelope
        ("auto", "2026-07-28"),  // server/discover first, as the SDK does by default
    ]

    @Test(
        "The Python client lists and calls every example tool",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment),
        arguments: modes.map(\.mode))
    func pythonClient(mode: String) async throws {
        let python = try PythonPeers.python()
        let server = try BuiltProducts.ondeviceMCP()
        let directory = try TemporaryDirectory("python-client")
        defer { directory.remove() }

        let run = try await ProcessRun.run(
            python, [Package.interopScript("python_client.py"), "--server", server, "--mode", mode, "--data-dir", directory.path])
        #expect(run.status == 0, "python_client.py --mode \(mode) exited with \(run.status):\n\(run.standardError)")
        let summary = try JSONDecoder().decode(PythonClientSummary.self, from: Data(run.standardOutput.utf8))

        let expectedVersion = try #require(Self.modes.first { $0.mode == mode }?.version)
        #expect(summary.mode == mode)
        #expect(summary.protocolVersion == expectedVersion)
        if mode == "2026-07-28" {
            // No probe: the SDK synthesizes a DiscoverResult; the script then asks for the real one.
            #expect(summary.serverInfo == nil)
            #expect(summary.discover?.serverInfo?.name == "ondevice-mcp")
        } else {
            #expect(summary.serverInfo?.name == "ondevice-mcp")
        }
        if mode != "legacy" {
            #expect(summary.discover?.supportedVersions?.first == "2026-07-28")
            #expect(summary.discover?.supportedVersions?.contains("2025-11-25") == true)
        }
        #expect(summary.toolsCapability)
        #expect(summary.tools == ExampleTools.toolNames)
        #expect(summary.outputSchemas == ExampleTools.toolNames)

        let clock = try #require(summary.clock.structuredContent)
        #expect(!summary.clock.isError)
        #expect(clock.timezone == "Asia/Tokyo")
        #expect(clock.utcOffsetSeconds == 32_400)
        #expect(clock.iso8601.hasSuffix("+09:00"))
        #expect(summary.clock.text == "\(clock.iso8601) (Asia/Tokyo, \(clock.weekday))")

        #expect(summary.clockUTC.structuredContent?.utcOffsetSeconds == 0)
        #expect(summary.clockUTC.structuredContent?.timezone == "UTC")

        #expect(summary.invalidTimezone.isError)
        #expect(summary.invalidTimezone.text.hasPrefix("Unknown time zone \"Mars/Olympus_Mons\"."))

        let note = try #require(summary.notesAdd.structuredContent)
        #expect(!summary.notesAdd.isError)
        #expect(note.title == "Interop check" && note.body == "Written by the Python SDK")
        #expect(summary.notesAdd.text == "Added note \(note.id): Interop check")
        #expect(summary.notesSearch.structuredContent?.notes.map(\.id) == [note.id])
        #expect(summary.notesSearch.structuredContent?.total == 1)
        #expect(summary.notesList.structuredContent?.notes.map(\.id) == [note.id])
        #expect(summary.notesDelete.structuredContent?.deleted.id == note.id)
        #expect(summary.notesSearchAfterDelete.structuredContent?.total == 0)
        #expect(summary.notesSearchAfterDelete.text == "No notes matching \"python sdk\".")
        #expect(summary.notesDeleteAgain.isError)
        #expect(summary.notesDeleteAgain.text == "no note with id \(note.id)")

        #expect(summary.unknownTool.kind == "error")
        #expect(summary.unknownTool.code == -32602)
        #expect(summary.unknownTool.message?.contains("Unknown tool: no_such_tool") == true)
    }
}
