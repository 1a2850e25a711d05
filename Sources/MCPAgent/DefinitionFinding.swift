/// What screening found in one field of an untrusted tool's definition.
///
/// See ``UntrustedText/definitionFindings(of:otherTools:)``.
public struct DefinitionFinding: Hashable, Sendable, CustomStringConvertible {
    /// Where: `name`, `title`, `description`, `annotations/title`, or a JSON Pointer into the
    /// input schema (`inputSchema/properties/scope/enum/1`).
    public var field: String
    /// What the text reads as (``UntrustedText/Finding/kind``), or `invisible characters`.
    public var finding: UntrustedText.Finding
    /// Whether the field is part of what the server checks arguments against (an enum or
    /// const value, a default, an example, a property's name): text the bridge cannot
    /// withhold from the model without changing the tool, so the tool is left out instead.
    public var isValue: Bool

    public init(field: String, finding: UntrustedText.Finding, isValue: Bool) {
        self.field = field
        self.finding = finding
        self.isValue = isValue
    }

    /// `inputSchema/properties/scope/enum/1: overrides earlier instructions ("ignore … instructions")`.
    public var description: String { "\(field): \(finding)" }
}
