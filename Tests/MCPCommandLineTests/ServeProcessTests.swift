import Foundation
import MCP
import OnDeviceMCPExamples
import OnDeviceMCPTestSupport
import Testing

@testable import MCPCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The ids of acknowledged notes, recorded from many tasks.
final class Acknowledgements: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []
    private var failures = 0

    /// Records an acknowledged note; returns how many there are now.
    func record(_ id: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        ids.append(id)
        return ids.count
    }

    func recordFailure() {
        lock.lock()
        failures += 1
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return ids
    }

    var failureCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }
}

@Suite("ondevice-mcp serve, as a real process", .serialized)
struct ServeProcessTests {
    /// The executables that serve the example tools: `ondevice-mcp serve`, and the lean
    /// `ondevice-mcp-serve`.
    enum Server: String, CaseIterable, Sendable {
        case ondeviceMCP = "ondevice-mcp serve"
        case lean = "ondevice-mcp-serve"

        /// The executable and the arguments before the options.
        func command() throws -> (executable: String, arguments: [String]) {
            switch self {
            case .ondeviceMCP: (try BuiltProducts.ondeviceMCP(), ["serve"])
            case .lean: (try BuiltProducts.ondeviceMCPServe(), [])
            }
        }
    }

    func launchServe(
        in directory: TemporaryDirectory, grace: Duration = .seconds(2), server: Server = .ondeviceMCP
    ) throws -> ProcessTransport {
        let (executable, arguments) = try server.command()
        return try ProcessTransport.launch(
            executable, arguments: arguments + ["--data-dir", directory.path], standardError: .capture, terminationGracePeriod: grace)
    }

    @Test("A client lists the tools and calls each of them over stdio", .timeLimit(.minutes(1)), arguments: Server.allCases)
    func everyTool(_ server: Server) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try launchServe(in: directory, server: server)
        let client = try await MCPClient.connect(over: transport)
        #expect(client.serverInfo.name == "ondevice-mcp")

        let tools = try await client.listTools()
        #expect(tools.map(\.name) == ExampleTools.toolNames)

        let clock = try await client.callTool(name: "clock_now", arguments: ["timezone": "Asia/Tokyo"])
        #expect(!clock.isError)
        #expect(clock.structuredContent?["utcOffsetSeconds"] == 32_400)
        #expect(clock.text.hasSuffix("+09:00 (Asia/Tokyo, \(clock.structuredContent?["weekday"]?.stringValue ?? "?"))"))

        let added = try await client.callTool(name: "notes_add", arguments: ["title": "Dentist", "body": "Tuesday 10:00"])
        let id = try #require(added.structuredContent?["id"]?.stringValue)
        let search = try await client.callTool(name: "notes_search", arguments: ["query": "dentist"])
        #expect(search.structuredContent?["notes"]?[0]?["id"] == .string(id))
        let list = try await client.callTool(name: "notes_list", arguments: ["limit": 5])
        #expect(list.structuredContent?["total"] == 1)
        let deleted = try await client.callTool(name: "notes_delete", arguments: ["id": .string(id)])
        #expect(!deleted.isError)
        let missing = try await client.callTool(name: "notes_delete", arguments: ["id": .string(id)])
        #expect(missing.isError)
        #expect(missing.text == "no note with id \(id)")

        await client.close()
        #expect(try await transport.exitStatus == .exited(0))
        #expect(await transport.capturedStandardErrorAtEnd() == "")
    }

    @Test("kill -9 in the middle of a burst of notes_add loses no acknowledged note", .timeLimit(.minutes(2)))
    func killMidBurst() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try launchServe(in: directory)
        let client = try await MCPClient.connect(over: transport)
        let pid = transport.processIdentifier
        let acknowledged = Acknowledgements()

        await withTaskGroup(of: Void.self) { group in
            for index in 0..<300 {
                group.addTask {
                    do {
                        let result = try await client.callTool(
                            name: "notes_add",
                            arguments: [
                                "title": .string("burst \(index)"), "body": .string(String(repeating: "note \(index) ", count: 20)),
                            ])
                        guard !result.isError, let id = result.structuredContent?["id"]?.stringValue else {
                            acknowledged.recordFailure()
                            return
                        }
                        if acknowledged.record(id) == 100 {
                            kill(pid, SIGKILL)
                        }
                    } catch {
                        acknowledged.recordFailure()
                    }
                }
            }
        }
        #expect(try await transport.exitStatus == .signaled(SIGKILL))
        await client.close()

        let acked = acknowledged.all
        let data = try Data(contentsOf: directory.url.appendingPathComponent("notes.json"))
        let document = try JSONValue(parsing: data)
        let stored = Set((document["notes"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        let lost = Set(acked).subtracting(stored)
        print(
            "kill -9 mid-burst: acknowledged \(acked.count), present \(stored.count), failed \(acknowledged.failureCount), acknowledged but lost \(lost.count)"
        )
        #expect(acked.count >= 100)
        #expect(acknowledged.failureCount > 0, "the kill came after every call had finished")
        #expect(lost.isEmpty)
        #expect(stored.count >= acked.count)
        #expect(try directory.contents().filter { !$0.hasPrefix(".notes.json.tmp-") } == ["notes.json"])

        // The next server starts from the same file, cleans up, and has every acknowledged note.
        let store = try NotesStore(directory: directory.url)
        #expect(Set(await store.list().map(\.id)).isSuperset(of: acked))
        #expect(try directory.contents() == ["notes.json"])
    }

    @Test("serve exits with status 0 when its standard input closes", .timeLimit(.minutes(1)))
    func exitsAtEndOfInput() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A long grace period: close() would send SIGTERM only after 10 s, so status 0 means
        // the server left on its own.
        let transport = try launchServe(in: directory, grace: .seconds(10))
        let client = try await MCPClient.connect(over: transport)
        _ = try await client.listTools()
        _ = try await client.callTool(name: "notes_add", arguments: ["title": "before EOF", "body": ""])

        await transport.close()  // closes the child's standard input, then waits for it to exit
        // Status 0, not SIGTERM's: the server left on its own before the grace period ended.
        #expect(try await transport.exitStatus == .exited(0))
        #expect(await transport.capturedStandardErrorAtEnd() == "")
        await client.close()
    }

    @Test(
        "ondevice-mcp-serve: --version and --help exit 0; an unknown or relative argument is a usage error (2)",
        arguments: [
            (["--version"], 0, "ondevice-mcp-serve "), (["--help"], 0, "Usage: ondevice-mcp-serve"), (["--bogus"], 2, ""),
            (["--root", "relative"], 2, ""), (["--data-dir"], 2, ""),
        ])
    func leanServerArguments(_ arguments: [String], status: Int32, output: String) async throws {
        let outcome = try await SpawnedProcess.run(try BuiltProducts.ondeviceMCPServe(), arguments: arguments, hangGuard: .seconds(30))
        #expect(outcome.status == .exited(status))
        #expect(String(decoding: outcome.standardOutput, as: UTF8.self).hasPrefix(output))
        if status != 0 {
            #expect(outcome.standardErrorTail.hasPrefix("error: "), "\(outcome.standardErrorTail)")
        }
    }

    #if os(Linux)
    /// What keeps the lean server small: Foundation proper (and ICU, which it loads) stays
    /// out; FoundationEssentials is all MCP and the example tools use. A module of theirs that
    /// imports `Foundation` again would bring back about 6 MiB of resident pages.
    /// (`ondevice-mcp` links the HTTP and model clients, which need Foundation proper.)
    @Test("ondevice-mcp-serve runs without libFoundation or ICU mapped", .timeLimit(.minutes(1)))
    func noFoundationProper() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let transport = try launchServe(in: directory, server: .lean)
        let client = try await MCPClient.connect(over: transport)
        _ = try await client.callTool(name: "clock_now", arguments: ["timezone": "Asia/Kathmandu"])
        // Read to the end: /proc files report a size of 0, and String(contentsOfFile:) reads
        // only part of a long one.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(transport.processIdentifier)/maps"))
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        try file.close()
        let libraries = Set(
            maps.split(separator: "\n").compactMap { line in
                line.split(separator: "/").last.map(String.init).flatMap { $0.contains(".so") ? $0 : nil }
            })
        #expect(libraries.contains("libFoundationEssentials.so"))
        #expect(!libraries.contains("libFoundation.so"))
        #expect(!libraries.contains { $0.contains("FoundationInternationalization") || $0.contains("ICU") })
        await client.close()
    }
    #endif
}
