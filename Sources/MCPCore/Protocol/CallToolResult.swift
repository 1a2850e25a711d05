/// The result of `tools/call`: content blocks, optional structured content, and whether it is an error.
///
/// A result with ``isError`` set is a *tool execution error*: the call reached the tool
/// and the tool (or argument validation) failed. Its text is meant for the model to read
/// and act on. Protocol problems (an unknown tool, malformed parameters) are JSON-RPC
/// errors instead.
public struct CallToolResult: Hashable, Sendable {
    /// What the tool returned, for people and models to read.
    public var content: [ContentBlock]
    /// A JSON value matching the tool's `outputSchema`, when it has one.
    public var structuredContent: JSONValue?
    /// Whether the tool failed.
    public var isError: Bool
    /// The result's `_meta` object.
    public var meta: JSONObject?

    public init(content: [ContentBlock], structuredContent: JSONValue? = nil, isError: Bool = false, meta: JSONObject? = nil) {
        self.content = content
        self.structuredContent = structuredContent
        self.isError = isError
        self.meta = meta
    }

    /// A successful result with one text block.
    public static func text(_ text: String) -> CallToolResult {
        CallToolResult(content: [.text(text)])
    }

    /// A tool execution error with one text block saying what went wrong.
    public static func error(_ message: String) -> CallToolResult {
        CallToolResult(content: [.text(message)], isError: true)
    }

    /// A successful result carrying `value` as structured content, mirrored as JSON text
    /// in a text block for clients that read only text (as the spec recommends).
    public static func structured(_ value: JSONValue) -> CallToolResult {
        CallToolResult(content: [.text(value.description)], structuredContent: value)
    }

    /// Reads a `tools/call` result.
    ///
    /// - Throws: ``PayloadError`` when `content` is missing or not an array.
    public init(json: JSONValue) throws(PayloadError) {
        guard case .object(let object) = json else {
            throw PayloadError(at: JSONPointer(), "a tool result must be an object, not \(json.typeName)")
        }
        guard case .array(let blocks)? = object["content"] else {
            throw .expected("an array", at: "content", found: object["content"])
        }
        self.init(
            content: blocks.map(ContentBlock.init(json:)),
            structuredContent: object["structuredContent"],
            isError: object["isError"]?.boolValue ?? false,
            meta: object["_meta"]?.objectValue)
    }

    /// The result as it appears on the wire (without era-specific members such as `resultType`).
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 5)
        object["content"] = .array(content.map(\.json))
        if let structuredContent { object["structuredContent"] = structuredContent }
        object["isError"] = .bool(isError)
        if let meta { object["_meta"] = .object(meta) }
        return .object(object)
    }

    /// The text of every text block, joined by newlines.
    public var text: String {
        content.compactMap(\.text).joined(separator: "\n")
    }
}
