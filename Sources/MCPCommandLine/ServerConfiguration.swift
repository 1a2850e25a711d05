package import MCP
import MCPCore
internal import MCPPlatform

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The servers of an `mcpServers` configuration file, the format MCP clients such as Claude
/// Desktop, Cursor and VS Code read.
///
/// ```json
/// {
///   "mcpServers": {
///     "time": {"command": "uvx", "args": ["mcp-server-time"], "env": {"TZ": "Europe/Lisbon"}},
///     "git": {"command": "mcp-server-git", "args": ["--repository", "/src/app"], "cwd": "/src/app"}
///   }
/// }
/// ```
///
/// Each key of `mcpServers` names a server (its label: prefixed to tool names two servers
/// share); the servers keep the file's order, because the JSON reader keeps an object's key
/// order. An entry is a command to start: `command` (a path, or a name looked up in `PATH`),
/// `args` (strings), `env` (strings, set in the server's environment, literally: `${…}` is not
/// expanded) and `cwd` (its working directory; a relative one is taken from the file's
/// directory). `"type": "stdio"` is accepted; an entry with `"disabled": true` is left out.
/// Other keys are kept in ``Entry/ignoredKeys``, for a warning; `"ondevice-mcp"` holds this
/// program's box settings for the entry (``BoxSettings``), which other clients ignore. JSON
/// with comments and trailing commas is accepted, and VS Code's `"servers"` for `"mcpServers"`.
///
/// A remote server is an entry with `url` (or `serverUrl`, `httpUrl`) and optional `headers`
/// (an object of strings), reached over MCP's Streamable HTTP transport (falling back to the
/// older HTTP+SSE transport by itself); `"type"` `http`, `sse` or `streamable-http` is accepted
/// with it.
///
/// Internal to the command line (`package`), not a library API: the format is other clients'
/// (no specification; each client adds keys), this type carries the program's own box
/// settings and warnings, and an app that starts servers names them in code with
/// `ServerEndpoint`. Making it public would commit the library to following every client's
/// dialect.
package struct ServerConfiguration: Hashable, Sendable {
    /// One server of the file: a command to start as a child process, or a remote server.
    package struct Entry: Hashable, Sendable {
        /// The key of the entry in `mcpServers`: the server's label.
        package var name: String
        /// The command: a path, or a name looked up in `PATH` (empty for a remote server).
        package var command: String
        /// A remote server's URL (`url`); `nil` for a command.
        package var url: String?
        /// Headers sent to a remote server with every request (`headers`).
        package var headers: [String: String] = [:]
        /// Its arguments (`args`).
        package var arguments: [String]
        /// Environment variables set for the server (`env`).
        package var environment: [String: String]
        /// Its working directory (`cwd`), absolute when the file's directory was known;
        /// `nil`: the default (boxed: its private data directory).
        package var currentDirectory: String?
        /// Keys of the entry this version does not use (such as `envFile` or `autoApprove`), in
        /// the file's order.
        package var ignoredKeys: [String]
        /// The entry's own box settings (its `"ondevice-mcp"` object), over the command line's.
        package var box: BoxSettings?

        /// Creates an entry.
        package init(
            name: String, command: String, arguments: [String] = [], environment: [String: String] = [:],
            currentDirectory: String? = nil, ignoredKeys: [String] = []
        ) {
            self.name = name
            self.command = command
            self.arguments = arguments
            self.environment = environment
            self.currentDirectory = currentDirectory
            self.ignoredKeys = ignoredKeys
        }
    }

    /// What an entry's `"ondevice-mcp"` object says about its box; other MCP clients ignore
    /// the key.
    ///
    /// ```json
    /// "fetch": {"command": "uvx", "args": ["mcp-server-fetch"],
    ///           "ondevice-mcp": {"allowNetwork": true, "passEnv": ["SSL_CERT_FILE", "SSL_CERT_DIR"]}}
    /// ```
    ///
    /// Keys: `sandbox` (`false`: run this server unboxed), `allowRead` and `allowWrite` (paths;
    /// relative ones are taken from the file's directory), `allowNetwork`, `allowUnixSockets`
    /// (booleans), `passEnv` (names), `memoryLimitMiB`, `cpuLimitSeconds` (numbers, or `null`
    /// for no limit). They widen (or, for the limits, set) the command line's box for this
    /// server alone; `--no-sandbox` on the command line still runs every server unboxed.
    package struct BoxSettings: Hashable, Sendable {
        package var unboxed = false
        package var readablePaths: [String] = []
        package var writablePaths: [String] = []
        package var allowsNetwork: Bool?
        package var allowsUnixSockets: Bool?
        package var passedEnvironment: [String] = []
        /// `nil`: not set; `.some(nil)`: no limit.
        package var memoryLimitMiB: Int??
        package var cpuLimitSeconds: Int??

        package init() {}

        /// `box` with these settings applied; `nil` (unboxed) for `"sandbox": false`.
        package func applied(to box: Sandbox) -> Sandbox? {
            guard !unboxed else { return nil }
            var box = box
            box.readablePaths += readablePaths
            box.writablePaths += writablePaths
            if let allowsNetwork { box.allowsNetwork = allowsNetwork }
            if let allowsUnixSockets { box.allowsUnixSockets = allowsUnixSockets }
            box.passedEnvironment += passedEnvironment
            if let memoryLimitMiB { box.memoryLimit = memoryLimitMiB.map { $0 * 1_048_576 } }
            if let cpuLimitSeconds { box.cpuTimeLimit = cpuLimitSeconds }
            return box
        }
    }

    /// The key of an entry that holds its ``BoxSettings``.
    package static let boxKey = "ondevice-mcp"

    /// The servers, in the file's order (without the disabled ones).
    package var servers: [Entry]
    /// The labels of entries marked `"disabled": true`, left out, in the file's order.
    package var disabled: [String]

    /// Creates a configuration.
    package init(servers: [Entry], disabled: [String] = []) {
        self.servers = servers
        self.disabled = disabled
    }

    /// The keys of an entry this version uses.
    static let knownKeys: Set<String> = ["command", "args", "env", "cwd", "type", "disabled"]
    /// The `type`s of remote servers.
    static let remoteTypes: Set<String> = ["http", "sse", "streamable-http", "streamableHttp"]
    /// The keys that give a remote server's address, by client: `url` (most), `serverUrl`
    /// (Windsurf), `httpUrl` (Gemini CLI).
    static let addressKeys = ["url", "serverUrl", "httpUrl"]

    /// Reads the configuration file at `path`.
    ///
    /// - Throws: ``ServerConfigurationError`` when the file cannot be read, is not JSON, or
    ///   is not a configuration this version can run.
    package init(contentsOfFile path: String) throws(ServerConfigurationError) {
        let source = "'\(path)'"
        guard POSIX.exists(path) else {
            throw ServerConfigurationError(.unreadable, "cannot read \(source): no such file")
        }
        guard !POSIX.isDirectory(path) else {
            throw ServerConfigurationError(.unreadable, "cannot read \(source): it is a directory")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ServerConfigurationError(.unreadable, "cannot read \(source): \(readableDescription(of: error))")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try self.init(parsing: data, source: source, directory: directory)
    }

    /// Reads a configuration from JSON text.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes (UTF-8 JSON).
    ///   - source: How messages name the file (`'servers.json'`).
    ///   - directory: Where a relative `cwd` is taken from; `nil` leaves it as written.
    /// - Throws: ``ServerConfigurationError``.
    package init(
        parsing bytes: some Collection<UInt8>, source: String = "the configuration", directory: String? = nil
    ) throws(ServerConfigurationError) {
        let document: JSONValue
        do {
            // Comments and trailing commas, as VS Code writes them, are accepted.
            document = try JSONValue(parsing: JSONCText.plain(bytes))
        } catch {
            throw ServerConfigurationError(.invalidJSON, "\(source) is not valid JSON: \(error)")
        }
        guard let root = document.objectValue else {
            throw ServerConfigurationError(
                .notAConfiguration, "\(source) is not an mcpServers configuration: it is \(Self.described(document)), not an object")
        }
        // VS Code's mcp.json calls the object "servers".
        guard let key = ["mcpServers", "servers"].first(where: { root[$0] != nil }), let value = root[key] else {
            throw ServerConfigurationError(.notAConfiguration, "\(source) has no \"mcpServers\" (or VS Code's \"servers\") object")
        }
        guard let entries = value.objectValue else {
            throw ServerConfigurationError(
                .notAConfiguration, "\"\(key)\" in \(source) must be an object of servers, not \(Self.described(value))")
        }
        var servers: [Entry] = []
        var disabled: [String] = []
        for (name, entry) in entries {
            guard let parsed = try Self.entry(name: name, value: entry, source: source, directory: directory) else {
                disabled.append(name)
                continue
            }
            servers.append(parsed)
        }
        guard !servers.isEmpty else {
            let note = disabled.isEmpty ? "" : " that is not disabled"
            throw ServerConfigurationError(.notAConfiguration, "\"\(key)\" in \(source) has no server\(note)")
        }
        self.init(servers: servers, disabled: disabled)
    }

    /// One entry; `nil` for a disabled one.
    private static func entry(
        name: String, value: JSONValue, source: String, directory: String?
    ) throws(ServerConfigurationError)
        -> Entry?
    {
        let server = "server \"\(name)\" in \(source)"
        func invalid(_ message: String) -> ServerConfigurationError {
            ServerConfigurationError(.invalidEntry, "\(server) \(message)", server: name)
        }
        guard !name.isEmpty else {
            throw ServerConfigurationError(.invalidEntry, "a server in \(source) has an empty name", server: name)
        }
        guard let object = value.objectValue else {
            throw invalid("must be an object, not \(described(value))")
        }
        switch object["disabled"] {
        case nil, .bool(false)?: break
        case .bool(true)?: return nil
        case let other?: throw invalid("has \"disabled\" \(described(other)), not true or false")
        }
        var type: String?
        if let value = object["type"] {
            guard let text = value.stringValue else { throw invalid("has \"type\" \(described(value)), not a string") }
            type = text
        }
        let remoteProblem = { (message: String) in ServerConfigurationError(.remoteServer, "\(server) \(message)", server: name) }
        if let key = addressKeys.first(where: { object[$0] != nil }) {
            return try remoteEntry(name: name, object: object, key: key, invalid: remoteProblem)
        }
        if let type, remoteTypes.contains(type) {
            throw remoteProblem("has \"type\": \"\(type)\" but no \"url\": a remote server needs its address")
        }
        if let type, type != "stdio" {
            throw invalid("has \"type\" \"\(type)\"; a server this version can start has \"type\" \"stdio\" (or none)")
        }
        guard let commandValue = object["command"] else {
            throw invalid("has no \"command\": the program that runs the server")
        }
        guard let command = commandValue.stringValue else {
            throw invalid("has \"command\" \(described(commandValue)), not a string")
        }
        guard !command.allSatisfy(\.isWhitespace) else {
            throw invalid("has an empty \"command\"")
        }
        var arguments: [String] = []
        if let value = object["args"] {
            guard let array = value.arrayValue else { throw invalid("has \"args\" \(described(value)), not an array of strings") }
            for (index, element) in array.enumerated() {
                guard let text = element.stringValue else {
                    throw invalid("has \"args\" element \(index) \(described(element)), not a string")
                }
                arguments.append(text)
            }
        }
        var environment: [String: String] = [:]
        if let value = object["env"] {
            guard let variables = value.objectValue else { throw invalid("has \"env\" \(described(value)), not an object of strings") }
            for (variable, element) in variables {
                guard !variable.isEmpty, !variable.contains("="), !variable.contains("\0") else {
                    throw invalid("has \"env\" name \"\(variable)\", which cannot name an environment variable")
                }
                guard let text = element.stringValue else {
                    throw invalid("has \"env\" \"\(variable)\" \(described(element)), not a string")
                }
                environment[variable] = text
            }
        }
        var currentDirectory: String?
        if let value = object["cwd"] {
            guard let text = value.stringValue else { throw invalid("has \"cwd\" \(described(value)), not a string") }
            guard !text.isEmpty else { throw invalid("has an empty \"cwd\"") }
            if text.hasPrefix("/") || directory == nil {
                currentDirectory = text
            } else if let directory {
                currentDirectory = (directory.hasSuffix("/") ? directory : directory + "/") + text
            }
        }
        let ignored = object.keys.filter { !knownKeys.contains($0) && !addressKeys.contains($0) && $0 != "headers" && $0 != boxKey }
        var entry = Entry(
            name: name, command: command, arguments: arguments, environment: environment, currentDirectory: currentDirectory,
            ignoredKeys: ignored)
        if let value = object[boxKey] {
            entry.box = try boxSettings(value, directory: directory, invalid: invalid)
        }
        return entry
    }

    /// An entry's `"ondevice-mcp"` object.
    private static func boxSettings(
        _ value: JSONValue, directory: String?, invalid: (String) -> ServerConfigurationError
    ) throws(ServerConfigurationError) -> BoxSettings {
        guard let object = value.objectValue else { throw invalid("has \"\(boxKey)\" \(described(value)), not an object") }
        var settings = BoxSettings()
        func strings(_ key: String) throws(ServerConfigurationError) -> [String] {
            guard let value = object[key] else { return [] }
            guard let array = value.arrayValue else {
                throw invalid("has \"\(boxKey)\".\(key) \(described(value)), not an array of strings")
            }
            var result: [String] = []
            for element in array {
                guard let text = element.stringValue, !text.isEmpty else {
                    throw invalid("has \"\(boxKey)\".\(key) element \(described(element)), not a non-empty string")
                }
                result.append(text)
            }
            return result
        }
        func flag(_ key: String) throws(ServerConfigurationError) -> Bool? {
            guard let value = object[key] else { return nil }
            guard let flag = value.boolValue else { throw invalid("has \"\(boxKey)\".\(key) \(described(value)), not true or false") }
            return flag
        }
        func limit(_ key: String) throws(ServerConfigurationError) -> Int?? {
            guard let value = object[key] else { return nil }
            if value.isNull { return .some(nil) }
            guard let number = value.intValue, number > 0 else {
                throw invalid("has \"\(boxKey)\".\(key) \(described(value)), not a positive whole number or null")
            }
            return .some(number)
        }
        func resolved(_ path: String) -> String {
            guard !path.hasPrefix("/"), let directory else { return path }
            return (directory.hasSuffix("/") ? directory : directory + "/") + path
        }
        if let sandbox = try flag("sandbox") { settings.unboxed = !sandbox }
        settings.readablePaths = try strings("allowRead").map(resolved)
        settings.writablePaths = try strings("allowWrite").map(resolved)
        settings.allowsNetwork = try flag("allowNetwork")
        settings.allowsUnixSockets = try flag("allowUnixSockets")
        settings.passedEnvironment = try strings("passEnv")
        settings.memoryLimitMiB = try limit("memoryLimitMiB")
        settings.cpuLimitSeconds = try limit("cpuLimitSeconds")
        let known: Set<String> = [
            "sandbox", "allowRead", "allowWrite", "allowNetwork", "allowUnixSockets", "passEnv", "memoryLimitMiB", "cpuLimitSeconds",
        ]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw invalid(
                "has \"\(boxKey)\".\(unknown), which this version does not know (keys: \(known.sorted().joined(separator: ", ")))")
        }
        return settings
    }

    /// A remote server's entry: its `url` (an http or https URL) and `headers`.
    static func remoteEntry(
        name: String, object: JSONObject, key: String, invalid: (String) -> ServerConfigurationError
    ) throws(ServerConfigurationError) -> Entry {
        guard let value = object[key], let url = value.stringValue else {
            throw invalid("has \"\(key)\" \(object[key].map(described) ?? "null"), not a string")
        }
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw invalid("has \"\(key)\" \"\(url)\", not an http:// or https:// URL")
        }
        if object["command"] != nil {
            throw invalid("has both \"\(key)\" and \"command\"; a server is either remote or started here")
        }
        var headers: [String: String] = [:]
        if let value = object["headers"] {
            guard let fields = value.objectValue else { throw invalid("has \"headers\" \(described(value)), not an object of strings") }
            for (field, element) in fields {
                guard let text = element.stringValue else {
                    throw invalid("has \"headers\" \"\(field)\" \(described(element)), not a string")
                }
                headers[field] = text
            }
        }
        var entry = Entry(name: name, command: "")
        entry.url = url
        entry.headers = headers
        entry.ignoredKeys = object.keys.filter { !knownKeys.contains($0) && !addressKeys.contains($0) && $0 != "headers" }
        return entry
    }

    /// `a string`, `an array`, `null`.
    static func described(_ value: JSONValue) -> String {
        let name = value.typeName
        if value.isNull { return name }
        return (["array", "object", "integer"].contains(name) ? "an " : "a ") + name
    }
}

/// Why a configuration file cannot be used: a usage error (exit status 2).
package struct ServerConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is; more kinds may be added.
    package struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The reason's name.
        package let name: String

        init(_ name: String) {
            self.name = name
        }

        /// The file does not exist, is a directory, or cannot be read.
        package static let unreadable = Reason("unreadable")
        /// The file is not JSON; the message quotes the byte offset.
        package static let invalidJSON = Reason("invalidJSON")
        /// The JSON has no `mcpServers` object, or no server in it.
        package static let notAConfiguration = Reason("notAConfiguration")
        /// An entry is not one this version can start: no `command`, or a value of the wrong type.
        package static let invalidEntry = Reason("invalidEntry")
        /// A remote server's entry (`url`, or a `type` of `http` or `sse`) cannot be used: no
        /// `url`, one that is not http or https, `headers` that are not strings, or a `command` too.
        package static let remoteServer = Reason("remoteServer")

        /// The reason's name, such as `invalidEntry`.
        package var description: String { name }
    }

    /// What kind of problem it is.
    package var reason: Reason
    /// The label of the entry at fault, when it is one entry.
    package var server: String?
    /// What is wrong, in a sentence that names the file (and the entry).
    package var message: String

    /// Creates an error.
    package init(_ reason: Reason, _ message: String, server: String? = nil) {
        self.reason = reason
        self.message = message
        self.server = server
    }

    /// The message.
    package var description: String { message }
}
