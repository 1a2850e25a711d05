/// A tool of an untrusted server that is not bridged for what its definition says: a name,
/// property name, enum or const value, default or example that reads as orders to the model
/// or hides invisible characters (text the bridge cannot withhold without changing the tool).
///
/// `BridgedToolset` and `MCPSessionProvider` leave such a tool out and say why.
public struct UntrustedDefinitionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The tool's name on the server.
    public var tool: String
    /// The server's label.
    public var server: String
    /// What screening found in the values.
    public var findings: [DefinitionFinding]

    public init(tool: String, server: String, findings: [DefinitionFinding]) {
        self.tool = tool
        self.server = server
        self.findings = findings
    }

    /// `its definition reads as orders to the model (inputSchema/properties/scope/enum/1: …)`.
    public var reason: String {
        "its definition reads as orders to the model (\(findings.map(\.description).joined(separator: "; ")))"
    }

    public var description: String { "\(tool) on \(server): \(reason)" }
}
