public import MCPCore

extension MCPServer {
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
        run: @escaping @Sendable (Arguments, ToolContext) async throws -> Output
    ) async throws {
        try await register(
            name: name, title: title, description: description, inputSchema: inputSchema,
            outputSchema: outputSchema, annotations: annotations
        ) { arguments, context in
            let decoded: Arguments
            do {
                decoded = try JSONValueDecoder().decode(Arguments.self, from: .object(arguments))
            } catch let error as DecodingError {
                let location = error.jsonPointer.isRoot ? "(root)" : error.jsonPointer.description
                return .error("Invalid arguments for tool \(name): \(location): \(error.context.debugDescription)")
            }
            return try Self.result(from: try await run(decoded, context))
        }
    }

    /// The result for a typed tool's return value.
    static func result<Output: Encodable & Sendable>(from output: Output) throws -> CallToolResult {
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
