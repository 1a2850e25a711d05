package import MCP
internal import MCPCore

/// A command of `ondevice-mcp` that takes options.
package enum CommandName: String, CaseIterable, Hashable, Sendable {
    /// `ondevice-mcp serve`.
    case serve
    /// `ondevice-mcp tools`.
    case tools
    /// `ondevice-mcp call`.
    case call
    /// `ondevice-mcp schema`.
    case schema
    /// `ondevice-mcp chat`.
    case chat
}

/// Which servers a command talks to.
///
/// New ways to name servers may be added; a `switch` over this type should have a `default`.
package enum ServerChoice: Hashable, Sendable {
    /// The built-in example server, in this process, storing notes under `dataDirectory`
    /// (`nil`: the default data directory).
    case builtIn(dataDirectory: String?)
    /// A stdio MCP server started as a child process (what follows `--`), in `sandbox`
    /// (`nil`: unboxed, for `--no-sandbox`).
    case command(executable: String, arguments: [String], sandbox: Sandbox? = .standard)
    /// Every server of an `mcpServers` configuration file (`--config FILE`; see
    /// ``ServerConfiguration``), each started as a child process in `sandbox` (`nil`: unboxed)
    /// with its entry's environment set in the box.
    case configuration(file: String, sandbox: Sandbox? = .standard)
    /// A remote server reached over MCP's Streamable HTTP transport (`--url URL`), with the
    /// `--header 'Name: value'` headers on every request.
    case remote(url: String, headers: [String: String] = [:])
}

/// Which language model `chat` and the main job talk to.
///
/// New kinds of model may be added; a `switch` over this type should have a `default`.
package enum ModelChoice: Hashable, Sendable {
    /// `SystemLanguageModel.default`: Apple's on-device model (on Linux the portable module's,
    /// which has no model).
    case onDevice
    /// A model served by an OpenAI-compatible chat-completions server (llama.cpp's
    /// `llama-server`, Ollama, vLLM, a hosted API) at `url` (`--model-url URL`, or
    /// `ONDEVICE_MCP_MODEL_URL`), the one named `name` (`--model NAME`, or `ONDEVICE_MCP_MODEL`;
    /// `nil`: the server's first model).
    case server(url: String, name: String? = nil)
}

/// The options of `ondevice-mcp tools`.
package struct ToolsOptions: Hashable, Sendable {
    /// The server whose tools are listed.
    package var server: ServerChoice
    /// Print the `tools` array as pretty JSON instead of text.
    package var json: Bool
    /// How long each request may take, in seconds.
    package var timeoutSeconds: Double
    /// Also show each tool's generation schema, its diagnostics and the context budget.
    package var schemas: Bool
    /// Show the tools a chat turn with this prompt would get, and why the others would not
    /// (`--for-prompt TEXT`); `nil` lists the tools.
    package var forPrompt: String?

    /// Creates options; the defaults are those of the command line.
    package init(
        server: ServerChoice = .builtIn(dataDirectory: nil), json: Bool = false,
        timeoutSeconds: Double = CommandLineParser.defaultTimeoutSeconds, schemas: Bool = false, forPrompt: String? = nil
    ) {
        self.server = server
        self.json = json
        self.timeoutSeconds = timeoutSeconds
        self.schemas = schemas
        self.forPrompt = forPrompt
    }
}

/// The options of `ondevice-mcp schema`.
package struct SchemaOptions: Hashable, Sendable {
    /// The file to read; `nil` reads standard input (`-` on the command line).
    package var file: String?
    /// The tool name the generated types are named after (`<name>_arguments`), for a bare schema.
    package var name: String
    /// Print one JSON value instead of text.
    package var json: Bool

    /// The name used for a bare schema when `--name` is not given.
    package static let defaultName = "tool"

    /// Creates options; the defaults are those of the command line.
    package init(file: String? = nil, name: String = SchemaOptions.defaultName, json: Bool = false) {
        self.file = file
        self.name = name
        self.json = json
    }
}

/// Whether `chat` and the main job show each tool call as it happens.
package enum ToolCallLines: Hashable, Sendable {
    /// On when standard error is a terminal, off otherwise (the default).
    case automatic
    /// Always (`--show-tool-calls`).
    case shown
    /// Never (`--hide-tool-calls`).
    case hidden
}

/// The options of `ondevice-mcp chat` (and of the main job, which chats the same way).
package struct ChatOptions: Hashable, Sendable {
    /// The server whose tools the model gets.
    package var server: ServerChoice
    /// Let the model run tools that write, delete or reach the network without asking (by
    /// default only read-only tools run, and on a terminal a person is asked about the others).
    package var allowsWrites: Bool
    /// How long each request may take, in seconds.
    package var timeoutSeconds: Double
    /// The language model to chat with.
    package var model: ModelChoice
    /// Whether tool calls, declines and approvals are shown (on standard error).
    package var toolCalls: ToolCallLines
    /// Write one JSON object a line on standard output (`--json`): every event (tool calls,
    /// declines, answers, errors), for scripts; nobody is asked to approve anything.
    package var json: Bool

    /// Creates options; the defaults are those of the command line.
    package init(
        server: ServerChoice = .builtIn(dataDirectory: nil), allowsWrites: Bool = false,
        timeoutSeconds: Double = CommandLineParser.defaultTimeoutSeconds, model: ModelChoice = .onDevice,
        toolCalls: ToolCallLines = .automatic, json: Bool = false
    ) {
        self.server = server
        self.allowsWrites = allowsWrites
        self.timeoutSeconds = timeoutSeconds
        self.model = model
        self.toolCalls = toolCalls
        self.json = json
    }
}

/// The options of `ondevice-mcp call`.
package struct CallOptions: Hashable, Sendable {
    /// The name of the tool to call.
    package var tool: String
    /// The arguments object.
    package var arguments: JSONObject
    /// The server whose tool is called.
    package var server: ServerChoice
    /// Print the whole result object as pretty JSON instead of its content.
    package var json: Bool
    /// How long each request may take, in seconds.
    package var timeoutSeconds: Double

    /// Creates options; the defaults are those of the command line.
    package init(
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
package enum ParsedCommand: Hashable, Sendable {
    /// The main job: bridge the tools of the options' server (the built-in server without
    /// arguments, the servers of a configuration file with `--config FILE`) and chat with its
    /// model as `chat` does when the model is available, else show each bridged tool with its
    /// generation schema.
    case start(ChatOptions = ChatOptions())
    /// Print help: the overview (`nil`) or one command's.
    case help(CommandName?)
    /// Print the version.
    case version
    /// Serve the example tools over stdio, storing notes under the directory (`nil`: the
    /// default), with `files_list` and `files_read` confined to `roots` when there are any.
    case serve(dataDirectory: String?, roots: [String] = [])
    /// List a server's tools.
    case tools(ToolsOptions)
    /// Call one tool.
    case call(CallOptions)
    /// Convert a JSON Schema (or a tool list's input schemas) to generation schemas.
    case schema(SchemaOptions)
    /// Chat with the language model over a server's tools.
    case chat(ChatOptions)
}

/// A command line that cannot be run: exit status 2, with a message and the usage.
package struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in a sentence.
    package var message: String
    /// The command whose usage to show; `nil` for the overview.
    package var command: CommandName?

    /// Creates a usage error.
    package init(_ message: String, command: CommandName? = nil) {
        self.message = message
        self.command = command
    }

    /// `error: <message>`.
    package var description: String { "error: \(message)" }
}
