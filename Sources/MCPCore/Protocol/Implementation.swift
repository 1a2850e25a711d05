/// The name and version of an MCP client or server (`clientInfo`, `serverInfo`).
public struct Implementation: Hashable, Sendable {
    /// A programmatic name, such as `"ondevice-mcp"`.
    public var name: String
    /// A version string, such as `"1.0.0"`.
    public var version: String
    /// A name for people to read.
    public var title: String?
    /// A sentence about what it is.
    public var description: String?
    /// Other members (`websiteUrl`, `icons`, …), kept as they came.
    public var otherFields: JSONObject

    public init(name: String, version: String, title: String? = nil, description: String? = nil) {
        self.name = name
        self.version = version
        self.title = title
        self.description = description
        self.otherFields = JSONObject()
    }

    /// Reads an implementation object; missing `name` or `version` become empty strings,
    /// since peers get this wrong and it is for display only.
    public init(json: JSONValue) {
        let object = json.objectValue ?? JSONObject()
        name = object["name"]?.stringValue ?? ""
        version = object["version"]?.stringValue ?? ""
        title = object["title"]?.stringValue
        description = object["description"]?.stringValue
        var others = object
        for key in ["name", "version", "title", "description"] { others[key] = nil }
        otherFields = others
    }

    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 4 + otherFields.count)
        object["name"] = .string(name)
        object["version"] = .string(version)
        if let title { object["title"] = .string(title) }
        if let description { object["description"] = .string(description) }
        for (key, value) in otherFields { object[key] = value }
        return .object(object)
    }
}
