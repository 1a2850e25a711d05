internal import OnDeviceMCPExamples

/// The help and usage texts of `ondevice-mcp`.
package enum HelpText {
    /// The overview printed by `ondevice-mcp --help`.
    package static let overview = """
        OVERVIEW: Serve, list and call MCP tools, and bridge them to the on-device language model.

        USAGE: ondevice-mcp [<command> [options]]
               ondevice-mcp [--config FILE [BOX OPTIONS]] [--model-url URL [--model NAME]] [CHAT OPTIONS]

        Without a command, ondevice-mcp starts the built-in example server in this process
        (with --config FILE, the servers of that file instead), bridges every tool for the
        on-device model and chats (one prompt a line on standard input) when a model is
        available (with --model-url URL, the model of that server); otherwise it shows each
        bridged tool with its generation schema, diagnostics and token cost, and how to get
        a model (exit status 0). It chats as 'chat' does and takes its CHAT OPTIONS
        (--allow-writes, --show-tool-calls, --hide-tool-calls, --json; see 'ondevice-mcp
        chat --help').

        COMMANDS:
          serve    Serve the example tools (clock, notes) over standard input and output
          tools    List the tools of servers (--schemas: with generation schemas and costs;
                   --for-prompt TEXT: the tools a chat turn with that prompt gets)
          call     Call one tool of a server and print its result (--config FILE: SERVER/TOOL)
          schema   Convert a JSON Schema (or a tool list) to FoundationModels generation schemas
          chat     Chat with the on-device model (or --model-url URL's) over a server's tools

        OPTIONS:
          -h, --help   Show help; 'ondevice-mcp <command> --help' shows a command's help
          --version    Show the version

        SERVERS:
          Without '-- CMD ARGS...', 'tools', 'call' and 'chat' use the built-in example server,
          in this process. With it, they launch CMD as a stdio MCP server (its standard error
          passes through) and talk to it, in a box by default (see BOX OPTIONS in the
          command's help; --no-sandbox turns it off). With --config FILE, 'tools', 'chat' and
          the program without a command launch every server of an MCP client's configuration
          file, each in its own box, and offer all their tools together.

        \(configFile)

        LANGUAGE MODEL:
          'chat' (and the program without a command) uses Apple's on-device model: an Apple
          device with Apple Intelligence on macOS 26 or later. On Linux the portable
          FoundationModels module has no model of its own: give it one with --model-url URL
          (see MODEL below); an app plugs one in with SystemLanguageModel(backend:).

        \(modelOptions)

        \(exitStatus)
        """

    /// The options that choose a model server: shared by the overview and the help of chat.
    package static let modelOptions = """
        MODEL (for chat and the program without a command; where Apple's FoundationModels is
        missing, as on Linux):
          --model-url URL       Chat with a model on an OpenAI-compatible chat-completions
                                server (llama.cpp's llama-server, Ollama, vLLM, LM Studio):
                                its root (http://127.0.0.1:8080; /v1 is added) or its API base
                                (http://127.0.0.1:11434/v1). Default: $\(CommandLineParser.modelURLVariable)
          --model NAME          The server's model (default: $\(CommandLineParser.modelNameVariable), else
                                the server's first model)
          Answers stop at 1,024 tokens (a small model can repeat itself until its context is full)
          and are decoded greedily (sampled, a small model drifts into random characters).
          A hosted API's key: $\(CommandLineParser.modelAPIKeyVariable) (a bearer token, never sent
          over plain http:// to another machine, never passed to MCP servers).
          A server that cannot be reached, or has no such model, is an error (exit status 3).
          README.md, "A real model on Linux", starts a small local model in two commands.
        """

    /// The configuration file `--config` reads: shared by the overview and the help of the
    /// commands that take it.
    package static let configFile = """
        CONFIG FILE (--config FILE):
          The mcpServers file MCP clients use (Claude Desktop, Cursor, VS Code's mcp.json with
          its comments and "servers" key):
            {"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"],
                                     "env": {"TZ": "Europe/Lisbon"}, "cwd": "/srv",
                                     "ondevice-mcp": {"allowNetwork": true,
                                                      "passEnv": ["SSL_CERT_FILE", "SSL_CERT_DIR"]}}}}
          Each key names a server (its label; servers keep the file's order). Each server is
          launched as a child process in its own box, the BOX OPTIONS applying to every one
          and its "ondevice-mcp" object (which other clients ignore) widening its own box:
          "allowRead", "allowWrite", "passEnv" (lists), "allowNetwork", "allowUnixSockets",
          "sandbox": false (unboxed), "memoryLimitMiB", "cpuLimitSeconds" (numbers or null).
          uvx and npx download the server first: they need the network and, for TLS, the
          certificate store (as above). A server that fails is reported and left out; the
          others are used, and the command ends with status 3.
          Its "env" entries are set in its environment, in the box (values are taken
          literally); "cwd" (relative: to the file's directory) is its working directory. A
          tool name two servers share gets the server's label as a prefix (two 'search'
          tools: notes_search, mail_search). A remote server is an entry with "url" (and
          "headers", an object of strings), reached over MCP's Streamable HTTP. An entry with
          "disabled": true is left out; other keys are ignored, with a warning.
        """

    /// The options that name a remote server: shared by the help of tools, call and chat.
    package static let remoteOptions = """
        REMOTE SERVER (in place of '-- CMD'):
          --url URL             A server reached over MCP's Streamable HTTP (http:// or https://;
                                the 2024-11-05 HTTP+SSE transport is found by itself)
          --header 'NAME: VALUE'  Send this header with every request (repeatable), such as
                                'Authorization: Bearer TOKEN'; no credentials go over plain
                                http:// except to this machine
        """

    /// The box a server command runs in, and the options that change it: shared by the help
    /// of every command that launches a server.
    package static let boxOptions = """
        BOX OPTIONS (for '-- CMD', and every server of --config FILE):
          A server command runs in a box by default. On Linux: Landlock lets it read only the
          system directories, its own installation and --allow-read paths, write only a
          private data directory (its TMPDIR and working directory, removed afterwards) and
          --allow-write paths, and make no TCP connection or listener; its environment is
          PATH, HOME, LANG, LC_*, TERM, TZ and --pass-env names; it gets 2 GiB of memory,
          600 CPU seconds, 1 GiB files, a 1 GiB data directory, 1,024 descriptors and 512
          tasks, and no new privileges. With the network closed it makes no socket at all
          (no TCP, UDP, DNS or Unix-domain sockets).
          Every process it starts ends with it; root keeps no capability and reads only a
          list of /etc; see the Security model article for what else the box does.
          A system that cannot enforce the box (no Landlock) is an error, never ignored.
          A server that fails in the box gets a line naming the option that may help.
          --no-sandbox          Run the server with all of this program's rights
          --allow-read PATH     Let it read PATH too (repeatable)
          --allow-write PATH    Let it read and write PATH too (repeatable)
          --allow-network       Let it use the network (TCP and UDP, connect and listen)
          --memory-limit MIB    Its address space, in MiB (default 2048; 'none': no limit)
          --cpu-limit SECONDS   Its CPU time (default 600; 'none': no limit)
          --pass-env NAME       Pass the environment variable NAME through (repeatable)
        """

    /// The exit-status rule, shared by every help text.
    package static let exitStatus = """
        EXIT STATUS:
          0  success
          1  the tool ran and reported an error (isError: true); its text is printed
          2  usage error: unknown command or option, missing or malformed argument,
             JSON-ARGUMENTS that is not a JSON object, a schema FILE or --config FILE that
             cannot be read or is not JSON (the byte offset is quoted), a --config FILE that
             is not an mcpServers configuration
          3  failure: a server (local or remote, --url) could not be started or reached, the
             connection broke, a request timed out, the server answered with a JSON-RPC or
             HTTP error (such as -32602 for an unknown tool, 401 without credentials), some
             servers of a --config FILE failed (the others were used), 'chat' found no
             language model, or the model server (--model-url) could not be reached or has
             no such model
        """

    /// The help of one command.
    package static func help(for command: CommandName) -> String {
        switch command {
        case .serve: serve
        case .tools: tools
        case .call: call
        case .schema: schema
        case .chat: chat
        }
    }

    /// The usage lines of a command, or of the program (`nil`), shown after a usage error.
    package static func usage(for command: CommandName?) -> String {
        switch command {
        case nil:
            "USAGE: ondevice-mcp [<command> [options]] | ondevice-mcp [--config FILE [BOX OPTIONS]] [--model-url URL [--model NAME]] [--allow-writes] [--show-tool-calls | --hide-tool-calls] [--json]    (commands: serve, tools, call, schema, chat; see 'ondevice-mcp --help')"
        case .serve:
            "USAGE: ondevice-mcp serve [--data-dir DIR] [--root DIR ...]    (see 'ondevice-mcp serve --help')"
        case .tools:
            "USAGE: ondevice-mcp tools [--schemas | --for-prompt TEXT] [--json] [--timeout SECONDS] [--data-dir DIR | --config FILE [BOX OPTIONS] | --url URL [--header H]... | [BOX OPTIONS] -- CMD ARGS...]    (see 'ondevice-mcp tools --help')"
        case .call:
            "USAGE: ondevice-mcp call [SERVER/]TOOL [JSON-ARGUMENTS] [--json] [--timeout SECONDS] [--data-dir DIR | --config FILE [BOX OPTIONS] | --url URL [--header H]... | [BOX OPTIONS] -- CMD ARGS...]    (see 'ondevice-mcp call --help')"
        case .schema:
            "USAGE: ondevice-mcp schema [FILE | -] [--name NAME] [--json]    (see 'ondevice-mcp schema --help')"
        case .chat:
            "USAGE: ondevice-mcp chat [--allow-writes] [--show-tool-calls | --hide-tool-calls] [--json] [--timeout SECONDS] [--model-url URL [--model NAME]] [--data-dir DIR | --config FILE [BOX OPTIONS] | --url URL [--header H]... | [BOX OPTIONS] -- CMD ARGS...]    (see 'ondevice-mcp chat --help')"
        }
    }

    static let serve = """
        OVERVIEW: Serve the example tools over standard input and output (MCP stdio).

        USAGE: ondevice-mcp serve [--data-dir DIR] [--root DIR ...]

        Tools: clock_now, notes_add, notes_search, notes_list, notes_delete; with --root,
        also files_list and files_read (read-only; text up to 64 KiB, cut with a note).
        Their paths are confined to the roots: '..', absolute paths elsewhere, symbolic
        links and odd encodings are refused when the file is opened.
        Serves until standard input ends, then exits with status 0. Standard output
        carries only protocol messages; anything else goes to standard error.

        OPTIONS:
          --data-dir DIR   Where the notes file (notes.json) lives; created if needed
                           (default: \(ExampleTools.defaultDataDirectoryDescription))
          --root DIR       A directory files_list and files_read may read (absolute path;
                           repeat for more; relative paths go to the first). Without it,
                           the files tools are absent.
          -h, --help       Show this help

        \(exitStatus)
        """

    static let tools = """
        OVERVIEW: List the tools of servers, as MCP lists them and as the model gets them.

        USAGE: ondevice-mcp tools [--schemas | --for-prompt TEXT] [--json] [--timeout SECONDS] [--data-dir DIR | --config FILE [BOX OPTIONS] | --url URL [--header H]... | [BOX OPTIONS] -- CMD ARGS...]

        Prints one block per tool: its name and title, its description, and a one-line
        summary of its arguments. With --config, the tools of every server of the file,
        under a heading per server, each with the name the model gets (a name two servers
        share is prefixed with the server's label).

        With --schemas, each block also shows the tool as the on-device model gets it: its
        model name, its generation schema (compact JSON), the conversion's diagnostics
        (severity, JSON Pointer, message) and its definition's tokens; a last line gives
        the tokens of all the definitions against the tool budget (1,536 tokens and at most
        5 tools a turn) and the model's context size (4,096 tokens), and says how the
        tokens were counted: by the model where it can count, else estimated. When the
        tools do not all fit, each chat turn gets the ones most relevant to its prompt.

        With --for-prompt TEXT, shows what a chat turn with that prompt would get: the
        chosen tools in order (model name, server, tokens), every other tool with the
        reason it is left out, and the chosen tools' tokens against the tool budget.

        OPTIONS:
          --schemas           Show generation schemas, diagnostics and token costs
          --for-prompt TEXT   Show the tools a chat turn with the prompt TEXT would get
          --json              Print the 'tools' array of tools/list as pretty JSON (with
                              --config, an array of {server, tools}, each tool with its
                              modelName); with --schemas, an object {tools: [{name,
                              modelName, server, description, schema, diagnostics,
                              securityWarnings, tokens, exclusionReason}], budget: {tokens,
                              counting, toolTokens, maximumTools, contextSize, allFit,
                              excluded}}; with --for-prompt, an object {prompt, selected:
                              [server tool names, in order], excluded: [{name, modelName,
                              server, reason}], tokens, toolTokens, maximumTools,
                              contextSize, counting, selectedTools: [{name, modelName,
                              server, tokens}]}
          --timeout SECONDS   How long each request may take (default 60)
          --data-dir DIR      The built-in server's data directory
          --config FILE       Use every server of the mcpServers file FILE instead
          -- CMD ARGS...      Use the stdio MCP server CMD instead
          -h, --help          Show this help

        EXAMPLES:
          ondevice-mcp tools --for-prompt "what time is it in Tokyo?"
          ondevice-mcp tools --schemas --config ~/.cursor/mcp.json
          ondevice-mcp tools --for-prompt "show the last commits" --json --config servers.json

        \(configFile)

        \(remoteOptions)

        \(boxOptions)

        \(exitStatus)
        """

    static let schema = """
        OVERVIEW: Convert a JSON Schema to a FoundationModels generation schema.

        USAGE: ondevice-mcp schema [FILE | -] [--name NAME] [--json]

        Reads FILE (or standard input, for '-' or no FILE): one JSON Schema, such as a tool's
        inputSchema; or a tool list (a tools/list result, a {"tools": [...]} object, the
        JSON-RPC response holding one, an array of tools, or one tool), converting each
        tool's inputSchema. Prints the generation schema the model would get, as pretty
        JSON, and the diagnostics: what the conversion could not carry over exactly
        (severity note, warning or error; the JSON Pointer of the keyword; a message).
        Diagnostics do not change the exit status.

        OPTIONS:
          --name NAME   Name the types after NAME (root type NAME_arguments; default 'tool');
                        tools are named after themselves
          --json        Print one JSON object {schema, diagnostics: [{severity, location,
                        message}]}; for a tool list, an array of them with name and modelName
          -h, --help    Show this help

        EXAMPLES:
          ondevice-mcp schema input-schema.json
          echo '{"type":"object","properties":{"day":{"type":"string","format":"date"}}}' | ondevice-mcp schema
          ondevice-mcp tools --json -- uvx mcp-server-time | ondevice-mcp schema --json

        \(exitStatus)
        """

    static let chat = """
        OVERVIEW: Chat with the on-device language model over the tools of servers.

        USAGE: ondevice-mcp chat [--allow-writes] [--show-tool-calls | --hide-tool-calls] [--json] [--timeout SECONDS] [--model-url URL [--model NAME]] [--data-dir DIR | --config FILE [BOX OPTIONS] | --url URL [--header H]... | [BOX OPTIONS] -- CMD ARGS...]

        Connects to the server (with --config, to every server of the file), bridges the
        tools and gives each turn the ones its prompt needs, within the context budget (see
        'ondevice-mcp tools --schemas' and '--for-prompt TEXT'), and reads prompts from
        standard input, one a line, printing each answer on standard output until standard
        input ends. A session follows the servers' tool lists as they change. A turn that
        fails prints 'error: ...' and the chat goes on.

        Each tool call is shown on standard error as it happens (→ the tool and exactly the
        arguments it receives; ← its duration and size, or its error), and so is each
        declined call (✗ with the reason and the option that would allow it); by default
        when standard error is a terminal.

        Tools run without asking when their annotations say they are read-only and stay in
        a closed world (the built-in server's tools are this program's own: its read-only
        ones run). On a terminal, you are asked before any other tool runs (one that writes,
        deletes or reaches the network, like notes_add and notes_delete), shown exactly what
        it will receive: allow once (y), for this conversation (a), or deny. You are also
        asked when the conversation has read private data or another server's content and a
        tool could carry it out. Without a terminal, such calls are declined and the model
        is told why. --allow-writes lets tools with effects run without asking (the calls
        the data-flow guard holds are still asked about, or declined).

        The model is Apple's on-device model (SystemLanguageModel.default): it needs an Apple
        device with Apple Intelligence on macOS 26 or later. Without one, chat says so on
        standard error and exits with status 3. On Linux the portable FoundationModels module
        has no model of its own: --model-url URL (or $\(CommandLineParser.modelURLVariable)) chats with a
        model server's; an app can plug one in with SystemLanguageModel(backend:).

        OPTIONS:
          --allow-writes      Let the model run tools that write, delete or reach the network
                              without asking
          --show-tool-calls   Show each tool call, decline and approval request (the default
                              when standard error is a terminal)
          --hide-tool-calls   Do not show them
          --json              Write one JSON object a line on standard output: every event
                              (toolCallStarted, toolCallFinished, toolCallDeclined,
                              toolCallRepeated, sessionBuilt, contextChanged, toolListChanged,
                              answerRepaired), each answer ({"event":"answer", "text":...}) and
                              each failed turn ({"event":"error"}); nobody is asked to approve
                              anything
          --timeout SECONDS   How long each request, and each tool call, may take (default 60)
          --model-url URL     Chat with the model of this chat-completions server (see MODEL)
          --model NAME        The server's model (default: $\(CommandLineParser.modelNameVariable), else the first)
          --data-dir DIR      The built-in server's data directory
          --config FILE       Chat over the tools of every server of the mcpServers file FILE
          -- CMD ARGS...      Chat over the tools of the stdio MCP server CMD instead
          -h, --help          Show this help

        \(modelOptions)

        \(configFile)

        \(remoteOptions)

        \(boxOptions)

        \(exitStatus)
        """

    static let call = """
        OVERVIEW: Call one tool of a server and print its result.

        USAGE: ondevice-mcp call [SERVER/]TOOL [JSON-ARGUMENTS] [--json] [--timeout SECONDS] [--data-dir DIR | --config FILE [BOX OPTIONS] | --url URL [--header H]... | [BOX OPTIONS] -- CMD ARGS...]

        JSON-ARGUMENTS is a JSON object, one shell argument: '{"timezone":"Europe/Lisbon"}'.
        Prints the result's text blocks as text; its structuredContent as pretty JSON when it
        has no text; other blocks described in a line each. A tool error (isError) prints the
        same way and exits with status 1. With --config FILE, TOOL is SERVER/TOOL (only that
        server of the file starts), or a tool name just one server of the file has. An unknown
        tool gets the nearest name ("did you mean").

        OPTIONS:
          --json              Print the whole result object as pretty JSON
          --timeout SECONDS   How long the call may take (default 60); then exit 3
          --data-dir DIR      The built-in server's data directory
          --config FILE       Call a tool of a server of the mcpServers file FILE
          -- CMD ARGS...      Call a tool of the stdio MCP server CMD instead
          -h, --help          Show this help

        \(remoteOptions)

        \(boxOptions)

        EXAMPLES:
          ondevice-mcp call clock_now '{"timezone":"Asia/Tokyo"}'
          ondevice-mcp call notes_add '{"title":"Trip","body":"Book the train"}'
          ondevice-mcp call get_current_time '{"timezone":"UTC"}' -- mcp-server-time
          ondevice-mcp call git_status '{"repo_path":"/src/app"}' --allow-write /src/app -- mcp-server-git --repository /src/app

        \(exitStatus)
        """
}
