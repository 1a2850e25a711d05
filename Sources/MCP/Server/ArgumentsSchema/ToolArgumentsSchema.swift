public import MCPCore

/// The JSON Schema of a tool's arguments, derived from their `Decodable` type.
///
/// ```swift
/// struct Search: ToolArguments {
///     var query: String
///     var limit: Int?
///     static let argumentDescriptions = ["query": "Words to look for"]
/// }
///
/// let schema = try ToolArgumentsSchema(for: Search.self)
/// print(schema.json)
/// // {"type":"object","properties":{"query":{"type":"string","description":"Words to look for"},
/// //  "limit":{"type":["integer","null"]}},"required":["query"]}
/// ```
///
/// ``MCPServer/register(name:title:description:outputSchema:annotations:concurrency:run:)``
/// and ``MCPTool/init(name:title:description:outputSchema:annotations:concurrency:run:)`` use it
/// for typed tools registered without an `inputSchema`; use it directly to print or test the
/// schema a type gets.
///
/// ## How it is derived
///
/// The type's `init(from:)` runs against a decoder that records what it is asked instead of
/// reading input: a keyed container becomes an `object` whose members are its `properties`
/// (those read with `decode` are `required`; `decodeIfPresent`, and so an `Optional`
/// property, gives an optional member that also accepts `null`, as ``JSONCore/JSONValueDecoder``
/// does), an unkeyed container an `array`, a single-value container the value itself. The
/// recorder answers with placeholder values, and it decodes the type at least twice with
/// different ones (`"a"` then `"b"`, `1` then `2`, `false` then `true`, an optional present
/// then missing, each case of an enum in turn, up to 64 rounds): a decoding that reads
/// other members for other values branches on values the recorder cannot see, and is
/// refused.
///
/// | Swift | Schema |
/// |---|---|
/// | `String` | `{"type": "string"}` |
/// | `Bool` | `{"type": "boolean"}` |
/// | `Int`, `Int64`, `Int128` | `{"type": "integer"}` |
/// | `Int8`, `Int16`, `Int32`, `UInt8`, `UInt16`, `UInt32` | `integer` with the type's `minimum` and `maximum` |
/// | `UInt`, `UInt64`, `UInt128` | `integer` with `minimum` 0 |
/// | `Double`, `Float` | `{"type": "number"}` (a `Float` out of range fails decoding) |
/// | `T?` member (`decodeIfPresent`) | `T` or `null`, not `required` |
/// | `[T]`, `Set<T>` | `array` with `items` |
/// | `[String: T]` | `object` with `additionalProperties` |
/// | `[Int: T]` | the same, with `propertyNames` an integer `pattern` |
/// | `[K: T]`, `K` `CodingKeyRepresentable & CaseIterable` | the same, with `propertyNames` an `enum` of the keys |
/// | `enum E: String, CaseIterable` (or `Int`) | `enum` of the raw values |
/// | `Date` | `number`: seconds since 2001-01-01T00:00:00Z, as ``JSONCore/JSONValueDecoder`` reads it |
/// | `URL` | `string`, `format` `uri` |
/// | `UUID` | `string`, `format` `uuid` |
/// | `Data` | `string`, `contentEncoding` `base64` |
/// | `JSONValue`, `JSONObject`, `[JSONValue]` | any value, any `object`, any `array` |
/// | a struct or class with its own `init(from:)` | what that `init(from:)` reads |
/// | a type that decodes from a tuple-like array without checking `isAtEnd` | `array` with `prefixItems` |
/// | a recursive type | described to ``recursionLevels`` levels, then any value (see ``notes``) |
///
/// Refused with a ``ToolArgumentsSchemaError`` (register such a tool with an explicit
/// `inputSchema`):
///
/// - a decoding that throws on a placeholder value (it checks values: `guard limit > 0`, a
///   `RawRepresentable` enum that is not `CaseIterable`), or reads different members for
///   different placeholders (it branches on a value), or asks for `allKeys` (enums with
///   associated values, dictionary-like types): ``ToolArgumentsSchemaError/dependsOnValues``;
/// - `Decimal`, dictionaries keyed by other types, enums whose raw values are not strings or
///   numbers, recursion through a member that is not optional, an array or a dictionary:
///   ``ToolArgumentsSchemaError/unsupportedType``;
/// - a type that does not decode from an object: ``ToolArgumentsSchemaError/notAnObject``.
///
/// What the recorder cannot notice: a decoding that tries one shape and, when the real
/// decoder throws, falls back to another (`try?` on a container) is described by its first
/// shape; one that compares a string or a number to a value other than the placeholders
/// (`if kind == "circle"`) is described by the branch the placeholders take. Such types need
/// an explicit `inputSchema` too. The schema does not set `additionalProperties`: unknown
/// members are ignored by decoding, as they are by ``JSONCore/JSONValueDecoder``.
public struct ToolArgumentsSchema: Hashable, Sendable {
    /// The schema, for a tool's `inputSchema`.
    public let json: JSONValue
    /// What the schema leaves for decoding to check, one sentence each (a recursive type's
    /// levels below ``recursionLevels``); empty for most types.
    public let notes: [String]

    /// How many levels of a recursive type the schema describes; below them it accepts any
    /// value, which decoding then checks.
    public static let recursionLevels = 3
    /// How many types deep the arguments may nest (counting each level of recursion).
    public static let maximumDepth = 32
    /// At most how many times the type is decoded: twice, or once per case of its largest enum.
    static let maximumRounds = 64

    /// Derives the schema of `type`.
    ///
    /// - Throws: ``ToolArgumentsSchemaError`` when the type's decoding depends on values the
    ///   recorder cannot see, decodes from a form the schema cannot describe, does not decode
    ///   from an object, or its descriptions name a member it does not have.
    public init<Arguments: Decodable>(for type: Arguments.Type) throws(ToolArgumentsSchemaError) {
        let name = String(describing: Arguments.self)
        do {
            var agreed = RecordedShape.unobserved
            var rounds = 2
            var round = 0
            while round < rounds {
                let recorder = SchemaRecorder(round: round)
                let root = ShapeNode(path: [])
                _ = try recorder.record(Arguments.self, into: root, codingPath: [])
                let shape = try root.freeze()
                agreed = round == 0 ? shape : try agreed.agreeing(with: shape, at: [])
                rounds = max(rounds, min(recorder.largestCaseCount, Self.maximumRounds))
                round += 1
            }
            if case .nullable(let shape) = agreed {
                agreed = shape
            }
            switch agreed {
            case .object, .map:
                let (schema, notes) = agreed.schema(levels: Self.recursionLevels)
                json = schema
                self.notes = notes
            case .unobserved:
                json = ["type": "object"]
                notes = []
            default:
                throw ToolArgumentsSchemaError.notAnObject(
                    "it decodes as \(agreed.summary), and a tool's arguments are always a JSON object. Put it in a struct as a member, or register the tool with an explicit inputSchema."
                )
            }
        } catch let error as ToolArgumentsSchemaError {
            throw error.about(name)
        } catch {
            throw ToolArgumentsSchemaError.dependsOnValues(
                at: JSONPointer(), "decoding it failed: \(error). Register the tool with an explicit inputSchema."
            ).about(name)
        }
    }
}
