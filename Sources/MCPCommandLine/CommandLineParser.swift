import MCP
import MCPCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns `ondevice-mcp`'s arguments into a ``ParsedCommand``.
///
/// Options may come before or after positional arguments and take their value as the next
/// argument or after `=` (`--timeout 5`, `--timeout=5`). `-h`/`--help` anywhere before
/// `--` asks for the command's help. Everything after `--` is the server command, passed on
/// untouched. Without a command, `--config FILE` and the box options run the main job over
/// the configuration's servers.
///
/// `chat` and the main job take their model from `--model-url URL [--model NAME]`; without
/// the option, from the environment variable ``modelURLVariable`` (and ``modelNameVariable``
/// for the name), when the caller passes the environment.
package enum CommandLineParser {
    /// The default request timeout: 60 seconds.
    package static let defaultTimeoutSeconds: Double = 60
    /// The longest timeout accepted: one day.
    package static let maximumTimeoutSeconds: Double = 86_400
    /// `ONDEVICE_MCP_MODEL_URL`: the model server's URL when `--model-url` is not given.
    package static let modelURLVariable = "ONDEVICE_MCP_MODEL_URL"
    /// `ONDEVICE_MCP_MODEL`: the model's name when `--model` is not given.
    package static let modelNameVariable = "ONDEVICE_MCP_MODEL"
    /// `ONDEVICE_MCP_MODEL_API_KEY`: the bearer token for the model server (hosted APIs). Read
    /// from the environment only, never from an option: a command line is visible to every
    /// process of the machine. Never sent over plain `http://` except to this machine.
    package static let modelAPIKeyVariable = "ONDEVICE_MCP_MODEL_API_KEY"

    /// Parses the arguments that follow the program name.
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program name.
    ///   - environment: Where ``modelURLVariable`` and ``modelNameVariable`` are looked up
    ///     (an empty value counts as unset); by default nothing is.
    /// - Throws: ``UsageError`` for an unknown command or option, a missing or malformed
    ///   value, or `JSON-ARGUMENTS` that is not a JSON object.
    package static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> ParsedCommand {
        guard let first = arguments.first else {
            return .start(ChatOptions(model: try Scan.model(flagURL: nil, flagName: nil, environment: environment, command: nil)))
        }
        let rest = arguments.dropFirst()
        switch first {
        case "-h", "--help":
            return .help(nil)
        case "help":
            guard let topic = rest.first else { return .help(nil) }
            guard rest.count == 1, let name = CommandName(rawValue: topic) else {
                throw UsageError("no help for '\(rest.joined(separator: " "))'; commands are \(commandList)")
            }
            return .help(name)
        case "--version":
            guard rest.isEmpty else { throw UsageError("unexpected argument '\(rest[rest.startIndex])' after --version") }
            return .version
        default:
            break
        }
        if first.hasPrefix("-") {
            let name = first.hasPrefix("--") ? String(first.prefix { $0 != "=" }) : first
            guard Scan.startOptions.contains(name) else {
                throw UsageError("unknown option '\(first)'")
            }
            return try parseStart(arguments, environment: environment)
        }
        guard let command = CommandName(rawValue: first) else {
            throw UsageError("unknown command '\(first)'; commands are \(commandList)")
        }
        return try parse(command, Array(rest), environment: environment)
    }

    /// The main job with options: `--config FILE`, the box options and the model options.
    private static func parseStart(_ arguments: [String], environment: [String: String]) throws(UsageError) -> ParsedCommand {
        if let separator = arguments.firstIndex(of: "--") {
            if arguments[..<separator].contains(where: { $0 == "-h" || $0 == "--help" }) { return .help(nil) }
            throw UsageError("the main job takes its servers from --config FILE; '-- CMD' is for tools, call and chat")
        }
        if arguments.contains("-h") || arguments.contains("--help") {
            return .help(nil)
        }
        let scan = try Scan(
            arguments, command: nil, flags: Scan.boxFlags.union(Scan.chatFlags),
            valued: Scan.boxValued.union(["--config"]).union(Scan.modelValued), repeated: Scan.boxRepeated, allowsServerCommand: false)
        if let extra = scan.positionals.first {
            let hint = CommandName(rawValue: extra).map { "; put the command first: ondevice-mcp \($0.rawValue) --config FILE" } ?? ""
            throw UsageError("unexpected argument '\(extra)'\(hint)")
        }
        return .start(try scan.chatOptions(environment: environment))
    }

    private static var commandList: String {
        CommandName.allCases.map(\.rawValue).joined(separator: ", ")
    }

    private static func parse(
        _ command: CommandName, _ arguments: [String], environment: [String: String]
    ) throws(UsageError) -> ParsedCommand {
        let beforeServer = arguments.prefix { $0 != "--" }
        if beforeServer.contains("-h") || beforeServer.contains("--help") {
            return .help(command)
        }
        switch command {
        case .serve:
            let scan = try Scan(arguments, command: command, flags: [], valued: ["--data-dir", "--root"], allowsServerCommand: false)
            if let extra = scan.positionals.first {
                throw UsageError("unexpected argument '\(extra)'", command: command)
            }
            let roots = scan.repeatedValues["--root", default: []]
            if let relative = roots.first(where: { !$0.hasPrefix("/") }) {
                throw UsageError("--root needs an absolute path, not '\(relative)'", command: command)
            }
            return .serve(dataDirectory: scan.values["--data-dir"], roots: roots)
        case .tools:
            let scan = try Scan(
                arguments, command: command, flags: Scan.boxFlags.union(["--json", "--schemas"]),
                valued: Scan.boxValued.union(["--data-dir", "--timeout", "--config", "--for-prompt", "--url"]),
                repeated: Scan.boxRepeated.union(["--header"]), allowsServerCommand: true)
            if let extra = scan.positionals.first {
                let hint = scan.values["--for-prompt"] != nil ? "; quote the prompt of --for-prompt as one argument" : ""
                throw UsageError("unexpected argument '\(extra)'\(hint)", command: command)
            }
            let prompt = try scan.single("--for-prompt")
            if prompt != nil, scan.flags.contains("--schemas") {
                throw UsageError("--for-prompt and --schemas are two reports; give one", command: command)
            }
            return .tools(
                ToolsOptions(
                    server: try scan.server(), json: scan.flags.contains("--json"), timeoutSeconds: try scan.timeout(),
                    schemas: scan.flags.contains("--schemas"), forPrompt: prompt))
        case .schema:
            let scan = try Scan(arguments, command: command, flags: ["--json"], valued: ["--name"], allowsServerCommand: false)
            if scan.positionals.count > 1 {
                throw UsageError(
                    "unexpected argument '\(scan.positionals[1])'; schema reads one FILE (or '-' for standard input)", command: command)
            }
            let file = scan.positionals.first.flatMap { $0 == "-" ? nil : $0 }
            if file?.isEmpty == true {
                throw UsageError("FILE must not be empty", command: command)
            }
            return .schema(
                SchemaOptions(file: file, name: scan.values["--name"] ?? SchemaOptions.defaultName, json: scan.flags.contains("--json")))
        case .chat:
            let scan = try Scan(
                arguments, command: command, flags: Scan.boxFlags.union(Scan.chatFlags),
                valued: Scan.boxValued.union(["--data-dir", "--timeout", "--config", "--url"]).union(Scan.modelValued),
                repeated: Scan.boxRepeated.union(["--header"]), allowsServerCommand: true)
            if let extra = scan.positionals.first {
                throw UsageError("unexpected argument '\(extra)'; chat reads prompts from standard input, one a line", command: command)
            }
            return .chat(try scan.chatOptions(environment: environment))
        case .call:
            let scan = try Scan(
                arguments, command: command, flags: Scan.boxFlags.union(["--json"]),
                valued: Scan.boxValued.union(["--data-dir", "--timeout", "--url", "--config"]),
                repeated: Scan.boxRepeated.union(["--header"]),
                allowsServerCommand: true)
            guard let tool = scan.positionals.first else {
                throw UsageError("missing TOOL: the name of the tool to call", command: command)
            }
            guard !tool.isEmpty else {
                throw UsageError("TOOL must not be empty", command: command)
            }
            if scan.positionals.count > 2 {
                throw UsageError(
                    "unexpected argument '\(scan.positionals[2])'; JSON-ARGUMENTS must be a single argument (quote it)", command: command)
            }
            var toolArguments = JSONObject()
            if scan.positionals.count == 2 {
                toolArguments = try parseToolArguments(scan.positionals[1])
            }
            return .call(
                CallOptions(
                    tool: tool, arguments: toolArguments, server: try scan.server(),
                    json: scan.flags.contains("--json"), timeoutSeconds: try scan.timeout()))
        }
    }

    /// Reads `JSON-ARGUMENTS`: a JSON object.
    static func parseToolArguments(_ text: String) throws(UsageError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONReader().read(text)
        } catch {
            throw UsageError("JSON-ARGUMENTS is not valid JSON: \(error)", command: .call)
        }
        guard case .object(let object) = value else {
            let article = ["array", "object", "integer"].contains(value.typeName) ? "an" : value.isNull ? "" : "a"
            throw UsageError(
                "JSON-ARGUMENTS must be a JSON object, not \(article.isEmpty ? "" : article + " ")\(value.typeName)", command: .call)
        }
        return object
    }
}

/// The options and positional arguments of one command, checked against what it accepts.
private struct Scan {
    /// The command; `nil` for the main job (the program without a command).
    let command: CommandName?
    var positionals: [String] = []
    var flags: Set<String> = []
    var values: [String: String] = [:]
    /// Every value of each valued option, in order (for repeatable options such as `--root`
    /// and `--allow-read`).
    var repeatedValues: [String: [String]] = [:]
    var serverCommand: [String]?

    /// The box options' flags, for commands that launch a server.
    static let boxFlags: Set<String> = ["--no-sandbox", "--allow-network"]
    /// The box options that take one value.
    static let boxValued: Set<String> = ["--memory-limit", "--cpu-limit"]
    /// The box options that may be repeated.
    static let boxRepeated: Set<String> = ["--allow-read", "--allow-write", "--pass-env"]
    /// The options that choose the language model, for `chat` and the main job.
    static let modelValued: Set<String> = ["--model-url", "--model"]
    /// The flags of the chat, for `chat` and the main job.
    static let chatFlags: Set<String> = ["--allow-writes", "--show-tool-calls", "--hide-tool-calls", "--json"]
    /// The options the main job takes, before any command: `--config`, the box options, the
    /// model options and the chat's flags.
    static let startOptions: Set<String> = boxFlags.union(boxValued).union(boxRepeated).union(["--config"]).union(modelValued)
        .union(chatFlags)

    /// The options of `chat` and the main job.
    func chatOptions(environment: [String: String]) throws(UsageError) -> ChatOptions {
        if flags.contains("--show-tool-calls") && flags.contains("--hide-tool-calls") {
            throw UsageError("--show-tool-calls and --hide-tool-calls contradict each other; give one", command: command)
        }
        let toolCalls: ToolCallLines =
            flags.contains("--show-tool-calls") ? .shown : flags.contains("--hide-tool-calls") ? .hidden : .automatic
        return ChatOptions(
            server: try server(), allowsWrites: flags.contains("--allow-writes"), timeoutSeconds: try timeout(),
            model: try model(environment: environment), toolCalls: toolCalls, json: flags.contains("--json"))
    }

    init(
        _ arguments: [String], command: CommandName?, flags known: Set<String>, valued: Set<String>, repeated: Set<String> = [],
        allowsServerCommand: Bool
    ) throws(UsageError) {
        self.command = command
        // The command's name in messages: `tools`, or `ondevice-mcp` for the main job.
        let commandLabel = command?.rawValue ?? "ondevice-mcp"
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                guard allowsServerCommand else {
                    throw UsageError("\(commandLabel) does not take a server command after '--'", command: command)
                }
                let rest = Array(arguments[index...])
                guard !rest.isEmpty else {
                    throw UsageError("expected a server command after '--'", command: command)
                }
                serverCommand = rest
                break
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                positionals.append(argument)
                continue
            }
            let name: String
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            if known.contains(name) {
                if inline != nil {
                    throw UsageError("option '\(name)' takes no value", command: command)
                }
                flags.insert(name)
            } else if valued.contains(name) || repeated.contains(name) {
                if inline == nil {
                    guard index < arguments.count, arguments[index] != "--" else {
                        throw UsageError("option '\(name)' needs a value", command: command)
                    }
                    inline = arguments[index]
                    index += 1
                }
                guard let value = inline, !value.isEmpty else {
                    throw UsageError("option '\(name)' needs a non-empty value", command: command)
                }
                values[name] = value
                repeatedValues[name, default: []].append(value)
            } else {
                throw UsageError("unknown option '\(name)' for \(commandLabel)", command: command)
            }
        }
    }

    /// The value of an option that may be given once; `nil` when it is not given.
    func single(_ option: String) throws(UsageError) -> String? {
        let given = repeatedValues[option] ?? []
        if given.count > 1 {
            throw UsageError("\(option) may be given once", command: command)
        }
        return given.first
    }

    func server() throws(UsageError) -> ServerChoice {
        let boxOptions = Self.boxFlags.intersection(flags).union(Self.boxValued.intersection(values.keys))
            .union(Self.boxRepeated.intersection(repeatedValues.keys)).sorted()
        if let url = try single("--url") {
            if serverCommand != nil || values["--config"] != nil || values["--data-dir"] != nil {
                let other = serverCommand != nil ? "'-- CMD'" : values["--config"] != nil ? "--config" : "--data-dir"
                throw UsageError("--url names a remote server; it cannot be used with \(other)", command: command)
            }
            if let option = boxOptions.first {
                throw UsageError("\(option) is for servers this program starts; a remote server (--url) runs elsewhere", command: command)
            }
            return .remote(url: try Self.remoteURL(url, option: "--url", command: command), headers: try headers())
        }
        if let header = repeatedValues["--header"]?.first {
            throw UsageError("--header '\(header)' is for a remote server; give its --url", command: command)
        }
        if let file = try single("--config") {
            if serverCommand != nil {
                throw UsageError("--config and '-- CMD' both name servers; give one", command: command)
            }
            if values["--data-dir"] != nil {
                throw UsageError("--data-dir is for the built-in server; it cannot be used with --config", command: command)
            }
            return .configuration(file: file, sandbox: try sandbox(boxOptions))
        }
        guard let serverCommand, let executable = serverCommand.first else {
            if let option = boxOptions.first {
                throw UsageError(
                    "\(option) is for a server command ('-- CMD') or the servers of --config FILE; the built-in server runs in "
                        + "this process, outside any box",
                    command: command)
            }
            return .builtIn(dataDirectory: values["--data-dir"])
        }
        if values["--data-dir"] != nil {
            throw UsageError("--data-dir is for the built-in server; it cannot be used with '-- CMD'", command: command)
        }
        return .command(executable: executable, arguments: Array(serverCommand.dropFirst()), sandbox: try sandbox(boxOptions))
    }

    /// The `--header 'Name: value'` options, by name.
    private func headers() throws(UsageError) -> [String: String] {
        var result: [String: String] = [:]
        for header in repeatedValues["--header"] ?? [] {
            guard let colon = header.firstIndex(of: ":") else {
                throw UsageError("--header needs 'Name: value', not '\(header)'", command: command)
            }
            let name = Self.trimmed(header[..<colon])
            let value = Self.trimmed(header[header.index(after: colon)...])
            let token = name.unicodeScalars.allSatisfy {
                $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains($0)
            }
            guard !name.isEmpty, token else {
                throw UsageError("--header '\(header)': '\(name)' is not a header name", command: command)
            }
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw UsageError("--header '\(name)': the value must be one line", command: command)
            }
            result[name] = value
        }
        return result
    }

    /// `text` without spaces and tabs at either end.
    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// An `http` or `https` URL with a host; `option` names where it came from, for the message.
    static func remoteURL(_ text: String, option: String, command: CommandName?) throws(UsageError) -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw UsageError("\(option) needs an http:// or https:// URL with a host, not '\(text)'", command: command)
        }
        return text
    }

    /// The model of `chat` and the main job: `--model-url URL [--model NAME]`, else the
    /// environment's.
    func model(environment: [String: String]) throws(UsageError) -> ModelChoice {
        try Self.model(flagURL: try single("--model-url"), flagName: try single("--model"), environment: environment, command: command)
    }

    /// The model from the options' values, each falling back on its environment variable
    /// (``CommandLineParser/modelURLVariable``, ``CommandLineParser/modelNameVariable``) when
    /// the option is absent; an empty variable counts as unset.
    static func model(
        flagURL: String?, flagName: String?, environment: [String: String], command: CommandName?
    ) throws(UsageError) -> ModelChoice {
        func variable(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        let name = flagName ?? variable(CommandLineParser.modelNameVariable)
        if let flagURL {
            return .server(url: try remoteURL(flagURL, option: "--model-url", command: command), name: name)
        }
        if let url = variable(CommandLineParser.modelURLVariable) {
            return .server(url: try remoteURL(url, option: CommandLineParser.modelURLVariable, command: command), name: name)
        }
        if let flagName {
            throw UsageError(
                "--model '\(flagName)' names a model of a model server; give its --model-url URL (or set \(CommandLineParser.modelURLVariable))",
                command: command)
        }
        return .onDevice
    }

    /// The box for a server command, from the box options; `nil` for `--no-sandbox`.
    private func sandbox(_ given: [String]) throws(UsageError) -> Sandbox? {
        if flags.contains("--no-sandbox") {
            if let other = given.first(where: { $0 != "--no-sandbox" }) {
                throw UsageError("--no-sandbox turns the box off; it cannot be combined with \(other)", command: command)
            }
            return nil
        }
        var box = Sandbox.standard
        box.readablePaths = repeatedValues["--allow-read"] ?? []
        box.writablePaths = repeatedValues["--allow-write"] ?? []
        box.passedEnvironment = repeatedValues["--pass-env"] ?? []
        box.allowsNetwork = flags.contains("--allow-network")
        if let text = values["--memory-limit"] {
            box.memoryLimit = try limit(text, option: "--memory-limit", unit: "MiB", maximum: 1 << 30).map { $0 * 1_048_576 }
        }
        if let text = values["--cpu-limit"] {
            box.cpuTimeLimit = try limit(text, option: "--cpu-limit", unit: "seconds", maximum: 1 << 31)
        }
        return box
    }

    /// A positive whole number no larger than `maximum`, or `none` (no limit).
    private func limit(_ text: String, option: String, unit: String, maximum: Int) throws(UsageError) -> Int? {
        if text == "none" { return nil }
        guard let value = Int(text), value > 0, value <= maximum else {
            throw UsageError("\(option) needs a whole number of \(unit) from 1 to \(maximum), or 'none', not '\(text)'", command: command)
        }
        return value
    }

    func timeout() throws(UsageError) -> Double {
        guard let text = values["--timeout"] else { return CommandLineParser.defaultTimeoutSeconds }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= CommandLineParser.maximumTimeoutSeconds else {
            throw UsageError(
                "--timeout needs a number of seconds greater than 0 and at most \(Int(CommandLineParser.maximumTimeoutSeconds)), not '\(text)'",
                command: command)
        }
        return seconds
    }
}
