import MCP
import MCPFoundationModels
internal import MCPPlatform

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

    // MARK: chat

    func chat(_ options: ChatOptions) async -> ExitCode {
        // A configuration that cannot be used is a usage error, whatever the model: read once,
        // here, before the model.
        var configuration: ServerConfiguration?
        if case .configuration(let file, _) = options.server {
            do {
                configuration = try readConfiguration(file, command: .chat)
            } catch {
                return error.code
            }
        }
        guard #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) else {
            return fail("no language model is available: \(Self.needsNewerSystem)")
        }
        // The model first: a model server that cannot be used fails before any server starts.
        let model: ChatModel
        do {
            model = try await connectModel(options.model)
        } catch {
            return error.code
        }
        guard model.isAvailable else {
            return fail(Self.modelUnavailable(model.availability))
        }
        let servers: [ConnectedServer]
        do {
            servers = try await connectServers(
                options.server, configuration: configuration, timeout: options.timeoutSeconds, command: .chat)
        } catch {
            return error.code
        }
        let status = await chat(servers: servers, model: model, options: options)
        await Self.close(servers)
        return status
    }

    /// The chat loop over the servers' tools, through one ``MCPSessionProvider``: one prompt
    /// a line from ``input``, each answer on ``output``; a note on what the model gets, and each
    /// tool call, decline and approval request, go to ``errors`` (or, with `--json`, every
    /// event to ``output``).
    ///
    /// Where input and standard error are a terminal (and not `--json`), a person is asked
    /// about every call the policy or the data-flow guard does not allow outright
    /// (``TerminalApprover``): without `--allow-writes`, each call of a tool that writes,
    /// deletes or reaches the network; with it, the calls the guard holds.
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func chat(servers: [ConnectedServer], model: ChatModel, options: ChatOptions) async -> ExitCode {
        let modelName = Self.modelName(options.model)
        let lines = TypedLines(input.lines())
        // Counted, so that a streamed answer is rewritten in place only when nothing else was
        // written to the terminal since it began.
        let errors = CountingOutput(self.errors)
        let asksPerson = input.isInteractive && errors.isInteractive && !options.json
        let approver = asksPerson ? ToolApprover(TerminalApprover(lines: lines, prompt: errors).decide) : nil
        let everyEffect: ToolEffects = [.writes, .destroys, .reachesOpenWorld]
        let policy: ToolPolicy =
            switch (options.allowsWrites, approver) {
            case (true, let approver): .allowing(everyEffect, approver: approver)
            case (false, let approver?): .allowing([], approver: approver)
            case (false, nil): .readOnly
            }
        let display = ChatDisplay(
            lines: options.json ? output : errors,
            showsToolCalls: options.toolCalls == .shown || (options.toolCalls == .automatic && errors.isInteractive),
            json: options.json, allowsWrites: options.allowsWrites, asksPerson: asksPerson)
        let configuration = MCPSessionProvider.Configuration(policy: policy)
        let provider = model.provider(
            servers: servers.map { MCPSessionProvider.Server(name: $0.label, client: $0.client) }, configuration: configuration)
        // Every event is shown as it comes; a turn's answer waits until its events are shown.
        let turns = TurnEnds()
        let shown = Task {
            for await event in provider.events {
                display.show(event)
                if case .turnEnded(let end) = event { await turns.ended(end) }
            }
            await turns.close()
        }
        defer { shown.cancel() }
        do {
            _ = try await provider.session()
        } catch {
            await provider.close()
            return failure(error, during: "preparing the chat session", timeout: options.timeoutSeconds)
        }
        let available = await provider.availableTools.map(\.name)
        var note = "Chatting with \(modelName)"
        if servers.count > 1 {
            note += " over \(servers.count) servers (\(servers.map(\.label).joined(separator: ", ")))"
        }
        note += "; its tools: \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        if available.count > configuration.budget.maximumTools {
            note += " (each turn gets the \(configuration.budget.maximumTools) most relevant to its prompt)"
        }
        let excluded = await provider.selection.excluded.filter { exclusion in !available.contains(exclusion.name) }
        if !excluded.isEmpty {
            note += " (left out: \(excluded.map(\.toolNameOnServer).joined(separator: ", ")))"
        }
        switch (options.allowsWrites, asksPerson) {
        case (true, _): note += ".\nTools that write, delete or reach the network run without asking (--allow-writes).\n"
        case (false, true):
            note += ".\nYou are asked before a tool writes, deletes or reaches the network (--allow-writes runs them without asking).\n"
        case (false, false): note += ".\nOnly read-only tools run; --allow-writes lets the model run tools that write or delete.\n"
        }
        errors.write(note + "Type a question and press Return; end with Ctrl-D.\n")
        do {
            if output.isInteractive && !options.json {
                // On a terminal the answer appears as the model writes it, and is rewritten in
                // place when the model's answer is replaced (a loop cut and asked again).
                var answer = StreamedAnswer()
                try await provider.runChat(input: lines.prompts) { snapshot in
                    let text = answer.show(snapshot, columns: output.columns, others: errors.writes)
                    if !text.isEmpty { output.write(text) }
                } output: { whole in
                    output.write(answer.finish(whole, columns: output.columns, others: errors.writes))
                }
            } else {
                for try await line in lines.prompts {
                    let prompt = line.drop { $0.isWhitespace }
                    guard !prompt.isEmpty else { continue }
                    let answer = try? await provider.respond(to: String(prompt))
                    try Task.checkCancellation()
                    // The turn's events first, then its answer (or why it failed, secrets redacted).
                    let end = await turns.next()
                    display.showAnswer(answer ?? "error: \(end?.error ?? "the turn failed")", on: output)
                }
            }
        } catch {
            await provider.close()
            return fail("the chat ended: \(error)")
        }
        await provider.close()
        return .success
    }

    // MARK: No arguments

    /// The main job: bridges the tools of `server` (the built-in server, or the servers of a
    /// configuration file), then chats when `model` is available, or shows the bridged tools
    /// and how to get a model. A model server that cannot be used is an error (status 3).
    func start(_ options: ChatOptions = ChatOptions()) async -> ExitCode {
        let (server, choice, timeout) = (options.server, options.model, options.timeoutSeconds)
        guard #available(iOS 26.0, macOS 26.0, visionOS 26.0, *) else {
            let status = await tools(ToolsOptions(server: server))
            output.write("\nNo chat: \(Self.needsNewerSystem).\n\(Self.moreCommands)\n")
            return status
        }
        let model: ChatModel
        do {
            model = try await connectModel(choice)
        } catch {
            return error.code
        }
        let servers: [ConnectedServer]
        do {
            servers = try await connectServers(server, timeout: timeout, command: nil)
        } catch {
            return error.code
        }
        if model.isAvailable {
            let status = await chat(servers: servers, model: model, options: options)
            await Self.close(servers)
            return status
        }
        let report: BridgeReport
        do {
            report = try await bridgeReport(servers, timeout: timeout, grouped: server.isConfiguration)
        } catch {
            await Self.close(servers)
            return error.code
        }
        await Self.close(servers)
        switch server {
        case .configuration(let file, let sandbox):
            let box = sandbox == nil ? "each unboxed (--no-sandbox)" : "each in its own box"
            output.write(
                "ondevice-mcp \(OnDeviceMCPVersion.string): the \(servers.count) servers of '\(file)' "
                    + "(\(servers.map(\.label).joined(separator: ", "))), \(box), with their tools bridged for the on-device model "
                    + "(model name, generation schema, diagnostics, context cost).\n\n")
        default:
            output.write(
                "ondevice-mcp \(OnDeviceMCPVersion.string): the built-in example server, in process, with its tools bridged "
                    + "for the on-device model (model name, generation schema, diagnostics, context cost).\n\n")
        }
        output.write(report.describe())
        let unavailable = Self.modelUnavailable(model.availability)
        output.write("\n\(unavailable.prefix(1).uppercased())\(unavailable.dropFirst())\n\(Self.moreCommands)\n")
        return .success
    }

    static let moreCommands = "'ondevice-mcp --help' lists the commands (schema, tools, call, chat, serve)."

    // MARK: The model

    /// The chosen model: the system model, or the model server's through ``models``.
    /// A failure is reported in one line and thrown as ``Abort`` (status 3).
    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    func connectModel(_ choice: ModelChoice) async throws(Abort) -> ChatModel {
        switch choice {
        case .onDevice:
            return ChatModel(system: models.systemModel)
        case .server(let url, let name):
            guard models.reachesModelServers else {
                // Where Apple's FoundationModels exists: no model client.
                throw Abort(
                    code: fail(
                        "this build has no model client: --model-url (\(CommandLineParser.modelURLVariable)) is for platforms without "
                            + "Apple's FoundationModels; here chat uses the on-device model"))
            }
            do {
                return try await models.connect(to: url, model: name)
            } catch {
                throw Abort(code: fail(Self.oneLine("cannot chat with the model at \(url): \(error)")))
            }
        }
    }

    /// How the chat's note names the model: `the language model`, or `NAME at URL`.
    static func modelName(_ choice: ModelChoice) -> String {
        switch choice {
        case .onDevice: "the language model"
        case .server(let url, let name?): "the model \(name) at \(url)"
        case .server(let url, nil): "the model at \(url)"
        }
    }

    /// `text` on one line: line breaks become spaces.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
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
            To chat, give ondevice-mcp a model on an OpenAI-compatible server (llama.cpp, Ollama, vLLM, LM Studio):
            --model-url URL [--model NAME], or \(CommandLineParser.modelURLVariable)=URL in the environment. README.md,
            "A real model on Linux", starts a small local one in two commands. On an Apple device with Apple
            Intelligence (macOS 26 or later) ondevice-mcp uses the on-device model. An app passes any LanguageModel
            (ChatCompletionsModel is one) to MCPSessionProvider(client:model:).
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
