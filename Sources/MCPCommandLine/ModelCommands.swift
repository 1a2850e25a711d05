#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MCP
import MCPFoundationModels
internal import MCPPlatform

// The commands that use the FoundationModels bridge: `schema`, `tools --schemas`, `chat`,
// and the program without arguments.

extension Runner {
    /// Said when FoundationModels' types cannot be used: macOS before 26.
    static let needsNewerSystem = "the on-device model and generation schemas need macOS 26 or later (FoundationModels)"

    // MARK: schema

    func schema(_ options: SchemaOptions) async -> ExitCode {
        guard #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) else {
            return fail(Self.needsNewerSystem)
        }
        let source = options.file.map { "'\($0)'" } ?? "standard input"
        let data: Data
        do {
            if let file = options.file {
                guard FileManager.default.fileExists(atPath: file) else {
                    return usageError("cannot read \(source): no such file", command: .schema)
                }
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } else {
                data = try input.readAll()
            }
        } catch {
            return usageError("cannot read \(source): \(readableDescription(of: error))", command: .schema)
        }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data)
        } catch {
            return usageError("\(source) is not valid JSON: \(error)", command: .schema)
        }
        let schemas: SchemaDocument
        do {
            schemas = try SchemaDocument(document, name: options.name)
        } catch {
            return usageError("\(source) \(error.message)", command: .schema)
        }
        switch schemas {
        case .schema(let schema):
            let conversion: SchemaConversion
            do {
                conversion = try SchemaConversion(inputSchema: schema, name: options.name)
            } catch {
                return fail("the schema cannot be converted: \(error)")
            }
            if options.json {
                output.write(Formatting.prettyJSON(SchemaReport.json(conversion)) + "\n")
            } else {
                output.write(SchemaReport.describe(conversion, compact: false))
            }
        case .tools(let tools):
            let names = ToolNameMap(serverNames: tools.map(\.name))
            var blocks: [String] = []
            var objects: [JSONValue] = []
            for tool in tools {
                let modelName = names.modelName(for: tool.name) ?? tool.name
                let conversion: SchemaConversion
                do {
                    conversion = try SchemaConversion(inputSchema: tool.inputSchema, name: modelName)
                } catch {
                    return fail("the input schema of \(tool.name) cannot be converted: \(error)")
                }
                var object = SchemaReport.json(conversion).objectValue ?? [:]
                object["name"] = .string(tool.name)
                object["modelName"] = .string(modelName)
                objects.append(.object(object.reordered(first: ["name", "modelName"])))
                let heading = modelName == tool.name ? tool.name : "\(tool.name) (model name: \(modelName))"
                blocks.append("== \(heading) ==\n" + SchemaReport.describe(conversion, compact: false))
            }
            if options.json {
                output.write(Formatting.prettyJSON(.array(objects)) + "\n")
            } else {
                output.write(blocks.isEmpty ? "(the document lists no tools)\n" : blocks.joined(separator: "\n"))
            }
        }
        return .success
    }

    // MARK: tools --schemas

    func toolSchemas(_ options: ToolsOptions) async -> ExitCode {
        guard #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) else {
            return fail(Self.needsNewerSystem)
        }
        let client: MCPClient
        do {
            client = try await connect(options.server, timeout: options.timeoutSeconds)
        } catch {
            return error.code
        }
        let report: BridgeReport
        do {
            report = try await bridge(client, timeout: options.timeoutSeconds, policy: .readOnly)
        } catch {
            await client.close()
            return error.code
        }
        await client.close()
        if options.json {
            output.write(Formatting.prettyJSON(report.json) + "\n")
        } else {
            output.write(report.describe())
        }
        return .success
    }

    /// Lists the tools of `client`'s server and bridges them as a chat session would.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func bridge(_ client: MCPClient, timeout: Double, policy: ToolPolicy) async throws(Abort) -> BridgeReport {
        let tools: [MCPCore.ToolDefinition]
        do {
            let listing = try await client.toolListing()
            tools = listing.tools
            for skipped in listing.skipped { errors.write("warning: \(skipped)\n") }
        } catch {
            throw Abort(code: failure(error, during: "tools/list", timeout: timeout))
        }
        do {
            return try BridgeReport(tools: tools, client: client, configuration: MCPSessionProvider.Configuration(policy: policy))
        } catch {
            throw Abort(code: fail("the tools cannot be bridged: \(error)"))
        }
    }

    // MARK: chat

    func chat(_ options: ChatOptions) async -> ExitCode {
        guard #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) else {
            return fail("no language model is available: \(Self.needsNewerSystem)")
        }
        let model = languageModel
        guard model.isAvailable else {
            return fail(Self.modelUnavailable(model.availability))
        }
        let client: MCPClient
        do {
            client = try await connect(options.server, timeout: options.timeoutSeconds)
        } catch {
            return error.code
        }
        let status = await chat(client: client, model: model, allowsWrites: options.allowsWrites, timeout: options.timeoutSeconds)
        await client.close()
        return status
    }

    /// The chat loop over `client`'s tools: one prompt a line from ``input``, each answer on
    /// ``output``; a note on what the model gets goes to ``errors``.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func chat(client: MCPClient, model: SystemLanguageModel, allowsWrites: Bool, timeout: Double) async -> ExitCode {
        let configuration = MCPSessionProvider.Configuration(policy: allowsWrites ? .allowAll : .readOnly)
        let provider = MCPSessionProvider(client: client, model: model, configuration: configuration)
        do {
            _ = try await provider.session()
        } catch {
            await provider.close()
            return failure(error, during: "preparing the chat session", timeout: timeout)
        }
        let available = await provider.availableTools.map(\.name)
        var note = "Chatting with the language model; its tools: \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        if available.count > configuration.budget.maximumTools {
            note += " (each turn gets the \(configuration.budget.maximumTools) most relevant to its prompt)"
        }
        let excluded = await provider.selection.excluded.filter { exclusion in !available.contains(exclusion.name) }
        if !excluded.isEmpty {
            note += " (left out: \(excluded.map(\.serverName).joined(separator: ", ")))"
        }
        note += allowsWrites ? ".\n" : ".\nOnly read-only tools run; --allow-writes lets the model run tools that write or delete.\n"
        errors.write(note + "Type a question and press Return; end with Ctrl-D.\n")
        do {
            try await runChat(provider: provider, input: input.lines()) { answer in
                output.write(answer + "\n")
            }
        } catch {
            await provider.close()
            return fail("the chat ended: \(error)")
        }
        await provider.close()
        return .success
    }

    // MARK: No arguments

    /// Bridges the built-in server's tools, then chats when a model is available, or shows
    /// the bridged tools and how to get a model.
    func start() async -> ExitCode {
        let timeout = CommandLineParser.defaultTimeoutSeconds
        guard #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) else {
            let status = await tools(ToolsOptions())
            output.write("\nNo chat: \(Self.needsNewerSystem).\n\(Self.moreCommands)\n")
            return status
        }
        let client: MCPClient
        do {
            client = try await connect(.builtIn(dataDirectory: nil), timeout: timeout)
        } catch {
            return error.code
        }
        let model = languageModel
        if model.isAvailable {
            let status = await chat(client: client, model: model, allowsWrites: false, timeout: timeout)
            await client.close()
            return status
        }
        let report: BridgeReport
        do {
            report = try await bridge(client, timeout: timeout, policy: .readOnly)
        } catch {
            await client.close()
            return error.code
        }
        await client.close()
        output.write(
            "ondevice-mcp \(OnDeviceMCPVersion.string): the built-in example server, in process, with its tools bridged "
                + "for the on-device model (model name, generation schema, diagnostics, context cost).\n\n")
        output.write(report.describe())
        let unavailable = Self.modelUnavailable(model.availability)
        output.write("\n\(unavailable.prefix(1).uppercased())\(unavailable.dropFirst())\n\(Self.moreCommands)\n")
        return .success
    }

    static let moreCommands = "'ondevice-mcp --help' lists the commands (schema, tools, call, chat, serve)."

    // MARK: The model

    /// The injected model, else `SystemLanguageModel.default`.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    var languageModel: SystemLanguageModel {
        (model as? SystemLanguageModel) ?? .default
    }

    /// Why there is no model, and how to get one.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    static func modelUnavailable(_ availability: SystemLanguageModel.Availability) -> String {
        #if canImport(FoundationModels)
        guard case .unavailable(let reason) = availability else { return "the language model is available." }
        if reason == .appleIntelligenceNotEnabled {
            return "no language model is available: Apple Intelligence is turned off. Turn it on in System Settings > "
                + "Apple Intelligence & Siri, let the model download, and run ondevice-mcp again."
        }
        if reason == .modelNotReady {
            return "no language model is available yet: the on-device model is not ready (it may still be downloading). "
                + "Try again in a while."
        }
        return "no language model is available: this Mac cannot run Apple Intelligence. The on-device model needs an "
            + "Apple device with Apple Intelligence on macOS 26 or later (iOS, iPadOS and visionOS 26 apps use the same bridge)."
        #else
        _ = availability
        return """
            no language model is available: on this platform the portable FoundationModels module has no model of its own.
            To chat, run ondevice-mcp on an Apple device with Apple Intelligence (macOS 26 or later; iOS, iPadOS and
            visionOS 26 apps use the same bridge). An app can plug a model in with SystemLanguageModel(backend:) and
            pass it to MCPSessionProvider(client:model:).
            """
        #endif
    }
}

// MARK: - Reports

/// A document `ondevice-mcp schema` reads: one schema, or the tools of a tool list.
enum SchemaDocument {
    struct ListedTool {
        var name: String
        var inputSchema: JSONValue?
    }

    case schema(JSONValue)
    case tools([ListedTool])

    struct Problem: Error {
        let message: String
    }

    /// Reads a JSON Schema (an object or a boolean); a `tools/list` result, a `{"tools": […]}`
    /// object or a JSON-RPC response holding one; an array of tools; or one tool.
    init(_ document: JSONValue, name: String) throws(Problem) {
        if case .array(let tools)? = document["tools"] ?? document["result"]?["tools"] {
            self = .tools(try Self.tools(tools))
        } else if case .array(let tools) = document {
            self = .tools(try Self.tools(tools))
        } else if document["name"]?.stringValue != nil, document["inputSchema"] != nil {
            self = .tools(try Self.tools([document]))
        } else if document.objectValue != nil || document.boolValue != nil {
            self = .schema(document)
        } else {
            throw Problem(message: "is not a JSON Schema: a schema is an object or a boolean, not \(Self.described(document))")
        }
    }

    /// `a string`, `an integer`, `null`.
    static func described(_ value: JSONValue) -> String {
        let name = value.typeName
        if value.isNull { return name }
        return (["array", "object", "integer"].contains(name) ? "an " : "a ") + name
    }

    private static func tools(_ values: [JSONValue]) throws(Problem) -> [ListedTool] {
        var tools: [ListedTool] = []
        for (index, value) in values.enumerated() {
            guard value.objectValue != nil else {
                throw Problem(message: "is not a tool list: tool \(index) is \(Self.described(value)), not an object")
            }
            tools.append(ListedTool(name: value["name"]?.stringValue ?? "tool_\(index + 1)", inputSchema: value["inputSchema"]))
        }
        return tools
    }
}

/// How `ondevice-mcp` shows a schema conversion.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
enum SchemaReport {
    /// The generation schema as JSON (Apple's form, keys sorted).
    static func schemaJSON(_ conversion: SchemaConversion) -> JSONValue {
        guard let text = try? conversion.schemaJSON(prettyPrinted: false), let value = try? JSONValue(parsing: text) else {
            return .null
        }
        return value
    }

    /// `{"schema": …, "diagnostics": [{"severity", "location", "message"}]}`.
    static func json(_ conversion: SchemaConversion) -> JSONValue {
        ["schema": schemaJSON(conversion), "diagnostics": diagnosticsJSON(conversion.diagnostics)]
    }

    static func diagnosticsJSON(_ diagnostics: [SchemaDiagnostic]) -> JSONValue {
        .array(
            diagnostics.map { diagnostic in
                [
                    "severity": .string(diagnostic.severity.rawValue), "location": .string(diagnostic.location.description),
                    "message": .string(diagnostic.message),
                ]
            })
    }

    /// The generation schema (pretty, or compact on one line) and the diagnostics, a line
    /// each, every line starting with `indent`; ends with a newline.
    static func describe(_ conversion: SchemaConversion, compact: Bool, indent: String = "") -> String {
        let schema = schemaJSON(conversion)
        var text: String
        if compact {
            text = "\(indent)generation schema: \((try? JSONWriter().string(from: schema)) ?? schema.description)\n"
        } else {
            text = "\(indent)generation schema:\n"
            for line in Formatting.prettyJSON(schema).split(separator: "\n", omittingEmptySubsequences: false) {
                text += "\(indent)  \(line)\n"
            }
        }
        text += describe(conversion.diagnostics, indent: indent)
        return text
    }

    /// `diagnostics: none`, or a count and one line per diagnostic.
    static func describe(_ diagnostics: [SchemaDiagnostic], indent: String) -> String {
        guard !diagnostics.isEmpty else { return "\(indent)diagnostics: none\n" }
        var text = "\(indent)diagnostics (\(diagnostics.count)):\n"
        for diagnostic in diagnostics {
            text += "\(indent)  \(diagnostic)\n"
        }
        return text
    }
}

/// A server's tools bridged as a session would get them: each tool's model name,
/// generation schema, diagnostics and estimated tokens, and which fit the context budget.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
struct BridgeReport {
    struct Entry {
        let tool: MCPCore.ToolDefinition
        let bridged: MCPBridgedTool
        let estimatedTokens: Int
        /// Why a session would leave it out; `nil` when it is included.
        let exclusion: String?

        /// Invisible characters and instruction-like phrases in the tool's name, title and description.
        var securityWarnings: [String] {
            UntrustedText.diagnostics(for: ["name": tool.name, "title": tool.title, "description": tool.description])
                + UntrustedText.descriptions(in: tool.inputSchema).flatMap {
                    UntrustedText.diagnostics(for: ["parameter description": $0])
                }
        }
    }

    let entries: [Entry]
    let toolset: BridgedToolset
    let budget: ContextBudget

    init(tools: [MCPCore.ToolDefinition], client: MCPClient, configuration: MCPSessionProvider.Configuration) throws {
        let toolset = try BridgedToolset(listing: tools, client: client, configuration: configuration)
        let budget = configuration.budget
        entries = try tools.map { tool in
            let bridged = try MCPBridgedTool(
                tool: tool, client: client, name: toolset.names.modelName(for: tool.name), policy: configuration.policy, budget: budget)
            return Entry(
                tool: tool, bridged: bridged, estimatedTokens: BridgedToolset.estimatedTokens(of: bridged, budget: budget),
                exclusion: toolset.excluded.first { $0.serverName == tool.name }?.reason)
        }
        self.toolset = toolset
        self.budget = budget
    }

    /// One block per tool, then the budget line.
    func describe() -> String {
        guard !entries.isEmpty else { return "(the server offers no tools)\n" }
        var blocks: [String] = []
        for entry in entries {
            var text = Formatting.describe(entry.tool)
            text += "  model name: \(entry.bridged.name)\n"
            for warning in entry.securityWarnings { text += "  warning: \(warning)\n" }
            if let conversion = entry.bridged.conversion {
                text += SchemaReport.describe(conversion, compact: true, indent: "  ")
            }
            if let exclusion = entry.exclusion {
                text += "  context: left out, \(exclusion)\n"
            } else {
                text += "  context: included, about \(entry.estimatedTokens) tokens\n"
            }
            blocks.append(text)
        }
        return blocks.joined(separator: "\n") + "\n" + budgetSummary + "\n"
    }

    /// `Context budget: 5 of 5 tools included, about 612 of 1536 tool tokens (…)`.
    var budgetSummary: String {
        var text = "Context budget: \(toolset.tools.count) of \(entries.count) tools included, about \(toolset.estimatedTokens) of "
            + "\(budget.toolTokens) tool tokens (at most \(budget.maximumTools) tools; \(budget.contextTokens)-token context; "
            + "about \(budget.charactersPerToken) characters a token)."
        if !toolset.excluded.isEmpty {
            text += "\nLeft out: \(toolset.excluded.map(\.serverName).joined(separator: ", "))."
        }
        return text
    }

    /// `{"tools": [{name, modelName, description, schema, diagnostics, estimatedTokens, included, exclusionReason?}], "budget": {…}}`.
    var json: JSONValue {
        let tools: [JSONValue] = entries.map { entry in
            var object: JSONObject = [
                "name": .string(entry.tool.name), "modelName": .string(entry.bridged.name),
                "description": .string(entry.bridged.description),
            ]
            if let conversion = entry.bridged.conversion {
                object["schema"] = SchemaReport.schemaJSON(conversion)
                object["diagnostics"] = SchemaReport.diagnosticsJSON(conversion.diagnostics)
            }
            object["securityWarnings"] = .array(entry.securityWarnings.map { .string($0) })
            object["estimatedTokens"] = .int(entry.estimatedTokens)
            object["included"] = .bool(entry.exclusion == nil)
            if let exclusion = entry.exclusion {
                object["exclusionReason"] = .string(exclusion)
            }
            return .object(object)
        }
        let budget: JSONValue = [
            "contextTokens": .int(self.budget.contextTokens), "toolTokens": .int(self.budget.toolTokens),
            "maximumTools": .int(self.budget.maximumTools), "estimatedTokens": .int(toolset.estimatedTokens),
            "included": .array(toolset.tools.map { .string($0.serverName) }),
            "excluded": .array(toolset.excluded.map { .string($0.serverName) }),
        ]
        return ["tools": .array(tools), "budget": budget]
    }
}

extension JSONObject {
    /// The same members with `keys` first, in that order.
    func reordered(first keys: [String]) -> JSONObject {
        var result = JSONObject()
        for key in keys {
            if let value = self[key] { result[key] = value }
        }
        for (key, value) in self where !keys.contains(key) {
            result[key] = value
        }
        return result
    }
}
