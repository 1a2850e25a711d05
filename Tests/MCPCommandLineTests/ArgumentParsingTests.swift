import MCP
import Testing

@testable import MCPCommandLine

/// One row of the parsing table: a command line and what it must parse to.
struct ParseCase: CustomTestStringConvertible, Sendable {
    enum Expected: Sendable {
        case command(ParsedCommand)
        /// A usage error whose message contains the text, showing the command's usage.
        case usageError(containing: String, command: CommandName?)

        static func error(_ text: String, _ command: CommandName? = nil) -> Expected {
            .usageError(containing: text, command: command)
        }
    }

    let name: String
    let argv: [String]
    let expected: Expected

    init(_ name: String, _ argv: [String], _ expected: Expected) {
        self.name = name
        self.argv = argv
        self.expected = expected
    }

    var testDescription: String { "\(name): ondevice-mcp \(argv.joined(separator: " "))" }
}

private let builtIn = ServerChoice.builtIn(dataDirectory: nil)

let parseCases: [ParseCase] =
    [
        // The program.
        ParseCase("no arguments: the main job", [], .command(.start())),
        ParseCase("--help", ["--help"], .command(.help(nil))),
        ParseCase("-h", ["-h"], .command(.help(nil))),
        ParseCase("help for a command", ["help", "call"], .command(.help(.call))),
        ParseCase("help for an unknown command", ["help", "nope"], .error("no help for 'nope'")),
        ParseCase("--version", ["--version"], .command(.version)),
        ParseCase("unknown command", ["frobnicate"], .error("unknown command 'frobnicate'")),
        ParseCase("unknown top-level option", ["--verbose"], .error("unknown option '--verbose'")),
        // serve
        ParseCase("serve, default data directory", ["serve"], .command(.serve(dataDirectory: nil))),
        ParseCase("serve --data-dir DIR", ["serve", "--data-dir", "/tmp/d"], .command(.serve(dataDirectory: "/tmp/d"))),
        ParseCase("serve --data-dir=DIR", ["serve", "--data-dir=/tmp/d"], .command(.serve(dataDirectory: "/tmp/d"))),
        ParseCase("serve --root DIR", ["serve", "--root", "/srv/a"], .command(.serve(dataDirectory: nil, roots: ["/srv/a"]))),
        ParseCase(
            "serve with two roots and a data directory", ["serve", "--root", "/a", "--data-dir", "/d", "--root=/b"],
            .command(.serve(dataDirectory: "/d", roots: ["/a", "/b"]))),
        ParseCase("serve --root relative", ["serve", "--root", "docs"], .error("--root needs an absolute path, not 'docs'", .serve)),
        ParseCase("serve --root without a value", ["serve", "--root"], .error("option '--root' needs a value", .serve)),
        ParseCase("serve --help", ["serve", "--help"], .command(.help(.serve))),
        ParseCase("serve -h after an option", ["serve", "--data-dir", "x", "-h"], .command(.help(.serve))),
        ParseCase("serve with a stray argument", ["serve", "now"], .error("unexpected argument 'now'", .serve)),
        ParseCase("serve --data-dir without a value", ["serve", "--data-dir"], .error("option '--data-dir' needs a value", .serve)),
        ParseCase("serve --data-dir= empty", ["serve", "--data-dir="], .error("needs a non-empty value", .serve)),
        ParseCase("serve with a server command", ["serve", "--", "cat"], .error("serve does not take a server command", .serve)),
        ParseCase("serve --json is not an option of serve", ["serve", "--json"], .error("unknown option '--json' for serve", .serve)),
        // tools
        ParseCase("tools", ["tools"], .command(.tools(ToolsOptions()))),
        ParseCase("tools --json", ["tools", "--json"], .command(.tools(ToolsOptions(json: true)))),
        ParseCase(
            "tools of a server command", ["tools", "--", "uvx", "mcp-server-time", "--local-timezone", "UTC"],
            .command(.tools(ToolsOptions(server: .command(executable: "uvx", arguments: ["mcp-server-time", "--local-timezone", "UTC"]))))),
        ParseCase(
            "options after -- belong to the server command", ["tools", "--json", "--", "srv", "--json", "-h"],
            .command(.tools(ToolsOptions(server: .command(executable: "srv", arguments: ["--json", "-h"]), json: true)))),
        ParseCase(
            "tools --data-dir and --timeout", ["tools", "--timeout=5", "--data-dir", "d"],
            .command(.tools(ToolsOptions(server: .builtIn(dataDirectory: "d"), timeoutSeconds: 5)))),
        ParseCase("tools -- with nothing after", ["tools", "--"], .error("expected a server command after '--'", .tools)),
        ParseCase(
            "tools --data-dir with a server command", ["tools", "--data-dir", "d", "--", "srv"],
            .error("--data-dir is for the built-in server", .tools)),
        ParseCase("tools --json=yes", ["tools", "--json=yes"], .error("option '--json' takes no value", .tools)),
        ParseCase("tools with a stray argument", ["tools", "clock_now"], .error("unexpected argument 'clock_now'", .tools)),
        ParseCase("tools -v", ["tools", "-v"], .error("unknown option '-v' for tools", .tools)),
        ParseCase("tools --schemas", ["tools", "--schemas"], .command(.tools(ToolsOptions(schemas: true)))),
        ParseCase(
            "tools --schemas --json of a server command", ["tools", "--json", "--schemas", "--", "srv", "-v"],
            .command(.tools(ToolsOptions(server: .command(executable: "srv", arguments: ["-v"]), json: true, schemas: true)))),
        ParseCase("tools --schemas=yes", ["tools", "--schemas=yes"], .error("option '--schemas' takes no value", .tools)),
        // schema
        ParseCase("schema: standard input", ["schema"], .command(.schema(SchemaOptions()))),
        ParseCase("schema -: standard input", ["schema", "-"], .command(.schema(SchemaOptions()))),
        ParseCase("schema FILE", ["schema", "in.json"], .command(.schema(SchemaOptions(file: "in.json")))),
        ParseCase(
            "schema FILE --json --name", ["schema", "--json", "in.json", "--name=get_weather"],
            .command(.schema(SchemaOptions(file: "in.json", name: "get_weather", json: true)))),
        ParseCase("schema --help", ["schema", "in.json", "--help"], .command(.help(.schema))),
        ParseCase("schema with two files", ["schema", "a.json", "b.json"], .error("unexpected argument 'b.json'", .schema)),
        ParseCase("schema with an empty FILE", ["schema", ""], .error("FILE must not be empty", .schema)),
        ParseCase("schema --name without a value", ["schema", "--name"], .error("option '--name' needs a value", .schema)),
        ParseCase("schema with a server command", ["schema", "--", "srv"], .error("schema does not take a server command", .schema)),
        ParseCase("schema --data-dir", ["schema", "--data-dir", "d"], .error("unknown option '--data-dir' for schema", .schema)),
        // chat
        ParseCase("chat", ["chat"], .command(.chat(ChatOptions()))),
        ParseCase("chat --allow-writes", ["chat", "--allow-writes"], .command(.chat(ChatOptions(allowsWrites: true)))),
        ParseCase(
            "chat --timeout --data-dir", ["chat", "--timeout", "5", "--data-dir=d"],
            .command(.chat(ChatOptions(server: .builtIn(dataDirectory: "d"), timeoutSeconds: 5)))),
        ParseCase(
            "chat over a server command", ["chat", "--allow-writes", "--", "uvx", "mcp-server-time"],
            .command(.chat(ChatOptions(server: .command(executable: "uvx", arguments: ["mcp-server-time"]), allowsWrites: true)))),
        ParseCase("chat --help", ["chat", "-h"], .command(.help(.chat))),
        ParseCase("chat with a prompt argument", ["chat", "hello"], .error("chat reads prompts from standard input", .chat)),
        ParseCase("chat --json", ["chat", "--json"], .command(.chat(ChatOptions(json: true)))),
        ParseCase(
            "chat --show-tool-calls", ["chat", "--show-tool-calls"], .command(.chat(ChatOptions(toolCalls: .shown)))),
        ParseCase(
            "chat with both tool-call flags", ["chat", "--show-tool-calls", "--hide-tool-calls"],
            .error("--show-tool-calls and --hide-tool-calls contradict each other; give one", .chat)),
        ParseCase("chat --allow-writes=yes", ["chat", "--allow-writes=yes"], .error("option '--allow-writes' takes no value", .chat)),
        // call
        ParseCase("call without arguments", ["call", "clock_now"], .command(.call(CallOptions(tool: "clock_now")))),
        ParseCase(
            "call with JSON arguments", ["call", "clock_now", #"{"timezone":"Europe/Lisbon"}"#],
            .command(.call(CallOptions(tool: "clock_now", arguments: ["timezone": "Europe/Lisbon"])))),
        ParseCase(
            "call with options before the tool", ["call", "--json", "--timeout", "2.5", "notes_list", "{}"],
            .command(.call(CallOptions(tool: "notes_list", json: true, timeoutSeconds: 2.5)))),
        ParseCase(
            "call a tool of a server command", ["call", "get_current_time", #"{"timezone":"UTC"}"#, "--", "mcp-server-time"],
            .command(
                .call(
                    CallOptions(
                        tool: "get_current_time", arguments: ["timezone": "UTC"],
                        server: .command(executable: "mcp-server-time", arguments: []))))),
        ParseCase("call --help", ["call", "clock_now", "--help"], .command(.help(.call))),
        ParseCase("call without a tool", ["call"], .error("missing TOOL", .call)),
        ParseCase("call with an empty tool name", ["call", ""], .error("TOOL must not be empty", .call)),
        ParseCase(
            "call with malformed JSON", ["call", "notes_add", #"{"title": x}"#],
            .error("JSON-ARGUMENTS is not valid JSON: invalid JSON at byte 10", .call)),
        ParseCase("call with truncated JSON", ["call", "notes_add", #"{"title":"#], .error("invalid JSON at byte 9", .call)),
        ParseCase("call with a JSON array", ["call", "clock_now", "[1]"], .error("must be a JSON object, not an array", .call)),
        ParseCase("call with a JSON string", ["call", "clock_now", #""UTC""#], .error("must be a JSON object, not a string", .call)),
        ParseCase("call with two JSON arguments", ["call", "clock_now", "{}", "{}"], .error("unexpected argument '{}'", .call)),
        ParseCase(
            "call --timeout 0", ["call", "clock_now", "--timeout", "0"], .error("--timeout needs a number of seconds greater than 0", .call)
        ),
        ParseCase("call --timeout abc", ["call", "clock_now", "--timeout", "abc"], .error("not 'abc'", .call)),
        ParseCase("call --timeout nan", ["call", "clock_now", "--timeout", "nan"], .error("not 'nan'", .call)),
        ParseCase("call --timeout beyond a day", ["call", "clock_now", "--timeout", "1e9"], .error("at most 86400", .call)),
        ParseCase("call --timeout without a value", ["call", "clock_now", "--timeout"], .error("option '--timeout' needs a value", .call)),
    ] + boxParseCases + configParseCases + forPromptParseCases + remoteParseCases + modelParseCases

/// `server` with `sandbox` as its box.
private func boxed(_ sandbox: Sandbox?, _ executable: String = "srv", _ arguments: [String] = []) -> ServerChoice {
    .command(executable: executable, arguments: arguments, sandbox: sandbox)
}

/// The default box, changed by `change`.
private func box(_ change: (inout Sandbox) -> Void = { _ in }) -> Sandbox {
    var box = Sandbox.standard
    change(&box)
    return box
}

/// The box options of the commands that launch a server.
let boxParseCases: [ParseCase] = [
    ParseCase("a server command is boxed by default", ["tools", "--", "srv"], .command(.tools(ToolsOptions(server: boxed(.standard))))),
    ParseCase("--no-sandbox", ["tools", "--no-sandbox", "--", "srv"], .command(.tools(ToolsOptions(server: boxed(nil))))),
    ParseCase(
        "repeated --allow-read and --allow-write keep their order",
        ["call", "t", "--allow-read", "/a", "--allow-write=/w", "--allow-read", "b", "--", "srv", "--allow-read", "x"],
        .command(
            .call(
                CallOptions(
                    tool: "t",
                    server: boxed(
                        box {
                            $0.readablePaths = ["/a", "b"]
                            $0.writablePaths = ["/w"]
                        }, "srv", ["--allow-read", "x"]))))),
    ParseCase(
        "--allow-network and --pass-env",
        ["chat", "--allow-network", "--pass-env", "API_TOKEN", "--pass-env", "NO_COLOR", "--", "srv"],
        .command(
            .chat(
                ChatOptions(
                    server: boxed(
                        box {
                            $0.allowsNetwork = true
                            $0.passedEnvironment = ["API_TOKEN", "NO_COLOR"]
                        }))))),
    ParseCase(
        "--memory-limit in MiB and --cpu-limit in seconds",
        ["tools", "--memory-limit", "512", "--cpu-limit=30", "--", "srv"],
        .command(
            .tools(
                ToolsOptions(
                    server: boxed(
                        box {
                            $0.memoryLimit = 512 * 1_048_576
                            $0.cpuTimeLimit = 30
                        }))))),
    ParseCase(
        "--memory-limit none and --cpu-limit none lift the limits",
        ["tools", "--memory-limit", "none", "--cpu-limit", "none", "--", "srv"],
        .command(
            .tools(
                ToolsOptions(
                    server: boxed(
                        box {
                            $0.memoryLimit = nil
                            $0.cpuTimeLimit = nil
                        }))))),
    ParseCase(
        "--memory-limit 0", ["tools", "--memory-limit", "0", "--", "srv"], .error("--memory-limit needs a whole number of MiB", .tools)),
    ParseCase(
        "--cpu-limit 1.5", ["call", "t", "--cpu-limit", "1.5", "--", "srv"], .error("--cpu-limit needs a whole number of seconds", .call)),
    ParseCase(
        "--allow-read without a value", ["tools", "--allow-read", "--", "srv"], .error("option '--allow-read' needs a value", .tools)),
    ParseCase(
        "box options need a server command", ["tools", "--allow-read", "/a"], .error("--allow-read is for a server command", .tools)),
    ParseCase(
        "--no-sandbox alone needs a server command", ["chat", "--no-sandbox"], .error("--no-sandbox is for a server command", .chat)),
    ParseCase(
        "--no-sandbox with another box option", ["call", "t", "--no-sandbox", "--allow-network", "--", "srv"],
        .error("--no-sandbox turns the box off; it cannot be combined with --allow-network", .call)),
    ParseCase("box options are not serve's", ["serve", "--no-sandbox"], .error("unknown option '--no-sandbox' for serve", .serve)),
]

/// `--config FILE`: the servers of a configuration file, for tools, chat and the main job.
let configParseCases: [ParseCase] = [
    ParseCase(
        "tools --config FILE: its servers, boxed by default", ["tools", "--config", "servers.json"],
        .command(.tools(ToolsOptions(server: .configuration(file: "servers.json", sandbox: .standard))))),
    ParseCase(
        "tools --config=FILE --json", ["tools", "--json", "--config=servers.json"],
        .command(.tools(ToolsOptions(server: .configuration(file: "servers.json"), json: true)))),
    ParseCase(
        "tools --schemas --config FILE", ["tools", "--schemas", "--config", "s.json"],
        .command(.tools(ToolsOptions(server: .configuration(file: "s.json"), schemas: true)))),
    ParseCase(
        "box options apply to every server of the file",
        ["tools", "--config", "s.json", "--allow-write", "/w", "--pass-env", "API_TOKEN", "--memory-limit", "512"],
        .command(
            .tools(
                ToolsOptions(
                    server: .configuration(
                        file: "s.json",
                        sandbox: box {
                            $0.writablePaths = ["/w"]
                            $0.passedEnvironment = ["API_TOKEN"]
                            $0.memoryLimit = 512 * 1_048_576
                        }))))),
    ParseCase(
        "--no-sandbox with --config runs every server unboxed", ["chat", "--no-sandbox", "--config", "s.json"],
        .command(.chat(ChatOptions(server: .configuration(file: "s.json", sandbox: nil))))),
    ParseCase(
        "chat --config FILE --allow-writes", ["chat", "--config", "s.json", "--allow-writes"],
        .command(.chat(ChatOptions(server: .configuration(file: "s.json"), allowsWrites: true)))),
    ParseCase(
        "the main job over a configuration", ["--config", "s.json"],
        .command(.start(ChatOptions(server: .configuration(file: "s.json"))))),
    ParseCase(
        "the main job: --config=FILE with box options", ["--allow-read", "/r", "--config=s.json", "--cpu-limit", "30"],
        .command(
            .start(
                ChatOptions(
                    server: .configuration(
                        file: "s.json",
                        sandbox: box {
                            $0.readablePaths = ["/r"]
                            $0.cpuTimeLimit = 30
                        }))))),
    ParseCase("the main job: --help after --config", ["--config", "s.json", "--help"], .command(.help(nil))),
    ParseCase(
        "--config with a server command", ["tools", "--config", "s.json", "--", "srv"],
        .error("--config and '-- CMD' both name servers", .tools)),
    ParseCase(
        "--config with --data-dir", ["chat", "--data-dir", "d", "--config", "s.json"],
        .error("--data-dir is for the built-in server; it cannot be used with --config", .chat)),
    ParseCase("--config twice", ["tools", "--config", "a.json", "--config", "b.json"], .error("--config may be given once", .tools)),
    ParseCase("--config without a value", ["tools", "--config"], .error("option '--config' needs a value", .tools)),
    ParseCase("--config= empty", ["chat", "--config="], .error("option '--config' needs a non-empty value", .chat)),
    ParseCase(
        "call with --config", ["call", "time/get_current_time", "--config", "s.json"],
        .command(.call(CallOptions(tool: "time/get_current_time", server: .configuration(file: "s.json"))))),
    ParseCase("serve takes no --config", ["serve", "--config", "s.json"], .error("unknown option '--config' for serve", .serve)),
    ParseCase("the main job: --config without a value", ["--config"], .error("option '--config' needs a value")),
    ParseCase(
        "the main job: box options need --config", ["--no-sandbox"],
        .error("--no-sandbox is for a server command ('-- CMD') or the servers of --config FILE")),
    ParseCase(
        "the main job takes no '-- CMD'", ["--config", "s.json", "--", "srv"], .error("the main job takes its servers from --config FILE")),
    ParseCase(
        "the main job: a command after --config", ["--config", "s.json", "tools"],
        .error("put the command first: ondevice-mcp tools --config FILE")),
    ParseCase("the main job: an option of a command", ["--config", "s.json", "--schemas"], .error("unknown option '--schemas'")),
    ParseCase(
        "the main job takes the chat's options", ["--allow-writes", "--hide-tool-calls", "--json"],
        .command(.start(ChatOptions(allowsWrites: true, toolCalls: .hidden, json: true)))),
]

/// `--url URL [--header 'Name: value']`: a remote server, for tools, call and chat.
let remoteParseCases: [ParseCase] = [
    ParseCase(
        "tools --url URL", ["tools", "--url", "https://mcp.example.com/mcp"],
        .command(.tools(ToolsOptions(server: .remote(url: "https://mcp.example.com/mcp"))))),
    ParseCase(
        "call --url with two headers",
        ["call", "echo", "--url=http://127.0.0.1:8000/mcp", "--header", "Authorization: Bearer t", "--header", "X-Team:  blue "],
        .command(
            .call(
                CallOptions(
                    tool: "echo",
                    server: .remote(url: "http://127.0.0.1:8000/mcp", headers: ["Authorization": "Bearer t", "X-Team": "blue"]))))),
    ParseCase(
        "chat --url", ["chat", "--url", "https://mcp.example.com/mcp"],
        .command(.chat(ChatOptions(server: .remote(url: "https://mcp.example.com/mcp"))))),
    ParseCase(
        "--url that is not http", ["tools", "--url", "ftp://example.com"],
        .error("--url needs an http:// or https:// URL with a host, not 'ftp://example.com'", .tools)),
    ParseCase(
        "--url without a host", ["call", "t", "--url", "https:///mcp"], .error("--url needs an http:// or https:// URL with a host", .call)),
    ParseCase(
        "--url with a server command", ["tools", "--url", "https://e.com/mcp", "--", "srv"],
        .error("--url names a remote server; it cannot be used with '-- CMD'", .tools)),
    ParseCase(
        "--url with --config", ["chat", "--url", "https://e.com/mcp", "--config", "s.json"],
        .error("--url names a remote server; it cannot be used with --config", .chat)),
    ParseCase(
        "--url with a box option", ["tools", "--url", "https://e.com/mcp", "--allow-network"],
        .error("--allow-network is for servers this program starts", .tools)),
    ParseCase(
        "--header without --url", ["tools", "--header", "A: b"], .error("--header 'A: b' is for a remote server; give its --url", .tools)),
    ParseCase(
        "--header without a colon", ["tools", "--url", "https://e.com/mcp", "--header", "Authorization"],
        .error("--header needs 'Name: value', not 'Authorization'", .tools)),
    ParseCase(
        "--header with a bad name", ["tools", "--url", "https://e.com/mcp", "--header", "Bad Name: x"],
        .error("'Bad Name' is not a header name", .tools)),
    ParseCase("serve takes no --url", ["serve", "--url", "https://e.com/mcp"], .error("unknown option '--url' for serve", .serve)),
]

/// `--model-url URL [--model NAME]`: a model server, for chat and the main job.
let modelParseCases: [ParseCase] = [
    ParseCase(
        "chat --model-url URL", ["chat", "--model-url", "http://127.0.0.1:8080"],
        .command(.chat(ChatOptions(model: .server(url: "http://127.0.0.1:8080"))))),
    ParseCase(
        "chat --model-url=URL --model NAME, with other options",
        ["chat", "--model", "smollm2", "--allow-writes", "--model-url=http://127.0.0.1:11434/v1"],
        .command(.chat(ChatOptions(allowsWrites: true, model: .server(url: "http://127.0.0.1:11434/v1", name: "smollm2"))))),
    ParseCase(
        "chat over a remote MCP server with a model server",
        ["chat", "--url", "https://mcp.example.com/mcp", "--model-url", "http://127.0.0.1:8080"],
        .command(.chat(ChatOptions(server: .remote(url: "https://mcp.example.com/mcp"), model: .server(url: "http://127.0.0.1:8080"))))),
    ParseCase(
        "chat over a server command with a model server",
        ["chat", "--model-url", "http://127.0.0.1:8080", "--", "srv", "--model-url", "x"],
        .command(
            .chat(
                ChatOptions(
                    server: .command(executable: "srv", arguments: ["--model-url", "x"]), model: .server(url: "http://127.0.0.1:8080"))))),
    ParseCase(
        "the main job with a model server", ["--model-url", "http://127.0.0.1:8080"],
        .command(.start(ChatOptions(model: .server(url: "http://127.0.0.1:8080"))))),
    ParseCase(
        "the main job over a configuration with a named model", ["--config", "s.json", "--model=qwen", "--model-url", "http://h:1"],
        .command(.start(ChatOptions(server: .configuration(file: "s.json"), model: .server(url: "http://h:1", name: "qwen"))))),
    ParseCase("the main job: --help after --model-url", ["--model-url", "http://h:1", "-h"], .command(.help(nil))),
    ParseCase(
        "--model without a model server", ["chat", "--model", "qwen"],
        .error("--model 'qwen' names a model of a model server; give its --model-url URL (or set ONDEVICE_MCP_MODEL_URL)", .chat)),
    ParseCase(
        "the main job: --model without a model server", ["--model", "qwen"], .error("--model 'qwen' names a model of a model server")),
    ParseCase(
        "--model-url that is not http", ["chat", "--model-url", "ftp://h"],
        .error("--model-url needs an http:// or https:// URL with a host, not 'ftp://h'", .chat)),
    ParseCase(
        "the main job: --model-url without a host", ["--model-url", "http://"],
        .error("--model-url needs an http:// or https:// URL with a host")),
    ParseCase(
        "--model-url twice", ["chat", "--model-url", "http://a:1", "--model-url", "http://b:1"],
        .error("--model-url may be given once", .chat)),
    ParseCase("--model twice", ["--model-url", "http://a:1", "--model", "a", "--model", "b"], .error("--model may be given once")),
    ParseCase("--model-url without a value", ["chat", "--model-url"], .error("option '--model-url' needs a value", .chat)),
    ParseCase(
        "--model empty", ["chat", "--model-url", "http://a:1", "--model="], .error("option '--model' needs a non-empty value", .chat)),
    ParseCase(
        "tools takes no --model-url", ["tools", "--model-url", "http://a:1"], .error("unknown option '--model-url' for tools", .tools)),
    ParseCase("call takes no --model", ["call", "t", "--model", "m"], .error("unknown option '--model' for call", .call)),
    ParseCase(
        "serve takes no --model-url", ["serve", "--model-url", "http://a:1"], .error("unknown option '--model-url' for serve", .serve)),
]

/// A command line with an environment, and what it must parse to.
struct EnvironmentParseCase: CustomTestStringConvertible, Sendable {
    let name: String
    let environment: [String: String]
    let argv: [String]
    let expected: ParseCase.Expected

    init(_ name: String, _ environment: [String: String], _ argv: [String], _ expected: ParseCase.Expected) {
        self.name = name
        self.environment = environment
        self.argv = argv
        self.expected = expected
    }

    var testDescription: String {
        let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "\(name): \((variables + ["ondevice-mcp"] + argv).joined(separator: " "))"
    }
}

private let urlVariable = "ONDEVICE_MCP_MODEL_URL"
private let nameVariable = "ONDEVICE_MCP_MODEL"

/// `ONDEVICE_MCP_MODEL_URL` and `ONDEVICE_MCP_MODEL`: each applies when its option is absent.
let environmentParseCases: [EnvironmentParseCase] = [
    EnvironmentParseCase(
        "the main job takes the variable's model server", [urlVariable: "http://e:1"], [],
        .command(.start(ChatOptions(model: .server(url: "http://e:1"))))),
    EnvironmentParseCase(
        "and its model name", [urlVariable: "http://e:1", nameVariable: "e-model"], [],
        .command(.start(ChatOptions(model: .server(url: "http://e:1", name: "e-model"))))),
    EnvironmentParseCase(
        "the main job over a configuration", [urlVariable: "http://e:1"], ["--config", "s.json"],
        .command(.start(ChatOptions(server: .configuration(file: "s.json"), model: .server(url: "http://e:1"))))),
    EnvironmentParseCase(
        "chat takes it", [urlVariable: "http://e:1"], ["chat"], .command(.chat(ChatOptions(model: .server(url: "http://e:1"))))),
    EnvironmentParseCase(
        "--model-url wins over the variable", [urlVariable: "http://e:1", nameVariable: "e-model"], ["chat", "--model-url", "http://f:2"],
        .command(.chat(ChatOptions(model: .server(url: "http://f:2", name: "e-model"))))),
    EnvironmentParseCase(
        "--model wins over the variable", [urlVariable: "http://e:1", nameVariable: "e-model"], ["chat", "--model", "f-model"],
        .command(.chat(ChatOptions(model: .server(url: "http://e:1", name: "f-model"))))),
    EnvironmentParseCase(
        "an empty variable is unset", [urlVariable: "", nameVariable: "e-model"], ["chat"], .command(.chat(ChatOptions()))),
    EnvironmentParseCase("a model name alone is ignored", [nameVariable: "e-model"], [], .command(.start())),
    EnvironmentParseCase(
        "--model without either URL", [nameVariable: "e-model"], ["chat", "--model", "f-model"],
        .error("--model 'f-model' names a model of a model server; give its --model-url URL (or set ONDEVICE_MCP_MODEL_URL)", .chat)),
    EnvironmentParseCase(
        "a variable that is not a URL", [urlVariable: "localhost:8080"], ["chat"],
        .error("ONDEVICE_MCP_MODEL_URL needs an http:// or https:// URL with a host, not 'localhost:8080'", .chat)),
    EnvironmentParseCase(
        "a good --model-url hides a bad variable", [urlVariable: "localhost:8080"], ["--model-url", "http://f:2"],
        .command(.start(ChatOptions(model: .server(url: "http://f:2"))))),
    EnvironmentParseCase(
        "serve ignores it (and stays in ondevice-mcp)", [urlVariable: "http://e:1"], ["serve"], .command(.serve(dataDirectory: nil))),
    EnvironmentParseCase("tools ignores it", [urlVariable: "http://e:1"], ["tools"], .command(.tools(ToolsOptions()))),
    EnvironmentParseCase(
        "call ignores it", [urlVariable: "localhost"], ["call", "clock_now"], .command(.call(CallOptions(tool: "clock_now")))),
]

/// `tools --for-prompt TEXT`: what a turn with that prompt would get.
let forPromptParseCases: [ParseCase] = [
    ParseCase(
        "tools --for-prompt TEXT over the built-in server", ["tools", "--for-prompt", "what time is it in Tokyo"],
        .command(.tools(ToolsOptions(forPrompt: "what time is it in Tokyo")))),
    ParseCase(
        "tools --for-prompt=TEXT --json over a server command", ["tools", "--json", "--for-prompt=time in Tokyo", "--", "srv"],
        .command(.tools(ToolsOptions(server: .command(executable: "srv", arguments: []), json: true, forPrompt: "time in Tokyo")))),
    ParseCase(
        "tools --for-prompt over a configuration", ["tools", "--config", "s.json", "--for-prompt", "git log"],
        .command(.tools(ToolsOptions(server: .configuration(file: "s.json"), forPrompt: "git log")))),
    ParseCase("--for-prompt without a value", ["tools", "--for-prompt"], .error("option '--for-prompt' needs a value", .tools)),
    ParseCase("--for-prompt empty", ["tools", "--for-prompt="], .error("option '--for-prompt' needs a non-empty value", .tools)),
    ParseCase(
        "--for-prompt with --schemas", ["tools", "--schemas", "--for-prompt", "x"],
        .error("--for-prompt and --schemas are two reports; give one", .tools)),
    ParseCase("--for-prompt twice", ["tools", "--for-prompt", "a", "--for-prompt", "b"], .error("--for-prompt may be given once", .tools)),
    ParseCase(
        "an unquoted prompt", ["tools", "--for-prompt", "what", "time"],
        .error("unexpected argument 'time'; quote the prompt of --for-prompt as one argument", .tools)),
    ParseCase("chat takes no --for-prompt", ["chat", "--for-prompt", "x"], .error("unknown option '--for-prompt' for chat", .chat)),
]

@Suite("Argument parsing")
struct ArgumentParsingTests {
    @Test("A command line parses to its command or to a usage error", arguments: parseCases)
    func parses(_ row: ParseCase) async throws {
        switch row.expected {
        case .command(let expected):
            #expect(try CommandLineParser.parse(row.argv) == expected)
        case .usageError(let text, let command):
            let error = #expect(throws: UsageError.self) { try CommandLineParser.parse(row.argv) }
            #expect(error?.message.contains(text) == true, "message: \(error?.message ?? "none")")
            #expect(error?.command == command)
            // The command reports it the same way: exit status 2, message and usage on stderr.
            let run = await CommandRun(row.argv)
            #expect(run.status == .usageError)
            #expect(run.status.rawValue == 2)
            #expect(run.output.isEmpty)
            #expect(run.errors.hasPrefix("error: "))
            #expect(run.errors.contains(text))
            #expect(run.errors.contains(HelpText.usage(for: command)))
        }
    }

    @Test("The model options fall back on ONDEVICE_MCP_MODEL_URL and ONDEVICE_MCP_MODEL", arguments: environmentParseCases)
    func parsesWithEnvironment(_ row: EnvironmentParseCase) async throws {
        switch row.expected {
        case .command(let expected):
            #expect(try CommandLineParser.parse(row.argv, environment: row.environment) == expected)
        case .usageError(let text, let command):
            let error = #expect(throws: UsageError.self) { try CommandLineParser.parse(row.argv, environment: row.environment) }
            #expect(error?.message.contains(text) == true, "message: \(error?.message ?? "none")")
            #expect(error?.command == command)
            let run = await CommandRun(row.argv, environment: row.environment)
            #expect(run.status == .usageError)
            #expect(run.output.isEmpty)
            #expect(run.errors.hasPrefix("error: \(text)"))
            #expect(run.errors.contains(HelpText.usage(for: command)))
        }
    }

    @Test("--help prints the commands and the exit-status rule on stdout", arguments: [["--help"], ["-h"], ["help"]])
    func overview(_ argv: [String]) async {
        let run = await CommandRun(argv)
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        for text in [
            "serve", "tools", "call", "schema", "chat", "--schemas", "SystemLanguageModel(backend:)", "EXIT STATUS", "3  failure", "-32602",
            "--model-url URL", "--model NAME", "$ONDEVICE_MCP_MODEL_URL", "$ONDEVICE_MCP_MODEL,", "A real model on Linux",
        ] {
            #expect(run.output.contains(text))
        }
    }

    @Test("Every command has its own --help", arguments: CommandName.allCases)
    func commandHelp(_ command: CommandName) async {
        for flag in ["--help", "-h"] {
            let run = await CommandRun([command.rawValue, flag])
            #expect(run.status == .success)
            #expect(run.output.contains("USAGE: ondevice-mcp \(command.rawValue)"))
            #expect(run.output.contains("EXIT STATUS"))
        }
    }

    @Test("The commands that launch a server describe the box and its options", arguments: [CommandName.tools, .call, .chat])
    func boxHelp(_ command: CommandName) async {
        let run = await CommandRun([command.rawValue, "--help"])
        for text in [
            "BOX OPTIONS", "--no-sandbox", "--allow-read PATH", "--allow-write PATH", "--allow-network", "--memory-limit MIB",
            "--cpu-limit SECONDS", "--pass-env NAME", "Landlock",
        ] {
            #expect(run.output.contains(text), "\(text)")
        }
        #expect(HelpText.usage(for: command).contains("[BOX OPTIONS] -- CMD ARGS..."))
    }

    @Test("--version prints the library version")
    func version() async {
        let run = await CommandRun(["--version"])
        #expect(run.status == .success)
        #expect(run.output == "ondevice-mcp \(OnDeviceMCPVersion.string)\n")
    }

    @Test("The exit codes are 0, 1, 2 and 3")
    func exitCodes() {
        #expect([ExitCode.success, .toolError, .usageError, .failure].map(\.rawValue) == [0, 1, 2, 3])
    }
}
