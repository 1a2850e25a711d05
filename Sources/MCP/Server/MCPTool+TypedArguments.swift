public import MCPCore

extension MCPTool {
    /// Creates a tool whose arguments decode into `Arguments`, with its `inputSchema`
    /// derived from that type.
    ///
    /// ```swift
    /// struct Search: ToolArguments {
    ///     var query: String
    ///     var limit: Int?
    ///     static let argumentDescriptions = ["query": "Words to look for", "limit": "At most this many notes"]
    /// }
    ///
    /// let search = try MCPTool(name: "notes_search", description: "Search notes") { (search: Search, _) in
    ///     try await notes.search(search.query, limit: search.limit ?? 10)
    /// }
    /// ```
    ///
    /// The schema is ``ToolArgumentsSchema``'s for `Arguments`; the server validates each
    /// call's arguments against it before decoding, as for any tool. Decoding and the
    /// result are those of the typed initializer with an explicit `inputSchema`.
    ///
    /// - Throws: ``ToolArgumentsSchemaError`` when no schema can be derived from `Arguments`
    ///   (its decoding depends on values, or has a form the schema cannot describe); pass
    ///   `inputSchema` explicitly for such a type.
    public init<Arguments: Decodable & Sendable, Output: Encodable & Sendable>(
        name: String, title: String? = nil, description: String,
        outputSchema: JSONValue? = nil, annotations: ToolAnnotations? = nil, concurrency: Concurrency = .concurrent,
        run: @escaping @Sendable (_ arguments: Arguments, _ context: ToolContext) async throws -> Output
    ) throws(ToolArgumentsSchemaError) {
        let schema = try ToolArgumentsSchema(for: Arguments.self)
        self.init(
            name: name, title: title, description: description, inputSchema: schema.json, outputSchema: outputSchema,
            annotations: annotations, concurrency: concurrency, run: Self.typedHandler(tool: name, run))
    }

    /// Creates a tool whose arguments decode into `Arguments`, validated against the
    /// `inputSchema` given, and whose `Encodable` return value becomes the result.
    ///
    /// The arguments are validated against `inputSchema` first, then decoded with
    /// ``JSONCore/JSONValueDecoder``; a decoding failure is a tool error naming the argument.
    /// The return value is encoded with ``JSONCore/JSONValueEncoder``: an object becomes
    /// `structuredContent`, mirrored as JSON text in a text block; a string becomes a text
    /// block alone; any other value becomes `structuredContent` `{"result": value}`.
    public init<Arguments: Decodable & Sendable, Output: Encodable & Sendable>(
        name: String, title: String? = nil, description: String,
        inputSchema: JSONValue, outputSchema: JSONValue? = nil, annotations: ToolAnnotations? = nil,
        concurrency: Concurrency = .concurrent,
        run: @escaping @Sendable (_ arguments: Arguments, _ context: ToolContext) async throws -> Output
    ) {
        self.init(
            name: name, title: title, description: description, inputSchema: inputSchema, outputSchema: outputSchema,
            annotations: annotations, concurrency: concurrency, run: Self.typedHandler(tool: name, run))
    }

    /// The handler of a typed tool: decodes the arguments, runs `run`, encodes its result.
    static func typedHandler<Arguments: Decodable & Sendable, Output: Encodable & Sendable>(
        tool name: String, _ run: @escaping @Sendable (Arguments, ToolContext) async throws -> Output
    ) -> Handler {
        { arguments, context in
            let decoded: Arguments
            do {
                decoded = try JSONValueDecoder().decode(Arguments.self, from: .object(arguments))
            } catch let error as DecodingError {
                let location = error.jsonPointer.isRoot ? "(root)" : error.jsonPointer.description
                return .error("Invalid arguments for tool \(name): \(location): \(error.context.debugDescription)")
            }
            return try typedResult(from: try await run(decoded, context))
        }
    }

    /// The result for a typed tool's return value.
    static func typedResult<Output: Encodable & Sendable>(from output: Output) throws -> CallToolResult {
        switch try JSONValueEncoder().encode(output) {
        case .string(let text):
            return .text(text)
        case .object(let object):
            return .structured(.object(object))
        case let other:
            return .structured(["result": other])
        }
    }
}
