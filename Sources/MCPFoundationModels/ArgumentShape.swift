internal import MCPCore

#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// The shape of a tool's arguments as the bridge lowered it: a value-type mirror of the
/// `DynamicGenerationSchema` it emits (which is opaque), kept so that the model's
/// `GeneratedContent` can be turned back into JSON with the right types.
indirect enum ArgumentShape: Sendable, Hashable {
    /// An object with declared properties (a named node).
    case object(ObjectShape)
    /// A string, optionally pinned to one value or constrained by a pattern (the guide's
    /// whole-string pattern, not the schema's; see ``WholeStringPattern``).
    case string(constant: String?, pattern: String?)
    /// One of a list of strings (a named node).
    case stringChoices(name: String, description: String?, choices: [String])
    /// An integer with optional inclusive bounds.
    case integer(minimum: Int?, maximum: Int?)
    /// A number with optional inclusive bounds.
    case number(minimum: Double?, maximum: Double?)
    /// `true` or `false`.
    case boolean
    /// A list with optional element counts.
    case array(item: ArgumentShape, minimum: Int?, maximum: Int?)
    /// One of several shapes (a named node).
    case choice(name: String, description: String?, choices: [ArgumentShape])
    /// A named shape in the schema's dependencies.
    case reference(String)

    /// The name of the node, for the shapes that generation schemas name.
    var name: String? {
        switch self {
        case .object(let object): object.name
        case .stringChoices(let name, _, _), .choice(let name, _, _): name
        default: nil
        }
    }

    /// Whether this shape or one inside it is a named node.
    var containsNamedNode: Bool {
        switch self {
        case .object, .stringChoices, .choice: true
        case .array(let item, _, _): item.containsNamedNode
        case .string, .integer, .number, .boolean, .reference: false
        }
    }

    /// The same shape with `description` on its node, where the node can carry one.
    func describing(_ description: String?) -> ArgumentShape {
        guard let description else { return self }
        switch self {
        case .object(var object):
            object.description = description
            return .object(object)
        case .stringChoices(let name, _, let choices):
            return .stringChoices(name: name, description: description, choices: choices)
        case .choice(let name, _, let choices):
            return .choice(name: name, description: description, choices: choices)
        default:
            return self
        }
    }
}

/// An object's name, description and properties, in declared order.
struct ObjectShape: Sendable, Hashable {
    var name: String
    var description: String?
    var properties: [PropertyShape]
}

/// One property of an object.
struct PropertyShape: Sendable, Hashable {
    var name: String
    var description: String?
    var shape: ArgumentShape
    /// The model may leave it out (not required, or nullable).
    var isOptional: Bool
    /// The input schema allows `null` for it.
    var isNullable: Bool
    /// The input schema requires it (so a nullable one left out is sent as `null`).
    var isRequired: Bool
}
