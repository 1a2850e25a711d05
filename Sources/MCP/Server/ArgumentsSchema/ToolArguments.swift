/// A tool's arguments type that describes its own members for the derived input schema.
///
/// Any `Decodable & Sendable` type can be a typed tool's arguments, and
/// ``ToolArgumentsSchema`` derives its schema; conforming to `ToolArguments` adds what a
/// type cannot say by its shape alone, a description of each member for the model:
///
/// ```swift
/// struct Search: ToolArguments {
///     var query: String
///     var limit: Int?
///     var filter: Filter?
///
///     static let argumentDescriptions = [
///         "query": "Words to look for in the notes' titles and text",
///         "limit": "How many notes to return at most; 10 when left out",
///     ]
/// }
///
/// struct Filter: ToolArguments {
///     var folder: String
///     static let argumentDescriptions = ["folder": "Only notes in this folder"]
/// }
/// ```
///
/// Descriptions are keyed by the member's name in JSON (its coding key's string value), and a
/// nested type describes its own members the same way, wherever it is used: the descriptions
/// stay beside the members they describe, a type used by two tools is described once, and a
/// key that names no member (a typo, a renamed property) fails the derivation with
/// ``ToolArgumentsSchemaError/unknownMember`` instead of being dropped quietly.
///
/// What the tool does, its title and its description, is said where the tool is registered,
/// not here: one arguments type can serve two tools.
public protocol ToolArguments: Decodable, Sendable {
    /// Descriptions of the type's members, by their names in JSON. Empty by default.
    static var argumentDescriptions: [String: String] { get }
}

extension ToolArguments {
    /// No descriptions.
    public static var argumentDescriptions: [String: String] { [:] }
}
