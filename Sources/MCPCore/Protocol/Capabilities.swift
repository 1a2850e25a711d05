/// What an MCP server offers, as the `capabilities` object of `initialize` or `server/discover`.
///
/// The object is kept whole, as JSON: capability values are objects whose presence is
/// the signal, and real peers put arbitrary maps under `experimental` and `extensions`,
/// so nothing here can fail to decode or lose a field. Typed accessors read the parts
/// this library acts on.
public struct ServerCapabilities: Hashable, Sendable {
    /// The whole capabilities object.
    public var json: JSONObject

    public init(_ json: JSONObject = JSONObject()) {
        self.json = json
    }

    /// Reads capabilities from any JSON value; a non-object counts as none.
    public init(json: JSONValue) {
        self.json = json.objectValue ?? JSONObject()
    }

    /// Capabilities that offer tools, optionally announcing list changes.
    public static func tools(listChanged: Bool) -> ServerCapabilities {
        ServerCapabilities(["tools": ["listChanged": .bool(listChanged)]])
    }

    /// Whether the server offers tools.
    public var supportsTools: Bool { json["tools"] != nil }
    /// Whether the server announces changes to its tool list.
    public var toolsListChanged: Bool { json["tools"]?["listChanged"]?.boolValue ?? false }
    /// The `experimental` map, if any.
    public var experimental: JSONValue? { json["experimental"] }
    /// The `extensions` map (2026-07-28), if any.
    public var extensions: JSONValue? { json["extensions"] }
}

/// What an MCP client offers, as sent in `initialize` or the 2026-07-28 request envelope.
///
/// Kept whole as JSON for the same reasons as ``ServerCapabilities``.
public struct ClientCapabilities: Hashable, Sendable {
    /// The whole capabilities object.
    public var json: JSONObject

    public init(_ json: JSONObject = JSONObject()) {
        self.json = json
    }

    /// Reads capabilities from any JSON value; a non-object counts as none.
    public init(json: JSONValue) {
        self.json = json.objectValue ?? JSONObject()
    }

    /// Whether the client declared `roots`.
    public var supportsRoots: Bool { json["roots"] != nil }
    /// Whether the client declared `sampling`.
    public var supportsSampling: Bool { json["sampling"] != nil }
    /// Whether the client declared `elicitation`.
    public var supportsElicitation: Bool { json["elicitation"] != nil }
}
