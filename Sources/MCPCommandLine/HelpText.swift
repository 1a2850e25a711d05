/// The help and usage texts of `ondevice-mcp`.
public enum HelpText {
    /// The overview printed by `ondevice-mcp --help`.
    public static let overview = """
        OVERVIEW: Serve, list and call MCP tools.

        USAGE: ondevice-mcp <command> [options]

        COMMANDS:
          serve    Serve the example tools (clock, notes) over standard input and output
          tools    List the tools of a server
          call     Call one tool of a server and print its result

        OPTIONS:
          -h, --help   Show help; 'ondevice-mcp <command> --help' shows a command's help
          --version    Show the version

        SERVERS:
          Without '-- CMD ARGS...', 'tools' and 'call' use the built-in example server, in
          this process. With it, they launch CMD as a stdio MCP server (its standard error
          passes through) and talk to it.

        \(exitStatus)
        """

    /// The exit-status rule, shared by every help text.
    public static let exitStatus = """
        EXIT STATUS:
          0  success
          1  the tool ran and reported an error (isError: true); its text is printed
          2  usage error: unknown command or option, missing or malformed argument,
             JSON-ARGUMENTS that is not a JSON object
          3  failure: the server could not be started or reached, the connection broke,
             a request timed out, or the server answered with a JSON-RPC error (such as
             -32602 for an unknown tool)
        """

    /// The help of one command.
    public static func help(for command: CommandName) -> String {
        switch command {
        case .serve: serve
        case .tools: tools
        case .call: call
        }
    }

    /// The usage lines of a command, or of the program (`nil`), shown after a usage error.
    public static func usage(for command: CommandName?) -> String {
        switch command {
        case nil:
            "USAGE: ondevice-mcp <command> [options]    (commands: serve, tools, call; see 'ondevice-mcp --help')"
        case .serve:
            "USAGE: ondevice-mcp serve [--data-dir DIR]    (see 'ondevice-mcp serve --help')"
        case .tools:
            "USAGE: ondevice-mcp tools [--json] [--timeout SECONDS] [--data-dir DIR | -- CMD ARGS...]    (see 'ondevice-mcp tools --help')"
        case .call:
            "USAGE: ondevice-mcp call TOOL [JSON-ARGUMENTS] [--json] [--timeout SECONDS] [--data-dir DIR | -- CMD ARGS...]    (see 'ondevice-mcp call --help')"
        }
    }

    static let serve = """
        OVERVIEW: Serve the example tools over standard input and output (MCP stdio).

        USAGE: ondevice-mcp serve [--data-dir DIR]

        Tools: clock_now, notes_add, notes_search, notes_list, notes_delete.
        Serves until standard input ends, then exits with status 0. Standard output
        carries only protocol messages; anything else goes to standard error.

        OPTIONS:
          --data-dir DIR   Where the notes file (notes.json) lives; created if needed
                           (default: \(ExampleTools.defaultDataDirectoryDescription))
          -h, --help       Show this help

        \(exitStatus)
        """

    static let tools = """
        OVERVIEW: List the tools of a server.

        USAGE: ondevice-mcp tools [--json] [--timeout SECONDS] [--data-dir DIR | -- CMD ARGS...]

        Prints one block per tool: its name and title, its description, and a one-line
        summary of its arguments.

        OPTIONS:
          --json              Print the 'tools' array of tools/list as pretty JSON
          --timeout SECONDS   How long each request may take (default 60)
          --data-dir DIR      The built-in server's data directory
          -- CMD ARGS...      List the tools of the stdio MCP server CMD instead
          -h, --help          Show this help

        \(exitStatus)
        """

    static let call = """
        OVERVIEW: Call one tool of a server and print its result.

        USAGE: ondevice-mcp call TOOL [JSON-ARGUMENTS] [--json] [--timeout SECONDS] [--data-dir DIR | -- CMD ARGS...]

        JSON-ARGUMENTS is a JSON object, one shell argument: '{"timezone":"Europe/Lisbon"}'.
        Prints the result's text blocks as text; its structuredContent as pretty JSON when it
        has no text; other blocks described in a line each. A tool error (isError) prints the
        same way and exits with status 1.

        OPTIONS:
          --json              Print the whole result object as pretty JSON
          --timeout SECONDS   How long the call may take (default 60); then exit 3
          --data-dir DIR      The built-in server's data directory
          -- CMD ARGS...      Call a tool of the stdio MCP server CMD instead
          -h, --help          Show this help

        EXAMPLES:
          ondevice-mcp call clock_now '{"timezone":"Asia/Tokyo"}'
          ondevice-mcp call notes_add '{"title":"Trip","body":"Book the train"}'
          ondevice-mcp call get_current_time '{"timezone":"UTC"}' -- uvx mcp-server-time

        \(exitStatus)
        """
}
