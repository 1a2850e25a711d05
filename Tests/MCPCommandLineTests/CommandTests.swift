import Foundation
import MCP
import OnDeviceMCPExamples
import OnDeviceMCPTestSupport
import Testing

@testable import MCPCommandLine

@Suite("Commands, in process")
struct CommandTests {
    @Test("tools lists the example tools with titles, descriptions and argument summaries")
    func toolsText() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(["tools", "--data-dir", directory.path])
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        let blocks = run.output.components(separatedBy: "\n\n")
        #expect(blocks.count == ExampleTools.toolNames.count)
        #expect(blocks.map { String($0.prefix { $0 != " " }) } == ExampleTools.toolNames)
        #expect(run.output.contains("clock_now — Current time [read-only]\n"))
        #expect(run.output.contains("  arguments: timezone: string\n"))
        #expect(run.output.contains("  arguments: query: string (required), limit: integer\n"))
        #expect(run.output.contains("notes_delete — Delete a note [destructive]"))
    }

    @Test("tools --json prints the tools array as pretty JSON")
    func toolsJSON() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(["tools", "--json", "--data-dir", directory.path])
        #expect(run.status == .success)
        #expect(run.output.hasPrefix("[\n"))
        let tools = try #require(try JSONValue(parsing: run.output).arrayValue)
        #expect(tools.compactMap { $0["name"]?.stringValue } == ExampleTools.toolNames)
        let add = try #require(tools.first { $0["name"] == "notes_add" })
        #expect(add["inputSchema"]?["required"] == ["title", "body"])
        #expect(add["inputSchema"]?["additionalProperties"] == false)
        #expect(add["inputSchema"]?["properties"]?["title"]?["maxLength"] == 200)
        #expect(add["inputSchema"]?["properties"]?["body"]?["maxLength"] == 100_000)
        let list = try #require(tools.first { $0["name"] == "notes_list" })
        #expect(list["inputSchema"]?["properties"]?["limit"]?["minimum"] == 1)
        #expect(list["inputSchema"]?["properties"]?["limit"]?["maximum"] == 100)
        #expect(list["annotations"]?["readOnlyHint"] == true)
        let delete = try #require(tools.first { $0["name"] == "notes_delete" })
        #expect(delete["annotations"]?["destructiveHint"] == true)
        let clock = try #require(tools.first { $0["name"] == "clock_now" })
        #expect(clock["annotations"]?["readOnlyHint"] == true)
        #expect(clock["annotations"]?["openWorldHint"] == false)
    }

    @Test("call clock_now in Europe/Lisbon prints the time there")
    func clockLisbon() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(["call", "clock_now", #"{"timezone":"Europe/Lisbon"}"#, "--data-dir", directory.path])
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        // 2026-11-29T14:03:12+00:00 (Europe/Lisbon, Sunday)
        let pattern = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2} \(Europe/Lisbon, (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\)\n$/#
        #expect(run.output.wholeMatch(of: pattern) != nil, "output: \(run.output)")

        let json = await CommandRun(["call", "clock_now", #"{"timezone":"Europe/Lisbon"}"#, "--json", "--data-dir", directory.path])
        #expect(json.status == .success)
        let result = try JSONValue(parsing: json.output)
        #expect(result["isError"] == false)
        #expect(result["structuredContent"]?["timezone"] == "Europe/Lisbon")
        let offset = try #require(result["structuredContent"]?["utcOffsetSeconds"]?.intValue)
        #expect(offset == 0 || offset == 3600)
    }

    @Test("call clock_now with an unknown time zone prints the tool's error and exits 1")
    func clockUnknownZone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(["call", "clock_now", #"{"timezone":"Mars/Base"}"#, "--data-dir", directory.path])
        #expect(run.status == .toolError)
        #expect(run.status.rawValue == 1)
        #expect(run.output.contains(#"Unknown time zone "Mars/Base""#))
    }

    @Test(
        "call of an unknown tool says so, with the nearest name, and exits 3",
        arguments: [("nope", ""), ("clock_nwo", "; did you mean clock_now?")])
    func unknownTool(name: String, suggestion: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(["call", name, "--data-dir", directory.path])
        #expect(run.status == .failure)
        #expect(run.output.isEmpty)
        #expect(run.errors == "error: the server has no tool '\(name)'\(suggestion) ('ondevice-mcp tools' lists them)\n")
    }

    @Test("call with malformed JSON arguments is a usage error (2) that quotes the byte offset")
    func malformedArguments() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(["call", "notes_add", #"{"title":"a","body":}"#, "--data-dir", directory.path])
        #expect(run.status == .usageError)
        #expect(run.errors.contains("invalid JSON at byte 20"))
        // Nothing reached a server: no store was even opened.
        #expect(try directory.contents().isEmpty)
    }

    @Test("Arguments that fail the schema are a tool error (1) naming the problem")
    func schemaViolation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(["call", "notes_list", #"{"limit":0}"#, "--data-dir", directory.path])
        #expect(run.status == .toolError)
        #expect(run.output.contains("Invalid arguments for tool notes_list"))
    }

    @Test("Notes: add, search, list and delete on a data directory, across separate runs")
    func notesFlow() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dir = ["--data-dir", directory.path]

        var ids: [String] = []
        for (title, body) in [("Trip", "Book the TRAIN to Porto"), ("Groceries", "milk, eggs"), ("Call", "Phone the train company")] {
            let run = await CommandRun(["call", "notes_add", #"{"title":"\#(title)","body":"\#(body)"}"#, "--json"] + dir)
            #expect(run.status == .success)
            let note = try #require(try JSONValue(parsing: run.output)["structuredContent"])
            #expect(note["title"] == .string(title))
            ids.append(try #require(note["id"]?.stringValue))
        }
        #expect(Set(ids).count == 3)

        let search = await CommandRun(["call", "notes_search", #"{"query":"train"}"#, "--json"] + dir)
        #expect(search.status == .success)
        let found = try JSONValue(parsing: search.output)["structuredContent"]
        #expect(found?["notes"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [ids[2], ids[0]])
        #expect(found?["total"] == 2)

        let limited = await CommandRun(["call", "notes_list", #"{"limit":2}"#] + dir)
        #expect(limited.status == .success)
        #expect(limited.output.hasPrefix("3 notes; the newest 2:\n- \(ids[2]) Call"))
        #expect(!limited.output.contains(ids[0]))

        let deleted = await CommandRun(["call", "notes_delete", #"{"id":"\#(ids[1])"}"#] + dir)
        #expect(deleted.status == .success)
        #expect(deleted.output == "Deleted note \(ids[1]): Groceries\n")

        let again = await CommandRun(["call", "notes_delete", #"{"id":"\#(ids[1])"}"#] + dir)
        #expect(again.status == .toolError)
        #expect(again.output == "no note with id \(ids[1])\n")

        let list = await CommandRun(["call", "notes_list", "--json"] + dir)
        let listed = try JSONValue(parsing: list.output)["structuredContent"]?["notes"]?.arrayValue
        #expect(listed?.compactMap { $0["id"]?.stringValue } == [ids[2], ids[0]])

        #expect(try directory.contents() == ["notes.json"])
    }

    @Test("A result without text prints its structuredContent; other blocks get a line each")
    func resultRendering() {
        let structured = CallToolResult(content: [], structuredContent: ["a": 1])
        #expect(Formatting.describe(structured) == "{\n  \"a\": 1\n}\n")
        let mixed = CallToolResult(content: [.text("hello"), .image(data: "AAAA", mimeType: "image/png")], structuredContent: ["a": 1])
        #expect(Formatting.describe(mixed) == "hello\n[image: image/png, 3 bytes]\n")
        #expect(Formatting.describe(CallToolResult(content: [])) == "")
    }

    @Test("call --timeout: a tool that does not answer in time exits 3 with a clear message")
    func timeout() async throws {
        let run = await CommandRun(["call", "stall", "--timeout", "0.2"]) { _ in
            let server = MCPServer(name: "slow", version: "1")
            try await server.register(name: "stall", description: "Never answers") { _, _ in
                try await Task.sleep(for: .seconds(3600))  // a hanging tool; cancelled by the client's timeout
                return .text("late")
            }
            return server
        }
        #expect(run.status == .failure)
        #expect(run.errors == "error: tools/call timed out after 0.2 s\n")
    }

    @Test("tools and call reach a stdio server given after --")
    func serverCommand() async throws {
        let binary = try BuiltProducts.ondeviceMCP()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The server runs in the default box: its notes directory must be allowed for writing.
        let box = ["--allow-write", directory.path] + BoxArguments.forThisBuild
        let tools = await CommandRun(["tools"] + box + ["--", binary, "serve", "--data-dir", directory.path])
        #expect(tools.status == .success, "\(tools.errors)")
        #expect(tools.output.contains("notes_search — Search notes"))
        let call = await CommandRun(
            ["call", "clock_now", #"{"timezone":"Asia/Tokyo"}"#] + box + ["--", binary, "serve", "--data-dir", directory.path])
        #expect(call.status == .success, "\(call.errors)")
        #expect(call.output.contains("+09:00 (Asia/Tokyo, "))
    }

    @Test("A server command that cannot be launched exits 3 naming it")
    func launchFailure() async {
        let run = await CommandRun(["tools", "--", "/nonexistent/ondevice-mcp-server"])
        #expect(run.status == .failure)
        #expect(run.errors.contains("cannot launch '/nonexistent/ondevice-mcp-server'"))
    }
}
