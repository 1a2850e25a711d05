public import MCPCore

extension MCPServer {
    /// Adds a tool whose arguments decode into a `Decodable` type, with its `inputSchema`
    /// derived from that type, and whose `Encodable` return value becomes the result's
    /// structured content.
    ///
    /// ```swift
    /// struct Search: ToolArguments {
    ///     var query: String
    ///     var limit: Int?
    ///     static let argumentDescriptions = ["query": "Words to look for", "limit": "At most this many notes; 10 by default"]
    /// }
    /// struct Found: Encodable { var titles: [String] }
    ///
    /// try await server.register(name: "notes_search", description: "Search notes") { (search: Search, context) in
    ///     Found(titles: try await notes.search(search.query, limit: search.limit ?? 10))
    /// }
    /// ```
    ///
    /// The schema is ``ToolArgumentsSchema``'s for `Arguments` (print it with
    /// `try ToolArgumentsSchema(for: Search.self).json`). Each call's arguments are validated
    /// against it before the handler runs, as for a hand-written schema, so a wrong argument
    /// is a tool error naming it; then they are decoded and the result made as by the typed
    /// overload with an explicit `inputSchema`.
    ///
    /// - Throws: ``ToolArgumentsSchemaError`` when no schema can be derived from `Arguments`
    ///   (its decoding depends on values it is given, or has a form the schema cannot
    ///   describe): register such a type with an explicit `inputSchema`. The tool list is
    ///   then unchanged.
    public func register<Arguments: Decodable & Sendable, Output: Encodable & Sendable>(
        name: String, title: String? = nil, description: String,
        outputSchema: JSONValue? = nil, annotations: ToolAnnotations? = nil, concurrency: MCPTool.Concurrency = .concurrent,
        run: @escaping @Sendable (Arguments, ToolContext) async throws -> Output
    ) async throws {
        try await register(
            MCPTool(
                name: name, title: title, description: description, outputSchema: outputSchema, annotations: annotations,
                concurrency: concurrency, run: run))
    }

    /// Adds a tool whose arguments decode into a `Decodable` type and whose `Encodable`
    /// return value becomes the result's structured content.
    ///
    /// ```swift
    /// struct Search: Decodable { var query: String; var limit: Int? }
    /// struct Found: Encodable { var titles: [String] }
    ///
    /// try await server.register(
    ///     name: "notes_search", description: "Search notes",
    ///     inputSchema: ["type": "object", "properties": ["query": ["type": "string"], "limit": ["type": "integer"]], "required": ["query"]]
    /// ) { (search: Search, context) in
    ///     Found(titles: try await notes.search(search.query, limit: search.limit ?? 10))
    /// }
    /// ```
    ///
    /// The arguments are validated against `inputSchema` first, then decoded with
    /// ``JSONCore/JSONValueDecoder``; a decoding failure is a tool error naming the argument.
    /// The return value is encoded with ``JSONCore/JSONValueEncoder``: an object becomes
    /// `structuredContent`, mirrored as JSON text in a text block; a string becomes a text
    /// block alone; any other value becomes `structuredContent` `{"result": value}`.
    public func register<Arguments: Decodable & Sendable, Output: Encodable & Sendable>(
        name: String, title: String? = nil, description: String,
        inputSchema: JSONValue, outputSchema: JSONValue? = nil, annotations: ToolAnnotations? = nil,
        concurrency: MCPTool.Concurrency = .concurrent,
        run: @escaping @Sendable (Arguments, ToolContext) async throws -> Output
    ) async throws {
        try await register(
            MCPTool(
                name: name, title: title, description: description, inputSchema: inputSchema, outputSchema: outputSchema,
                annotations: annotations, concurrency: concurrency, run: run))
    }
}
