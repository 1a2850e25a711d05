import MCP
import OnDeviceMCPExamples
import OnDeviceMCPTestSupport
import Testing

@testable import MCPCommandLine

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// What a person at a terminal sees of the chat's tool calls, and how they approve a write.
@Suite("chat shows its tool calls and asks before a write")
struct ChatDisplayTests {
    #if !canImport(FoundationModels)
    /// A model that adds a note, then answers with what notes_add said; then lists notes.
    static func noteScript() -> ScriptedLanguageModel {
        ScriptedLanguageModel([
            .callTool("notes_add", json: #"{"title": "Milk", "body": "buy milk"}"#),
            .reply { request in "notes_add said: \(request.toolOutput("notes_add") ?? "nothing")" },
            .callTool("notes_list"),
            .reply { request in "notes_list said: \(request.toolOutput("notes_list") ?? "nothing")" },
        ])
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("On a terminal each call is shown as it happens: the tool, its arguments, then its duration and size")
    func callsShown() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = ScriptedLanguageModel([
            .callTool("clock_now", json: #"{"timezone": "Asia/Tokyo"}"#),
            .reply { request in "In Tokyo it is \(request.toolOutput("clock_now") ?? "unknown")" },
        ])
        let run = await CommandRun(
            ["chat"], input: "What time is it in Tokyo?\n", builtInServer: exampleServer(in: directory), model: script.model,
            terminal: true)
        #expect(run.status == .success)
        #expect(run.errors.contains(#"  → clock_now {"timezone":"Asia/Tokyo"}"#), "\(run.errors)")
        #expect(run.errors.contains("  ← clock_now: "), "\(run.errors)")
        #expect(run.errors.contains(" characters\n"), "\(run.errors)")
        #expect(run.output.hasPrefix("In Tokyo it is"))
        // The stand-in model copied the framed output: the frame's own words are not shown.
        #expect(!run.output.contains("not instructions") && !run.output.contains("[end of"), "\(run.output)")
        // Standard output holds the answer alone.
        #expect(!run.output.contains("→"))
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A time the model garbled is answered as clock_now returned it, and the chat says so", arguments: [false, true])
    func garbledTimeRestored(json: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = ScriptedLanguageModel([
            .callTool("clock_now", json: #"{"timezone": "UTC"}"#),
            .reply { request in
                let time = (request.toolOutput("clock_now") ?? "").split(whereSeparator: \.isWhitespace)
                    .first { $0.hasSuffix("+00:00") }
                return "It is \(time ?? "unknown")YUQVN."
            },
        ])
        let run = await CommandRun(
            ["chat"] + (json ? ["--json"] : []), input: "What time is it?\n", builtInServer: exampleServer(in: directory),
            model: script.model)
        #expect(run.status == .success)
        #expect(!run.output.contains("YUQVN."), "\(run.output)")
        if json {
            #expect(run.output.contains(#""event":"answerRepaired","garbledCopies":[{"#), "\(run.output)")
            #expect(run.output.contains(#"+00:00."}"#), "\(run.output)")
        } else {
            #expect(run.output.hasPrefix("It is 2") && run.output.hasSuffix("+00:00.\n"), "\(run.output)")
            #expect(run.errors.contains("  ✎ the model garbled a tool's value; the answer shows \""), "\(run.errors)")
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "Without a terminal the chat is quiet unless --show-tool-calls; on one, --hide-tool-calls quiets it",
        arguments: [
            ([String](), false, false), (["--show-tool-calls"], false, true), (["--hide-tool-calls"], true, false),
        ])
    func quietByDefaultOffTerminal(flags: [String], terminal: Bool, shown: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = ScriptedLanguageModel([
            .callTool("clock_now", json: #"{"timezone": "UTC"}"#), .reply { _ in "done" },
        ])
        let run = await CommandRun(
            ["chat"] + flags, input: "time?\n", builtInServer: exampleServer(in: directory), model: script.model, terminal: terminal)
        #expect(run.status == .success)
        #expect(run.errors.contains("→ clock_now") == shown, "\(run.errors)")
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("On a terminal a write is asked about with exactly what the tool will receive; 'y' runs it")
    func writeApproved() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(
            ["chat"], input: "Add a note: buy milk\ny\nList my notes\n", builtInServer: exampleServer(in: directory),
            model: Self.noteScript().model, terminal: true)
        #expect(run.status == .success)
        #expect(run.errors.contains("? notes_add (server ondevice-mcp) wants to run; it writes"), "\(run.errors)")
        #expect(run.errors.contains(#"It will receive exactly: {"title":"Milk","body":"buy milk"}"#), "\(run.errors)")
        #expect(run.errors.contains("Allow once [y], for this conversation [a], or deny [N]?"))
        #expect(run.errors.contains("→ notes_add"))
        #expect(!run.output.contains("was not approved"), "\(run.output)")
        #expect(run.output.contains("notes_list said:") && run.output.contains("Milk"), "\(run.output)")
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("On a terminal, 'n' (or anything else) declines the write, and the decline is shown")
    func writeDenied() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(
            ["chat"], input: "Add a note: buy milk\nn\nList my notes\n", builtInServer: exampleServer(in: directory),
            model: Self.noteScript().model, terminal: true)
        #expect(run.status == .success)
        #expect(run.errors.contains("✗ notes_add declined: the user said no"), "\(run.errors)")
        #expect(!run.errors.contains("→ notes_add"))
        #expect(run.output.contains("was not approved"))
        #expect(run.output.contains("No notes."))
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test(
        "--allow-writes runs the write without asking; the main job takes it too",
        arguments: [["chat", "--allow-writes"], ["--allow-writes"]])
    func allowWrites(arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(
            arguments, input: "Add a note: buy milk\nList my notes\n", builtInServer: exampleServer(in: directory),
            model: Self.noteScript().model, terminal: true)
        #expect(run.status == .success)
        #expect(!run.errors.contains("wants to run"), "\(run.errors)")
        #expect(run.errors.contains("→ notes_add"))
        #expect(run.output.contains("notes_list said:") && run.output.contains("Milk"), "\(run.output)")
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Without a terminal a declined write is shown with the option that would allow it")
    func declineNamesTheOption() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(
            ["chat", "--show-tool-calls"], input: "Add a note: buy milk\nList my notes\n", builtInServer: exampleServer(in: directory),
            model: Self.noteScript().model)
        #expect(run.errors.contains("✗ notes_add declined: the app has not approved tools that write"), "\(run.errors)")
        #expect(run.errors.contains("(--allow-writes lets the model run such tools; on a terminal you are asked instead)"))
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("--json writes every event and answer as one JSON object a line, in order")
    func jsonEvents() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(
            ["chat", "--json"], input: "Add a note: buy milk\nList my notes\n", builtInServer: exampleServer(in: directory),
            model: Self.noteScript().model)
        #expect(run.status == .success)
        let events = try run.output.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        // What the model sees is reported as it changes: one session and its requests (27), or a
        // session built when the tools change (26).
        let kinds = events.compactMap { $0["event"]?.stringValue }.map { $0 == "sessionBuilt" ? "contextChanged" : $0 }
        #expect(
            kinds == ["contextChanged", "toolCallDeclined", "answer", "contextChanged", "toolCallStarted", "toolCallFinished", "answer"]
                || kinds == ["contextChanged", "toolCallDeclined", "answer", "toolCallStarted", "toolCallFinished", "answer"],
            "\(kinds)")
        let declined = try #require(events.first { $0["event"] == "toolCallDeclined" })
        #expect(declined["tool"] == "notes_add")
        let started = try #require(events.first { $0["event"] == "toolCallStarted" })
        #expect(started["tool"] == "notes_list")
        #expect(started["arguments"]?.objectValue != nil)
        #expect(events.last?["text"]?.stringValue?.hasPrefix("notes_list said:") == true)
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("A model that repeats a write in one turn adds one note: the repeat gets the first call's result and is shown")
    func repeatedWrite() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = ScriptedLanguageModel([
            .callTool("notes_add", json: #"{"title": "Milk", "body": "buy oat milk"}"#),
            .callTool("notes_add", json: #"{"body": "buy oat milk", "title": "Milk"}"#),
            .reply { request in "the second call said: \(request.toolOutput("notes_add") ?? "nothing")" },
            .callTool("notes_list"),
            .reply { request in "notes_list said: \(request.toolOutput("notes_list") ?? "nothing")" },
        ])
        let run = await CommandRun(
            ["chat", "--json", "--allow-writes"], input: "Add a note: buy oat milk\nList my notes\n",
            builtInServer: exampleServer(in: directory), model: script.model)
        #expect(run.status == .success, "\(run.errors)")
        let events = try run.output.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let repeated = try #require(events.first { $0["event"] == "toolCallRepeated" }, "\(run.output)")
        #expect(repeated["tool"] == "notes_add")
        #expect(events.filter { $0["event"] == "toolCallStarted" && $0["tool"] == "notes_add" }.count == 1)
        let answers = events.compactMap { $0["event"] == "answer" ? $0["text"]?.stringValue : nil }
        #expect(answers.first?.contains("Added note ") == true, "\(answers)")
        // The store holds one note.
        let list = try #require(answers.last)
        #expect(list.ranges(of: "buy oat milk").count == 1, "\(list)")
    }
    #endif
}
