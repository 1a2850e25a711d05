public import MCPCore

/// A command of `ondevice-mcp` that takes options.
public enum CommandName: String, CaseIterable, Hashable, Sendable {
    /// `ondevice-mcp serve`.
    case serve
    /// `ondevice-mcp tools`.
    case tools
    /// `ondevice-mcp call`.
    case call
}

/// Which server `tools` and `call` talk to.
public enum ServerChoice: Hashable, Sendable {
    /// The built-in example server, in this process, storing notes under `dataDirectory`
    /// (`nil`: the default data directory).
    case builtIn(dataDirectory: String?)
    /// A stdio MCP server started as a child process (what follows `--`).
    case command(executable: String, arguments: [String])
}

/// The options of `ondevice-mcp tools`.
public struct ToolsOptions: Hashable, Sendable {
    /// The server whose tools are listed.
    public var server: ServerChoice
    /// Print the `tools` array as pretty JSON instead of text.
    public var json: Bool
    /// How long each request may take, in seconds.
    public var timeoutSeconds: Double

    /// Creates options; the defaults are those of the command line.
    public init(server: ServerChoice = .builtIn(dataDirectory: nil), json: Bool = false, timeoutSeconds: Double = CommandLineParser.defaultTimeoutSeconds) {
        self.server = server
        self.json = json
        self.timeoutSeconds = timeoutSeconds
    }
}

/// The options of `ondevice-mcp call`.
public struct CallOptions: Hashable, Sendable {
    /// The name of the tool to call.
    public var tool: String
    /// The arguments object.
    public var arguments: JSONObject
    /// The server whose tool is called.
    public var server: ServerChoice
    /// Print the whole result object as pretty JSON instead of its content.
    public var json: Bool
    /// How long each request may take, in seconds.
    public var timeoutSeconds: Double

    /// Creates options; the defaults are those of the command line.
    public init(
        tool: String, arguments: JSONObject = [:], server: ServerChoice = .builtIn(dataDirectory: nil),
        json: Bool = false, timeoutSeconds: Double = CommandLineParser.defaultTimeoutSeconds
    ) {
        self.tool = tool
        self.arguments = arguments
        self.server = server
        self.json = json
        self.timeoutSeconds = timeoutSeconds
    }
}

/// What a command line asks for, once parsed.
public enum ParsedCommand: Hashable, Sendable {
    /// Print help: the overview (`nil`) or one command's.
    case help(CommandName?)
    /// Print the version.
    case version
    /// Serve the example tools over stdio, storing notes under the directory (`nil`: the default).
    case serve(dataDirectory: String?)
    /// List a server's tools.
    case tools(ToolsOptions)
    /// Call one tool.
    case call(CallOptions)
}

/// A command line that cannot be run: exit status 2, with a message and the usage.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in a sentence.
    public var message: String
    /// The command whose usage to show; `nil` for the overview.
    public var command: CommandName?

    /// Creates a usage error.
    public init(_ message: String, command: CommandName? = nil) {
        self.message = message
        self.command = command
    }

    /// `error: <message>`.
    public var description: String { "error: \(message)" }
}
