import Foundation
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

/// A configuration file in `directory` whose servers all run the built `ondevice-mcp serve`
/// as child processes, each with its own data directory; `environment` gives an entry's `env`.
///
/// - Returns: The file's path.
func builtInServersConfiguration(
    _ labels: [String], in directory: TemporaryDirectory, environment: [String: JSONObject] = [:], extra: JSONObject = [:]
) throws -> String {
    let binary = try BuiltProducts.ondeviceMCP()
    var servers = JSONObject()
    for label in labels {
        var entry: JSONObject = [
            "command": .string(binary), "args": ["serve", "--data-dir", .string(directory.url.appendingPathComponent(label).path)],
        ]
        if let variables = environment[label] { entry["env"] = .object(variables) }
        servers[label] = .object(entry)
    }
    for (label, entry) in extra { servers[label] = entry }
    let file = directory.url.appendingPathComponent("servers.json")
    try Data(Formatting.prettyJSON(["mcpServers": .object(servers)]).utf8).write(to: file)
    return file.path
}

/// The box options for the servers of ``builtInServersConfiguration(_:in:environment:extra:)``:
/// their data directories must be writable.
func boxOptions(writing directory: TemporaryDirectory) -> [String] {
    ["--allow-write", directory.path] + BoxArguments.forThisBuild
}

/// A configuration file's problem found when the command runs: a usage error (2) with the
/// command's usage, before any server starts.
struct ConfigUsageCase: CustomTestStringConvertible, Sendable {
    let name: String
    /// The file's text; `nil`: no file at all.
    let text: String?
    /// The command line before `--config FILE`.
    let argv: [String]
    let command: CommandName?
    let message: String

    var testDescription: String { "\(name): ondevice-mcp \(argv.joined(separator: " ")) --config FILE" }
}

let configUsageCases: [ConfigUsageCase] = [
    ConfigUsageCase(name: "a missing file", text: nil, argv: ["tools"], command: .tools, message: "': no such file"),
    ConfigUsageCase(
        name: "invalid JSON", text: #"{"mcpServers": {"a": {"command": "x"}}"#, argv: ["tools", "--for-prompt", "x"], command: .tools,
        message: "is not valid JSON: invalid JSON at byte 38"),
    ConfigUsageCase(
        name: "no mcpServers", text: "{}", argv: ["chat"], command: .chat, message: #"has no "mcpServers" (or VS Code's "servers") object"#),
    ConfigUsageCase(
        name: "an entry without command", text: #"{"mcpServers": {"git": {"args": []}}}"#, argv: ["tools", "--schemas"], command: .tools,
        message: #"server "git" in '"#),
    ConfigUsageCase(
        name: "a remote server whose url is not http", text: #"{"mcpServers": {"docs": {"url": "ftp://example.com/mcp"}}}"#, argv: [],
        command: nil, message: #"server "docs" in '"#),
]

@Suite("--config and --for-prompt", .serialized)
struct ConfigCommandTests {
    @Test("tools --config lists both servers' tools, grouped, with unique prefixed model names", .timeLimit(.minutes(2)))
    func toolsOfTwoServers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try builtInServersConfiguration(["alpha", "beta"], in: directory)
        let run = await CommandRun(["tools", "--config", file] + boxOptions(writing: directory))
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.errors.isEmpty)
        let alpha = try #require(run.output.range(of: "== alpha: 5 tools ==\n"))
        let beta = try #require(run.output.range(of: "\n== beta: 5 tools ==\n"))
        #expect(alpha.lowerBound == run.output.startIndex)
        for name in ExampleTools.toolNames {
            #expect(run.output[alpha.upperBound..<beta.lowerBound].contains("  model name: alpha_\(name)\n"), "\(name)")
            #expect(run.output[beta.upperBound...].contains("  model name: beta_\(name)\n"), "\(name)")
        }
        #expect(run.output.contains("clock_now — Current time [read-only]\n"))

        let json = await CommandRun(["tools", "--json", "--config", file] + boxOptions(writing: directory))
        #expect(json.status == .success, "\(json.errors)")
        let servers = try #require(try JSONValue(parsing: json.output).arrayValue)
        #expect(servers.map { $0["server"] } == ["alpha", "beta"])
        var modelNames: [String] = []
        for server in servers {
            let label = try #require(server["server"]?.stringValue)
            let tools = try #require(server["tools"]?.arrayValue)
            #expect(tools.compactMap { $0["name"]?.stringValue } == ExampleTools.toolNames)
            for tool in tools {
                let modelName = try #require(tool["modelName"]?.stringValue)
                #expect(modelName == "\(label)_\(tool["name"]?.stringValue ?? "")")
                #expect(tool["inputSchema"]?["type"] == "object")
                modelNames.append(modelName)
            }
        }
        #expect(Set(modelNames).count == 10)
    }

    @Test("tools --schemas --config shows every tool with its prefixed name, its cost and the total", .timeLimit(.minutes(2)))
    func schemasOfTwoServers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try builtInServersConfiguration(["alpha", "beta"], in: directory)
        let run = await CommandRun(["tools", "--schemas", "--config", file] + boxOptions(writing: directory))
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.output.hasPrefix("== alpha: 5 tools ==\n"))
        #expect(run.output.contains("\n== beta: 5 tools ==\n"))
        #expect(run.output.contains("  model name: beta_notes_search\n  generation schema: {"))
        #expect(run.output.contains(#""title":"beta_notes_search_arguments""#))
        #expect(run.output.matches(of: #/\n  context: \d+ tokens\n/#).count == 10)
        #expect(run.output.contains("\nContext budget: 10 tools, "))
        #expect(run.output.contains("They do not all fit: each turn gets the tools most relevant to its prompt"))

        let json = await CommandRun(["tools", "--schemas", "--json", "--config", file] + boxOptions(writing: directory))
        #expect(json.status == .success, "\(json.errors)")
        let report = try JSONValue(parsing: json.output)
        let tools = try #require(report["tools"]?.arrayValue)
        #expect(tools.count == 10)
        #expect(tools.map { $0["server"] } == Array(repeating: "alpha", count: 5) + Array(repeating: "beta", count: 5))
        let total = tools.compactMap { $0["tokens"]?.intValue }.reduce(0, +)
        #expect(report["budget"]?["tokens"] == .int(total))
        #expect(report["budget"]?["allFit"] == false)
    }

    @Test("tools --for-prompt over the built-in server selects clock_now first", arguments: [true, false])
    func forPromptBuiltIn(json: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = await CommandRun(
            ["tools", "--for-prompt", "what time is it in Tokyo"] + (json ? ["--json"] : []), builtInServer: exampleServer(in: directory))
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.errors.isEmpty)
        if json {
            let report = try JSONValue(parsing: run.output)
            let selected = try #require(report["selected"]?.arrayValue)
            #expect(selected.first == "clock_now")
            #expect(report["prompt"] == "what time is it in Tokyo")
            #expect(report["toolTokens"] == 1536)
            #expect(report["maximumTools"] == 5)
            #expect(report["contextSize"] == 4096)
            let details = try #require(report["selectedTools"]?.arrayValue)
            #expect(details.map { $0["name"] } == selected)
            #expect(details.first?["modelName"] == "clock_now")
            #expect(details.first?["server"] == "ondevice-mcp")
            let tokens = details.compactMap { $0["tokens"]?.intValue }
            #expect(tokens.count == selected.count && tokens.allSatisfy { $0 > 0 })
            #expect(report["tokens"] == .int(tokens.reduce(0, +)))
            #expect((report["tokens"]?.intValue ?? .max) <= 1536)
            #expect(report["excluded"]?.arrayValue != nil)
        } else {
            #expect(run.output.hasPrefix(#"A turn with the prompt "what time is it in Tokyo" gets "#))
            #expect(run.output.contains(":\n  clock_now "))
            #expect(run.output.contains(" of 1536 tool tokens (at most 5 tools a turn); the model's context is 4096 tokens. Tokens "))
        }
    }

    @Test("tools --for-prompt over more tools than fit: the relevant ones first, every other one with its reason")
    func forPromptOverBudget() async throws {
        let run = await CommandRun(["tools", "--for-prompt", "what's the weather in Porto", "--json"]) { _ in
            let server = MCPServer(name: "many", version: "1")
            try await server.register(name: "weather.now", description: "The current weather forecast for a city") { _, _ in .text("ok") }
            for index in 1...6 {
                try await server.register(name: "stock_\(index)", description: "Stock price number \(index)") { _, _ in .text("ok") }
            }
            return server
        }
        #expect(run.status == .success, "\(run.errors)")
        let report = try JSONValue(parsing: run.output)
        #expect(report["selected"] == ["weather.now"])
        #expect(report["selectedTools"]?[0]?["modelName"] == "weather_now")
        let excluded = try #require(report["excluded"]?.arrayValue)
        #expect(excluded.count == 6)
        for exclusion in excluded {
            #expect(exclusion.objectValue?.keys.sorted() == ["modelName", "name", "reason", "server"])
            #expect(exclusion["server"] == "many")
            #expect(exclusion["reason"]?.stringValue?.contains("nothing in this prompt matches it") == true)
        }
        #expect(excluded.first?["name"] == "stock_1")

        let text = await CommandRun(["tools", "--for-prompt", "what's the weather in Porto"]) { _ in
            let server = MCPServer(name: "many", version: "1")
            try await server.register(name: "weather.now", description: "The current weather forecast for a city") { _, _ in .text("ok") }
            for index in 1...6 {
                try await server.register(name: "stock_\(index)", description: "Stock price number \(index)") { _, _ in .text("ok") }
            }
            return server
        }
        #expect(text.output.contains("gets 1 of 7 tools, in this order:\n  weather_now (weather.now)  many  "))
        #expect(text.output.contains(#/\nLeft out:\n  stock_1 +many  nothing in this prompt matches it/#))
    }

    @Test("tools --for-prompt --json over two servers of a configuration", .timeLimit(.minutes(2)))
    func forPromptConfiguration() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try builtInServersConfiguration(["alpha", "beta"], in: directory)
        let run = await CommandRun(
            ["tools", "--for-prompt", "what time is it in Tokyo", "--json", "--config", file] + boxOptions(writing: directory))
        #expect(run.status == .success, "\(run.errors)")
        let report = try JSONValue(parsing: run.output)
        let details = try #require(report["selectedTools"]?.arrayValue)
        #expect(report["selected"]?[0] == "clock_now")
        #expect(Set(details.prefix(2).compactMap { $0["modelName"]?.stringValue }) == ["alpha_clock_now", "beta_clock_now"])
        #expect(Set(details.prefix(2).compactMap { $0["server"]?.stringValue }) == ["alpha", "beta"])
        let excluded = try #require(report["excluded"]?.arrayValue)
        #expect(details.count + excluded.count == 10)
        #expect(excluded.allSatisfy { ["alpha", "beta"].contains($0["server"]?.stringValue ?? "") })
        #expect(excluded.allSatisfy { ($0["modelName"]?.stringValue ?? "").hasSuffix($0["name"]?.stringValue ?? "?") })

        let text = await CommandRun(
            ["tools", "--for-prompt", "what time is it in Tokyo", "--config", file] + boxOptions(writing: directory))
        #expect(text.status == .success, "\(text.errors)")
        #expect(text.output.contains(" of 10 tools, in this order:\n  "))
        #expect(text.output.contains("\nLeft out:\n"))
        #expect(text.output.contains("alpha_notes_add "))
    }

    @Test("A server that cannot be started is reported and left out; the others are used; the status says so", .timeLimit(.minutes(2)))
    func oneServerFails() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try builtInServersConfiguration(
            ["good"], in: directory, extra: ["broken": ["command": "/nonexistent/mcp-server", "args": ["--x"]]])
        let run = await CommandRun(["tools", "--config", file] + boxOptions(writing: directory))
        #expect(run.status == .failure)
        #expect(run.output.hasPrefix("== good: 5 tools =="), "\(run.output)")
        #expect(
            run.errors.hasPrefix("warning: server \"broken\" of '\(file)' failed: cannot launch '/nonexistent/mcp-server'"), "\(run.errors)"
        )
        #expect(run.errors.contains("(it is left out; the other servers are used)"))
        #expect(run.errors.hasSuffix("error: server \"broken\" failed and was left out\n"), "\(run.errors)")
    }

    @Test("When every server fails, the command fails naming each", .timeLimit(.minutes(2)))
    func everyServerFails() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try builtInServersConfiguration(
            [], in: directory,
            extra: ["one": ["command": "/nonexistent/one"], "two": ["command": "/nonexistent/two"]])
        let run = await CommandRun(["tools", "--config", file] + boxOptions(writing: directory))
        #expect(run.status == .failure)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("server \"one\" of '\(file)' failed: cannot launch '/nonexistent/one'"), "\(run.errors)")
        #expect(run.errors.contains("server \"two\" of '\(file)' failed: cannot launch '/nonexistent/two'"), "\(run.errors)")
    }

    @Test("A configuration that cannot be used is a usage error (2) before any server starts", arguments: configUsageCases)
    func configUsageError(_ row: ConfigUsageCase) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("servers.json")
        if let text = row.text { try Data(text.utf8).write(to: file) }
        let run = await CommandRun(row.argv + ["--config", file.path])
        #expect(run.status == .usageError)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("error: "))
        #expect(run.errors.contains(row.message), "\(run.errors)")
        // A problem with the file, not with the command line: the usage is not repeated.
        #expect(!run.errors.contains("USAGE:"))
    }

    @Test("Keys this version ignores and disabled servers are warned about", .timeLimit(.minutes(2)))
    func ignoredKeys() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try builtInServersConfiguration(
            ["alpha"], in: directory, extra: ["off": ["command": "/nonexistent", "disabled": true]])
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: #""command""#, with: #""autoApprove": [], "command""#)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let run = await CommandRun(["tools", "--config", file] + boxOptions(writing: directory))
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.errors.contains("warning: server \"off\" is disabled in '\(file)'; left out\n"))
        #expect(run.errors.contains("warning: server \"alpha\" in '\(file)': ignoring \"autoApprove\" (not used by this version)\n"))
        #expect(run.output.hasPrefix("== alpha: 5 tools ==\n"))
    }

    #if !canImport(FoundationModels)
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("With a model that counts, tools --schemas and --for-prompt use its counts and its context size", arguments: [true, false])
    func modelCounts(json: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Every rendered text is 10 tokens: each tool costs the same, 10 plus the framing.
        let model = ScriptedLanguageModel([], contextSize: 8192) { _ in 10 }.model
        let schemas = await CommandRun(
            ["tools", "--schemas"] + (json ? ["--json"] : []), builtInServer: exampleServer(in: directory), model: model)
        #expect(schemas.status == .success, "\(schemas.errors)")
        let forPrompt = await CommandRun(
            ["tools", "--for-prompt", "what time is it in Tokyo"] + (json ? ["--json"] : []), builtInServer: exampleServer(in: directory),
            model: model)
        #expect(forPrompt.status == .success, "\(forPrompt.errors)")
        if json {
            let report = try JSONValue(parsing: schemas.output)
            let tokens = try #require(report["tools"]?.arrayValue).compactMap { $0["tokens"]?.intValue }
            #expect(tokens.count == 5)
            #expect(Set(tokens).count == 1)
            #expect((tokens.first ?? 0) >= 10)
            #expect(report["budget"]?["tokens"] == .int(tokens.reduce(0, +)))
            #expect(report["budget"]?["counting"] == "model")
            #expect(report["budget"]?["contextSize"] == 8192)
            let turn = try JSONValue(parsing: forPrompt.output)
            #expect(turn["counting"] == "model")
            #expect(turn["contextSize"] == 8192)
            #expect(turn["selectedTools"]?.arrayValue?.allSatisfy { $0["tokens"] == .int(tokens.first ?? 0) } == true)
        } else {
            #expect(schemas.output.contains(" in the model's 8192-token context. Tokens counted by the model.\n"))
            #expect(forPrompt.output.hasSuffix("the model's context is 8192 tokens. Tokens counted by the model.\n"))
        }
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("chat --config: one provider over both servers; an entry's env reaches its boxed server", .timeLimit(.minutes(2)))
    func chatOverConfiguration() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try builtInServersConfiguration(["alpha", "beta"], in: directory, environment: ["beta": ["TZ": "Asia/Tokyo"]])
        let script = ScriptedLanguageModel([
            .callTool("beta_clock_now"),
            .reply { request in "Now: \(request.toolOutput("beta_clock_now") ?? "unknown")" },
        ])
        let run = await CommandRun(
            ["chat", "--config", file] + boxOptions(writing: directory), input: "What time is it in Tokyo?\n", model: script.model)
        #expect(run.status == .success, "\(run.errors)")
        #expect(run.errors.contains("Chatting with the language model over 2 servers (alpha, beta); its tools: alpha_clock_now, "))
        #expect(run.errors.contains("(each turn gets the 5 most relevant to its prompt)"))
        // The server's own time zone is the TZ of its entry's env, set in its box.
        #expect(run.output.hasPrefix("Now:"), "\(run.output)")
        #expect(run.output.contains("+09:00 (Asia/Tokyo, "), "\(run.output)")
        let tools = try #require(script.requests.first?.tools.map(\.name))
        #expect(tools.contains("alpha_clock_now") && tools.contains("beta_clock_now"))
        #expect(tools.count <= 5)
    }

    @Test("The main job over a configuration, without a model, shows every server's bridged tools", .timeLimit(.minutes(2)))
    func startOverConfiguration() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try builtInServersConfiguration(["alpha", "beta"], in: directory)
        let run = await CommandRun(["--config", file] + boxOptions(writing: directory))
        #expect(run.status == .success, "\(run.errors)")
        #expect(
            run.output.hasPrefix("ondevice-mcp \(OnDeviceMCPVersion.string): the 2 servers of '\(file)' (alpha, beta), each in its own box")
        )
        #expect(run.output.contains("\n== alpha: 5 tools ==\n"))
        #expect(run.output.contains("  model name: beta_clock_now\n"))
        #expect(run.output.contains("\nContext budget: 10 tools, "))
        #expect(run.output.contains("\nNo language model is available: "))
    }
    #endif
}
