/// A tool an MCP server offers, as `tools/list` describes it: its name, what it does, and
/// the JSON Schema of its arguments.
///
/// MCP's schema calls this object `Tool`; Swift code that also imports FoundationModels has
/// a `Tool` protocol there, so this library names it `ToolDefinition`.
///
/// - SeeAlso: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool
public struct ToolDefinition: Hashable, Sendable {
    /// The unique name clients call it by; MCP recommends `[A-Za-z0-9_.-]{1,128}`.
    public var name: String
    /// A name for people to read.
    public var title: String?
    /// What the tool does, for a model to decide when to use it.
    public var description: String?
    /// The JSON Schema of the `arguments` object.
    public var inputSchema: JSONValue
    /// The JSON Schema of `structuredContent` in results, if the tool declares one.
    public var outputSchema: JSONValue?
    /// Hints about the tool's behaviour (untrusted when they come from a peer).
    public var annotations: ToolAnnotations?
    /// Icons, as the peer sent them.
    public var icons: JSONValue?
    /// The tool's `_meta` object.
    public var meta: JSONObject?

    /// The schema of a tool that takes no arguments.
    public static let emptyInputSchema: JSONValue = ["type": "object", "additionalProperties": false]

    public init(
        name: String, title: String? = nil, description: String? = nil,
        inputSchema: JSONValue = ToolDefinition.emptyInputSchema, outputSchema: JSONValue? = nil,
        annotations: ToolAnnotations? = nil, icons: JSONValue? = nil, meta: JSONObject? = nil
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.inputSchema = inputSchema
        self.outputSchema = outputSchema
        self.annotations = annotations
        self.icons = icons
        self.meta = meta
    }

    /// Reads a tool from a `tools/list` result.
    ///
    /// - Throws: ``PayloadError`` when `name` is missing or not a string, or
    ///   `inputSchema` is present but not an object.
    public init(json: JSONValue) throws(PayloadError) {
        guard case .object(let object) = json else {
            throw PayloadError(at: JSONPointer(), "a tool must be an object, not \(json.typeName)")
        }
        guard case .string(let name)? = object["name"] else {
            throw .expected("a string", at: "name", found: object["name"])
        }
        let inputSchema = object["inputSchema"] ?? ["type": "object"]
        guard inputSchema.objectValue != nil else {
            throw .expected("an object", at: "inputSchema", found: inputSchema)
        }
        self.init(
            name: name,
            title: object["title"]?.stringValue,
            description: object["description"]?.stringValue,
            inputSchema: inputSchema,
            outputSchema: object["outputSchema"],
            annotations: object["annotations"].map(ToolAnnotations.init(json:)),
            icons: object["icons"],
            meta: object["_meta"]?.objectValue)
    }

    /// The tool as it appears in a `tools/list` result.
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 6)
        object["name"] = .string(name)
        if let title { object["title"] = .string(title) }
        if let description { object["description"] = .string(description) }
        object["inputSchema"] = inputSchema
        if let outputSchema { object["outputSchema"] = outputSchema }
        if let annotations { object["annotations"] = annotations.json }
        if let icons { object["icons"] = icons }
        if let meta { object["_meta"] = .object(meta) }
        return .object(object)
    }

    /// The name to show people: `title`, then `annotations.title`, then `name`.
    public var displayName: String {
        title ?? annotations?.title ?? name
    }
}

/// Hints about what a tool does, from MCP's `ToolAnnotations`.
///
/// Hints are advice from the server, not guarantees; a client deciding whether to ask
/// a person before running a tool should treat a peer's hints as untrusted.
public struct ToolAnnotations: Hashable, Sendable {
    /// A name for people to read.
    public var title: String?
    /// The tool does not change its environment (default `false`).
    public var readOnlyHint: Bool?
    /// The tool may destroy data, when it is not read-only (default `true`).
    public var destructiveHint: Bool?
    /// Calling it twice with the same arguments has no further effect (default `false`).
    public var idempotentHint: Bool?
    /// The tool reaches beyond a closed set of things, such as the web (default `true`).
    public var openWorldHint: Bool?

    public init(
        title: String? = nil, readOnlyHint: Bool? = nil, destructiveHint: Bool? = nil,
        idempotentHint: Bool? = nil, openWorldHint: Bool? = nil
    ) {
        self.title = title
        self.readOnlyHint = readOnlyHint
        self.destructiveHint = destructiveHint
        self.idempotentHint = idempotentHint
        self.openWorldHint = openWorldHint
    }

    public init(json: JSONValue) {
        self.init(
            title: json["title"]?.stringValue, readOnlyHint: json["readOnlyHint"]?.boolValue,
            destructiveHint: json["destructiveHint"]?.boolValue, idempotentHint: json["idempotentHint"]?.boolValue,
            openWorldHint: json["openWorldHint"]?.boolValue)
    }

    public var json: JSONValue {
        var object = JSONObject()
        if let title { object["title"] = .string(title) }
        if let readOnlyHint { object["readOnlyHint"] = .bool(readOnlyHint) }
        if let destructiveHint { object["destructiveHint"] = .bool(destructiveHint) }
        if let idempotentHint { object["idempotentHint"] = .bool(idempotentHint) }
        if let openWorldHint { object["openWorldHint"] = .bool(openWorldHint) }
        return .object(object)
    }

    /// Whether the tool only reads, with the spec's default (`false`) when absent.
    public var isReadOnly: Bool { readOnlyHint ?? false }
    /// Whether the tool may destroy data, with the spec's defaults when absent.
    public var mayDestroy: Bool { !isReadOnly && (destructiveHint ?? true) }
    /// Whether the tool reaches an open world, with the spec's default (`true`) when absent.
    public var reachesOpenWorld: Bool { openWorldHint ?? true }
}
