public import MCP

/// Which tool a call is for, as exactly as the bridge knows it: the connection to its server,
/// the server's label, and the tool's definition as the server listed it.
///
/// A person's "allow for this session" holds for one identity: a tool whose definition
/// changed (a new description, schema or annotations after `tools/list_changed`), or a tool of
/// the same name on another connection, is a different tool and is asked about again.
public struct ToolIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The server's label.
    public let server: String
    /// The tool's definition as listed: name, title, description, input and output schemas
    /// and annotations, compared exactly (icons and `_meta` are left out: they do not change
    /// what the tool does or what the model reads).
    public let definition: MCPCore.ToolDefinition
    /// The connection to the server, by identity.
    let connection: ObjectIdentifier

    /// The identity of `definition`, listed by the server labelled `server` over `client`.
    package init(server: String, definition: MCPCore.ToolDefinition, client: MCPClient) {
        self.server = server
        var listed = definition
        listed.icons = nil
        listed.meta = nil
        self.definition = listed
        self.connection = ObjectIdentifier(client)
    }

    /// `notes_save on Notes`.
    public var description: String { "\(definition.name) on \(server)" }
}
