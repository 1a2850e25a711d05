public import MCPCore

/// Why ``ToolArgumentsSchema`` could not derive a JSON Schema from a `Decodable` type.
///
/// The schema is derived by decoding the type with placeholder values and noting what its
/// `init(from:)` asks for. A type whose decoding depends on values the recorder cannot see,
/// or that the schema cannot describe faithfully, is refused with one of these errors rather
/// than given a wrong schema; such a tool is registered with an explicit `inputSchema`.
///
/// Match with `catch ToolArgumentsSchemaError.dependsOnValues` and the other static members;
/// ``location`` says where in the arguments the problem is and ``detail`` what it is
/// (``MCPCore/KindedError``).
public struct ToolArgumentsSchemaError: KindedError {
    public let kind: ErrorKind
    /// The arguments type the schema was derived for (empty in the static members used for matching).
    public private(set) var typeName: String
    /// Where in the arguments the problem is: an array's elements are at index `0`, a
    /// dictionary's values at `*`; the root is the type itself.
    public let location: JSONPointer
    /// What was wrong, and what to do about it, in a sentence or two.
    public let detail: String

    private init(_ kind: ErrorKind, at location: JSONPointer, _ detail: String) {
        self.kind = kind
        self.typeName = ""
        self.location = location
        self.detail = detail
    }

    /// The type's decoding depends on values the recorder cannot see: its `init(from:)` threw
    /// on a placeholder value, read different members for different placeholders (it branches
    /// on a value), or asked which keys the input has (`allKeys`, as enums with associated
    /// values do).
    public static let dependsOnValues = ToolArgumentsSchemaError(
        "dependsOnValues", at: JSONPointer(), "the type's decoding depends on the values it is given")
    /// The type decodes from a form the schema does not describe: a dictionary whose keys are
    /// neither strings, integers nor the cases of a `CodingKeyRepresentable & CaseIterable`
    /// type, `Decimal`, a recursion through a member that is not optional, an array or a
    /// dictionary, or an enum whose raw values are not strings or numbers.
    public static let unsupportedType = ToolArgumentsSchemaError(
        "unsupportedType", at: JSONPointer(), "the type decodes from a form the schema cannot describe")
    /// The type does not decode from a JSON object, and MCP tool arguments are always one.
    public static let notAnObject = ToolArgumentsSchemaError(
        "notAnObject", at: JSONPointer(), "the type does not decode from a JSON object")
    /// ``ToolArguments/argumentDescriptions`` names a member the type does not decode.
    public static let unknownMember = ToolArgumentsSchemaError(
        "unknownMember", at: JSONPointer(), "a description names a member the type does not have")
    /// The type nests deeper than ``ToolArgumentsSchema/maximumDepth`` types, or its
    /// schema would be too large to be useful to a model.
    public static let tooComplex = ToolArgumentsSchemaError(
        "tooComplex", at: JSONPointer(), "the type's schema is too deep or too large")

    static func dependsOnValues(at location: JSONPointer, _ detail: String) -> ToolArgumentsSchemaError {
        ToolArgumentsSchemaError(Self.dependsOnValues.kind, at: location, detail)
    }
    static func unsupportedType(at location: JSONPointer, _ detail: String) -> ToolArgumentsSchemaError {
        ToolArgumentsSchemaError(Self.unsupportedType.kind, at: location, detail)
    }
    static func notAnObject(_ detail: String) -> ToolArgumentsSchemaError {
        ToolArgumentsSchemaError(Self.notAnObject.kind, at: JSONPointer(), detail)
    }
    static func unknownMember(at location: JSONPointer, _ detail: String) -> ToolArgumentsSchemaError {
        ToolArgumentsSchemaError(Self.unknownMember.kind, at: location, detail)
    }
    static func tooComplex(at location: JSONPointer, _ detail: String) -> ToolArgumentsSchemaError {
        ToolArgumentsSchemaError(Self.tooComplex.kind, at: location, detail)
    }

    /// This error, saying which arguments type it is about.
    func about(_ typeName: String) -> ToolArgumentsSchemaError {
        var error = self
        error.typeName = typeName
        return error
    }

    /// The whole message: the type, the place, and the detail.
    public var description: String {
        let place = location.tokens.isEmpty ? "" : " at \(location)"
        let type = typeName.isEmpty ? "the type" : typeName
        return "Cannot derive an input schema from \(type)\(place): \(detail)"
    }
}
